# `make verify`: score all 12,994,800 (4-card hand, starter) combinations, as hand and as crib, and
# compare both score distributions with the published ones, count by count.
"""Every combination is scored by the firmware's own fast path (cribbage.showtotal.show_total), no
symmetry shortcuts; a fixed sample (every 997th combination) is also scored by the itemised path
and by the reference scorer (verify/reference_scorer.py), and all three must agree.

Published distributions:
- hand: Steven S. Lumetta, "Amusing Cribbage Facts" (2007), the table quoted by Wikipedia's
  "Cribbage statistics": 1,009,008 zeros ... 76 of 28, 4 of 29, none of 19, 25, 26, 27.
- crib: the zero count 1,022,208 is in Wikipedia's "Cribbage statistics"; for the other counts no
  source could be checked, so the crib table is also DERIVED here from the published hand table:
  a crib scores like a hand except that a four-card flush (hand cards of one suit, starter not)
  counts nothing, so re-scoring just those 111,540 combinations with the reference scorer, as hand
  and as crib, turns the published hand table into the crib table (derive_crib_from_hand).
"""

import sys
import time

from cribbage.show import score_show
from cribbage.showtotal import show_total
from verify import reference_scorer

TOTAL = 12994800

PUBLISHED_HAND = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
    8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
    16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680,
    25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}  # fmt: skip

PUBLISHED_CRIB = {
    0: 1022208, 1: 99792, 2: 2839800, 3: 508908, 4: 2868960, 5: 703496, 6: 1787176, 7: 755320,
    8: 1118336, 9: 358368, 10: 378240, 11: 43880, 12: 310956, 13: 16548, 14: 88132, 15: 9072,
    16: 57288, 17: 11196, 18: 2264, 19: 0, 20: 7828, 21: 2472, 22: 444, 23: 356, 24: 3680,
    25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}  # fmt: skip

SAMPLE_STRIDE = 997


def score_everything():
    """(hand histogram, crib histogram, combinations, sample checked) over every combination."""
    hand = [0] * 30
    crib = [0] * 30
    total = show_total
    n = 0
    sampled = 0
    for c0 in range(49):
        for c1 in range(c0 + 1, 50):
            for c2 in range(c1 + 1, 51):
                for c3 in range(c2 + 1, 52):
                    for s in range(52):
                        if s == c0 or s == c1 or s == c2 or s == c3:  # noqa: SIM109 (the hot loop)
                            continue
                        h = total(c0, c1, c2, c3, s, False)
                        c = total(c0, c1, c2, c3, s, True)
                        hand[h] += 1
                        crib[c] += 1
                        n += 1
                        if n % SAMPLE_STRIDE == 0:
                            _check_sample([c0, c1, c2, c3], s, h, c)
                            sampled += 1
    return hand, crib, n, sampled


def _check_sample(cards, s, h, c):
    for crib, fast in ((False, h), (True, c)):
        itemised = score_show(cards, s, crib).total
        reference = reference_scorer.score(cards, s, crib)
        if not fast == itemised == reference:
            raise SystemExit(
                "disagreement on %r starter %d crib=%s: fast %d, itemised %d, reference %d"
                % (cards, s, crib, fast, itemised, reference)
            )


def compare(name, got, published):
    return [
        "%s, %d points: %d scored, %d published" % (name, points, got[points], published[points])
        for points in range(30)
        if got[points] != published[points]
    ]


def derive_crib_from_hand():
    """The crib distribution from PUBLISHED_HAND and the reference scorer alone (no firmware code)."""
    crib = dict(PUBLISHED_HAND)
    moved = 0
    for suit in range(4):
        same_suit = [rank * 4 + suit for rank in range(13)]
        for a in range(13):
            for b in range(a + 1, 13):
                for c in range(b + 1, 13):
                    for d in range(c + 1, 13):
                        hand = [same_suit[a], same_suit[b], same_suit[c], same_suit[d]]
                        for starter in range(52):
                            if starter & 3 == suit:
                                continue  # a five-card flush counts 5 in hand and crib alike
                            as_hand = reference_scorer.score(hand, starter, False)
                            as_crib = reference_scorer.score(hand, starter, True)
                            crib[as_hand] -= 1
                            crib[as_crib] += 1
                            moved += 1
    return crib, moved


def main():
    assert sum(PUBLISHED_HAND.values()) == TOTAL and sum(PUBLISHED_CRIB.values()) == TOTAL
    t0 = time.perf_counter()
    hand, crib, n, sampled = score_everything()
    elapsed = time.perf_counter() - t0
    print("scored %d combinations as hand and as crib in %.1f s (goal < 30 s)" % (n, elapsed))
    print("sample of %d combinations: fast, itemised and reference scorer agree" % sampled)
    print("%6s %12s %12s" % ("points", "hand", "crib"))
    for points in range(30):
        print("%6d %12d %12d" % (points, hand[points], crib[points]))
    bad = []
    if n != TOTAL:
        bad.append("scored %d combinations, expected %d" % (n, TOTAL))
    bad += compare("hand", hand, PUBLISHED_HAND)
    bad += compare("crib", crib, PUBLISHED_CRIB)
    derived, moved = derive_crib_from_hand()
    print(
        "crib table derived from the published hand table (%d four-card flushes re-scored "
        "by the reference scorer): %s" % (moved, "equal" if derived == PUBLISHED_CRIB else "DIFFERENT")
    )
    bad += compare(
        "crib derived from the published hand table", [derived[p] for p in range(30)], PUBLISHED_CRIB
    )
    if bad:
        print("\n".join(["MISMATCH"] + bad))
        return 1
    print("OK: every count of both distributions equals the published table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
