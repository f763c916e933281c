"""A board's seat at a table: the laptop's bridge (`crib play CODE --server URL`, docs/remote.md).

The seat's view (the server's, over HTTP) and the board's `table` state (over the link) are two accounts of
one game; each lacks what the other side has done since they last met. The decision part is two pure
functions, so it is tested without a server or a board:

- board_moves(view, board): the `table` moves (docs/protocol.md) the board lacks of what the view shows:
  the player's six and the dealer at each deal, the starter, the other seat's lays and the goes the table
  said, the other seat's kept cards and the crib at the show;
- seat_moves(view, board, throws, share): the seat's moves the server lacks of what the board's player
  keyed (its share first, the throw, the lays).

Each is recomputed from both sides whenever either moves, so a bridge that reconnects (the laptop asleep,
the board unplugged, the server restarted) sends each side only what it lacks, and a move sent twice (an
answer lost) is taken once on both: the board answers `replayed`, the server too (same seq, same move).

The server holds the hands, so it says every go itself and shows only the lays; the goes between them are
found again here by playing the lays through the core's own Play (acts_of): the seat to lay that did not
lay next, or whose card would not fit, said go.

Bridge (below) is the loop that does the talking, its HTTP and link given to it (crib/cli/serve.py).
"""

import hashlib
import json
import os
import queue
import threading
import time
from typing import Any

from crib import untrusted
from crib.store import db
from crib.tables.record import board_name
from cribbage.cards import pip
from cribbage.errors import CribError
from cribbage.play import Play

TAG_MAX = 0x3FFFFFFF  # a table match's tag: 0 .. 2**30 - 1 (cribbage.solo.TOP)


class BridgeError(Exception):
    """The two sides do not tell the same game, or one refuses for good: the bridge stops and says why."""


def tag_of(code, seat):
    """The board's tag for a seat at a table (crib.store.db.table_tag): the same for the same seat, so a
    restarted bridge finds its match on the board (and another table's match is not taken for it)."""
    return db.table_tag(code, seat)


def acts_of(dealer, laid, turn=None, count=None, end_go=False):
    """The play's acts in table seats, [[seat, card or -1], ...]: the lays `laid` ([seat, card] in order)
    with the goes the table said between them. With `turn` and `count` (a play under way: the seat the
    table waits for and the running count) the goes said since the last lay too; with `end_go` (the game
    ended on a go's point) the goes that gave it."""
    play = Play(seats=2, leader=1 - dealer, cards_each=4)
    acts = []
    last = []

    def go():
        s = play.turn
        try:
            last[:] = play.go(s)
        except CribError as e:
            raise BridgeError("the table's play does not add up: %s" % e) from None
        acts.append([s, -1])

    try:
        for seat, card in laid:
            for _ in range(3):
                if play.turn == seat and play.count + pip(card) <= 31:
                    break
                go()
            last[:] = play.lay(seat, card)
            acts.append([seat, card])
        if turn is not None:
            for _ in range(3):
                if play.over or play.turn == turn and play.count == count:
                    break
                go()
        if end_go:
            for _ in range(2):
                if play.over or any(why == "go" for _s, why, _p in last):
                    break
                go()
    except CribError as e:
        raise BridgeError("the table's play does not add up: %s" % e) from None
    return acts


def _deals(view):
    """The deals of the view the board may lack, oldest first: the last finished one (its show) and the
    one under way."""
    out = []
    shows = view.get("shows") or []
    show = shows[-1] if shows else None
    if show is not None:
        out.append(
            {
                "deal": show["deal"],
                "dealer": show["dealer"],
                "dealt": None,
                "starter": show["starter"],
                "acts": acts_of(show["dealer"], show["laid"]),
                "show": show,
            }
        )
    d = view.get("deal") or 0
    if d and view.get("dealer") is not None and (show is None or d > show["deal"]):
        turn = count = None
        if view["phase"] == "play" and view.get("awaited"):
            turn, count = view["awaited"][0], view["count"]
        pegs = view.get("pegs") or []
        end_go = view["phase"] == "over" and bool(pegs) and pegs[-1][0] == d and pegs[-1][3] == "go"
        acts = acts_of(view["dealer"], view.get("laid") or [], turn, count, end_go)
        out.append(
            {
                "deal": d,
                "dealer": view["dealer"],
                "dealt": list(view.get("dealt") or []) or None,
                "starter": view.get("starter"),
                "acts": acts,
                "show": None,
            }
        )
    return out


