# Against the board loads its code only when a solo match starts: a board not playing solo never holds it.
import sys

from scenario import Scenario

SOLO = ("board.controller.solo", "cribbage.solo", "cribbage.opponent", "cribbage.opponent_top")


def _loaded():
    return [name for name in SOLO if name in sys.modules]


def test_the_solo_code_loads_when_a_match_against_the_board_starts():
    s = Scenario()
    try:
        s.keys("4 H T D OK 5 S")  # an ordinary deal: the cut and the starter
        s.wait(2000)
        assert s.app.match.starter is not None and _loaded() == []
        s.app.settings.set("solo", 3)
        s.hold("MENU", "UNDO")
        s.wait(1500)
        s.release("MENU", "UNDO")
        s.wait(100)
        assert _loaded() == []  # asked, not yet a new match
        s.press("OK")
        s.wait(100)
        assert "solo" in s.app.match.setup
        assert "board.controller.solo" in _loaded() and "cribbage.solo" in _loaded()
        s.wait(3000)  # the board cuts and throws: its first decision
        assert _loaded() == list(SOLO)
    finally:
        s.close()
