# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# What a player meets at the table (issue 11): the menu in players' words, whose pegs are which
# colour, a status line that keeps everyone's match points, what OK does at the cut and after a hand
# laid whole, and no cards taken once the game is won.
from scenario import Scenario

from board.controller.menu import MENU


def _menu_screens(s):
    s.press("MENU")
    screens = []
    for _ in range(len(MENU)):
        screens.append(s.screen())
        s.press("MENU")
    return screens


def test_the_menu_in_players_words_says_how_to_leave_and_the_match_length():
    # It showed internal names (six/six61, acc/points, "Auto OK ms = 0", "Sides' tracks = 0/1/2"),
    # never how to leave it, never the match length.
    s = Scenario()
    try:
        screens = _menu_screens(s)
        text = "\n".join(screens)
        for word in ("six61", "acc", "Auto OK ms", "= 0\n", "Sides' tracks", "= all", "Points to win"):
            assert word not in text, word
        assert all("UNDO=leave" in screen for screen in screens)
        assert "= 6-card to 121" in text and "= ACC, 3 games" in text and "= red blue" in text
        assert "winner takes all" in text and "Auto OK\n= off" in text
        assert "Match points\n= 5 (not used)" in text  # ACC plays a number of games, not to points
        s.press("UNDO")
        assert "UNDO=leave" not in s.screen()  # UNDO left the menu
    finally:
        s.close()


def test_the_menu_says_each_match_format_and_track_pair_in_words():
    s = Scenario(fmt="points", to=7, tracks=2, three="cont", form="five", auto_ok_ms=4000)
    try:
        text = "\n".join(_menu_screens(s))
        assert "= points to 7" in text and "Games in match\n= 3 (not used)" in text
        assert "= blue green" in text and "play on for 2nd" in text and "= 5-card to 61" in text
        assert "= after 4 secs" in text
    finally:
        s.close()
    s = Scenario(fmt="lurch", to=9)
    try:
        assert "= lurch to 9" in "\n".join(_menu_screens(s))
    finally:
        s.close()
    s = Scenario(fmt="games", games=5)
    try:
        assert "\nbest of 5 games\n" in "\n".join(_menu_screens(s))
    finally:
        s.close()
    # A one-game match is one game, not "1 games" (met choosing a one-game match against the board).
    s = Scenario(games=1)
    try:
        text = "\n".join(_menu_screens(s))
        assert "= ACC, 1 game\n" in text and "1 games" not in text
    finally:
        s.close()
    s = Scenario(fmt="games", games=1)
    try:
        assert "= best of 1 game\n" in "\n".join(_menu_screens(s))
    finally:
        s.close()


def test_the_cut_says_whose_pegs_are_which_colour():
    # Nothing on the board said P1 is red.
    s = Scenario()
    try:
        assert "P1 red" in s.screen() and "P2 blue" in s.screen()
        s.keys("A OK")
        assert "P1 red" not in s.screen()  # said at the cut, then the game's own words
    finally:
        s.close()
    s = Scenario(tracks=2)  # two sides on the outer tracks of a three-track board
    try:
        assert "P1 blue" in s.screen() and "P2 green" in s.screen()
    finally:
        s.close()
    s = Scenario(form="three")
    try:
        screen = s.screen()
        assert "P1 red" in screen and "P2 blue" in screen and "P3 green" in screen
    finally:
        s.close()


def test_three_player_status_line_keeps_the_match_points_and_the_cut_says_ok_cut():
    s = Scenario(form="three")
    try:
        s.cards("4H")
        assert "1 card OK=cut" in s.screen()  # it said OK=score at the cut
        s.keys("UNDO")
        s.keys("A OK")
        s.cards("6S")
        status = s.screen().splitlines()[3]
        assert status.endswith("0-0-0") and "6S" in status  # it was cut: "G1 D1 st 6S 0-0-"
    finally:
        s.close()


def test_no_cards_are_taken_after_the_game_is_won():
    # After the game was over the board still took cards (an entry that led nowhere).
    s = Scenario()
    try:
        s.keys("A OK")
        m = s.app.match
        while not m.game_over:
            s.keys("OK OK")  # no starter: the play on the holes, then the show
            while not m.game_over and m.next_show() is not None:
                side, kind = m.next_show()
                s.key_points(29 if kind == "hand" and side == 0 else 0)
            if not m.game_over:
                s.keys("OK")
        n = len(s.journal())
        s.cards("5H")
        assert "Game is over:" in s.said() and "OK = next game" in s.said()
        assert not s.app.controller.entry.active() and len(s.journal()) == n
        s.keys("2 OK")  # nor points
        assert not s.app.controller.entry.active()
        assert len(s.journal()) == n + 1 and s.journal()[-1]["t"] == "game"  # OK: the next game
    finally:
        s.close()


def test_the_play_s_last_message_says_ok_scores_the_hand_laid_whole():
    # The first hand of the show had no "OK=score them": the play's last message hid it.
    s = Scenario()
    try:
        s.keys("A OK")
        s.cards("2C")
        s.cards("TH KS 9D")
        s.press("MENU")
        s.cards("2H 5S 3C KC 4D")  # the whole play keyed (as in test_board_show)
        assert s.app.match.phase() == "show"
        assert "play over" in s.screen() and s.screen().splitlines()[-1] == "P2 hand OK=score"
        s.press("OK")
        assert "P2 hand" in s.said()
    finally:
        s.close()
