# The committed rank table is exactly what bench/gen_showtables.py generates, and it is right.
import os

import gen_showtables

from cribbage import showtables

TABLES = os.path.join(os.path.dirname(__file__), "..", "..", "firmware", "cribbage", "showtables.py")


def test_committed_module_equals_a_fresh_generation():
    with open(TABLES) as f:
        committed = f.read()
    assert committed == gen_showtables.render(), "run: .venv/bin/python bench/gen_showtables.py"


def test_every_rank_multiset_reads_its_points_from_the_table():
    for ranks in gen_showtables.rank_multisets():
        key = sum(showtables.RANK_WEIGHTS[r] for r in ranks)
        slot = (key + showtables.DISPLACE[key % showtables.BUCKETS]) % showtables.SLOTS
        assert showtables.RANK_POINTS[slot] == gen_showtables.rank_points(ranks), ranks


def test_table_sizes():
    assert len(showtables.RANK_POINTS) == showtables.SLOTS
    assert len(showtables.DISPLACE) == showtables.BUCKETS
    assert len(gen_showtables.rank_multisets()) == 6175
