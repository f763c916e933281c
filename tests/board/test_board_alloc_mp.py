# Hot paths of the board allocate nothing: LED frame render (every animation), key scan, sensor scan.
import micropython
from board_fixture import reference

from board import edges, render
from board.edges import sensors
from board.edges.keys import Keys
from board.render import anims
from board.render.power import Limiter
from board.ticks import PERIOD, add

T0 = PERIOD - 1000


def _locked(fn):
    micropython.heap_lock()
    try:
        fn()
    finally:
        micropython.heap_unlock()


def test_render_every_frame_without_allocating():
    b = reference()
    r = render.Render(b, Limiter(b.wiring.power, b.led_count))
    v = r.view
    r.update(T0)  # first draw makes the brightness colours

    def frames():
        v[render.FRONT] = 30
        v[render.BACK] = 21
        v[render.DEALER] = 1
        v[render.POINTS + 1] = 3
        v[render.PEND_SIDE], v[render.PEND_HOLE], v[render.PEND_T0] = 0, 44, T0
        for t in range(0, 1000, 20):
            r.update(add(T0, t))
        v[render.BRIGHT] = 255  # a new brightness rebuilds the colours in place
        for kind in anims.ALL:
            r.animate(kind, 1, 0 + 4 * 91, T0)
            t = 0
            while t < anims.duration(kind) + 100:  # range() with a non-literal step allocates
                r.update(add(T0, t))
                t += anims.FRAME_MS

    _locked(frames)
    assert r.redraws > 100


def test_key_and_sensor_scan_without_allocating():
    b = reference()
    ring = edges.Ring(32)
    keys = Keys(20, ring)
    sens = sensors.from_board(b, ring)
    raw = bytearray(b.sensor_bits // 8)
    for bit, level in b.wiring.sensor_fixed:
        if not level:  # active-low: the HAL hands a tied-to-GND input over as a set bit
            raw[bit // 8] |= 0x80 >> (bit % 8)
    keys.update(0, T0)
    sens.update(raw, T0)

    def scans():
        for t in range(0, 20000, 5):
            now = add(T0, t)
            keys.update((1 << 3) if 100 <= t < 200 else 0, now)
            if t == 300:
                raw[0] |= 0x20
            sens.update(raw, now)
            while ring.get() >= 0:
                pass

    _locked(scans)
    assert sens.fault == 0


def test_idle_app_step_without_allocating():
    from scenario import Scenario

    s = Scenario()
    try:
        s.keys("A OK")
        s.peg(1, 6)
        s.tap(0, 4)  # a proposal blinking: frames keep changing
        hal = s.hal
        app = s.app

        def idle():
            for _ in range(400):
                hal.advance(5)
                app.step(hal.now)

        writes = hal.leds.writes
        _locked(idle)
        assert hal.leds.writes > writes  # it blinked: frames were drawn under the lock
    finally:
        s.close()
