# `crib sync --follow`: what the board journals while followed lands in the history as a sync stores it.
import threading
import time

from boards import Sim, free_port
from fakeport import FakePort
from linkfakes import journal, new_match
from simmatch import SimMatch, flash_with_match

from board.link import Link
from crib.history.follow import follow
from crib.history.sync import sync
from crib.link import ports, share
from crib.link.client import LinkClient
from crib.store import db
from cribbage import events

BOARD = b"\x00\x00\x00\x00\x00\x00\x00\x07"


def play(j, m, link, ev):
    """What the board app does with a confirmed event: the core, the journal, then the link's subscriber."""
    line = events.to_line(m.apply(ev))
    link.appended(j.append(line), line)


class PlayingClock:
    """A clock that plays on the board as time passes: a peg is journalled every third tick."""

    def __init__(self, j, m, link, port, pegs):
        self.j, self.m, self.link, self.port = j, m, link, port
        self.left = pegs
        self.ticks = 0

    def __call__(self):
        self.ticks += 1
        if self.left and self.ticks % 3 == 0:
            play(self.j, self.m, self.link, events.peg(self.left % 2, 2))
            self.left -= 1
        self.port.tick()  # the board's link task sends what is queued
        return self.ticks * 0.2


def synced_board(history_db):
    """A board with a new match on the fake link, synced once into history_db: (journal, match,
    link, port, client, database)."""
    j = journal()
    m = new_match(j)
    link = Link(j, m, board_id=BOARD, firmware="t", form="six")
    port = FakePort(link)
    client = LinkClient(port, timeout=0.5, clock=port.clock)  # its waits on the port's clock
    con = db.connect(history_db)
    sync(client, con)
    return j, m, link, port, client, con


def test_follow_stores_the_backlog_and_every_event_played_meanwhile(history_db, tmp_path):
    j, m, link, port, client, con = synced_board(history_db)
    assert db.count_events(con) == 2
    for _ in range(5):  # played while no laptop followed: the backlog the subscription starts with
        play(j, m, link, events.peg(0, 1))
    said = []
    follow(client, con, say=said.append, until=40.0, clock=PlayingClock(j, m, link, port, pegs=12))
    board = client.hello["board"]
    # What a plain sync of the same board stores, into a database of its own.
    other = db.connect(str(tmp_path / "plain.sqlite3"))
    sync(LinkClient(FakePort(link), timeout=0.5), other)
    assert list(db.events(con, board)) == list(db.events(other, board))
    assert db.count_events(con, board) == 2 + 5 + 12
    assert said and said[-1].endswith("events held")
    games = db.games(con, board)
    assert games and games[-1]["final"] == list(m.front)


def test_follow_acks_what_it_stored_at_quiet_points(history_db):
    # Before: follow never sent `ack`; the board learnt of the followed events at the next plain sync
    # only, and a new match on the board in between kept them all as unsynced.
    j, m, link, port, client, con = synced_board(history_db)
    synced = j.next_seq - 1
    sent = []
    write = port.write
    port.write = lambda data: (sent.append(bytes(data)), write(data))[1]
    follow(client, con, say=lambda text: None, until=40.0, clock=PlayingClock(j, m, link, port, pegs=9))
    board = client.hello["board"]
    assert db.next_seq(con, board) == j.next_seq == synced + 9 + 1  # all stored
    assert j.acked == j.next_seq - 1  # and the board told so
    acks = [x for x in sent if b'"ack"' in x]
    # Once a quiet point at most (the clock plays a peg every 0.6 s, past QUIET_S), and only when
    # more was stored: never more acks than events.
    assert 1 <= len(acks) <= 9, acks


def test_follow_reads_back_a_push_it_lost_and_acks_only_what_it_stored(history_db):
    j, m, link, port, client, con = synced_board(history_db)
    first = j.next_seq
    pushed = client.next_push

    def lossy(timeout=1.0):  # the push of one seq is lost on the way (a busy link)
        push = pushed(timeout)
        if push is not None and push.get("seq") == first + 2:
            return pushed(timeout)
        return push

    client.next_push = lossy
    follow(client, con, say=lambda text: None, until=40.0, clock=PlayingClock(j, m, link, port, pegs=9))
    board = client.hello["board"]
    held = [seq for seq, _ in db.events(con, board)]
    assert held == list(range(1, j.next_seq))  # the lost seq read back at a quiet point: no gap
    assert j.acked == j.next_seq - 1  # acked once stored without a gap
    said = [e for _, e in db.events(con, board) if e.get("t") == "peg"]
    assert len(said) == 9  # every peg the board played, the lost one too


def test_follow_never_acks_past_a_seq_it_could_not_store(history_db):
    j, m, link, port, client, con = synced_board(history_db)
    first = j.next_seq
    pushed, paged = client.next_push, client.events

    def lossy(timeout=1.0):  # the push of one seq is lost on the way
        push = pushed(timeout)
        return pushed(timeout) if push is not None and push.get("seq") == first + 2 else push

    def without(start, limit=64):  # and reading it back gets nothing for it (a board that set it aside)
        page = paged(start, limit)
        return dict(page, events=[e for e in page["events"] if e["seq"] != first + 2])

    client.next_push, client.events = lossy, without
    follow(client, con, say=lambda text: None, until=40.0, clock=PlayingClock(j, m, link, port, pegs=9))
    held = [seq for seq, _ in db.events(con, client.hello["board"])]
    assert first + 2 not in held and first + 3 in held
    assert j.acked == first + 1  # what was stored without a gap; the next sync sorts out the rest