def board_moves(view, board):
    """The `table` moves the board lacks of what the seat's `view` shows, in order. `board` is the board's
    `state` (its "table", "phase", "match_over"). The list stops where the board must move first: its
    player's throw or lay (keyed on the board), or its counts of the last show (before the next deal's
    hand)."""
    t = board.get("table") if board else None
    if not t or board.get("match_over") or board.get("game_over"):
        return []
    seat = view["seat"]
    other = 1 - seat

    def you(s):  # a table's seat as the board numbers it: its player 0, the other seat 1
        return 0 if s == seat else 1

    has = {
        "deal": t["deal"],
        "hand": t["hand"],
        "thrown": t["thrown"],
        "starter": t["starter"],
        "acts": [list(a) for a in t["acts"]],
        "shown": t["shown"],
    }
    phase = board.get("phase")
    out = []
    for deal in _deals(view):
        d = deal["deal"]
        if d < has["deal"]:
            continue
        if d > has["deal"]:
            if deal["dealt"] is None:
                return out  # (a deal the table finished was played on the board: never)
            if has["deal"] and (d != has["deal"] + 1 or not has["shown"] or phase != "deal" or out):
                return out  # the board counts the last show first
            has = {"deal": d, "hand": False, "thrown": False, "starter": None, "acts": [], "shown": False}
        if not has["hand"]:
            if deal["dealt"] is None:
                return out
            out.append({"t": "hand", "deal": d, "dealer": you(deal["dealer"]), "cards": deal["dealt"]})
            has["hand"] = True
        if deal["starter"] is None:
            return out
        if has["starter"] is None:
            if not has["thrown"]:
                return out  # the player throws on the board first
            out.append({"t": "starter", "deal": d, "c": deal["starter"]})
            has["starter"] = deal["starter"]
        acts = [[you(s), c] for s, c in deal["acts"]]
        for k in range(len(has["acts"]), len(acts)):
            p, c = acts[k]
            if c >= 0 and p == 0:
                return out  # the player's lay: keyed on the board
            if c >= 0:
                out.append({"t": "lay", "deal": d, "at": k, "c": c})
            else:
                out.append({"t": "go", "deal": d, "at": k, "p": p})
            has["acts"].append(acts[k])
        show = deal["show"]
        if show is not None and not has["shown"]:
            out.append(
                {"t": "show", "deal": d, "hand": list(show["kept"][other]), "crib": list(show["crib"])}
            )
            has["shown"] = True
    return out


def seat_moves(view, board, throws, share):
    """The seat's moves the server lacks of what the board's player keyed, in order (each sent under the
    seat's next seq, view["seq"] + 1): its share, the throw (places `throws[deal]` in the six the bridge
    sent), the lays (the player's acts on the board)."""
    if view["phase"] == "over":
        return []
    if not view.get("share_in"):
        return [{"t": "share", "share": share}]
    t = board.get("table") if board else None
    if not t or t["deal"] != view.get("deal") or not t["hand"]:
        return []
    seat = view["seat"]
    if view["phase"] == "discard" and not view.get("thrown") and t["thrown"]:
        places = throws.get(view["deal"])
        if places is None:
            return []  # the board's throw event not followed yet
        return [{"t": "discard", "cards": [view["dealt"][i] for i in places]}]
    if view["phase"] == "play":
        keyed = [c for p, c in t["acts"] if p == 0 and c >= 0]
        told = [c for s, c in view.get("laid") or [] if s == seat]
        if keyed[: len(told)] != told:
            raise BridgeError("the board's player laid %s, the table has %s" % (keyed, told))
        return [{"t": "lay", "card": c} for c in keyed[len(told) :]]
    return []


