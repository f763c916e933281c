"""What bench/bench_play.py times a lay from the page to: the frame in which the board shows it (issue 28).
A lay that pegs: the LED frame with the other seat's front peg in the hole it pegged to; a lay that pegs
nothing: the display frame that says it, or, when the table's next acts came with it in one step of the
bridge (the board draws the last one only), the frame that says one of them. Here on drawings made up as
simscreen.DrawnBoard records them; the bench reads the sim's."""

from types import SimpleNamespace

from bench import bench_play
from cribbage.cards import parse_card
from sim import term

C = parse_card


def test_a_lays_points_are_its_own_not_the_goes_before_it():
    # Dealer 0: seat 1 led 5H; seat 0's TD makes fifteen (2), its 2D makes 7 (nothing).
    v = {"dealer": 0, "laid": [[1, C("5H")]], "awaited": [0], "count": 5}
    assert bench_play.lay_points(v, 0, C("TD")) == 2
    assert bench_play.lay_points(v, 0, C("2D")) == 0
    # 25 (K Q 5): seat 0 said go (the table did), seat 1's 6C makes 31: 2, the go's point is not the lay's.
    v = {"dealer": 0, "laid": [[1, C("KH")], [0, C("QH")], [1, C("5S")]], "awaited": [1], "count": 25}
    assert bench_play.lay_points(v, 1, C("6C")) == 2


def test_the_words_of_a_lay_go_on_to_the_acts_the_table_sent_with_it():
    acts = [[1, C("5H")], [0, -1], [1, C("KD")], [0, C("2C")], [1, C("3S")]]
    assert bench_play.told(["Ann", "Bob"], acts, 0) == ["Bob 5H", "Ann go", "Bob KD"]
    assert bench_play.told(["Ann", "Bob"], acts, 4) == ["Bob 3S"]


def test_the_frame_that_shows_a_lay_is_the_first_after_it_that_shows_it():
    lit = [(1.0, term.KIND_TRACK, 1, 9), (2.0, term.KIND_TRACK, 0, 12), (2.5, term.KIND_TRACK, 1, 12)]
    lit.append((3.0, term.KIND_GAME, 0, 121))
    shown = [
        (0.5, ["Bob 5H", "count 5"]),
        (1.2, ["Bob 5H", "count 5", "Ann to move"]),  # drawn after the lay, but said before it
        (1.4, ["Ann go", "count 25"]),
        (1.6, ["Bob KD +3", "fifteen"]),
    ]
    drawn = SimpleNamespace(lit=lit, shown=shown)
    assert bench_play.shown_at(drawn, 1.1, 12, 1, []) == (2.5, "pegs")  # track 1's hole, not track 0's
    assert bench_play.shown_at(drawn, 1.1, 130, 1, []) == (3.0, "pegs")  # past 121: the game hole
    assert bench_play.shown_at(drawn, 0.4, None, 1, ["Bob 5H"]) == (0.5, "card")
    assert bench_play.shown_at(drawn, 1.1, None, 1, ["Bob 5H"]) == (None, "card")
    assert bench_play.shown_at(drawn, 1.1, None, 1, ["Bob 4S", "Ann go", "Bob KD"]) == (1.4, "after")
    assert bench_play.shown_at(drawn, 1.5, None, 1, ["Bob 4S", "Bob KD"]) == (1.6, "after")
