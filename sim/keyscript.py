# A match played through the core and written as the simulator's key script (docs/keys.md, sim/script.py).
# Cards are keyed (the cut, the starter, each card laid, go as MENU); shows are pegged by tapping the hole
# and OK, or by keying the points where the shared game hole would go to the other side. The events the
# core made are kept, so a test can compare the board's journal with them one for one.
import random

from cribbage import events
from cribbage.cards import format_card
from sim.matchgen import MatchPlayer

SHOW_POINTS = (2, 2, 4, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12, 12, 14, 16, 20, 24)


class KeyedMatch(MatchPlayer):
    """A six-card ACC match of `games` games; `lines` is the key script that plays it on the board.

    `labels` name the sides in `tap` lines (a side's name or its number from 1). `peg_points(side)`
    picks a show's points; a subclass may change it (see tests/support/simmatch.py)."""

    def __init__(self, seed, names=("P1", "P2"), labels=("1", "2"), games=3, comments=False):
        super().__init__(random.Random(seed), names, form="six", fmt="acc", games=games, shows=False)
        self.labels = labels
        self.comments = comments
        self.lines = []

    def peg_points(self, side):
        return self.rng.choice(SHOW_POINTS)

    def do(self, ev):
        m = self.m
        keyed = False
        if ev["t"] == "peg":
            s = ev["s"]
            ev = events.peg(s, self.peg_points(s), ev["why"])
            lead = all(m.front[s] > m.front[o] for o in range(m.sides) if o != s)
            # The game hole is shared: a tap there goes home for the side in the lead only, so a
            # side going out from behind keys its points instead.
            keyed = m.front[s] + ev["n"] >= m.target and not lead
        done = m.apply(ev)
        self.events.append(done)
        self.lines.extend(self._keys(done, keyed))

    def _note(self, text):
        return "   # " + text if self.comments else ""

    def _keys(self, ev, keyed):
        t = ev["t"]
        m = self.m
        if t == "cut":
            return ["cards " + " ".join(format_card(c) for c in ev["cards"]), "key OK"]
        if t in ("starter", "lay"):
            return ["cards " + format_card(ev["c"])]
        if t == "go":
            return ["key MENU"]
        if t == "deal":
            return ["key OK" + self._note("next deal")]
        if t == "game":
            log = ["log game %d" % m.game_no] if self.comments else []
            return ["key OK" + self._note("next game")] + log
        if t == "peg":
            why = "%s %s +%d" % (self.labels[ev["s"]], ev["why"], ev["n"])
            if keyed:
                return ["key %s OK OK" % digits(ev["n"]) + self._note(why + ", keyed")]
            front = m.front[ev["s"]]
            hole = "game" if front >= m.target else str(front)
            return ["tap %s %s" % (self.labels[ev["s"]], hole) + self._note(why), "key OK"]
        raise ValueError("no keys for %r" % (ev,))

    def expectations(self):
        m = self.m
        out = [
            "expect game %d %s" % (k + 1, " ".join(str(f) for f in res[4])) for k, res in enumerate(m.results)
        ]
        out.append("expect match %s" % " ".join(str(p) for p in m.match_points))
        return out


def digits(n):
    """Points as the rank keys read as digits (A = 1, T = 0; T alone is 10)."""
    if n == 10:
        return "T"
    keys = "TA23456789"
    if n < 10:
        return keys[n]
    return "%s %s" % (keys[n // 10], keys[n % 10])
