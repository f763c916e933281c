# Board-and-page bench: a lay between a simulated board at a table (through `crib play`) and a page's seat.
"""Usage: python -m bench.bench_play [--lays N] [--tree DIR]

A simulated board (the real firmware, `python -m sim --fast`, its own --data and link port) takes seat 0
of a table on a `crib serve --tables` process through `crib play`; its player keys the throw and the lays
on the sim's keys (tests/support/boardplayer.py). Seat 1 is a page's seat, scripted over HTTP as the page
does it: its long poll always waiting, its moves POSTed at once. Two times, on loopback, over as many
games as it takes for --lays lays each way (default 200):

1. page to board, shown: from a lay's POST on the page's seat to the board showing it, read from the
   sim's own drawing of its LED frames and display (tests/support/simscreen.py) as it comes off the
   sim's pipe: a lay that pegs points, the LED frame with the other seat's front peg in the hole it
   pegged to (what a person sees move); a lay that pegs nothing (no peg moves), the display frame that
   shows the card ("Bob 5H", the count's cards);
2. page to board, journaled: the same lays to the lay journaled on the board as the other seat's (its
   event pushed on the board's hub), the figure this bench gave before it read the frames;
3. board to page: from the lay's keys typed on the board to the page's waiting long poll answering with
   it (what the page draws).

All include the board's link, the bridge and the server. The goal is 300 ms, median and worst. The sim
runs --fast: its idle waits are skipped, so the frame task's next tick (every 20 ms on a board, App.frame_ms)
comes at once here; a board adds up to that and the LED chain's write.
Every loop is bounded in count and time; every socket is on 127.0.0.1.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time

import httpx
import tableseats
from boardplayer import DrawnSim, Player, Watcher
from simscreen import DrawnBoard
from tableserve import end, start, stop

from board.boarddef import boardfile
from board.settings import tracks_for
from crib.tables import fairdeal
from crib.tables.bridge import acts_of
from crib.tables.record import board_name
from cribbage.cards import format_card, parse_card
from cribbage.play import Play
from sim import term

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL_S = 0.300
BOARD = boardfile.load(os.path.join(_ROOT, "hardware", "board.json"))  # the sim's board (its default)
GAME_S = 300
GAMES = 20


class PageSeat:
    """Seat 1 as the page holds it: a long poll always waiting (in a thread: each answer kept with the time
    it came), its moves POSTed with the next seq as soon as it is awaited."""

    def __init__(self, url, code, name):
        self.url, self.code = url, code
        self.http = httpx.Client(timeout=30)
        got = self.http.post("%s/api/tables/%s/join" % (url, code), json={"name": name}).json()
        self.seat = got["seat"]
        self.http.headers["authorization"] = "Bearer " + got["token"]
        self.share = fairdeal.new_share()
        self.rng = random.Random(7)
        self.polled = []  # (time.monotonic(), view): each answer of the long poll
        self.laid = []  # (time.monotonic() before the POST, card, the view it was laid on)
        self.latest = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _poll(self):
        http = httpx.Client(timeout=30, headers=dict(self.http.headers))
        n = -1
        while not self._stop.is_set():
            try:
                r = http.get("%s/api/tables/%s/seat" % (self.url, self.code), params={"after": n})
            except httpx.TransportError:
                return
            if r.status_code == 429:
                time.sleep(0.25)
                continue
            v = r.json()
            self.polled.append((time.monotonic(), v))
            self.latest, n = v, v["n"]
            if v["phase"] == "over":
                return
        http.close()

    def step(self):
        """Send the seat's move if the newest view awaits one; -> the newest view."""
        v = self.latest
        if v is None or v["phase"] == "over" or self.seat not in v["awaited"]:
            return v
        move = tableseats.choose(v, self.share, self.rng)
        t0 = time.monotonic()
        r = self.http.post(
            "%s/api/tables/%s/moves" % (self.url, self.code), json={"seq": v["seq"] + 1, "move": move}
        )
        if r.status_code == 200:
            if move["t"] == "lay":
                self.laid.append((t0, move["card"], v))
            got = r.json()["view"]
            if got["n"] > self.latest["n"]:
                self.latest = got
        return self.latest

    def close(self):
        self._stop.set()
        self.http.close()
        self._thread.join(25)


def _keyed(sim):
    """Keep the time of each lay typed on the sim's keys: a card's two keys, no OK (the throw ends in one)."""
    typed = []
    plain = sim.type

    def timed(text):
        if len(text) == 2 and "\r" not in text:
            typed.append((time.monotonic(), parse_card(text.upper())))
        plain(text)

    sim.type = timed
    return typed


