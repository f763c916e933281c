# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The current limiter: estimates from the board file's figures, every frame dimmed into the budget.
from board.boarddef.boardfile import load
from board.render.power import Limiter, budget

POWER = {
    "supply_ma": 3000,
    "budget_ma": 2500,
    "idle_ma_per_led": 1.0,
    "ma_per_channel": 18.0,
    "mcu_ma": 50,
    "display_ma": 20,
}


def _path():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return here + "/../../hardware/board.json"


def test_dark_frame_is_idle_plus_pico_and_display():
    lim = Limiter(POWER, 400)
    frame = bytearray(1200)
    assert lim.idle_ma() == 400
    assert lim.estimate_ma(frame) == lim.fixed_ma() == 470
    assert lim.limit(frame) == 255


def test_one_white_led_is_three_channels():
    lim = Limiter(POWER, 400)
    frame = bytearray(1200)
    frame[0] = frame[1] = frame[2] = 255
    assert lim.estimate_ma(frame) == 470 + 54


def test_fractional_figures_round_up():
    lim = Limiter(dict(POWER, ma_per_channel=18.3, idle_ma_per_led=0.6), 10)
    frame = bytearray(30)
    frame[0] = 1  # 18.3 / 255 mA = 0.0718 mA: still counted
    assert lim.estimate_ma(frame) == 6 + 70 + 1


def test_small_frame_unchanged():
    lim = Limiter(POWER, 400)
    frame = bytearray(1200)
    for i in range(0, 60, 3):
        frame[i] = 200
    before = bytes(frame)
    assert lim.limit(frame) == 255
    assert bytes(frame) == before


def test_full_white_is_dimmed_into_budget():
    lim = Limiter(POWER, 400)
    frame = bytearray(b"\xff" * 1200)
    assert lim.estimate_ma(frame) == 470 + 400 * 54
    scale = lim.limit(frame)
    assert 0 < scale < 255
    est = lim.estimate_ma(frame)
    assert est <= 2500
    assert est > 2500 - 400 * 54 // 255 - 1  # dimmed no further than one step of scale
    assert frame[0] == frame[-1] == 255 * scale // 255


def test_every_level_stays_in_budget():
    lim = Limiter(dict(POWER, budget_ma=900), 397)
    for level in (1, 7, 64, 128, 200, 255):
        for lit in (1, 37, 120, 397):
            frame = bytearray(3 * 397)
            for i in range(3 * lit):
                frame[i] = level
            lim.limit(frame)
            assert lim.estimate_ma(frame) <= 900, (level, lit)


def test_budget_below_fixed_draw_goes_dark():
    lim = Limiter(dict(POWER, budget_ma=400), 400)
    frame = bytearray(b"\x10" * 1200)
    assert lim.limit(frame) == 0
    assert sum(frame) == 0


def test_limiter_allocates_nothing():
    try:
        import micropython
    except ImportError:  # CPython has no heap lock; the MicroPython run covers this
        return
    lim = Limiter(POWER, 397)
    frame = bytearray(b"\xff" * (3 * 397))
    micropython.heap_lock()
    try:
        est = lim.estimate_ma(frame)
        scale = lim.limit(frame)
        after = lim.estimate_ma(frame)
    finally:
        micropython.heap_unlock()
    assert est > after and scale < 255


def test_reference_board_budget():
    b = load(_path())
    f = budget(b)
    assert f["led_count"] == 397 and f["idle_ma"] == 397
    assert f["dark_ma"] == 397 + 50 + 20
    assert f["full_white_ma"] == f["dark_ma"] + 397 * 54
    assert f["limited_ma"] <= f["budget_ma"] <= f["supply_ma"]
    assert f["peg_ma"] == (sum(b.colours[0]) * 18 + 254) // 255
