# start.py drops what only the boot uses once it is done (docs/memory.md, "Drop what boot alone needs"): on
# the Pico hal.rp2's set-up functions after hal.rp2.make. A name start.py drops that the module lacks
# would stop the boot (delattr raises), and a function the running board still calls would fail later:
# start.py's list is read from its source, and a Hal made, then left without them, still does its work.
import ast
import os

import rp2fakes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _dropped_from_the_hal():
    with open(os.path.join(ROOT, "firmware", "start.py")) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.For)
            and isinstance(node.iter, ast.Tuple)
            and any(
                isinstance(c, ast.Call) and getattr(c.func, "id", "") == "delattr" for c in ast.walk(node)
            )
        ):
            return [e.value for e in node.iter.elts]
    raise AssertionError("start.py drops nothing from the HAL")


def test_the_pico_hal_works_without_its_set_up_code():
    names = _dropped_from_the_hal()
    assert "make" in names
    try:
        hal, m, _r, o, b, hal_rp2 = rp2fakes.reference_hal()
        for name in names:
            delattr(hal_rp2, name)  # as start.py does: each of them is there to drop
        # what the running board calls: keys, sensors, LEDs, display, link, clock, log, heap
        i = b.key_names.index("OK")
        ncols = len(b.key_cols)
        m.matrix.down = {(i // ncols, i % ncols)}
        assert hal.keys.scan() == 1 << i
        buf = bytearray(b.sensor_chips)
        hal.sensors.readinto(buf)
        hal.leds.write(bytearray(3 * b.led_count))
        hal.display.fill(0)
        hal.display.text(0, 0, "P1 15")
        hal.display.show()
        assert o.oled.shown[-1].startswith("P1 15")
        assert hal.link is not None and hal.board_uid() and hal.storage_dir == "/tmp"
        hal.log("logged")
        hal.ticks_diff(hal.ticks_ms(), 0)
        hal.close()
    finally:
        rp2fakes.uninstall()