def _board_lays(watcher):
    """The board's journaled lays: (time heard, deal, player (0 the board's, 1 the other seat), card)."""
    deal, out = 0, []
    for t, _seq, ev in watcher.heard:
        if ev.get("t") == "hand" and ev.get("p") == 0:
            deal += 1
        elif ev.get("t") == "lay":
            out.append((t, deal, ev["p"], ev["c"]))
    return out


def _drawn_at(polled, t0, deal, card):
    """When the page's long poll first answered with the board's lay `card` of `deal` (in the play's lays,
    or in the show's if the play ended with it)."""
    for t, v in polled:
        if t < t0:
            continue
        if v["deal"] == deal and [0, card] in v["laid"]:
            return t
        if any(s["deal"] == deal and [0, card] in s["laid"] for s in v["shows"]):
            return t
    return None


def lay_points(v, seat, card):
    """The points `seat`'s lay of `card` pegs on view `v` (the one it was laid on): the play's acts so far
    (the lays, the goes the table said) through the core's Play, then the lay. The board pegs the same,
    as it applies the lay through the same Play."""
    play = Play(seats=2, leader=1 - v["dealer"], cards_each=4)
    for s, c in acts_of(v["dealer"], v["laid"], v["awaited"][0], v["count"]):
        if c < 0:
            play.go(s)
        else:
            play.lay(s, c)
    return sum(p for s, _why, p in play.lay(seat, card) if s == seat)


def plays(views):
    """Each deal's whole play as the page's seat was shown it: {deal: acts}, acts in table seats (a card,
    or -1 for a go the table said), from each deal's show (or the last view's lays, a game over in play)."""
    out = {}
    for v in views:
        for show in v["shows"]:
            out[show["deal"]] = acts_of(show["dealer"], show["laid"])
        if v["phase"] == "over" and v["deal"] not in out and v.get("dealer") is not None:
            out[v["deal"]] = acts_of(v["dealer"], v["laid"])
    return out


def told(names, acts, k):
    """The board's words for act k of a play and for the acts the table sent on with it (that seat's next
    lays and the goes said, up to the board's player's next lay): "Bob 5H", "Ann go". A bridge that has
    them all at once sends them in one step, and the board draws the last one's frame only."""
    seat = acts[k][0]
    out = []
    for s, c in acts[k:]:
        if s != seat and c >= 0:
            break
        out.append("%s %s" % (names[s], format_card(c) if c >= 0 else "go"))
    return out


def shown_at(drawn, t0, hole, track, words):
    """When the board first drew, after t0, the other seat's lay: with `hole` (the points it pegged took
    its front peg there), the LED frame with that hole of `track` lit (121: the game hole); without, the
    display frame whose news row says it, or an act sent on with it (`words`, told()'s), drawn anew;
    -> (the time or None, "pegs", "card" or "after": the frame of an act sent on with it)."""
    if hole:
        want = (term.KIND_GAME, 121) if hole >= 121 else (term.KIND_TRACK, hole)
        for t, kind, side, h in list(drawn.lit):
            if t >= t0 and (kind, h) == want and (kind == term.KIND_GAME or side == track):
                return t, "pegs"
        return None, "pegs"
    before = []
    for t, rows in list(drawn.shown):
        new = [row for row in rows if row not in before]
        if t < t0:
            before = rows
            continue
        said = [w for w in words if any(row == w or row.startswith(w + " ") for row in new)]
        if said:
            return t, "card" if words[0] in said else "after"
    return None, "card"


