# Our crib tables against the published ones: median and largest difference per table (CPython).
"""Usage: python -m verify.compare_cribtables   (also run by `make crib-tables`)

Also compares the published tables with each other, the yardstick the issue sets ("they agree to
about 0.1-0.2 points per discard").
"""

import statistics

from cribbage.advice import crib_entry
from verify.published_cribtables import (
    COMPARISONS,
    CRIBBAGE_PRO_DEALER,
    HESSEL_PONE,
    SCHELL_DEALER,
    SCHELL_PONE,
)

RANKS = "A23456789TJQK"


def ours(name):
    """SIX_DEALER or SIX_PONE as 13 rows of 13 points."""
    dealer = name == "SIX_DEALER"
    return [[crib_entry("six", dealer, a * 13 + b) / 100 for b in range(13)] for a in range(13)]


def differences(mine, theirs):
    """(median, largest, where the largest is) of |mine - theirs| over the 91 rank pairs."""
    diffs = []
    for a in range(13):
        for b in range(a, 13):
            diffs.append((abs(mine[a][b] - theirs[a][b]), RANKS[a] + RANKS[b]))
    largest = max(diffs)
    return statistics.median(d for d, _ in diffs), largest[0], largest[1]


def rows():
    out = []
    for name, table, source in COMPARISONS:
        out.append((name.lower(), source) + differences(ours(name), table))
    out.append(
        ("(published)", "Schell vs Cribbage Pro, dealer") + differences(SCHELL_DEALER, CRIBBAGE_PRO_DEALER)
    )
    out.append(("(published)", "Schell vs Hessel, pone") + differences(SCHELL_PONE, HESSEL_PONE))
    return out


def main():
    print("%-12s %-32s %7s %8s" % ("table", "against", "median", "largest"))
    for name, source, median, largest, where in rows():
        print("%-12s %-32s %7.2f %8.2f  (%s)" % (name, source, median, largest, where))


if __name__ == "__main__":
    main()
