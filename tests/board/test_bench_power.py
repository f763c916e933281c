# The power figures `make bench` prints (bench/bench_board.py): every animation, on a board with every
# peg lit at full brightness, drawn by the real renderer through the real limiter, within the budget.
from bench import bench_board


def test_every_animation_frame_fits_the_power_budget_as_make_bench_reports():
    c = bench_board.currents()
    assert c["frames"] > 1000
    for name, (raw, limited) in c["per_anim"].items():
        assert 0 < limited <= raw, name
        assert limited <= c["budget_ma"], (name, limited)
    assert c["dark_ma"] < min(raw for raw, _ in c["per_anim"].values())