def game(tmp, k, url, to_board, to_page, shown):
    """One game of the board against the page's seat; the lays' times appended to the lists (`shown`:
    (seconds, how: shown_at's))."""
    history = os.path.join(tmp, "history.sqlite3")
    drawn = DrawnBoard(BOARD)
    sim = DrawnSim(os.path.join(tmp, "board-%d" % k), drawn=drawn)
    player = watcher = bridge = page = None
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(tmp, "data"))
    try:
        made = httpx.post(url + "/api/tables", json={}).json()
        code = made["code"]
        player, watcher = Player(sim), Watcher(sim)
        keyed = _keyed(sim)
        args = ["play", code, "--server", url, "--port", sim.url, "--name", "Ann", "--db", history]
        bridge = _crib_play(args, env)
        deadline = time.monotonic() + 30
        while httpx.get("%s/api/tables/%s" % (url, code)).json()["seats"][0] is None:
            if time.monotonic() > deadline or bridge.poll() is not None:
                raise SystemExit("crib play did not take the seat: %s" % bridge.communicate()[0])
            time.sleep(0.05)
        page = PageSeat(url, code, "Bob")
        deadline = time.monotonic() + GAME_S
        while bridge.poll() is None:
            if time.monotonic() > deadline:
                raise SystemExit("the game did not end")
            player.step()
            page.step()
            time.sleep(0.005)
        out = bridge.communicate()[0]
        if bridge.returncode != 0:
            raise SystemExit("crib play failed: %s" % out)
        journal = _board_lays(watcher)
        # Page to board: each POSTed lay to the first journaled lay of that card by the other seat after it.
        theirs = [(t, c) for t, _d, p, c in journal if p == 1]
        for t0, card, _v in page.laid:
            t1 = next((t for t, c in theirs if c == card and t >= t0), None)
            if t1 is not None:
                to_board.append(t1 - t0)
        # Page to board, shown: the page's seat is the board's other player, pegging on its second track.
        track = tracks_for(2, 0, BOARD.sides)[1]
        views = [v for _t, v in page.polled]
        names = [board_name(n, s) for s, n in enumerate(views[-1]["names"])]
        acts = plays(views)
        for t0, card, v in page.laid:
            points = lay_points(v, page.seat, card)
            hole = v["scores"][page.seat] + points if points else None
            play = acts[v["deal"]]
            words = told(names, play, play.index([page.seat, card]))
            t1, how = shown_at(drawn, t0, hole, track, words)
            shown.append((None if t1 is None else t1 - t0, how))
        # Board to page: the i-th lay typed is the board player's i-th journaled lay (the player waits for
        # each); its deal says which of the page's views hold it.
        mine = [(d, c) for _t, d, p, c in journal if p == 0]
        for (t0, card), (deal, c) in zip(keyed, mine, strict=False):
            if c != card:
                raise SystemExit("the board journaled %d where %d was typed" % (c, card))
            t1 = _drawn_at(page.polled, t0, deal, card)
            if t1 is not None:
                to_page.append(t1 - t0)
        return out
    finally:
        for done in (page, watcher, player):
            if done is not None:
                done.close()
        end(bridge)
        sim.kill()


def _crib_play(args, env):
    import subprocess

    paths = [os.path.join(_ROOT, "host_tools"), os.path.join(_ROOT, "firmware")]
    env = dict(env, PYTHONPATH=os.pathsep.join(paths))
    return subprocess.Popen(
        [sys.executable, "-c", "from crib.cli import main; main()"] + args,
        cwd=_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def ms(xs):
    return "median %.0f ms, worst %.0f ms" % (1000 * statistics.median(xs), 1000 * max(xs))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--lays", type=int, default=200)
    ap.add_argument("--tree", default=_ROOT)
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="bench-play-")
    from crib.store import db

    db.connect(os.path.join(tmp, "history.sqlite3")).close()
    db.connect(os.path.join(tmp, "club.sqlite3")).close()
    server, url = start(os.path.join(tmp, "club.sqlite3"), os.path.join(tmp, "tables.sqlite3"), args.tree)
    to_board, to_page, shown = [], [], []
    games = 0
    t0 = time.monotonic()
    try:
        while min(len(to_board), len(to_page), len(shown)) < args.lays and games < GAMES:
            game(tmp, games, url, to_board, to_page, shown)
            games += 1
    finally:
        stop(server)
    to_board, to_page, shown = to_board[: args.lays], to_page[: args.lays], shown[: args.lays]
    print(
        "%d games of a simulated board through crib play against a page's seat, %.0f s"
        % (games, time.monotonic() - t0)
    )
    seen = [dt for dt, _what in shown if dt is not None]
    print(
        "page to board, shown: a lay POSTed on the page's seat until the board draws it, %d lays: %s"
        % (len(seen), ms(seen))
    )
    for what, words in (
        ("pegs", "that pegged points, to the LED frame with its peg in the hole it pegged to"),
        ("card", 'that pegged nothing (no peg moves), to the display frame saying it ("Bob 5H")'),
        ("after", "that pegged nothing, drawn only in the frame of the table's next act sent with it"),
    ):
        xs = [dt for dt, w in shown if w == what and dt is not None]
        print("  %d lays %s: %s" % (len(xs), words, ms(xs) if xs else "none"))
    if len(seen) < len(shown):
        print("NOT SEEN: %d of %d lays were never drawn on the board" % (len(shown) - len(seen), len(shown)))
    for what, xs in (
        ("page to board, journaled: the same lays until journaled on the board (its event push)", to_board),
        ("board to page: a lay keyed on the board until the page's long poll answers with it", to_page),
    ):
        print("%s, %d lays: %s" % (what, len(xs), ms(xs)))
    for what, xs in (("page to board, shown", seen), ("board to page", to_page)):
        if statistics.median(xs) > GOAL_S or max(xs) > GOAL_S:
            print("GOAL MISSED: %s later than %d ms" % (what, 1000 * GOAL_S))


if __name__ == "__main__":
    main()
