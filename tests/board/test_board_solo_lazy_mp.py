# Against the board loads its code only when a solo match starts: a board not playing solo never holds it.
import sys

from scenario import Scenario

SOLO = ("board.controller.solo", "cribbage.solo", "cribbage.opponent", "cribbage.opponent_top")
THROW_ONLY = ("cribbage.advice", "cribbage.cribtables", "cribbage.showtotal", "cribbage.showtables")


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


def test_the_throws_tables_are_dropped_after_each_throw_and_the_next_throw_is_the_same():
    # The advice and its tables load with each of the board's throws and go after it (board.controller.
    # solo drop_throw), so the play and the show keep their room; the next throw loads them again and
    # throws what the top level throws.
    from cribbage import opponent, solo
    from cribbage.cards import pip

    s = Scenario(solo=3)
    try:
        s.hold("MENU", "UNDO")
        s.wait(1500)
        s.release("MENU", "UNDO")
        s.wait(100)
        s.press("OK")
        m = s.app.match
        throws = 0
        for _ in range(400):
            if m.deal_no > 2:
                break
            if solo.due(m):
                s.wait(1000)
            elif m.phase() == "starter":
                hand = sorted(solo.held(m, 0))
                for c in (hand[0], hand[-1]):
                    s.keys("A23456789TJQK"[c >> 2] + " " + "SHDC"[c & 3])
                s.press("OK")
            elif m.phase() == "play":
                c = [c for c in solo.held(m, 0) if m.play.count + pip(c) <= 31][0]
                s.keys("A23456789TJQK"[c >> 2] + " " + "SHDC"[c & 3])
            else:
                s.press("OK")  # a count read, the next deal
            if solo.thrown(m)[solo.BOARD] and throws < m.deal_no:
                throws = m.deal_no
                assert [name for name in THROW_ONLY if name in sys.modules] == []
                # the throw made is the top level's for the board's six, with the tables loaded afresh
                dealt = solo.dealt(m)[0][solo.BOARD]
                mine = [dealt[k] for k in solo.thrown(m)[solo.BOARD]]
                again = opponent.discard(
                    "top",
                    list(dealt),
                    m.dealer == solo.BOARD,
                    m.front[solo.BOARD],
                    m.front[0],
                    m.target,
                    m.form,
                )
                assert sorted(mine) == sorted(again)
                opponent._advisor = None  # (this test's own load of the tables goes too)
                for name in THROW_ONLY:
                    sys.modules.pop(name, None)
        assert throws == 2
    finally:
        s.close()
