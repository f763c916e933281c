# The committed rank table is exactly what tools/gen/showtables.py generates, and it is right.
import os

from cribbage import showtables
from tools.gen import showtables as gen_showtables

TABLES = os.path.join(os.path.dirname(__file__), "..", "..", "firmware", "cribbage", "showtables.py")


def test_committed_module_equals_a_fresh_generation():
    with open(TABLES) as f:
        committed = f.read()
    assert committed == gen_showtables.render(), "run: .venv/bin/python -m tools.gen.showtables"


def test_every_rank_multiset_reads_its_points_from_the_table():
    for ranks in gen_showtables.rank_multisets():
        key = sum(showtables.RANK_WEIGHTS[r] for r in ranks)
        slot = (key + showtables.DISPLACE[key % showtables.BUCKETS]) % showtables.SLOTS
        assert showtables.RANK_POINTS[slot] == gen_showtables.rank_points(ranks), ranks


def test_table_sizes():
    assert len(showtables.RANK_POINTS) == showtables.SLOTS
    assert len(showtables.DISPLACE) == showtables.BUCKETS
    assert len(gen_showtables.rank_multisets()) == 6175


def test_card_keys_add_up_without_carries_and_stay_small_ints_on_the_pico():
    from cribbage import showtotal as show

    biggest = sum(sorted(show._HAND_KEY)[-4:]) + max(show._STARTER_KEY)
    assert biggest < 2**30  # the Pico's small ints are 31-bit signed
    rank_max = max(sum(showtables.RANK_WEIGHTS[r] for r in m) for m in gen_showtables.rank_multisets())
    assert rank_max <= show._RANK_MASK
    assert show._FLUSH_MASK >= 24 + 25 * 3  # suit codes of 4 hand cards + 25 * starter suit
