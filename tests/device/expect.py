# What the board should show for a journal, computed on CPython by the firmware's own App on the fake HAL.
"""The smoke test compares the emulated Pico's decoded LEDs and display with these: the same App,
renderer and display code, fed the same journal, so a difference is the rp2 port, the HAL or the wire."""

import json

from board_fixture import reference
from fakehal import FakeHal, remove_tree

from board import app as board_app
from board.store.journal import Journal


def board_for(lines):
    """(lit LEDs per data pin as the emulator reports them, display rows) of a board booted with these
    journal lines (empty: a new match), after one pass."""
    b = reference()
    hal = FakeHal(b)
    try:
        if lines:
            j = Journal(hal.storage_dir + board_app.JOURNAL, max_bytes=1 << 30)
            j.open()
            j.compact(list(lines), 1)
            j.close()
        for (
            bit,
            level,
        ) in b.wiring.sensor_fixed:  # the chain's tied spares, as the emulator's --sensor-on sets them
            if level ^ (1 if b.sensor_active_low else 0):
                hal.sensors.raw[bit // 8] |= 0x80 >> (bit % 8)
        a = board_app.App(hal, b)
        for _ in range(4):  # the first reading is the chain's baseline: a few passes, as the board has made
            hal.advance(5)
            a.step(hal.now)
        return lit_by_pin(b, hal.leds.frame), [r.ljust(16)[:16] for r in hal.display.rows]
    finally:
        remove_tree(hal.storage_dir)


def lit_by_pin(b, frame):
    """An R,G,B frame as the emulator decodes the wire: {pin: [[index in chain, "GRB hex"], ...]}."""
    order = b.wiring.led_order
    out = {}
    start = 0
    for pin, count in zip(b.wiring.led_pins, b.wiring.led_chains, strict=True):
        lit = []
        for k in range(count):
            i = 3 * (start + k)
            rgb = {"R": frame[i], "G": frame[i + 1], "B": frame[i + 2]}
            word = "".join("%02x" % rgb[c] for c in order)
            if word != "000000":
                lit.append([k, word])
        out[str(pin)] = lit
        start += count
    return out


def emulated_lit(leds_json):
    """The emulator's `leds` answer as {pin: lit}."""
    d = json.loads(leds_json) if isinstance(leds_json, str) else leds_json
    return {pin: d[pin]["lit"] for pin in d}