class BoardLog:
    """What the bridge follows of the board's events (`subscribe`): the player's throw at each deal of the
    table match with this tag, by places in the six (the throw is not in `state`)."""

    def __init__(self, tag):
        self.tag = tag
        self.on = False
        self.had = False  # the board took this tag's match (since the seq the bridge follows from)
        self.deal = 0
        self.throws = {}
        self.last = -1

    def feed(self, seq, ev):
        if seq <= self.last:
            return
        self.last = seq
        t = ev.get("t")
        if t == "setup":
            solo = ev.get("solo")
            self.on = isinstance(solo, list) and solo[:2] == ["table", self.tag]
            self.had = self.had or self.on
            self.deal = 0
            self.throws = {}
        elif not self.on:
            return
        elif t == "hand" and ev.get("p") == 0:
            self.deal += 1
        elif t == "throw" and ev.get("p") == 0:
            self.throws[self.deal] = list(ev.get("i") or [])


# ---- the loop: the seat's view and the board's events at once -------------------------------------------


class SeatState:
    """The seat kept on disk (a small JSON file in the user's data folder), so a restarted bridge takes the
    same seat back: the server, the code, the seat, its token and share, its seq, the board's tag and the
    seq its events are followed from; the views the seat received beside it (a JSON line each), for the
    history's proof at the end."""

    def __init__(self, path):
        self.path = path
        self.views_path = _views_path(path)
        self.data = {}
        if os.path.exists(path):
            with open(path) as f:
                self.data = json.load(f)

    def save(self, **changes):
        self.data.update(changes)
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        tmp = self.path + ".tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # a token: the seat's own
        with os.fdopen(fd, "w") as f:
            json.dump(self.data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def views(self):
        out = []
        if os.path.exists(self.views_path):
            with open(self.views_path) as f:
                for line in f:
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass  # a line cut by a power cut: the views after it are the ones that count
        return out

    def keep_view(self, view):
        with open(self.views_path, "a") as f:
            f.write(json.dumps(view, separators=(",", ":")) + "\n")


def _views_path(path):
    return path[: -len(".json")] + ".views.jsonl" if path.endswith(".json") else path + ".views"


def state_path(folder, server, code, board=None):
    """Where board `board`'s seat at table `code` on `server` is kept, in `folder` (the user's data folder's
    tables/): one file a board (its chip's id, hello's `board`), so two boards on one laptop at one table
    hold two seats. Without `board`: the file of a crib play from before boards were told apart."""
    host = hashlib.sha256(server.encode()).hexdigest()[:8]
    if board is None:
        return os.path.join(folder, "play-%s-%s.json" % (code, host))
    return os.path.join(folder, "play-%s-%s-%s.json" % (code, host, untrusted.board_id(board).lower()))


def open_seat(folder, server, code, board, holds=None):
    """Board `board`'s SeatState at table `code`. `holds` is the tag of the table match the board holds
    (None: none). A seat file from before boards were told apart (one a table, whichever board) is taken
    over, renamed with its views, by the board that holds its match, or by a board that holds no match of
    this table (a seat taken whose match was not begun on the board): never by a board holding the other
    seat's match, which is another board's seat."""
    path = state_path(folder, server, code, board)
    old = SeatState(state_path(folder, server, code))
    ours = holds is None or holds not in (tag_of(code, 0), tag_of(code, 1)) or holds == old.data.get("tag")
    if not os.path.exists(path) and old.data.get("token") and ours:
        try:
            os.rename(old.path, path)  # the claim: of two crib plays at once, one renames it
        except FileNotFoundError:
            return SeatState(path)  # the other took it over first: this board takes a seat of its own
        try:
            os.rename(old.views_path, _views_path(path))
        except FileNotFoundError:
            pass  # no views kept yet
    return SeatState(path)


class Unreachable(Exception):
    """The server did not answer (it may come back): the bridge tries again."""


class Refusal(Exception):
    """The server refused with a status: 429 is waited out, the others stop the bridge."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Bridge:
    """The board's seat: `http` is the server's API (join, view, move, record: Unreachable or Refusal on
    failure), `connect()` a connected link client (crib.link.client.LinkClient: its `hello` says the
    board's id), `seat_for(board, holds)` the SeatState of that board (holds: the tag of the table match
    it holds, or None; open_seat), `name` the name to join with (None: the seat's saved one), `say(text)`
    tells the player. The board is reached first: its id says which seat is its."""

    POLL_RETRY = 1.0  # seconds between tries while the server or the board is away
    HEARTBEAT = 2.0  # both sides read again this often, whatever was heard
    OVER_STEPS = 30  # steps the game's end is offered to a board that does not take it (its counts first)
    WAIT = 0.02  # the loop's wait for the board's pushes: a view the poll hears waits at most this long

    def __init__(self, code, http, connect, seat_for, name, say, link_errors=(), clock=time.monotonic):
        self.code = code
        self.http = http
        self.connect = connect
        self.seat_for = seat_for
        self.state: Any = None  # the board's seat (seat_for's), once the board said its id
        self.board_id = None
        self.name = name
        self.say = say
        self.link_errors = tuple(link_errors)
        self.clock = clock
        self.view: Any = None
        self.views = []
        self.link: Any = None
        self.log: Any = None
        self.board: Any = None
        self._queue = queue.Queue()
        self._stop = threading.Event()
        self._said = {}
        self._proposed = None
        self._pending = None
        self._over_steps = 0

    # ---- the seat ----

    def take_seat(self):
        st = self.state
        self.name = self.name or st.data.get("name") or "board"
        if not st.data.get("token"):
            from crib.tables import fairdeal

            share = fairdeal.new_share()
            seat, token = self.http.join(self.name)
            st.save(code=self.code, seat=seat, token=token, share=share, seq=0, tag=tag_of(self.code, seat))
            self.say("took seat %d at table %s as %s" % (seat + 1, self.code, self.name))
        else:
            self.say("back at seat %d of table %s" % (st.data["seat"] + 1, self.code))
        self.http.token = st.data["token"]
        self.views = st.views()
        self._got(self._retry(lambda: self.http.view(None)))

    def _two_player(self):
        """Refuse a three-handed or 2 v 2 table before taking a seat: the board plays the two-player game
        only at a table (its `table` match is player 0 against one other seat)."""
        form = self._retry(self.http.table).get("form") or "six"
        if form != "six":
            from cribbage.forms import FORM_NAMES

            raise BridgeError(
                "the table is %s: a board plays only the two-player game at a table; take a seat there "
                "from the table's page (/table/%s)" % (FORM_NAMES.get(form, form), self.code)
            )

    def _got(self, view):
        """A view heard (a poll's or a move's answer): kept if newer than the one held."""
        if self.view is not None and view.get("n", 0) < self.view.get("n", 0):
            return
        if self.view is None or view != self.view:
            self.state.keep_view(view)
            self.views.append(view)
        self.view = view
        if view.get("seq") != self.state.data.get("seq"):
            self.state.save(seq=view.get("seq"))
        waiting = view.get("waiting_for") or []
        if waiting and view["phase"] != "over":
            self._tell("wait", "waiting for %s" % ", ".join(waiting))

    def _tell(self, what, text):
        if self._said.get(what) != text:
            self._said[what] = text
            self.say(text)

    def _retry(self, fn):
        """fn() until the server answers (Unreachable: tried again; 429: waited out)."""
        while True:
            try:
                return fn()
            except Unreachable as e:
                if not self._said.get("server"):  # said once an outage: "back" at the next view
                    self._tell("server", "the server does not answer (%s): trying again" % e)
            except Refusal as e:
                if e.status != 429:
                    raise BridgeError("the server refused: %s" % e) from None
            time.sleep(self.POLL_RETRY)

    def _poll(self):
        # The long poll, in a thread of its own: each view it hears goes to the loop's queue. It waits past
        # the newest move it has heard itself, not only the loop's view: the loop takes a view off the
        # queue a moment later, and a poll after the loop's older one answered at once, twice a move,
        # spending the seat's reads until the server's read limit held the poll back a second.
        heard = None
        while not self._stop.is_set():
            ns = [n for n in (heard, self.view.get("n") if self.view is not None else None) if n is not None]
            after = max(ns) if ns else None
            try:
                got = self.http.view(after)
                heard = got.get("n")
                self._queue.put(("view", got))
            except Unreachable as e:
                self._queue.put(("away", str(e)))
                self._stop.wait(self.POLL_RETRY)
            except Refusal as e:
                if e.status == 429:
                    self._stop.wait(self.POLL_RETRY)
                else:
                    self._queue.put(("refused", str(e)))
                    return

    # ---- the board ----

    def _board_up(self, follow=True):
        """Connect to the board (again); the first time, its seat (seat_for) from its id; then (follow)
        follow its events from the table match's start. Another board on the port is not this seat's:
        waited out as no board."""
        told = False
        while True:
            link = None
            try:
                link = self.connect()
                board = (getattr(link, "hello", None) or {}).get("board")
                got = link.state()
                if self.state is None:
                    self.board_id = board
                    self.state = self.seat_for(board, ((got["state"] or {}).get("table") or {}).get("tag"))
                elif board != self.board_id:
                    raise _OtherBoard("board %s on the port, not this seat's %s" % (board, self.board_id))
                if follow:
                    self._follow(link, got)
                break
            except (*self.link_errors, _OtherBoard) as e:
                if link is not None:
                    _close(link)
                if not told:
                    self.say("no board (%s): waiting for it" % e)
                    told = True
                time.sleep(self.POLL_RETRY)
        self.link = link
        self.board = got["state"] or {}
        self._pending = got.get("pending")
        if told:
            self.say("the board is back")

    def _follow(self, link, got):
        """Follow the board's events (`got` its state) from the table match's start: the seat taken."""
        start = self.state.data.get("board_from")
        if start is None:
            start = got["next"]
            self.state.save(board_from=start)
        self.log = BoardLog(self.state.data["tag"])
        link.subscribe(start)

    def begin(self):
        """The board reached, its seat taken (or taken back), its events followed; -> True when the seat's
        game is over and kept already (nothing more to do)."""
        self._two_player()  # before the board is asked for: such a table is refused with no board
        self._board_up(follow=False)
        self.take_seat()
        if self.view["phase"] == "over" and self.state.data.get("saved"):
            return True
        try:
            self._follow(self.link, self.link.state())
        except self.link_errors as e:
            self.say("the board is gone (%s): waiting for it" % e)
            _close(self.link)
            self._board_up()
        return False

    def _board_read(self):
        got = self.link.state()
        self.board = got["state"] or {}
        self._pending = got.get("pending")

    def _pushes(self, wait):
        """Take the board's pushes (events for the log, verdicts); -> True when any came."""
        came = False
        while True:
            push = self.link.next_push(wait)
            if push is None:
                return came
            wait = 0
            came = True
            kind = push.get("push")
            if kind == "event" and isinstance(push.get("event"), dict):
                self.log.feed(push.get("seq", -1), push["event"])
            elif kind == "pending" and push.get("pid") == self._proposed:
                self._proposed = None
                if push.get("status") != "applied":
                    raise BridgeError(
                        "the board's player did not take the table's match (%s)" % push.get("status")
                    )

    def _ours(self):
        """Whether the board holds the table match of our tag, under way or over: a match the board's
        player ended with their own lay (a 31, a last card at 120) is over on the board before the table
        is told that lay, and is still ours to send it from."""
        t = (self.board or {}).get("table")
        return t is not None and t.get("tag") == self.state.data["tag"]

    def _agree(self):
        """BridgeError when the board's match of our tag is over and the table's game is not, or ended at
        other scores: the two sides do not tell the same game, and the board's game is left as it is (a
        new match proposed on it would wipe it while the table's game goes on)."""
        b = self.board
        if not self._ours() or not (b.get("match_over") or b.get("game_over")):
            return
        v = self.view
        seat = v["seat"]
        front = "-".join(map(str, b.get("front") or []))
        table = "%d-%d" % (v["scores"][seat], v["scores"][1 - seat])
        if v["phase"] != "over":
            raise BridgeError(
                "the board's match is over at %s, the table's game is not (%s, deal %d): the board and the "
                "table disagree; the board's game is left as it is" % (front, table, v["deal"])
            )
        if front != table:
            raise BridgeError(
                "the board's match ended at %s, the table's game at %s: the board and the table disagree"
                % (front, table)
            )

    def _propose(self):
        v = self.view
        seat = v["seat"]
        other = 1 - seat
        if not (v.get("seats") or [None, None])[other]:
            self._tell("wait", "waiting for a player at the other seat")
            return
        if self._pending is not None or self._proposed is not None:
            return
        names = [board_name(v["names"][seat], seat), board_name(v["names"][other], other)]
        got = self.link.request("table", move={"t": "new", "names": names, "tag": self.state.data["tag"]})
        if "pending" in got:
            self._proposed = got["pending"]
            self.say("the board asks its player: new match? (vs %s): press OK on the board" % names[1])

    # ---- one step: each side is sent what it lacks ----

    def step(self):
        from crib.link.client import Refused

        self._board_read()
        v = self.view
        if v["phase"] != "over" and not self._ours():
            if self.log.had:  # (a new match would start at 0-0 and could never catch up with the table)
                raise BridgeError(
                    "the board holds another match now, not the table's, whose game is not over: the "
                    "table's match cannot start again on the board"
                )
            if v.get("share_in"):
                self._propose()
        for _ in range(64):
            moves = board_moves(v, self.board) if self._ours() else []
            if not moves:
                break
            try:
                for mv in moves:
                    self.link.request("table", move=mv)
            except Refused as e:
                # (the board counting its show, say: asked again at the next step)
                self._tell("board", "the board did not take the table's move yet: %s" % e.message)
                self._board_read()
                break
            self._said.pop("board", None)
            self._board_read()
        mine = seat_moves(v, self.board if self._ours() else {}, self.log.throws, self.state.data["share"])
        if mine:
            seq = v["seq"] + 1
            got = self._retry(lambda: self.http.move(seq, mine[0]))
            self._got(got["view"])
            return True
        self._agree()
        return False

    def done(self):
        """The game over, and the board told all of it (or refusing the rest: said, and saved anyway)."""
        v = self.view
        if v["phase"] != "over":
            return False
        if not self._ours() or not board_moves(v, self.board):
            return True
        self._over_steps += 1
        if self._over_steps > self.OVER_STEPS:
            self.say("the board did not take the game's end: the game is kept from the table's record")
            return True
        return False

    def run(self):
        """Play the seat to the game's end; -> (the finished table's record, the seat's views)."""
        try:
            if self.begin():
                return self._retry(self.http.record), self.views  # kept already: saved again, nothing new
            threading.Thread(target=self._poll, daemon=True).start()
            last = 0.0
            dirty = True
            while True:
                try:
                    while True:
                        kind, what = self._queue.get_nowait()
                        if kind == "view":
                            if self._said.pop("server", None):
                                self.say("the server is back")
                            self._got(what)
                            dirty = True
                        elif kind == "away":
                            if not self._said.get("server"):  # said once an outage
                                self._tell("server", "the server does not answer (%s): trying again" % what)
                        else:
                            raise BridgeError("the server refused: %s" % what)
                except queue.Empty:
                    pass
                try:
                    if self._pushes(self.WAIT):
                        dirty = True
                    if dirty or self.clock() - last > self.HEARTBEAT:
                        last = self.clock()
                        dirty = self.step()
                        if self.done():
                            break
                except self.link_errors as e:
                    self.say("the board is gone (%s): waiting for it" % e)
                    _close(self.link)
                    self._board_up()
                    dirty = True
            self._said.pop("server", None)
            rec = self._retry(self.http.record)
            return rec, self.views
        finally:
            self._stop.set()
            if self.link is not None:
                _close(self.link)


class _OtherBoard(Exception):
    """Another board answers on the port than the one whose seat this is."""


def _close(link):
    try:
        link.close()
    except Exception:
        pass  # (a link already gone)
