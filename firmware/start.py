# Composition root: pick the HAL for this platform, load the board file, run the board app (main.py calls
# main). On the Pico (sys.platform "rp2") it is hal.rp2 and /board.json; anywhere else (the MicroPython
# unix port: `make sim`) the simulator's sim.hal (sim/, built beside the firmware by sim/launch.py, never
# deployed) with hardware/board.json and the sim's command line. A module, not
# main.py itself: the Pico compiles main.py from source on its heap at every boot and keeps the
# bytecode there, while this is compiled ahead and runs from flash with the rest (docs/memory.md).
import gc
import sys

from board import _drop


def _here():
    path = __file__ if "/" in __file__ else "./" + __file__
    return path.rsplit("/", 1)[0]


def _intern_chars():
    """Intern the card letters now, while the heap is calm: format_card indexes RANKS and SUITS, and
    MicroPython interns a one-character string the first time indexing makes it ("KH"[0]); a new
    qstr pool asked for mid-game, in a fragmented heap, fails ([name budget] docs/memory.md, "No new
    interned strings after boot"). Nothing else in the firmware indexes or iterates a str: it
    slices (s[i : i + 1] is not interned), so input cannot intern what it holds."""
    from cribbage.cards import RANKS, SUITS

    for _c in RANKS + SUITS:
        pass


def _load_board(path, layout, hal_mod):
    """The Board of the board file at path, or None when it is refused (said on console and display).

    A cache made on the laptop from this very file (boardcache.from_cache) stands for the check; any
    other file is checked by boardfile.load. Neither module's code stays after boot."""
    if not layout:
        from board.boarddef import boardcache

        try:
            crc, size = boardcache.file_crc(path)
        except OSError:
            crc = size = -1  # no board file: the check below says so
        board_def = boardcache.from_cache(boardcache.cache_path(path), crc, size) if crc >= 0 else None
        boardcache = None
        _drop("board.boarddef.boardcache")
        if board_def is not None:
            return board_def
    from board.boarddef import boardfile

    try:
        return boardfile.load(path, layout=layout)
    except boardfile.BoardFileError as e:
        # Named on the console and, when the file still says where it is, the display.
        print("board file refused: %s" % e)
        show = getattr(hal_mod, "show_error", None)
        if show is not None:
            show(str(e), path)
        return None
    finally:
        boardfile = None
        _drop("board.boarddef.boardfile")


