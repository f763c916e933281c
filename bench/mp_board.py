# Board bench on the MicroPython unix port: frame render, key+sensor scan, key press to frame ready.
# Run by bench/bench_board.py (its path: firmware/, tests/support/); prints one JSON object (the last line).
import gc
import json
import time

import vfs
from board_fixture import reference
from cutblockdev import CutBlockDev
from fakehal import FakeHal

from board import app, edges, render
from board.edges import sensors
from board.edges.keys import Keys
from board.render import anims
from board.render.power import Limiter
from board.settings import Settings

RUNS = 5


def _best(fn, n):
    """Best of RUNS of n calls of fn(i), in microseconds per call."""
    best = None
    for _ in range(RUNS):
        gc.collect()
        t0 = time.ticks_us()
        for i in range(n):
            fn(i)
        us = time.ticks_diff(time.ticks_us(), t0) / n
        best = us if best is None or us < best else best
    return best


def bench_render(b):
    r = render.Render(b, Limiter(b.wiring.power, b.led_count))
    v = r.view
    v[render.FRONT], v[render.BACK] = 40, 31
    v[render.FRONT + 1], v[render.BACK + 1] = 55, 47
    v[render.FRONT + 2], v[render.BACK + 2] = 12, 3
    v[render.DEALER] = 1
    v[render.POINTS] = 3

    def full(i):  # a peg moved: a whole new frame, limiter included
        v[render.FRONT] = 41 + (i & 15)
        r.update(i * 40)

    def idle(i):  # nothing changed: the check that skips the redraw
        r.update(1000)

    out = {"render_full_us": _best(full, 200)}
    r.update(1000)
    out["render_unchanged_us"] = _best(idle, 500)
    worst = 0
    for kind in anims.ALL:
        r.animate(kind, 1, 0 + 4 * 91, 0)

        def frame(i, kind=kind):
            r.update(i * anims.FRAME_MS % anims.duration(kind))

        us = _best(frame, 50)
        out["anim_%s_us" % anims.NAMES[kind].replace(" ", "_")] = us
        worst = max(worst, us)
    out["render_anim_worst_us"] = worst
    # the limiter's dimming pass itself, on an all-white frame (every byte scaled)
    ones = bytearray(b"\xff" * (3 * b.led_count))
    white = bytearray(len(ones))

    def dim(i):
        white[:] = ones
        r.limiter.limit(white)

    out["limiter_dim_all_us"] = _best(dim, 20)
    return out


def bench_scan(b):
    ring = edges.Ring(32)
    keys = Keys(len(b.key_names), ring)
    sens = sensors.from_board(b, ring)
    hal = FakeHal(b, storage_dir="/")
    raw = bytearray(b.sensor_bits // 8)
    for bit, level in b.wiring.sensor_fixed:
        if not level:
            hal.sensors.raw[bit // 8] |= 0x80 >> (bit % 8)
    keys.update(0, 0)
    hal.sensors.readinto(raw)
    sens.update(raw, 0)

    def scan(i):
        now = i * 5
        keys.update(hal.keys.scan(), now)
        hal.sensors.readinto(raw)
        sens.update(raw, now)

    return {"scan_us": _best(scan, 500)}


def bench_press_to_frame(b):
    """The scan task's pass that sees the edge (App._scan_apply: scan, apply, draw), to the LED frame
    handed to the HAL and to its end; the save task's pass (its collection after an event) after it."""
    dev = CutBlockDev(4096, 64)
    vfs.VfsLfs2.mkfs(dev)
    fs = vfs.VfsLfs2(dev)
    vfs.mount(fs, "/flash")
    try:
        hal = FakeHal(b, storage_dir="/flash", start_ms=0)
        a = app.App(hal, b, Settings())
        framed = [0]
        write = hal.leds.write

        def timed_write(frame):  # the moment the frame is handed to the LEDs
            framed[0] = time.ticks_us()
            write(frame)

        hal.leds.write = timed_write
        raw = hal.sensors.raw
        for bit, level in b.wiring.sensor_fixed:
            if not level:
                raw[bit // 8] |= 0x80 >> (bit % 8)

        def run(ms):
            for _ in range(ms // 5):
                hal.advance(5)
                a.step(hal.now)

        def press(name):
            hal.keys.down = hal.keys.bit(name)
            hal.advance(5)
            writes = hal.leds.writes
            t0 = time.ticks_us()
            a._scan_apply(hal.now)  # the scan task's pass, as the app runs it: the frame is drawn in it
            us = time.ticks_diff(time.ticks_us(), t0)
            assert hal.leds.writes == writes + 1, "no new frame"
            ok_frame.append(time.ticks_diff(framed[0], t0))
            a.save(hal.now)  # the save task's pass comes after: its collection does not delay the frame
            hal.keys.down = 0
            run(60)
            return us

        run(50)
        for name in ("A", "OK"):  # player 1 deals: the taps below are pegs the match takes
            hal.keys.down = hal.keys.bit(name)
            run(60)
            hal.keys.down = 0
            run(60)
        press_ok = []  # OK confirming a peg: game + journal append on littlefs + frame + display text
        ok_frame = []  # the same, until the LED frame is handed over (the display text comes after)
        tap_frame = []
        tap = []  # a hole tapped: proposal + frame
        for k in range(12):
            side = k % 2
            hole = a.match.front[side] + 3
            bit = b.sensor_track[a.track_of(side)][hole - 1]
            raw[bit // 8] |= 0x80 >> (bit % 8)
            hal.advance(5)
            writes = hal.leds.writes
            t0 = time.ticks_us()
            a._scan_apply(hal.now)
            tap.append(time.ticks_diff(time.ticks_us(), t0))
            tap_frame.append(time.ticks_diff(framed[0], t0))
            a.save(hal.now)
            assert hal.leds.writes == writes + 1
            run(60)
            raw[bit // 8] &= ~(0x80 >> (bit % 8)) & 0xFF
            run(60)
            press_ok.append(press("OK"))
        # steady state: nothing happens, one pass of everything
        idle = []
        for _ in range(200):
            hal.advance(5)
            t0 = time.ticks_us()
            a.step(hal.now)
            idle.append(time.ticks_diff(time.ticks_us(), t0))
        for x in (tap, press_ok, idle, ok_frame, tap_frame):
            x.sort()
        a.journal.close()
        return {
            "tap_to_frame_us": tap[len(tap) // 2],
            "ok_to_frame_us": press_ok[len(press_ok) // 2],
            "ok_to_frame_max_us": press_ok[-1],
            "idle_step_us": idle[len(idle) // 2],
            "tap_to_leds_us": tap_frame[len(tap_frame) // 2],
            "ok_to_leds_us": ok_frame[len(ok_frame) // 2],
        }
    finally:
        vfs.umount("/flash")


def main():
    b = reference()
    out = {"led_count": b.led_count, "sensor_bytes": b.sensor_bits // 8}
    out.update(bench_render(b))
    out.update(bench_scan(b))
    out.update(bench_press_to_frame(b))
    gc.collect()
    out["heap_used"] = gc.mem_alloc()
    print(json.dumps(out))


main()
