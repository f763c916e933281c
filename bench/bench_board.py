# Board bench: frame render, key+sensor scan, key press to frame ready (MicroPython unix, Pico x150);
# the current limiter's worst estimated draw over every animation frame (CPython, same code).
"""Runs bench/mp_board.py on the MicroPython unix port and reports, with the Pico estimate (x150):

- full-frame render (a peg moved: clear, pegs, record holes, dealer, limiter), an unchanged frame
  (the check that skips the redraw), each animation's frames, the limiter dimming every byte;
- one key + sensor scan (keys.update, the HAL's 48-byte readinto, sensors.update), nothing moving;
- key press to frame ready: the App.step that first sees the edge, through the controller, the game,
  the journal append on littlefs (a RAM flash) and the render, to the frame handed to the HAL (and
  then to the end of the pass, the display text drawn; the SSD1306's I2C transfer is not in it);
- then, with the firmware's own render and limiter on CPython: the estimated current of every frame
  of every animation at full brightness with every peg, record hole and dealer LED lit, before and
  after the limiter, against the budget in hardware/board.json. All currents are estimates.
"""

import json
import os
import subprocess
import sys

from tools import unixport

PICO_FACTOR = 150  # MicroPython unix on a laptop -> RP2040 at 125 MHz (the team's agreed ratio)
SCAN_MS = 5  # the app's scan period
FRAME_MS = 20  # the app's frame period

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure():
    script = os.path.join(_ROOT, "bench", "mp_board.py")
    done = subprocess.run(
        [unixport.MICROPYTHON, "-X", "heapsize=4m", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=_ROOT,
        env=unixport.env(unixport.FIRMWARE, unixport.SUPPORT),
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def currents():
    """Worst estimated mA over every animation frame, before and after the limiter."""
    from board_fixture import reference

    from board import render
    from board.render import anims
    from board.render.power import Limiter

    b = reference()
    lim = Limiter(b.wiring.power, b.led_count)

    class Probe:
        worst_raw = 0
        worst = 0
        dimmed = 0

        def limit(self, frame, n=-1):
            raw = lim.estimate_ma(frame)
            scale = lim.limit(frame, n)
            after = lim.estimate_ma(frame)
            Probe.worst_raw = max(Probe.worst_raw, raw)
            Probe.worst = max(Probe.worst, after)
            if scale < 255:
                Probe.dimmed += 1
            return scale

    out = {}
    frames = 0
    for kind in anims.ALL:
        Probe.worst_raw = Probe.worst = 0
        for side in range(b.sides):
            r = render.Render(b, Probe())
            v = r.view
            v[render.BRIGHT] = 255
            for t in range(b.sides):
                v[render.FRONT + t], v[render.BACK + t] = 119, 110
                v[render.POINTS + t] = b.record_count
            v[render.DEALER] = 0
            v[render.WINNER] = side
            loser = (side + 1) % b.sides
            v[render.FRONT + loser] = 40
            r.animate(kind, side, loser + 4 * 91, 0)
            for t in range(0, anims.duration(kind), 5):
                r.update(t)
                frames += 1
        out[anims.NAMES[kind]] = (Probe.worst_raw, Probe.worst)
    return {
        "per_anim": out,
        "frames": frames,
        "budget_ma": b.wiring.power["budget_ma"],
        "dark_ma": lim.fixed_ma(),
        "dimmed_frames": Probe.dimmed,
    }


def report(r, c):
    def pico(us):
        return us * PICO_FACTOR / 1000.0

    out = [
        "board bench (%d LEDs, %d sensor bytes; MicroPython unix, best of runs; Pico = unix x%d)"
        % (r["led_count"], r["sensor_bytes"], PICO_FACTOR)
    ]
    rows = [
        ("full-frame render + limiter", "render_full_us"),
        ("unchanged frame (skip)", "render_unchanged_us"),
        ("worst animation frame", "render_anim_worst_us"),
        ("limiter dimming every byte", "limiter_dim_all_us"),
        ("key + sensor scan (idle)", "scan_us"),
        ("whole App.step, nothing new", "idle_step_us"),
        ("hole tap -> LED frame ready", "tap_to_leds_us"),
        ("  ... and display text drawn", "tap_to_frame_us"),
        ("OK -> journal -> LED frame ready", "ok_to_leds_us"),
        ("  ... and display text (median)", "ok_to_frame_us"),
        ("  ... and display text (worst)", "ok_to_frame_max_us"),
    ]
    for label, key in rows:
        out.append("  %-32s %8.1f us unix -> %6.2f ms Pico" % (label, r[key], pico(r[key])))
    scan_share = pico(r["idle_step_us"]) / SCAN_MS * 100
    out.append(
        "  an idle pass every %d ms keeps the Pico about %.0f%% busy (estimate)" % (SCAN_MS, scan_share)
    )
    out.append(
        "  animations: %s us a frame"
        % ", ".join("%s %.1f" % (k[5:-3].replace("_", " "), r[k]) for k in sorted(r) if k.startswith("anim_"))
    )
    out.append("  heap in use after the bench: %d bytes (64-bit unix port)" % r["heap_used"])
    out.append(
        "limiter over every animation frame (%d frames, brightness 255, all pegs lit; estimates):"
        % c["frames"]
    )
    worst = 0
    for name, (raw, after) in sorted(c["per_anim"].items()):
        worst = max(worst, after)
        out.append("  %-12s raw %5d mA -> limited %5d mA" % (name, raw, after))
    verdict = "within" if worst <= c["budget_ma"] else "OVER"
    out.append(
        "  worst %d mA %s the %d mA budget (dark board %d mA; %d frames dimmed by the limiter)"
        % (worst, verdict, c["budget_ma"], c["dark_ma"], c["dimmed_frames"])
    )
    return "\n".join(out)


def main():
    print(report(measure(), currents()))


if __name__ == "__main__":
    sys.exit(main())
