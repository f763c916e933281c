# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# LED frames from the view: pegs, proposal blink, dealer, match points, animations, limiter, no redraw.
from board_fixture import reference

from board import render
from board.render import anims
from board.render.power import Limiter
from board.ticks import PERIOD, add

T0 = PERIOD - 300


def _render():
    b = reference()
    return b, render.Render(b, Limiter(b.wiring.power, b.led_count))


def _rgb(r, led):
    i = 3 * led
    return (r.frame[i], r.frame[i + 1], r.frame[i + 2])


def _lit(r):
    return [i for i in range(len(r.frame) // 3) if _rgb(r, i) != (0, 0, 0)]


def test_start_holes_lit_at_new_game():
    b, r = _render()
    r.view[render.BRIGHT] = 255
    assert r.update(T0)
    lit = sorted(_lit(r))
    expect = sorted([b.led_start[s][0] for s in range(3)] + [b.led_start[s][1] for s in range(3)])
    assert lit == expect
    red = b.colours[0]
    assert _rgb(r, b.led_start[0][0]) == tuple(red)
    back = _rgb(r, b.led_start[0][1])
    assert 0 < back[0] < red[0]  # back peg dimmer


def test_front_and_back_pegs_dealer_and_points():
    b, r = _render()
    v = r.view
    v[render.BRIGHT] = 255
    v[render.SIDES] = 2
    v[render.FRONT + 0], v[render.BACK + 0] = 17, 9
    v[render.FRONT + 1], v[render.BACK + 1] = 5, 0
    v[render.DEALER] = 1
    v[render.POINTS + 0] = 2
    r.update(T0)
    lit = set(_lit(r))
    assert b.led_track[0][16] in lit and b.led_track[0][8] in lit
    assert b.led_track[1][4] in lit and b.led_start[1][1] in lit
    assert b.led_dealer[1] in lit and b.led_dealer[0] not in lit
    assert b.led_record[0][0] in lit and b.led_record[0][1] in lit and b.led_record[0][2] not in lit
    assert b.led_start[2][0] not in lit  # third track unused in a two-sided game
    assert _rgb(r, b.led_track[0][16])[0] > _rgb(r, b.led_track[0][8])[0]


def test_redraw_only_when_something_changed():
    b, r = _render()
    assert r.update(T0)
    assert not r.update(add(T0, 500))
    r.view[render.FRONT] = 3
    assert r.update(add(T0, 600))
    assert r.redraws == 2


def test_proposal_blinks_at_its_hole():
    b, r = _render()
    v = r.view
    v[render.FRONT] = 10
    v[render.PEND_SIDE], v[render.PEND_HOLE], v[render.PEND_T0] = 0, 16, T0
    led = b.led_track[0][15]
    r.update(T0)
    assert _rgb(r, led) != (0, 0, 0)
    assert r.update(add(T0, 260))
    assert _rgb(r, led) == (0, 0, 0)
    assert not r.update(add(T0, 300))  # same blink phase: no redraw
    assert r.update(add(T0, 510))
    assert _rgb(r, led) != (0, 0, 0)


def test_brightness_scales_colours():
    b, r = _render()
    r.view[render.BRIGHT] = 255
    r.update(T0)
    full = _rgb(r, b.led_start[0][0])
    r.view[render.BRIGHT] = 64
    r.update(T0)
    assert _rgb(r, b.led_start[0][0])[0] == full[0] * 64 // 255


def test_winner_in_game_hole():
    b, r = _render()
    r.view[render.WINNER] = 1
    r.view[render.FRONT + 1] = 121
    r.update(T0)
    assert _rgb(r, b.led_game) != (0, 0, 0)


def test_animation_runs_then_ends_and_never_waits():
    b, r = _render()
    r.animate(anims.WIN, 0, 0, T0)
    r.update(add(T0, 400))
    assert len(_lit(r)) > 6  # comet on the track
    assert r.update(add(T0, 440))  # a new frame every FRAME_MS while it runs
    r.update(add(T0, anims.duration(anims.WIN) + 1))
    assert r.view[render.ANIM] == 0
    assert len(_lit(r)) == 6


def test_every_animation_stays_within_the_power_budget():
    b, r = _render()
    lim = r.limiter
    r.view[render.BRIGHT] = 255
    for kind in anims.ALL:
        r.animate(kind, 1, 0 + 4 * 91, T0)
        for t in range(0, anims.duration(kind), anims.FRAME_MS):
            r.update(add(T0, t))
            assert lim.estimate_ma(r.frame) <= b.wiring.power["budget_ma"]


def _no_sum(frame):
    raise AssertionError("the frame was summed")


def test_a_frame_of_pegs_or_an_animation_within_budget_is_not_summed_by_the_limiter():
    """Issue 15, item 3: the limiter summed every frame's 1191 bytes, most of a frame's 4.5 ms on a Pico.
    Pegs, record holes, dealer, winner and a proposal are at most 36 LEDs on the reference board,
    which fit its budget even at full white: such a frame is not summed. An animation may light
    any LED: its frame's bytes that are not 0, each at 255, bound it (counted in C); only a frame
    whose bound passes the budget is summed (before: every animation's frame, 4.6 ms on a Pico)."""
    from board.render import power

    b, r = _render()
    v = r.view
    v[render.BRIGHT] = 255
    for s in range(3):
        v[render.FRONT + s], v[render.BACK + s], v[render.POINTS + s] = 100 + s, 90 + s, b.record_count
    v[render.DEALER], v[render.WINNER] = 1, 2
    v[render.PEND_SIDE], v[render.PEND_HOLE], v[render.PEND_T0] = 0, 110, T0
    power.sum = _no_sum  # the module's own name shadows the builtin, on MicroPython too
    try:
        assert r.update(T0)
        lit = len(_lit(r))
        assert lit == 3 * (2 + b.record_count) + 3, lit  # every one of them lit, none dimmed
        assert max(r.frame) == 255
        r.animate(anims.ALL[0], 1, 4 * 91, T0)
        assert r.update(add(T0, 40))  # the comet's frame: not summed (_no_sum would raise)
        assert len(_lit(r)) > lit
        # a frame with many bytes lit, however dim: the bound passes the budget, so it is summed
        dim = bytearray(3 * b.led_count)
        for i in range(len(dim)):
            dim[i] = 1
        raised = False
        try:
            r.limiter.limit(dim)
        except AssertionError:
            raised = True
        assert raised, "a frame whose bound passes the budget was not summed"
    finally:
        del power.sum
    assert r.limiter.limit(dim) == 255 and max(dim) == 1  # summed: it fits, nothing dimmed
    # the bound is only trusted when it fits: 40 white LEDs are dimmed to the budget as before
    lim = Limiter(b.wiring.power, b.led_count)
    white = bytearray(3 * b.led_count)
    for i in range(120):
        white[i] = 255
    assert lim.limit(white, 40) < 255 and lim.estimate_ma(white) <= b.wiring.power["budget_ma"]


def _winks(r, b, start, cycles=1):
    """How often each track's front peg went dark over `cycles` cycles, and whether a back peg ever did."""
    v = r.view
    winks = [0, 0, 0]
    dark = [False, False, False]
    back_dark = False
    for t in range(start, start + 2000 * cycles, 10):
        r.update(t)
        for s in range(3):
            off = _rgb(r, b.led_track[s][v[render.FRONT + s] - 1]) == (0, 0, 0)
            winks[s] += off and not dark[s]
            dark[s] = off
            back_dark = back_dark or _rgb(r, b.led_track[s][v[render.BACK + s] - 1]) == (0, 0, 0)
    return winks, back_dark


def test_the_peg_cue_winks_each_side_s_front_peg_its_track_s_number_of_times():
    b, r = _render()
    v = r.view
    v[render.BRIGHT] = 255
    v[render.SIDES] = 3
    for s in range(3):
        v[render.FRONT + s], v[render.BACK + s] = 30 + s, 20 + s
    assert _winks(r, b, 4000) == ([0, 0, 0], False)  # off: pegs steady
    v[render.CUE] = 1
    assert _winks(r, b, 4000, cycles=2) == ([2, 4, 6], False)  # track 0 once a cycle, 1 twice, 2 three times
    # A proposal's blink is the one thing that blinks while it waits: no wink beside it.
    v[render.PEND_SIDE], v[render.PEND_HOLE], v[render.PEND_T0] = 0, 40, 4000
    assert _winks(r, b, 4000) == ([0, 0, 0], False)