def test_follow_on_the_real_sim_acks_the_events_it_stored(tmp_path, history_db):
    # The firmware in the simulator, its journal a played game; `crib sync --follow` from an empty
    # history stores the board's backlog as pushes, then acks it at the quiet point after.
    data, m = flash_with_match(tmp_path, seed=5, games=1)
    with Sim(data) as sim:
        client = LinkClient(ports.open_port(sim.url, 2.0), timeout=5.0)
        hello = client.connect()
        want = hello["next"] - 1
        assert hello["acked"] == 0 and want > 50
        acked = []
        request = client.request

        def spy(op, timeout=None, **args):
            reply = request(op, timeout, **args)
            if op == "ack":
                acked.append(reply.get("acked"))
            return reply

        client.request = spy
        con = db.connect(history_db)
        db.note_board(con, hello)  # as the sync before a follow does

        def clock():  # real time, until the board has acknowledged everything (or a minute passed)
            return float("inf") if want in acked else time.monotonic()

        follow(client, con, say=lambda text: None, until=time.monotonic() + 60, clock=clock)
        assert db.count_events(con, hello["board"]) == want  # the backlog, seq 1..want
        assert acked and acked[-1] == want
        again = LinkClient(ports.open_port(sim.url, 2.0), timeout=5.0)
        assert again.connect()["acked"] == want  # the board keeps it (its journal's seq mark)


def test_follow_carries_on_through_board_restarts_and_stores_what_came_meanwhile(tmp_path):
    # The board restarts twice under a follow: killed between deals, then booted to play the rest of the
    # game (a script), then booted again. Follow says so, waits, and once the board is back subscribes
    # from the history's next seq: every event lands, those played while it was away too.
    m = SimMatch(5, games=1)
    m.play()
    lines = m.script().splitlines()
    cut = next(i for i in range(len(lines) // 2, len(lines)) if lines[i] == lines[i - 1] == "key OK")
    (tmp_path / "first.script").write_text("\n".join(lines[: cut + 1]) + "\n")  # up to the end of a deal
    # the second board waits 2 s before its keys, so the follow usually catches it between restarts
    (tmp_path / "rest.script").write_text("wait 2000\n" + "\n".join(lines[cut + 1 :]) + "\n")
    data, path = str(tmp_path / "sim-data"), str(tmp_path / "h.sqlite3")
    with Sim(data, script=str(tmp_path / "first.script"), fresh=True) as sim:
        sim.wait()
    url_port = free_port()
    url = "socket://127.0.0.1:%d" % url_port
    sims, done = [Sim(data, port=url_port)], []

    def stored():
        con = db.connect(path)
        try:
            return db.count_events(con)
        finally:
            con.close()

    def restarts():
        try:
            while stored() < first:
                time.sleep(0.2)
            sims[-1].kill()  # the board goes with half the game stored
            sims.append(Sim(data, port=url_port, script=str(tmp_path / "rest.script")))
            sims[-1].wait()  # the rest of the game played, the board gone again
            sims.append(Sim(data, port=url_port))
        finally:
            done.append(True)

    client = share.connect(url, 5.0)
    first = client.hello["next"] - 1
    said = []
    con = db.connect(path)
    db.note_board(con, client.hello)
    mover = threading.Thread(target=restarts)
    mover.start()

    def clock():  # real time, until the board is back for good, followed again, and the whole game stored
        back = said and "following again" in said[-1]
        return float("inf") if done and back and stored() == len(m.events) else time.monotonic()

    try:
        follow(client, con, say=said.append, until=time.monotonic() + 300, clock=clock,
               reopen=lambda: share.connect(url, 5.0), retry_s=0.2)  # fmt: skip
        mover.join()
        on_board = share.connect(url, 5.0)
        got = []
        for page in on_board.iter_pages(1):
            got.extend((e["seq"], e["event"]) for e in page["events"])
        on_board.close()
    finally:
        for sim in sims:
            sim.kill()
    assert 0 < first < len(m.events) and " checked, 0 failed" in "".join(sims[1].log)
    assert list(db.events(con, client.hello["board"])) == got and len(got) == len(m.events)
    played = [{k: v for k, v in e.items() if k != "at"} for _, e in got]
    assert played[1:] == m.events[1:]  # the game the scripts keyed (the set-up is the board's settings')
    # Each going away is said and followed by a coming back; whether the follow caught the second board
    # in its life (its reconnects are 0.2 s apart, a loaded machine may start that board late) is timing,
    # not behaviour: its events are in the history either way (asserted above).
    went = [s for s in said if "went away" in s]
    back = [s for s in said if "following again" in s]
    assert 1 <= len(went) == len(back) and "went away" in said[0] and "following again" in said[-1], said
