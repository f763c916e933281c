# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Players name themselves on the board (issue 11): MENU to "Player names", each side's name keyed
# on the rank keys as on a phone (2 = a b c 2, ...), UNDO deletes, MENU leaves, OK saves it as the
# core's `name` event (journalled, undone, replayed at boot) and goes on to the next side.
from scenario import Scenario

from board.controller.menu import MENU
from board.deal import muggins
from board.display import play_lines, prompt, result_lines, show_lines
from cribbage import events as E
from cribbage.cards import parse_card
from cribbage.game import Match


def _open_naming(s, names="P1, P2"):
    s.press("MENU")
    for _ in range(len(MENU) - 1):
        s.press("MENU")  # the last item
    assert "Player names" in s.screen() and "= " + names in s.screen()
    s.press("OK")


def _names(s):
    return [ev for ev in s.journal() if ev["t"] == "name"]


def _win(s):
    """Side 0 pegs 29-point hands until the game is won (the play on the holes, as most boards are used)."""
    m = s.app.match
    while not m.game_over:
        s.keys("OK OK")
        while not m.game_over and m.next_show() is not None:
            side, kind = m.next_show()
            s.key_points(29 if kind == "hand" and side == 0 else 0)
        if not m.game_over:
            s.keys("OK")


def test_a_name_is_keyed_letter_by_letter_and_saved_as_the_name_event():
    s = Scenario()
    try:
        _open_naming(s)
        screen = s.screen()
        assert "P1: _" in screen and screen.splitlines()[-1] == "OK=save UNDO=del"
        assert "MENU=leave" in screen
        s.keys("2")  # a, a capital to start the name
        assert "P1: A_" in s.screen()
        s.keys("6 6")  # n: the same key again turns the letter
        assert "P1: An_" in s.screen()
        s.wait(1300)  # a pause: the same key starts the next letter
        s.keys("6 6")
        assert "P1: Ann_" in s.screen()
        s.keys("OK")
        assert _names(s) == [{"t": "name", "s": 0, "name": "Ann"}]
        assert "P2: _" in s.screen()  # on to the next side
        s.keys("OK")  # nothing keyed: P2 keeps its name, and the naming is done
        assert len(_names(s)) == 1 and not s.app.controller.entry.active()
        rows = s.screen().splitlines()
        assert rows[0].startswith(" Ann ") and rows[1].startswith(" P2 ")  # the score rows
        s.keys("2 OK")  # P2 deals: Ann cuts... the play names her
        s.cards("5S")
        assert "Ann lays MENU=go" in s.screen()
    finally:
        s.close()


def test_undo_deletes_a_letter_k_turns_the_case_and_what_a_name_cannot_take_is_said():
    s = Scenario()
    try:
        _open_naming(s)
        s.keys("2 2 6 6 6 9 9 9")  # B o y
        assert "P1: Boy_" in s.screen()
        s.keys("UNDO")
        assert "P1: Bo_" in s.screen()
        s.keys("2 2")
        s.keys("K")  # the last letter's case
        assert "P1: BoB_" in s.screen()
        s.keys("K")
        s.keys("T 4 4 4 A A")  # a space, then a capital; A: the signs
        assert "P1: Bob I-_" in s.screen()
        s.keys("UNDO UNDO UNDO")
        s.keys("H")  # a suit key is no letter: said, nothing typed
        assert "2-9 A T: letters" in s.said()
        for key in "T23456789":  # a space, then a letter a key: a new key starts a new letter
            s.keys(key)
        assert "P1: Bob Adgjmptw\n" in s.screen()  # 12 letters: the display's width, no cursor
        s.wait(1300)
        s.keys("2")
        assert "Full: 12 letters" in s.said()
        s.keys("OK")
        assert _names(s) == [{"t": "name", "s": 0, "name": "Bob Adgjmptw"}]
    finally:
        s.close()


def test_menu_leaves_the_naming_and_changes_nothing():
    s = Scenario()
    try:
        n = len(s.journal())
        _open_naming(s)
        s.keys("9 9 9 9 3 3 3")  # Z e ...
        s.press("MENU")
        assert "P1:" not in s.screen() and s.app.match.names == ["P1", "P2"]
        assert len(s.journal()) == n and not s.app.controller.entry.active()
        _open_naming(s)
        s.keys("UNDO")  # UNDO on an empty name leaves too
        assert "P1:" not in s.screen() and len(s.journal()) == n
    finally:
        s.close()


