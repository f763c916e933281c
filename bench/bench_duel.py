# Duel bench: the top level's strength against the beginner and expected strategies, and crib duel's speed.
"""Usage: python -m bench.bench_duel [--sequences N]   (default 1,000 deal sequences: 2,000 games a duel)

Goals: top against beginner wins at least 58% of the games; top against expected more than 50%,
its 95% interval said (by deal sequence, docs/bots.md); at least 20 top-level games a second on one
core (CPU time of this process: the duel runs on one core, the machine's load aside).
"""

import argparse
import sys
import time

from crib.duel.run import duel

GOALS = (("level:beginner", 0.58), ("level:expected", 0.5))
GAMES_PER_S = 20.0
SEED = 1


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--sequences", type=int, default=1000)
    args = ap.parse_args(argv)
    missed = []
    print("top level, %d deal sequences each played twice (seed %d), games to 121:" % (args.sequences, SEED))
    for other, goal in GOALS:
        cpu = time.process_time()
        out = duel("level:top", other, args.sequences, seed=SEED)
        cpu = time.process_time() - cpu
        lo, hi = out["interval95"]
        print(
            "  against %-15s wins %4d - %4d  %.1f%% (95%% interval %.1f .. %.1f)  points a deal %.2f - %.2f"
            "  skunks %d - %d  %.1f games/s on one core (%.1f wall)"
            % (
                other,
                out["wins"][0],
                out["wins"][1],
                100 * out["win_rate"],
                100 * lo,
                100 * hi,
                out["points_per_deal"][0],
                out["points_per_deal"][1],
                out["skunks"][0] + out["double_skunks"][0],
                out["skunks"][1] + out["double_skunks"][1],
                out["games"] / cpu,
                out["games_per_second"],
            )
        )
        if goal == 0.5 and not out["win_rate"] > goal or goal > 0.5 and out["win_rate"] < goal:
            missed.append(
                "against %s %.1f%% (goal %s %.0f%%)"
                % (other, 100 * out["win_rate"], ">" if goal == 0.5 else ">=", 100 * goal)
            )
    cpu = time.process_time()
    out = duel("level:top", "level:top", 50, seed=SEED + 1)
    rate = out["games"] / (time.process_time() - cpu)
    print(
        "speed, top against top: %.1f games a second on one core (%.1f wall)"
        % (rate, out["games_per_second"])
    )
    if rate < GAMES_PER_S:
        missed.append("speed %.1f games/s (goal %.0f)" % (rate, GAMES_PER_S))
    for m in missed:
        print("GOAL MISSED: " + m)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
