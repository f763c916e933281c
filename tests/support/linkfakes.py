# A board's objects for the link tests (both interpreters): real journal and Match, settings like the app's.
from fakehal import scratch_dir

from board.store.journal import Journal
from cribbage import events
from cribbage.game import Match


def journal():
    """A real, open board journal in a fresh scratch folder."""
    j = Journal(scratch_dir("/tmp/criblink-") + "/journal.log")
    j.open()
    return j


def record(j, match, ev):
    """What the board app does with a confirmed event: apply it to the match, then journal it."""
    done = match.apply(ev)
    return j.append(events.to_line(done))


def new_match(j, names=("Ann", "Bob")):
    """A six-card match, journalled from its set-up line; the first dealer is Ann (player 0)."""
    m = Match(events.setup(names=list(names)))
    j.append(events.to_line(m.setup))
    record(j, m, events.dealer(0))
    return m


def pegs(j, m, n):
    """n manual pegs, alternating sides, small enough never to end the game."""
    for i in range(n):
        record(j, m, events.peg(i % 2, 1 + i % 2))


class FakeSettings:
    """The board's Settings shape: .values, and set(name, value, now) refusing with ValueError."""

    def __init__(self):
        self.values = {"brightness": 96, "muggins": False}

    def set(self, name, value, now=0):
        if name not in self.values:
            raise ValueError("unknown setting %r" % (name,))
        if type(value) is not type(self.values[name]):
            raise ValueError("setting %s has the wrong type" % name)
        self.values[name] = value


def matches(n_events):
    """A journal of n_events spread over matches (each a set-up, a dealer and at most 60 pegs) and
    the last match: (journal, match)."""
    j = journal()
    m = None
    left = n_events
    while left > 0:
        m = new_match(j)
        k = min(60, left - 2)
        pegs(j, m, k)
        left -= k + 2
    return j, m
