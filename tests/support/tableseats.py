# Scripted seats at a remote table: their moves, and a seat played through crib.tables.service in-process.
from crib.tables import fairdeal
from cribbage.cards import pip


def choose(v, share, rng):
    """A scripted seat's move on its view `v`: its share first, then a random discard, a random lay."""
    if not v["share_in"]:
        return {"t": "share", "share": share}
    if v["phase"] == "discard":
        return {"t": "discard", "cards": rng.sample(v["hand"], v.get("to_throw", 2))}
    return {"t": "lay", "card": rng.choice([c for c in v["hand"] if v["count"] + pip(c) <= 31])}


class Seat:
    """A scripted person at a seat: sends its share, then a random legal discard and lay, counting seq."""

    def __init__(self, tables, code, name, rng):
        self.tables, self.code, self.rng = tables, code, rng
        self.seat, self.token = tables.join(code, name)
        self.share = fairdeal.new_share()
        self.seq = 0
        self.views = []

    def look(self):
        v = self.tables.view(self.code, self.token)
        self.views.append(v)
        return v

    def send(self, move):
        self.seq += 1
        got = self.tables.move(self.code, self.token, self.seq, move)
        self.views.append(got["view"])
        return got

    def choose(self, v):
        return choose(v, self.share, self.rng)

    def turn(self):
        v = self.look()
        if v["phase"] != "over" and self.seat in v["awaited"]:
            self.send(self.choose(v))
            return True
        return False


def play_out(a, *others, limit=4000):
    """Every seat moves in turn until the game is over: the last view of the first seat."""
    for _ in range(limit):
        moved = False
        for s in (a,) + others:
            moved |= s.turn()
        if a.views[-1]["phase"] == "over":
            return a.look()
        assert moved, "no seat could move: %r" % a.views[-1]
    raise AssertionError("the game did not end")
