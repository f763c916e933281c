# Composition root: pick the HAL for this platform, load the board file, run the board app.
# On the Pico (sys.platform "rp2") it is hal.rp2 and /board.json; anywhere else (the MicroPython
# unix port: `make sim`) hal.sim with hardware/board.json and the sim's command line.
import gc
import sys


def _here():
    path = __file__ if "/" in __file__ else "./" + __file__
    return path.rsplit("/", 1)[0]


def _refuse(message, hal_mod, path):
    """A bad board file: name the field on the console and, when it can be found, the display."""
    print("board file refused: " + message)
    show = getattr(hal_mod, "show_error", None)
    if show is not None:
        show(message, path)


def main(argv):
    if sys.platform == "rp2":
        from hal import rp2 as hal_mod

        options = {}
        path = "/board.json"
    else:
        from hal import sim as hal_mod

        options = hal_mod.parse_args(argv)
        path = options["board"] or _here() + "/../hardware/board.json"

    # Every module's code first, the state built after: code loaded late lands in whatever holes
    # the state left, and a fragmented heap refuses a 1.3 KB import with 100 KB free.
    from board import app, boardfile

    try:
        import board.link  # noqa: F401 (the app imports it when the link starts)
    except ImportError:
        pass
    gc.collect()

    try:
        board_def = boardfile.load(path)
    except boardfile.BoardFileError as e:
        _refuse(str(e), hal_mod, path)
        return 2

    hal = hal_mod.make(board_def, options)
    gc.collect()
    ended = False
    try:
        app.run(hal, board_def)
    except SystemExit as e:
        # The sim stops the firmware this way: its script ended (simrun.ScriptEnd) or Ctrl-C.
        ended = type(e).__name__ == "ScriptEnd"
    finally:
        if ended:
            hal.close(True)
        else:
            hal.close()
    return getattr(hal, "exit_code", 0)


if sys.platform == "rp2":
    main([])
else:
    code = main(sys.argv[1:])
    if code:
        sys.exit(code)
