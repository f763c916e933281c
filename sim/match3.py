# Writes sim/match3.script: a seeded three-game ACC match as the board's keys and hole taps.
# The match is played by sim/matchgen.py's players through the core; every event becomes what a
# person would do on the board (docs/keys.md): the cut and every card keyed, go as MENU, shows
# pegged by tapping the hole and OK. The core's own results go in as the script's expectations,
# so `make sim ARGS="--script sim/match3.script"` checks the board against the core.
#   .venv/bin/python -m sim.match3 [--seed N] [--out sim/match3.script]
import os
import sys

from sim.keyscript import KeyedMatch

HERE = os.path.dirname(os.path.abspath(__file__))

NAMES = ("red", "blue")


def script(km, seed):
    m = km.m
    out = [
        "# A three-game ACC match (six-card, to 121) played on the board's keys and holes.",
        "# Written by python -m sim.match3 --seed %d from the core's own play of it; the" % seed,
        "# expectations at the end are the core's results, checked against the journal",
        "# on the sim's flash.",
        '# make sim ARGS="--script sim/match3.script"   (add --headless to see only the result)',
        "",
    ]
    out += km.lines
    out.append("")
    out += km.expectations()
    if m.match_winner is not None:
        out.append("expect winner %s" % NAMES[m.match_winner])
    out.append("expect score %s" % " ".join(str(f) for f in m.front))
    return "\n".join(out) + "\n"


def with_laptop(lines):
    """The script's lines with a laptop's sync in the middle of game 2, after its first hand is pegged:
    the link's code is then loaded in the heap the match has left, not at boot (docs/memory.md).
    tests/sim/test_sim_match.py plays the match so too."""
    game2 = lines.index("log game 2")
    at = next(i for i in range(game2, len(lines)) if "hand +" in lines[i]) + 1
    sync = [
        "# A laptop comes in the middle of game 2 and syncs: the link's code is loaded now, not at boot",
        "# (docs/memory.md), in the heap the match has left.",
        'laptop {"id":1,"op":"hello"}',
        'laptop {"id":2,"op":"records","from":1}',
    ]
    return lines[:at] + sync + lines[at:]


def main(argv):
    seed = 3
    out = os.path.join(HERE, "match3.script")
    i = 0
    while i < len(argv):
        if argv[i] == "--seed":
            seed = int(argv[i + 1])
            i += 1
        elif argv[i] == "--out":
            out = argv[i + 1]
            i += 1
        i += 1
    km = KeyedMatch(seed, names=NAMES, labels=NAMES, comments=True)
    km.play()
    with open(out, "w") as f:
        f.write(script(km, seed))
    m = km.m
    print("%s: %d lines, %d games, match points %s" % (out, len(km.lines), len(m.results), m.match_points))


if __name__ == "__main__":
    main(sys.argv[1:])
