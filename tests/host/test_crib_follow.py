# `crib sync --follow`: what the board journals while followed lands in the history as a sync stores it.
from both.linkfakes import journal, new_match
from fakeport import FakePort

from board.link import Link
from crib import db
from crib.client import LinkClient
from crib.follow import follow
from crib.sync import sync
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


def test_follow_stores_the_backlog_and_every_event_played_meanwhile(history_db, tmp_path):
    j = journal()
    m = new_match(j)
    link = Link(j, m, board_id=BOARD, firmware="t", form="six")
    port = FakePort(link)
    client = LinkClient(port, timeout=0.5)
    con = db.connect(history_db)
    sync(client, con)
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