def main(argv):
    global _intern_chars, _load_board, _drop, _here
    flash = __file__[:5] == "/rom/" or __file__[:8] == ".frozen/"
    if flash:
        # The code in flash: collect every 16 KB allocated, not only when an allocation finds the heap
        # full, so each import's garbage is freed before it spreads and the free room stays whole. With
        # the code in RAM the heap is roomy and each collection of it would cost the boot time
        # ([gc threshold] docs/memory.md).
        gc.threshold(16 * 1024)
    _intern_chars()  # first: their qstrs go in among the code's, before any state
    if sys.platform == "rp2":
        from hal import rp2 as hal_mod

        options = {}
        path = "/board.json"
    else:
        from sim import hal as hal_mod

        options = hal_mod.parse_args(argv)
        path = options["board"] or _here() + "/../hardware/board.json"

    # The board file first, in a heap still empty: reading and checking it makes the JSON's dicts and
    # lists, and its validator (a big module) is dropped once it has filled the Board
    # (board/boarddef/), so the code loaded next fills the holes both leave.
    # Only a drawn sim keeps the layout: the firmware never draws the board.
    board_def = _load_board(path, options.get("layout", False), hal_mod)
    if board_def is None:
        return 2
    # Boot alone needs these: their code (heap on a stock Pico) goes back at the next collection.
    del _intern_chars, _load_board, _here
    gc.collect()
    if sys.platform == "rp2":
        # First light: the pegs the journal's seq mark names, lit before the app's code comes in; the LEDs'
        # driver goes on to the HAL's set-up. Imported by its name as a string ([name budget]): the sim,
        # which lights only once the app runs, interns none of the names this takes.
        __import__("board.render.firstlight")
        options["leds"] = sys.modules["board.render.firstlight"].show(board_def, hal_mod)
        _drop("board.render.firstlight")
    del _drop

    # Then every module's code, the state built after: code loaded late lands in whatever holes
    # the state left, and a fragmented heap refuses an import with most of it free.
    # Three are loaded later (docs/memory.md, "Loaded when first used"):
    # - the link, with the code in RAM only: App loads it at a laptop's first line (board/app.py pump),
    #   and the game has its bytecode's heap until then. In flash it costs only its objects, and loaded
    #   at boot it never waits for room in the heap a match has left;
    # - the discard advice, with the code in RAM: at the first time it is asked for (Controller._long);
    # - the menu, either way: when it first opens (Controller._open); in flash its objects, loaded at
    #   boot, would take room the three-game match needs at 96 KB (sim/match3.script).
    import asyncio

    from board import app

    if flash:
        import board.link  # noqa: F401

    asyncio.gather  # noqa: B018 (asyncio loads its funcs module on first use: app.main's gather)
    gc.collect()

    hal = hal_mod.make(board_def, options)
    if sys.platform == "rp2":
        # hal.rp2's set-up (make and what only it calls) is done with: with the code in RAM its
        # bytecode goes back to the heap, as start.py's own boot-only functions do above.
        for name in ("make", "make_leds", "show_error", "_oled", "_makedir"):
            delattr(hal_mod, name)
        # and so are its parts' constructors: each part is made once, by make (set to None first, below)
        for cls in (
            hal_mod.Hal,
            hal_mod.UsbLink,
            hal_mod.SensorChain,
            hal_mod.KeyMatrix,
            hal_mod.Display,
            sys.modules["hal.ws2812"].Chains,
        ):
            cls.__init__ = None
            del cls.__init__
    # With the code in flash the discard advice's too when the setting is on, by the rule above; in RAM
    # it is loaded when first asked for (Controller._long), from its .mpy on littlefs (the bundle is
    # unmounted below), and the heap is the game's until then.
    # the board file's defaults over the settings' own: large print on a board made for it
    settings = app.Settings(hal.storage_dir + app.SETTINGS, {"large": board_def.large_print}).load_saved()
    if flash and settings["advice"]:
        import board.controller.advising  # noqa: F401
    if settings["large"]:
        import board.large  # noqa: F401 (large print on: its layout is code first, not mid-game)
    # Every module is loaded (the HAL's too): the code bundle main.py mounted (codefs.py) gives its
    # index and open file back to the heap before the journal's replay builds the match.
    bundle = sys.modules.get("codefs")
    if bundle is not None:
        bundle.unmount()
        sys.modules.pop("codefs", None)
    gc.collect()
    running = app.App(hal, board_def, settings)
    # One App for the board's life: the code only its set-up runs goes back to the heap. A constructor is
    # set to None before it is deleted: a class's dict keeps a deleted entry's value in its slot.
    for cls in (
        app.App,
        app.Commit,
        app.Controller,
        app.Keys,
        app.Limiter,
        app.Settings,
        app.edges.Ring,
        app.render.Render,
        app.sensors.Sensors,
    ):
        cls.__init__ = None  # pyright: ignore[reportAttributeAccessIssue]
        del cls.__init__
    app.Settings.load_saved = None  # pyright: ignore[reportAttributeAccessIssue] (read once, above)
    del app.Settings.load_saved
    del app.sensors.from_board
    # What only the set-up reads (the HAL's pins and buses, the tied sensor inputs, the power figures):
    # the board has no such fields from here on. Set to None before it is deleted, as above.
    board_def.wiring = None  # pyright: ignore[reportAttributeAccessIssue]
    del board_def.wiring
    ended = False
    try:
        app.run(running)
    except SystemExit as e:
        # The sim stops the firmware this way: its script ended (sim.run.ScriptEnd) or Ctrl-C.
        ended = type(e).__name__ == "ScriptEnd"
    finally:
        running = None  # the board's state goes before the HAL's end (the sim replays the journal then)
        if ended:
            hal.close(True)
        else:
            hal.close()
    return getattr(hal, "exit_code", 0)
