# Writes sim/match3.script: a seeded three-game ACC match as the board's keys and hole taps.
# The match is played by bench/matchgen's players through the core; every event becomes what a
# person would do on the board (docs/keys.md): the cut and every card keyed, go as MENU, shows
# pegged by tapping the hole and OK. The core's own results go in as the script's expectations,
# so `make sim ARGS="--script sim/match3.script"` checks the board against the core.
#   .venv/bin/python tools/match3.py [--seed N] [--out sim/match3.script]
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "bench")]

from matchgen import MatchPlayer  # noqa: E402

from cribbage import events  # noqa: E402
from cribbage.cards import format_card  # noqa: E402

NAMES = ("red", "blue")
_POINTS = (2, 2, 4, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12, 12, 14, 16, 20, 24)


class KeyedMatch(MatchPlayer):
    def __init__(self, seed):
        super().__init__(random.Random(seed), NAMES, form="six", fmt="acc", games=3, shows=False)
        self.lines = []

    def do(self, ev):
        m = self.m
        keyed = False
        if ev["t"] == "peg":
            # Shows pegged by hand: never nothing (OK alone would score cards laid in the play).
            s = ev["s"]
            ev = events.peg(s, self.rng.choice(_POINTS), ev["why"])
            lead = all(m.front[s] > m.front[o] for o in range(m.sides) if o != s)
            # The game hole is shared: a tap there goes home for the side in the lead only, so a
            # side going out from behind keys its points instead.
            keyed = m.front[s] + ev["n"] >= m.target and not lead
        done = m.apply(ev)
        self.events.append(done)
        self.lines.extend(self._keys(done, keyed))

    def _keys(self, ev, keyed=False):
        t = ev["t"]
        m = self.m
        if t == "cut":
            return ["cards " + " ".join(format_card(c) for c in ev["cards"]), "key OK"]
        if t in ("starter", "lay"):
            return ["cards " + format_card(ev["c"])]
        if t == "go":
            return ["key MENU"]
        if t == "deal":
            return ["key OK   # next deal"]
        if t == "game":
            return ["key OK   # next game", "log game %d" % m.game_no]
        if t == "peg":
            why = "%s %s +%d" % (NAMES[ev["s"]], ev["why"], ev["n"])
            if keyed:
                return ["key %s OK OK   # %s, keyed" % (_digits(ev["n"]), why)]
            front = m.front[ev["s"]]
            hole = "game" if front >= m.target else str(front)
            return ["tap %s %s   # %s" % (NAMES[ev["s"]], hole, why), "key OK"]
        raise ValueError("no keys for %r" % (ev,))

    def script(self, seed):
        m = self.m
        out = ["# A three-game ACC match (six-card, to 121) played on the board's keys and holes.",
               "# Written by tools/match3.py --seed %d from the core's own play of it; the" % seed,
               "# expectations at the end are the core's results, checked against the journal",
               "# on the sim's flash.",
               "# make sim ARGS=\"--script sim/match3.script\"   (add --headless to see only the result)",
               ""]
        out += self.lines
        out.append("")
        for k, res in enumerate(m.results):
            out.append("expect game %d %s" % (k + 1, " ".join(str(f) for f in res[4])))
        out.append("expect match %s" % " ".join(str(p) for p in m.match_points))
        if m.match_winner is not None:
            out.append("expect winner %s" % NAMES[m.match_winner])
        out.append("expect score %s" % " ".join(str(f) for f in m.front))
        return "\n".join(out) + "\n"


def _digits(n):
    """Points as the rank keys read as digits (A = 1, T = 0; T alone is 10)."""
    if n == 10:
        return "T"
    keys = "TA23456789"
    if n < 10:
        return keys[n]
    return "%s %s" % (keys[n // 10], keys[n % 10])


def main(argv):
    seed = 3
    out = os.path.join(ROOT, "sim", "match3.script")
    i = 0
    while i < len(argv):
        if argv[i] == "--seed":
            seed = int(argv[i + 1])
            i += 1
        elif argv[i] == "--out":
            out = argv[i + 1]
            i += 1
        i += 1
    km = KeyedMatch(seed)
    km.play()
    with open(out, "w") as f:
        f.write(km.script(seed))
    m = km.m
    print("%s: %d lines, %d games, match points %s" % (out, len(km.lines), len(m.results), m.match_points))


if __name__ == "__main__":
    main(sys.argv[1:])
