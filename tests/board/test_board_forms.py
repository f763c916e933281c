# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Scenarios in the other game forms: three-handed on three tracks, partners' play, sides on chosen tracks.
from board_fixture import reference
from scenario import Scenario

from board import settings


def _new_match(s):
    s.hold("MENU", "UNDO")
    s.wait(1000)
    s.release("MENU", "UNDO")
    s.wait(60)
    s.press("OK")


def test_three_handed_taps_on_the_third_track():
    s = Scenario(form="three")
    b = reference()
    try:
        m = s.app.match
        assert m.sides == 3
        s.keys("3 OK")  # player 3 deals
        s.peg(2, 5)
        assert m.front == [0, 0, 5]
        assert s.rgb(b.led_track[2][4]) != (0, 0, 0)
        assert s.rgb(b.led_dealer[2]) != (0, 0, 0)
        assert "*P3" in s.screen()
    finally:
        s.close()


def test_partners_play_goes_round_four_players():
    s = Scenario(form="four")
    try:
        m = s.app.match
        assert m.sides == 2 and m.players == 4
        s.keys("A OK")  # player 1 (team 1) deals; player 2 leads
        s.cards("KD")
        assert "T2 lays" in s.screen()
        s.cards("2S 3H 4C 9D")  # players 2, 3, 4, 1: a run of 3 for player 4 (team 2)
        assert m.front == [0, 3]
        assert "T2 lays" in s.screen()
    finally:
        s.close()


def test_two_sides_on_the_outer_tracks():
    s = Scenario(tracks=1)
    b = reference()
    try:
        assert s.app.tracks() == (0, 2)
        s.keys("A OK")
        s.tap(1, 7)  # the harness taps side 1's track: the third one
        s.press("OK")
        assert s.app.match.front == [0, 7]
        assert s.rgb(b.led_track[2][6]) != (0, 0, 0)
        assert s.rgb(b.led_start[1][0]) == (0, 0, 0)  # the middle track is dark
    finally:
        s.close()


def test_menu_form_applies_at_the_next_new_match():
    s = Scenario()
    try:
        s.press("MENU")
        for _ in range(settings.ORDER.index("form")):
            s.press("MENU")  # to "Game form"
        assert "Game form" in s.screen() and "6-card to 121" in s.screen() and "(new match)" in s.screen()
        s.press("OK")  # six -> six61
        s.press("UNDO")
        assert s.app.match.target == 121
        _new_match(s)
        assert s.app.match.target == 61
        assert s.journal()[0]["form"] == "six61"
    finally:
        s.close()
