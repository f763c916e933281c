# The crib tables' generator scores as the firmware does, and the committed tables sit near the published.
import numpy as np

from cribbage.show import score_show
from tools.gen import cribtables as gen_cribtables
from verify import compare_cribtables


def test_the_generators_scorer_agrees_with_the_itemised_show():
    rng = np.random.default_rng(7)
    for k, crib in ((4, False), (4, True), (3, False)):
        deals = gen_cribtables.deal(rng, 2000, k + 1)
        points = gen_cribtables.show_points(deals[:, :k], deals[:, k], crib)
        for row, p in zip(deals, points, strict=True):
            hand = [int(c) for c in row[:k]]
            assert p == score_show(hand, int(row[k]), crib, k == 3).total, (hand, int(row[k]), crib)


def test_colex_numbers_every_four_card_set_once():
    sets = np.array([[0, 1, 2, 3], [48, 49, 50, 51], [0, 1, 2, 4], [3, 7, 11, 51]])
    idx = gen_cribtables.colex(sets)
    assert list(idx[:3]) == [0, 270724, 1]
    assert len(set(idx.tolist())) == 4


def test_tables_land_among_the_published_ones():
    # The yardstick: published tables agree to about 0.1-0.2 a discard (compare_cribtables
    # prints their own differences). Ours must have its median difference in that band.
    for name, source, median, largest, where in compare_cribtables.rows():
        if name.startswith("("):
            continue
        assert median <= 0.15, (name, source, median)
        assert largest <= 0.45, (name, source, largest, where)


def test_the_module_renders_what_the_tables_hold_where_the_advice_reads_them():
    tables = {f: (np.full((13, 13), 4.5), np.full((13, 13), 5.25)) for f in ("six", "five")}
    tables.update({f: (np.arange(13) + 3.0, np.arange(13) + 4.0) for f in ("three", "four")})
    text = gen_cribtables.render(tables)
    space = {}
    exec(compile(text, "cribtables", "exec"), space)
    data = space["TABLES"]
    assert len(data) == 2 * (4 * 169 + 4 * 13)
    assert data[:338] == bytes((450 & 255, 450 >> 8)) * 169
    assert data[338:340] == bytes((525 & 255, 525 >> 8))
    # the offsets firmware/cribbage/advice.py reads each form's tables at
    from cribbage import advice

    for form, i in (("six", 0), ("five", 676), ("three", 1352), ("four", 1404)):
        assert advice._FORMS[form][2] == i and advice._FORMS[form][3] == i + (338 if i < 1352 else 26)
    three_pone = advice._FORMS["three"][3]
    assert data[three_pone : three_pone + 4] == bytes((400 & 255, 400 >> 8, 500 & 255, 500 >> 8))
