# The simulator's heap accounting stays true to what it stands for: sim/launch.py counts the sim's own HAL
# outside the firmware's heap and the Pico's HAL inside it (SIM_HAL, PICO_HAL). Both are measured again
# here with bench/heapmap.py on this port, but for the part of PICO_HAL measured on the emulated Pico
# (PICO_OBJECTS: what hal.rp2.make holds; `python -m bench.heapmap --pico` measures it). A sim that
# grew, or a Pico HAL that did, fails this until the figures are measured again (docs/memory.md,
# "How the simulator counts").
import os

import simbuild

from bench import heapmap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

launcher = simbuild.launcher


def _rows(code):
    os.makedirs(heapmap.WORK, exist_ok=True)
    path, _lines = heapmap.journal600()
    return {name: n for name, n, _us in heapmap.on_unix(code, path)["parts"]}


def _near(got, want):
    # A row holds its module's own allocations plus, now and then, a new block of the interned-name
    # pool, which lands in whichever row crosses the pool's end first: that crossing moves with anything
    # interned or allocated earlier (the board file's text moved it), so a row may swing by about a block.
    return abs(got - want) <= max(1024, want // 20)


def test_the_sims_hal_and_the_picos_as_measured():
    driver = {}
    for code in ("rom", "ram"):
        rows = _rows(code)
        sim = rows["sim.flash, sim.parts, sim.hal (the sim's HAL)"] + rows["the HAL's objects"]
        assert _near(sim, launcher.SIM_HAL[code]), (code, sim, launcher.SIM_HAL[code])
        pico_modules = rows["hal.rp2, hal.ws2812 (the Pico's HAL; its names aside)"]
        driver[code] = rows["ssd1306 (the Pico's display driver; its names aside)"]
        in_flash = launcher.DRIVER_CODE if code == "rom" else 0
        want = launcher.PICO_HAL[code] - launcher.PICO_OBJECTS + in_flash
        assert _near(pico_modules, want), (code, pico_modules, want)
    # the driver's code, which a ROM image keeps in flash (tools/deploy.py puts the driver in it)
    assert _near(driver["ram"] - driver["rom"], launcher.DRIVER_CODE), (driver, launcher.DRIVER_CODE)


def test_the_picos_byte_buffers_are_the_reference_boards():
    # Counted at their own size, not scaled as objects are: the display's frame, one word an LED, the
    # USB link's line buffer (one over the longest line, and its one-byte chunk).
    from board.boarddef import boardfile
    from hal.lines import MAX_LINE

    b = boardfile.load(os.path.join(ROOT, "hardware", "board.json"))
    frame = b.wiring.display["width"] * b.wiring.display["height"] // 8
    assert frame + 4 * b.led_count + MAX_LINE + 2 == launcher.PICO_BUFFERS


def test_a_package_is_one_row_with_its_sub_modules():
    # importing a sub-module runs its package's __init__ first: a row of its own before the package
    # would hold the whole package, and the package's row nothing
    order = heapmap.import_order("board.app", "hal.lines")
    assert "board.controller" in order and "board.render" in order
    assert "board.controller.entry" not in order and "board.controller.keyed" not in order
    assert "board.render.anims" not in order
    # what the package imports from outside it comes first, in its own row
    assert order.index("board.edges.sensors") < order.index("board.controller")
    # a function's import does not pull its module's package in ahead (board.display opens the menu)
    assert order.index("board.display") < order.index("board.controller")
    # a sub-module loaded after its package, not by it, keeps its own row
    assert order.index("board.render") < order.index("board.render.power")


def test_each_row_names_what_its_import_loaded():
    os.makedirs(heapmap.WORK, exist_ok=True)
    path, _lines = heapmap.journal600()
    rows = [name for name, _n, _us in heapmap.on_unix("ram", path)["parts"]]
    assert "board.controller (+ entry keyed)" in rows, rows
    assert "board.render (+ anims)" in rows, rows
    assert "board.render.power" in rows, rows
