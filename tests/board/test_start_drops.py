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
        ncols = len(b.wiring.key_cols)
        m.matrix.down = {(i // ncols, i % ncols)}
        assert hal.keys.scan() == 1 << i
        buf = bytearray(b.wiring.sensor_chips)
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


# What only the App's set-up runs: start.py's main deletes these constructors (and functions) once
# the App is built. A call of one anywhere else in what runs on a board (the firmware, and the simulator's
# code around it) would fail after boot; the first light (board/render/firstlight.py) runs before the App.
SET_UP = (
    "start.py:main",
    "board/app.py:App.__init__",
    "board/render/firstlight.py:show",
    "hal/rp2.py:make",
    "hal/rp2.py:make_leds",
    "hal/rp2.py:Hal.__init__",  # called by make: its USB link
    "board/render/power.py:budget",  # the maker's power budget (hardware/tools), never on a board
)


def _start_main():
    """start.py's main, parsed."""
    with open(os.path.join(ROOT, "firmware", "start.py")) as f:
        tree = ast.parse(f.read())
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "main")


def _dropped_setup():
    """(the classes whose constructors start.py's main deletes, the module functions it deletes with them)."""
    main = _start_main()
    loops = [
        n
        for n in ast.walk(main)
        if isinstance(n, ast.For) and any(getattr(t, "attr", "") == "__init__" for t in ast.walk(n))
    ]
    assert len(loops) == 2  # the app's classes, and on the Pico its HAL's parts
    assert all(isinstance(loop.iter, ast.Tuple) for loop in loops)
    classes = [e.attr for loop in loops for e in loop.iter.elts if isinstance(e, ast.Attribute)]
    functions = [
        t.attr
        for n in main.body
        if isinstance(n, ast.Delete)
        for t in n.targets
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Attribute)  # app.<module>.<function>
    ]
    return classes, functions


def _visit(node, where, rel, key, found):
    for child in ast.iter_child_nodes(node):
        inner = where
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = where + [child.name]
        name = key(child)
        if name in found:
            found[name].append("%s:%s" % (rel, ".".join(inner)))
        _visit(child, inner, rel, key, found)


def _uses(names, key):
    """{name: [where key(node) is that name: "file:Class.function"]} over the firmware's and the
    simulator's sources (firmware files by their path in firmware/, the simulator's as sim/...)."""
    found = {name: [] for name in names}
    for top in ("firmware", "sim"):
        for folder, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for file in files:
                if file.endswith(".py"):
                    path = os.path.join(folder, file)
                    with open(path) as f:
                        tree = ast.parse(f.read())
                    rel = os.path.relpath(path, os.path.join(ROOT, "firmware") if top == "firmware" else ROOT)
                    _visit(tree, [], rel, key, found)
    return found


def _called(node):
    if isinstance(node, ast.Call):
        f = node.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return ""


def _calls(names):
    return _uses(names, _called)


def test_what_start_drops_after_the_set_up_only_the_set_up_calls():
    classes, functions = _dropped_setup()
    assert "App" in classes and functions, (classes, functions)
    for name, where in _calls(classes + functions).items():
        assert where, "%s is never called: nothing to drop" % name
        # called by the set-up, or by a function dropped with it
        stray = [w for w in where if w not in SET_UP and w.split(":")[1].split(".")[-1] not in functions]
        assert stray == [], (name, where)


def test_the_pico_lights_the_pegs_before_it_loads_the_app():
    # start.py's main: the first light (board/render/firstlight.py) runs before the app's import, and its
    # module is dropped after it.
    main = _start_main()
    lines = {}
    for node in ast.walk(main):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "show":
            lines["lit"] = node.lineno
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_drop":
            lines["dropped"] = node.lineno
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module == "board"
            and [a.name for a in node.names] == ["app"]
        ):
            lines["app"] = node.lineno
    assert lines["lit"] < lines["dropped"] < lines["app"], lines


# The board's wiring (boarddef.Wiring: pins, buses, chains, the tied sensor inputs, the power figures) is
# read by the set-up alone, and start.py drops it once the HAL and the App are made: a Board has no such
# field from then on, so a reader after boot fails at once (AttributeError), as it never did when the
# fields were emptied and read back as {} or [].
WIRING_READERS = (
    "start.py:main",  # hands it over, then drops it
    "hal/rp2.py:make",
    "hal/rp2.py:make_leds",
    "board/render/firstlight.py:show",
    "board/app.py:App.__init__",
    "board/edges/sensors.py:from_board",  # called by App.__init__, and dropped with it
    "board/render/power.py:budget",  # the maker's power budget (hardware/tools), never on a board
    "sim/parts.py:SimSensors.__init__",  # sim.hal.make's
    "sim/hal.py:SimHal.__init__",  # sim.hal.make's: whether the board file has a piezo
)
# The board file's modules make and fill it
BOARD_FILES = ("board/boarddef/__init__.py", "board/boarddef/boardfile.py", "board/boarddef/boardcache.py")


def test_only_the_set_up_reads_the_boards_wiring():
    where = _uses(["wiring"], lambda n: n.attr if isinstance(n, ast.Attribute) else "")["wiring"]
    stray = [w for w in where if w not in WIRING_READERS and not w.startswith(BOARD_FILES)]
    assert "hal/rp2.py:make" in where and stray == [], stray


def test_start_drops_the_wiring_once_the_app_is_made():
    main = _start_main()
    lines = {}
    for node in ast.walk(main):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "App":
            lines["app"] = node.lineno
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "run":
            lines["run"] = node.lineno
        elif isinstance(node, ast.Delete) and [getattr(t, "attr", "") for t in node.targets] == ["wiring"]:
            lines["dropped"] = node.lineno
    assert lines["app"] < lines["dropped"] < lines["run"], lines


def test_a_board_without_its_wiring_says_so_and_plays_on():
    # Before: start.py emptied the fields (pins, display, led_pins, ...): read after boot they were {}
    # and [] with no error. Now the board, its wiring dropped as start.py drops it, has no such field.
    from fakehal import FakeHal, remove_tree

    from board import app
    from board.boarddef import boardfile

    b = boardfile.load(os.path.join(ROOT, "hardware", "board.json"), layout=False)
    hal = FakeHal(b)
    try:
        running = app.App(hal, b)
        b.wiring = None
        del b.wiring
        for name in (
            "wiring",
            "pins",
            "display",
            "led_pins",
            "led_chains",
            "key_rows",
            "sensor_fixed",
            "power",
        ):
            try:
                getattr(b, name)
                raise AssertionError("the board still has %s after boot" % name)
            except AttributeError:
                pass
        for _ in range(4):
            hal.advance(5)
            running.step(hal.now)
        running.book.apply({"t": "dealer", "p": 0})
        running.book.new_match(running.match.setup)
        hal.advance(5)
        running.step(hal.now)
        assert running.match.dealer_side is None and hal.leds.writes and hal.display.shows
        running.journal.close()
    finally:
        remove_tree(hal.storage_dir)
