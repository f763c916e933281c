# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Large print (board/large.py): the scores, the play's count, a peg's points and the itemised count in
# big rows, for two and three players; the setting through the MENU kept over a reboot; the board file's
# default. A big row is 3 text rows high: the FakeDisplay records its width scale in `big`.
from board_fixture import reference
from scenario import Scenario

from board.boarddef.boardfile import BoardFileError, load, read
from board.settings import Settings
from check import message, raises


def _shown(s):
    """[(width scale, text)] of each row on the glass, a big row once (the 2 rows it covers left out)."""
    d = s.hal.display
    out = []
    r = 0
    while r < 8:
        out.append((d.big[r], " ".join(d.rows[r].split())))
        r += 3 if d.big[r] else 1
    return out


def _big(s):
    return [t for w, t in _shown(s) if w]


def _to_play(s):
    s.keys("4 H T D OK")  # the cut: P1 deals
    s.cards("5S")  # the starter


def test_two_players_scores_are_big_under_their_names():
    s = Scenario(large=True)
    try:
        _to_play(s)
        s.press("OK")  # the play skipped: pegged on the holes
        assert "G1 D1 st 5S 0-0" in [t for _w, t in _shown(s)]  # the status row still says the deal
        s.peg(1, 12)
        rows = _shown(s)
        assert rows[0] == (0, "*P1 P2")  # the dealer's mark and the names, small
        assert rows[1] == (2, ">0 12")  # the points, 16 x 24 px: P1's under P1, P2's under P2
        assert s.hal.display.rows[1][:8] == ">0   12 "  # 4 big columns a side; ">": P1's hand is next
        assert rows[2:] == [
            (0, "key the cards,"),
            (0, "OK=score; OK"),
            (0, "alone=zero"),
            (0, "P1 hand: cards"),
        ]
    finally:
        s.close()


def test_the_play_count_is_big_and_a_lay_says_its_points_big():
    s = Scenario(large=True)
    try:
        _to_play(s)
        assert _big(s) == ["0 >0", "count 0"]  # the scores (P2 to lay) and the count, big
        assert s.screen().endswith("P2 lays MENU=go")
        s.cards("5H")
        assert "count 5" in _big(s) and "P2 5H" in s.said()  # no points: the lay small, the count big
        s.cards("TH")  # fifteen for P1
        assert _big(s) == ["P1 TH +2", "count 15"] and "fifteen" in s.said()
        assert s.screen().endswith("P2 lays MENU=go")  # one page: MENU is still go
        s.press("MENU")  # P2 says go
        assert s.app.match.play.count == 15
    finally:
        s.close()


def test_a_hand_is_counted_an_item_a_page_in_big_print():
    s = Scenario(large=True)
    try:
        _to_play(s)
        s.press("OK")
        s.press("OK")  # the play skipped, on to the show: P2's hand
        s.cards("5H 5C 4C 6D")
        s.press("OK")
        assert s.app.match.front[1] == 23
        seen = []
        for _ in range(20):
            rows = _shown(s)
            assert rows[1] == (1, "P2 hand 23")  # the head on every page, big
            assert rows[-1] == (0, "P1 hand: cards")  # what comes next, still said
            seen.append(rows[2][1])
            assert rows[2][0] >= 1  # the item, big
            if rows[0][1] == "MENU=more 13/13":
                break
            s.press("MENU")
        assert rows[0] == (0, "MENU=more 13/13")
        assert seen[:3] == ["15s x4 8", "pairs x3 6", "runs x3 of 3 9"]  # a kind a page, then each item
        assert "15 5H 4C 6D" in seen and "run 4C 5H 6D" in seen and len(seen) == 13
        assert [w for w, t in _shown(s)][2] == 1  # "run 5C 4C 6D": 12 letters, 8 x 24 px
        s.press("OK")  # any other key: the count goes, the scores come back big
        assert _big(s)[0] == ">0 23"
    finally:
        s.close()


def test_a_tapped_peg_shows_its_points_big():
    s = Scenario(large=True)
    try:
        _to_play(s)
        s.press("OK")
        s.tap(0, 6)
        assert _big(s) == ["+6"] and s.hal.display.big[2] == 3  # 24 x 24 px
        assert "P1 +6" in s.said() and "to hole 6" in s.said() and s.screen().endswith("OK=yes UNDO=no")
    finally:
        s.close()


def test_three_players_scores_fit_big_on_one_line():
    s = Scenario(large=True, form="three")
    try:
        s.keys("3 OK")  # player 3 deals
        for side, points in ((0, 100), (1, 101), (2, 110)):
            while s.app.match.front[side] < points:
                s.peg(side, min(20, points - s.app.match.front[side]))
        rows = _shown(s)
        assert rows[0] == (0, "P1 P2 *P3")
        assert rows[1] == (1, "100 101 110")  # three 3-digit scores, 8 x 24 px
        assert s.hal.display.rows[1] == " 100  101  110  "  # each under its name
        assert s.screen().endswith("OK = next deal")  # the pegs took the deal's show by hand
        s.press("OK")
        assert s.screen().endswith("Starter? OK=skip")
        s.cards("5S")
        assert _big(s) == ["100 >101 110", "count 0"]  # P2 to lay
        s.cards("TH")
        assert "count 10" in _big(s)
        s.cards("5H")
        assert _big(s) == ["P3 5H +2", "count 15"] and "fifteen" in s.said()
    finally:
        s.close()


def test_three_players_hand_count_in_big_print():
    s = Scenario(large=True, form="three")
    try:
        s.keys("3 OK")
        s.cards("5S")
        s.press("OK")
        s.press("OK")  # on to the show: P1's hand first
        s.cards("5H 5C 4C 6D")
        s.press("OK")
        rows = _shown(s)
        assert rows[0] == (0, "MENU=more 1/13") and rows[1] == (1, "P1 hand 23")
        assert rows[2] == (2, "15s x4 8") and rows[-1] == (0, "P2 hand: cards")
    finally:
        s.close()


def test_normal_print_has_no_big_row():
    s = Scenario()
    try:
        _to_play(s)
        s.cards("5H TH")
        assert s.hal.display.big == [0] * 8
        assert "count 15" in s.said() and "P1 TH +2" in s.said()
    finally:
        s.close()


def test_large_print_through_the_menu_survives_a_reboot():
    s = Scenario()
    try:
        s.press("MENU")
        while "Large print" not in s.screen():
            s.press("MENU")
        assert "= off" in s.screen()
        s.press("OK")
        assert "= on" in s.screen() and s.app.settings["large"] is True
        s.press("UNDO")  # the menu left: the scores big at once
        assert s.hal.display.big[1] == 2
        s.wait(3500)  # the settings are written once the presses stop
        s.reboot()
        assert s.app.settings["large"] is True
        assert s.hal.display.big[1] == 2 and _shown(s)[1] == (2, "0 0")
    finally:
        s.close()


def test_the_board_file_gives_the_default():
    raw = read("hardware/board.json")
    assert load(raw).large_print is False  # absent: off
    raw["large_print"] = True
    b = load(raw)
    assert b.large_print is True
    s = Settings(None, {"large": b.large_print})
    assert s["large"] is True
    s.set("large", False)
    s.reset()  # the guarded reset: back to the board's default, not SPEC's
    assert s["large"] is True
    raw["large_print"] = 1
    e = raises(BoardFileError, load, raw)
    assert "large_print" in message(e) and "true or false" in message(e)
    assert reference().large_print is False
