# Stand-ins for the match and settings, and a real journal, for the link tests (both interpreters).
import json

from fakehal import scratch_dir

from board.journal import Journal


def journal():
    """A real, open board journal in a fresh scratch folder."""
    j = Journal(scratch_dir("/tmp/criblink-") + "/journal.log")
    j.open()
    return j


def record(j, match, ev):
    """What the board app does for a confirmed event: apply it to the match, then journal it."""
    match.apply(ev)
    return j.append(json.dumps(ev, separators=(",", ":")))


def peg(side, points):
    """A peg event in the game core's shape (cribbage.events.peg); the link never looks inside."""
    return {"t": "peg", "s": side, "n": points, "why": "manual"}


class FakeMatch:
    def __init__(self):
        self.sides = 2
        self.names = ["Ann", "Bob"]
        self.front = [0, 0]
        self.back = [0, 0]
        self.target = 121
        self.dealer = 0
        self.deal_no = 1
        self.game_no = 1
        self.game_over = False
        self.winner = None
        self.skunk = ["", ""]
        self.match_points = [0, 0]
        self.match_over = False
        self.match_winner = None
        self.play = None
        self.last_show = None

    def next_show(self):
        return None

    def apply(self, event):
        side = event["s"]
        self.back[side] = self.front[side]
        self.front[side] += event["n"]
        return event


class FakeSettings:
    """Validates every key before changing any, as the board's settings must."""

    def __init__(self):
        self.values = {"brightness": 40, "muggins": False}

    def get(self):
        return dict(self.values)

    def set(self, new):
        for k in new:
            if k not in self.values:
                raise ValueError("unknown setting '%s'" % k)
            if type(new[k]) is not type(self.values[k]):
                raise ValueError("setting '%s' has the wrong type" % k)
        for k in new:
            self.values[k] = new[k]
