# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The code loaded when a player first asks for it, not at boot (issue 15: the heap after boot): the menu
# and name entry (board/controller/menu.py) and the discard advice (board/controller/advising.py,
# cribbage/advice.py, and the fast show total it scores with, cribbage/showtotal.py and its table). Each
# loads when asked for; a load that finds no room says so on the display and changes nothing.
import sys

from scenario import Scenario

from board import settings

FIRST_ITEM = "1/%d UNDO=leave" % (len(settings.ORDER) + 1)  # every setting, then "Player names"

LAZY = (
    "board.controller.menu",
    "board.controller.advising",
    "cribbage.advice",
    "cribbage.cribtables",
    "cribbage.showtotal",
    "cribbage.showtables",
)


class _NoRoom:
    """Stands for a lazily loaded module in sys.modules: its import runs out of heap."""

    def __getattr__(self, name):
        raise MemoryError


def _forget():
    """The lazily loaded modules out of sys.modules (other tests load them), as on a board just booted."""
    was = {}
    for name in LAZY:
        was[name] = sys.modules.pop(name, None)
        package, attr = name.rsplit(".", 1)
        if hasattr(sys.modules[package], attr):
            delattr(sys.modules[package], attr)
    return was


def _advice_mode(s):
    s.hold("MENU")
    s.wait(1000)  # a long press (800 ms)
    s.release("MENU")
    s.wait(60)


def test_a_board_boots_and_plays_without_the_menu_or_the_advice_loaded():
    # Before: the menu's words were board.display's and board.settings' (imported at boot), and with the
    # advice on the App made its Advisor at boot: board.advising, cribbage.advice and its tables were heap
    # from the start (82,096 B free after a 600-event boot on the emulated Pico against 90,576 B).
    _forget()
    s = Scenario(advice=True)
    try:
        s.keys("A OK")  # the dealer: the board asks for the starter
        s.cards("5D")
        assert s.app.match.starter is not None
        assert [name for name in LAZY if name in sys.modules] == []
        assert s.app.controller.advising is None
    finally:
        s.close()


def test_the_menu_loads_when_it_first_opens():
    _forget()
    s = Scenario()
    try:
        assert "board.controller.menu" not in sys.modules
        s.press("MENU")
        assert "board.controller.menu" in sys.modules
        assert FIRST_ITEM in s.screen() and "Brightness" in s.screen()
        s.press("OK")  # the menu's OK changes the item's value
        assert s.app.settings["brightness"] == 128
    finally:
        s.close()


def test_a_menu_with_no_room_to_load_says_so_and_changes_nothing():
    _forget()
    s = Scenario()
    sys.modules["board.controller.menu"] = _NoRoom()
    try:
        s.keys("A OK")
        before = s.screen()
        s.press("MENU")
        assert "Out of memory:" in s.said() and "no menu loaded" in s.said()
        assert s.app.controller.menu == -1 and s.app.settings["brightness"] == 96
    finally:
        sys.modules.pop("board.controller.menu", None)
    try:
        s.wait(10100)
        assert s.screen() == before  # the message gone, the board as it was
        s.press("MENU")  # room again: the next MENU loads it
        assert FIRST_ITEM in s.screen()
    finally:
        s.close()


def test_the_advice_loads_when_first_asked_for():
    _forget()
    s = Scenario(advice=True)
    try:
        s.keys("A OK")
        assert "board.controller.advising" not in sys.modules and s.app.controller.advising is None
        _advice_mode(s)
        assert "board.controller.advising" in sys.modules and "cribbage.advice" in sys.modules
        assert "cribbage.showtables" in sys.modules  # the fast total's table comes with the advice
        assert "Advice: P1" in s.screen() and "dealer: own crib" in s.screen()
        s.cards("AS 2H 3D 4C 5S 6H")
        s.press("OK")
        assert "MENU=more 1/15" in s.screen()
    finally:
        s.close()


def test_advice_with_no_room_to_load_says_so_and_changes_nothing():
    _forget()
    s = Scenario(advice=True)
    sys.modules["board.controller.advising"] = _NoRoom()
    try:
        s.keys("A OK")
        journal = len(s.journal())
        _advice_mode(s)
        assert "Out of memory:" in s.said() and "no advice loaded" in s.said()
        assert s.app.controller.advising is None and s.app.controller.menu == -1
        s.cards("5D")  # the keys are the starter's, as before
        assert s.app.match.starter is not None and len(s.journal()) == journal + 1
        s.press("UNDO")
        s.press("OK")  # the starter undone
    finally:
        sys.modules.pop("board.controller.advising", None)
    try:
        assert s.app.match.starter is None
        _advice_mode(s)  # room again: asked for once more, it loads
        assert "Advice: P1" in s.screen()
    finally:
        s.close()


def test_advice_turned_on_in_the_menu_works_at_once():
    # It was "Advice (at boot)": its code was loaded at boot or never. Loaded when asked for, the
    # setting takes effect at once.
    s = Scenario()
    try:
        s.keys("A OK")
        for _ in range(13):  # to the item (no more than the menu's length)
            if "Discard advice" in s.screen():
                break
            s.press("MENU")
        assert "Discard advice" in s.screen()
        assert "= off" in s.screen()
        s.press("OK")
        assert "= on" in s.screen()
        s.press("UNDO")  # leave the menu
        _advice_mode(s)
        assert "Advice: P1" in s.screen()
    finally:
        s.close()