def test_the_name_is_undone_on_the_board_and_survives_a_power_cut():
    s = Scenario()
    try:
        _open_naming(s)
        s.keys("2 2 2 6 6 6")  # C o
        s.wait(1300)
        s.keys("A OK")  # "Co." for P1... then P2
        s.keys("2 2 6 6 6 2 2 OK")  # Bob
        assert s.app.match.names == ["Co.", "Bob"]
        s.press("UNDO")
        assert "Undo P2 is Bob?" in s.said()
        s.press("OK")
        assert s.app.match.names == ["Co.", "P2"]
        assert [e["name"] for e in _names(s)] == ["Co.", "Bob"] and s.journal()[-1]["t"] == "undo"
        s.reboot()  # a power cut: the journal is the truth
        assert s.app.match.names == ["Co.", "P2"] and s.screen().splitlines()[0].startswith(" Co. ")
        _open_naming(s, "Co., P2")  # renaming starts from the name as it is
        assert "P1: Co._" in s.screen()
        s.keys("UNDO 3 3 OK OK")  # "Coe"
        s.reboot()
        assert s.app.match.names == ["Coe", "P2"]
    finally:
        s.close()


def test_the_winner_is_named_and_the_game_over_hint_is_said_once():
    # At game over "OK = next game" showed twice: the message over a key said it, and the prompt.
    s = Scenario()
    try:
        _open_naming(s)
        s.keys("7 7 7 7 6 6 6 7 4 4")  # S o p h
        s.wait(1300)
        s.keys("4 4 4 3 3 OK OK")  # i e; P2 keeps its name
        assert s.app.match.names[0] == "Sophie"
        s.keys("A OK")
        _win(s)
        assert "\nSophie wins\n" in s.screen()  # it was cut: "Sophie wins game" (the status says G1)
        assert s.screen().count("OK = next game") == 1
        s.cards("5H")  # a card after the game: said, not taken
        assert "Game is over:" in s.said() and "not taken" in s.said()
        assert s.screen().count("OK = next game") == 1, s.screen()
        s.tap(0, 5)  # a peg after the game likewise
        assert "Game is over:" in s.said() and s.screen().count("OK = next game") == 1, s.screen()
    finally:
        s.close()


def test_a_winner_s_name_is_never_cut():
    m = Match(E.setup(names=["P1", "P2"], games=1))
    m.apply(E.name(1, "Bartholomew1"))
    m.apply(E.dealer(0))
    m.apply(E.fix(1, 121))
    assert m.match_over
    assert result_lines(m)[:3] == ["Bartholomew1", "wins match", "match points 0-3"]  # a double skunk
    m = Match(E.setup(names=["Al", "Bo"], games=3))
    m.apply(E.dealer(0))
    m.apply(E.fix(1, 121))
    assert result_lines(m)[0] == "Bo wins game 1"


def test_a_game_won_in_the_play_or_the_show_says_who_won_at_once():
    # The winning lay's words ("Ann 4C +1 / count 26") hid "Ann wins game 1" for 10 s.
    m = Match(E.setup(names=["Ann", "Bob"]))
    m.apply(E.dealer(0))
    m.apply(E.fix(0, 119))
    m.apply(E.starter("5S"))
    m.apply(E.lay(1, "5H"))
    m.apply(E.lay(0, "TH"))  # fifteen two: Ann home
    assert m.game_over
    assert play_lines(m, 0, parse_card("TH"), 15) == ["Ann TH +2", "Ann wins game 1", "by 121"]
    m = Match(E.setup(names=["Ann", "Bob"]))
    m.apply(E.dealer(0))
    m.apply(E.fix(1, 110))
    m.apply(E.starter("5S"))
    done = m.apply(E.show(1, "hand", ["4C", "6C", "JS", "4D"]))
    lines = show_lines(m, done)
    assert lines[:3] == ["Bob hand 15", "Bob wins game 1", "15s x3         6"]


def test_a_long_name_stays_whole_in_the_prompts():
    # "Sophie lays MENU=go" was cut to "Sophie lays MENU"; a 12-letter name lost "lays".
    m = Match(E.setup(names=["Sophie", "Bartholomew1"]))
    m.apply(E.dealer(0))
    m.apply(E.starter("5S"))
    assert prompt(m, "lay") == "Bartholomew lays"
    m.apply(E.lay(1, "5H"))
    assert prompt(m, "lay") == "Sophie lays"
    assert prompt(m, "show") == "Bartholomew hand"
    m = Match(E.setup(names=["Al", "Bo"]))
    m.apply(E.dealer(0))
    m.apply(E.starter("5S"))
    assert prompt(m, "lay") == "Bo lays MENU=go" and prompt(m, "show") == "Bo hand: cards"


def test_a_match_won_by_a_six_letter_name_says_match_and_muggins_keeps_its_points():
    # "Sophie wins match" (17) was cut to "Sophie wins"; "Sophie: muggins 3?" (18) lost the points.
    m = Match(E.setup(names=["Sophie", "Max"], games=1, muggins=True))
    m.apply(E.dealer(0))
    m.apply(E.starter("5S"))
    m.apply(E.show(1, "hand", ["4C", "6C", "JS", "4D"], claim=12))
    assert muggins(m).note == "Soph: muggins 3?"
    m.apply(E.fix(0, 121))
    assert result_lines(m)[:3] == ["Sophie wins", "match", "match points 3-0"]  # a double skunk
