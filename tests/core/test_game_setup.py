# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Set-up of a match: forms, formats, names; skunk lines and match points per format (docs/rules.md).
from check import message, raises
from cribbage import events as E
from cribbage.errors import CribError
from cribbage.forms import check_setup, game_points, match_decided, skunk_label
from cribbage.game import Match


def test_defaults_are_six_card_to_121_acc_no_muggins():
    m = Match()
    assert (m.form, m.players, m.sides, m.target, m.hand_size) == ("six", 2, 2, 121, 4)
    assert m.fmt == "acc" and m.games == 3 and m.muggins is False
    assert m.names == ["P1", "P2"]
    assert m.setup == E.setup()
    assert m.phase() == "cut" and m.dealer is None


def test_every_form():
    assert (Match(E.setup("six61")).target, Match(E.setup("six61")).players) == (61, 2)
    three = Match(E.setup("three"))
    assert (three.players, three.sides, three.target) == (3, 3, 121)
    four = Match(E.setup("four"))
    assert (four.players, four.sides, four.names) == (4, 2, ["T1", "T2"])
    five = Match(E.setup("five"))
    assert (five.players, five.target, five.hand_size, five.five) == (2, 61, 3, True)


def test_setup_round_trips_through_a_line():
    s = E.setup("three", "points", to=7, muggins=True, names=["Ann", "Bob", "Cy"], three="cont")
    line = E.to_line(s)
    assert E.from_line(line) == s
    assert Match(E.from_line(line)).setup == s
    assert check_setup(E.from_line(line)) == s


def test_refused_setups_name_the_problem():
    assert "unknown game form" in message(raises(CribError, E.setup, "seven"))
    assert "unknown match format" in message(raises(CribError, E.setup, "six", "poker"))
    assert "odd" in message(raises(CribError, E.setup, "six", "games", 4))
    assert "2 side names" in message(raises(CribError, E.setup, names=["A"]))
    assert "1..12" in message(raises(CribError, E.setup, names=["A", "A very long name"]))
    assert "muggins" in message(raises(CribError, E.setup, muggins="yes"))
    assert "'all' or 'cont'" in message(raises(CribError, E.setup, three="half"))
    assert "unknown set-up key" in message(raises(CribError, Match, {"t": "setup", "colour": 1}))
    assert "version" in message(raises(CribError, Match, {"t": "setup", "v": 9}))
    assert "1..99" in message(raises(CribError, E.setup, "six", "points", None, 0))


def test_set_up_names_are_held_as_a_rename_is():
    # Printable ASCII, 1..12 characters, not blank: what a board's display shows and a terminal prints.
    for bad in ("Ann\x1b[2J", "Bob\r", "Zo\u00eb", "\x7f", "   "):
        said = message(raises(CribError, E.setup, names=["Ann", bad]))
        assert "ASCII signs only" in said or "1..12" in said, bad
        assert "\x1b" not in said and "\r" not in said
        raises(CribError, Match, {"t": "setup", "names": [bad, "Bob"]})
    assert Match(E.setup(names=["Ann O'Neil", "B-2 [x]"])).names == ["Ann O'Neil", "B-2 [x]"]


def test_skunk_lines_121():
    assert skunk_label(91, 121, "acc") == ""
    assert skunk_label(90, 121, "acc") == "skunk"
    assert skunk_label(61, 121, "acc") == "skunk"
    assert skunk_label(60, 121, "acc") == "double"


def test_skunk_lines_61_have_no_double():
    assert skunk_label(31, 61, "points") == ""
    assert skunk_label(30, 61, "points") == "skunk"
    assert skunk_label(0, 61, "points") == "skunk"


def test_lurch_is_short_of_half():
    assert skunk_label(61, 121, "lurch") == ""
    assert skunk_label(60, 121, "lurch") == "lurch"
    assert skunk_label(10, 121, "lurch") == "lurch"
    assert skunk_label(31, 61, "lurch") == ""
    assert skunk_label(30, 61, "lurch") == "lurch"


def test_match_points_per_format_two_sides():
    for fmt, expect in (("acc", (2, 3, 3)), ("points", (1, 2, 3)), ("games", (1, 1, 1))):
        got = tuple(game_points(fmt, "all", [0], ["", label], 2)[0] for label in ("", "skunk", "double"))
        assert got == expect, fmt
    assert game_points("lurch", "all", [1], ["lurch", ""], 2) == [0, 2]
    assert game_points("lurch", "all", [1], ["", ""], 2) == [0, 1]


def test_three_handed_match_points():
    # Winner takes all: 2, plus 1 for any skunked opponent, 3 at most.
    assert game_points("points", "all", [0], ["", "", ""], 3) == [2, 0, 0]
    assert game_points("points", "all", [0], ["", "skunk", "double"], 3) == [3, 0, 0]
    # Continued play: second place 1, never a skunk extra for it.
    assert game_points("points", "cont", [2, 0], ["skunk", "", ""], 3) == [1, 0, 3]
    assert game_points("points", "cont", [2, 0], ["", "", ""], 3) == [1, 0, 2]


def test_match_decided():
    assert match_decided("points", 3, 5, [5, 3], [3, 2], 5, 0) == (True, 0)
    assert match_decided("points", 3, 5, [4, 3], [3, 2], 5, 0) == (False, None)
    assert match_decided("acc", 3, 5, [4, 2], [2, 1], 3, 0) == (True, 0)
    assert match_decided("acc", 3, 5, [4, 2], [2, 0], 2, 0) == (False, None)
    assert match_decided("acc", 2, 5, [2, 2], [1, 1], 2, 1) == (True, None)  # level: a draw
    assert match_decided("games", 5, 5, [3, 2], [3, 2], 5, 0) == (True, 0)
    assert match_decided("games", 5, 5, [2, 2], [2, 2], 4, 0) == (False, None)
    # Two sides pass N in one game (three-handed continued play): the game's winner takes it.
    assert match_decided("points", 3, 5, [5, 5, 0], [2, 1, 0], 4, 1) == (True, 1)
