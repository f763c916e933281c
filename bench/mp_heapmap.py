# Where the heap goes at boot, part by part: run by bench/heapmap.py on the unix port and the emulated Pico.
# Boots as start.py does (every module, the board, the HAL, the App with its journal replay), then loads
# what comes later (the link, the menu, the discard advice), one part at a time, and prints what each part
# left held after a collection and the time it took (us, its collections left out), one JSON line at the end.
#   micropython -X heapsize=2m bench/mp_heapmap.py FIRMWARE_DIR BOARD_JSON JOURNAL_OR_- SIM_DATA -
#       FAKES_DIR
#   (on the Pico, by mpremote run, with no arguments: the deployed firmware, /board.json, its journal)
import gc
import sys
import time

PICO = sys.platform == "rp2"
ARGS = sys.argv[1:] if not PICO else []
if not PICO:
    sys.path[:0] = [ARGS[0]]  # pyright: ignore[reportPossiblyUnbound]

# Every module the board loads at boot, dependencies first, so that a module's figure is its own code,
# constants and globals, nothing of another's (a package's row names in brackets the sub-modules its
# __init__ loaded, and any other module the import brought): bench/heapmap.py writes the lists here from
# the firmware's imports (ORDER: what board.app and start import; MENU: what board.controller.menu adds,
# loaded when the menu first opens; ADVICE: what board.controller.advising adds, loaded when advice is
# first asked for).
ORDER = ""
MENU = ""
ADVICE = ""
# Sized once: a list grown on the way moved its old items to a new block, and that block counted in
# whichever part came next.
parts = [None] * 64
_n = [0]
_last = [0]
_since = [0]  # ticks_us when the part now measured began (after the last part's collections)


def held():
    gc.collect()
    gc.collect()
    return gc.mem_alloc()


_loaded = {}  # the modules already named in a row


def named(name):
    """name, with the other modules its import loaded (a package's __init__ loads its sub-modules)."""
    new = sorted([m for m in sys.modules if m not in _loaded and m != "__main__"])
    for m in new:
        _loaded[m] = True
    # the row is the outermost package loaded with it: importing a sub-module runs its package first
    head = name
    for m in new:
        if name.startswith(m + ".") and len(m) < len(head):
            head = m
    inner = [m[len(head) + 1 :] for m in new if m.startswith(head + ".")]
    other = [m for m in new if m != head and not m.startswith(head + ".")]
    rest = inner + other
    return head + " (+ " + " ".join(rest) + ")" if rest else head


def mark(name, imported=False):
    took = time.ticks_diff(time.ticks_us(), _since[0])  # pyright: ignore[reportAttributeAccessIssue]
    now = held()
    if imported:
        # the row's name is made between two measures, so that it counts in neither part
        name = named(name)
        now2 = held()
    else:
        now2 = now
    parts[_n[0]] = [name, now - _last[0], took]
    _n[0] += 1
    _last[0] = now2
    _since[0] = time.ticks_us()  # pyright: ignore[reportAttributeAccessIssue]


def main():
    if PICO:
        import codefs  # as main.py does: the modules from the bundle

        try:
            codefs.mount("/app.bundle")
        except (OSError, ValueError):
            pass
    names = ORDER.split() + ["asyncio"]
    for m in sys.modules:
        _loaded[m] = True
    _last[0] = held()
    _since[0] = time.ticks_us()  # pyright: ignore[reportAttributeAccessIssue]
    for name in names:
        if name in _loaded:
            continue  # loaded with its package, in that row
        __import__(name)
        mark(name, True)
    if PICO:
        __import__("hal.ws2812")
        __import__("hal.rp2")
        mark("hal.rp2, hal.ws2812 (the Pico's HAL)")
        hal_mod = sys.modules["hal.rp2"]
    else:
        for name in ("sim.flash", "sim.parts", "sim.hal"):
            __import__(name)
        mark("sim.flash, sim.parts, sim.hal (the sim's HAL)")
        hal_mod = sys.modules["sim.hal"]
    from board import app
    from board.boarddef import boardcache

    path = "/board.json" if PICO else ARGS[1]
    crc, size = boardcache.file_crc(path)
    board_def = boardcache.from_cache(boardcache.cache_path(path), crc, size)
    boardcache = None
    sys.modules.pop("board.boarddef.boardcache")
    delattr(sys.modules["board.boarddef"], "boardcache")
    mark("the board definition (board.cache)")
    if PICO:
        hal = hal_mod.make(board_def, {})
        mark("the HAL's objects")
        codefs.unmount()  # pyright: ignore[reportPossiblyUnbound]
        sys.modules.pop("codefs", None)
        mark("the code bundle's index, given back")
    else:
        hal = hal_mod.make(board_def, hal_mod.parse_args(["--headless", "--data", ARGS[3], "--fresh"]))
        mark("the HAL's objects")
    if not PICO and ARGS[2] != "-":
        with open(ARGS[2], "rb") as src, open(hal.storage_dir + app.JOURNAL, "wb") as dst:
            buf = bytearray(512)
            while True:
                n = src.readinto(buf)
                if not n:
                    break
                dst.write(memoryview(buf)[:n])
        buf = None
        _last[0] = held()
        _since[0] = time.ticks_us()  # pyright: ignore[reportAttributeAccessIssue]
    settings = app.Settings(hal.storage_dir + app.SETTINGS).load_saved()
    mark("settings")
    a = app.App(hal, board_def, settings)
    a.calm_gc()  # as App.main does first: and the room for the next commit
    mark("the App: match, journal, controller, render, view (%d events replayed)" % a.journal.next_seq)
    board_def.wiring = None  # pyright: ignore[reportAttributeAccessIssue] (as start.py, once the App is made)
    del board_def.wiring
    mark("the board's wiring, dropped (start.py)")
    boot_free = gc.mem_free()
    a.start_link()
    mark("the link, loaded when a laptop first sends a line: its code and state")
    for name in MENU.split():
        __import__(name)
    mark("the menu and name entry, loaded when the menu first opens")
    for name in ADVICE.split():
        __import__(name)
    from board.controller.advising import Advising

    a.controller.advising = Advising()
    mark("the discard advice, when first asked for: its code, an Advisor")
    lazy_free = gc.mem_free()
    if not PICO:
        # last, the Pico's own HAL on this port, its machine and rp2 modules faked (tests/support/rp2fakes.py)
        sys.path.append(ARGS[5])
        import rp2fakes

        # Imported twice, measured the second time: the first interns its names (and the fakes'), which
        # may cross into a new name pool the firmware's own names do not need.
        keep = []
        for _ in range(2):
            keep += [sys.modules.get("hal.rp2"), sys.modules.get("hal.ws2812")]  # the first, kept
            rp2fakes.install()
            _last[0] = held()
            __import__("hal.ws2812")
            __import__("hal.rp2")
        mark("hal.rp2, hal.ws2812 (the Pico's HAL; its names aside)")
        for _ in range(2):  # the display driver the Pico's HAL loads, the same way
            keep.append(sys.modules.pop("ssd1306", None))
            _last[0] = held()
            __import__("ssd1306")
        mark("ssd1306 (the Pico's display driver; its names aside)")
    total = gc.mem_free() + gc.mem_alloc()
    out = {"parts": parts[: _n[0]], "free": boot_free, "free_lazy": lazy_free, "total": total}
    hal.close()
    import json

    print(json.dumps(out))


main()
