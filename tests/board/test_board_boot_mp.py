# Boot (firmware/start.py) on MicroPython: a board file with a cache made from it boots without loading the
# validator; an edited board file is checked, refused naming the field, and the validator is dropped.
import json
import sys

from board_fixture import root
from fakehal import remove_tree, scratch_dir

from board.boarddef import boardcache

GOOD = root() + "/hardware/board.json"


class ShowsErrors:
    """The part of a HAL module start.py uses to put a refusal on the display."""

    def __init__(self):
        self.shown = []

    def show_error(self, message, path):
        self.shown.append((message, path))


def _board_folder(edit=None):
    """A folder with a copy of board.json and the cache of the unedited file; edit(raw) changes the copy."""
    from board.boarddef import boardfile

    folder = scratch_dir()
    with open(GOOD) as f:
        text = f.read()
    checked = boardfile.load(GOOD, layout=False)
    crc, size = boardcache.file_crc(GOOD)
    with open(folder + "/board.cache", "w") as f:
        f.write(json.dumps(boardcache.cache_dict(checked, crc, size)))
    if edit is not None:
        raw = json.loads(text)
        edit(raw)
        text = json.dumps(raw)
    with open(folder + "/board.json", "w") as f:
        f.write(text)
    _forget_validator()
    return folder


def _forget_validator():
    from board import boarddef

    for name in ("boardfile", "boardcache"):
        sys.modules.pop("board.boarddef." + name, None)
        if hasattr(boarddef, name):
            delattr(boarddef, name)


def test_a_board_file_with_its_cache_boots_without_the_validator():
    from start import _load_board

    folder = _board_folder()
    try:
        b = _load_board(folder + "/board.json", False, ShowsErrors())
        assert b is not None and b.sides == 3 and len(b.led_track[2]) == 120
        assert (
            "board.boarddef.boardfile" not in sys.modules and "board.boarddef.boardcache" not in sys.modules
        )
    finally:
        remove_tree(folder)


def test_an_edited_board_file_is_checked_and_refused_naming_the_field():
    import start

    def two_leds_the_same(raw):
        raw["leds"]["track"][0][5] = raw["leds"]["track"][0][4]

    folder = _board_folder(two_leds_the_same)
    hal = ShowsErrors()
    console = []
    start.print = lambda *args: console.append(" ".join(args))  # the console line, kept for the asserts
    try:
        assert start._load_board(folder + "/board.json", False, hal) is None
        assert len(hal.shown) == 1 and "leds.track[0][5]" in hal.shown[0][0], hal.shown
        assert console == ["board file refused: " + hal.shown[0][0]], console
        assert "board.boarddef.boardfile" not in sys.modules  # dropped after the check all the same
    finally:
        del start.print
        remove_tree(folder)


def test_a_drawn_sim_needs_the_layout_so_it_checks_the_file():
    from start import _load_board

    folder = _board_folder()
    try:
        b = _load_board(folder + "/board.json", True, ShowsErrors())
        assert b is not None and b.layout is not None and b.position("track", 0, 1)
    finally:
        remove_tree(folder)
