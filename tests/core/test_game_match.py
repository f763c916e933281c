# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Every match format to its winner; three-handed (winner takes all, continued play); the end event.
from game_kit import bring, finish_game, new_match

from check import message, raises
from cribbage import events as E
from cribbage.errors import CribError


def play_games(m, plan):
    """plan: (winner, loser score) per game; a next game between them."""
    for i, (winner, loser_score) in enumerate(plan):
        if i:
            m.apply(E.next_game())
        finish_game(m, winner, loser_score)


def test_acc_fixed_three_games_most_points_wins():
    m = new_match(fmt="acc", games=3)
    play_games(m, [(0, 100), (1, 85), (1, 100)])  # 2, then 3 (skunk), then 2
    assert m.match_points == [2, 5] and m.wins == [1, 2]
    assert m.match_over and m.match_winner == 1 and m.phase() == "match over"
    assert "match is over" in message(raises(CribError, m.apply, E.next_game()))


def test_acc_level_after_its_games_is_a_draw():
    m = new_match(fmt="acc", games=2)
    play_games(m, [(0, 100), (1, 100)])
    assert m.match_over and m.match_winner is None and m.match_points == [2, 2]


def test_casual_points_first_to_five():
    m = new_match(fmt="points", to=5)
    play_games(m, [(0, 50), (1, 100)])  # double skunk 3, then a win 1
    assert m.match_points == [3, 1] and not m.match_over
    m.apply(E.next_game())
    finish_game(m, 0, 80)  # a skunk: 2 more
    assert m.match_points == [5, 1] and m.match_over and m.match_winner == 0


def test_best_of_three_games_skunks_count_one():
    m = new_match(fmt="games", games=3)
    play_games(m, [(1, 30), (0, 100)])
    assert m.match_points == [1, 1] and not m.match_over
    m.apply(E.next_game())
    finish_game(m, 1, 120)
    assert m.match_over and m.match_winner == 1 and m.wins == [1, 2]


def test_best_of_five_stops_at_a_majority():
    m = new_match(fmt="games", games=5)
    play_games(m, [(0, 100), (0, 100), (0, 100)])
    assert m.match_over and m.match_winner == 0 and m.game_no == 3


def test_english_lurch_to_five():
    m = new_match("six61", fmt="lurch", to=5)
    play_games(m, [(0, 30), (0, 31), (1, 10)])  # a lurch is short of 31 in a 61 game
    assert [r[3] for r in m.results] == [("", "lurch"), ("", ""), ("lurch", "")]
    assert m.match_points == [3, 2] and not m.match_over
    m.apply(E.next_game())
    finish_game(m, 0, 20)
    assert m.match_points == [5, 2] and m.match_over and m.match_winner == 0


def test_lurch_in_121_is_short_of_61():
    m = new_match("six", fmt="lurch")
    finish_game(m, 0, 60)
    assert m.skunk == ["", "lurch"] and m.match_points == [2, 0]
    m.apply(E.next_game())
    finish_game(m, 0, 61)
    assert m.skunk == ["", ""] and m.match_points == [3, 0]


def test_end_match_early_leader_wins():
    m = new_match(fmt="points", to=7)
    finish_game(m, 1, 100)
    m.apply(E.next_game())
    bring(m, 0, 50)
    m.apply(E.end_match())
    assert m.match_over and m.match_winner == 1 and m.match_points == [0, 1]
    assert "match is over" in message(raises(CribError, m.apply, E.peg(0, 2)))
    m.apply(E.undo())
    assert not m.match_over and m.front == [50, 0]


def test_end_match_level_has_no_winner():
    m = new_match(fmt="points")
    m.apply(E.end_match())
    assert m.match_over and m.match_winner is None


def test_three_handed_winner_takes_all():
    m = new_match("three", fmt="points", to=5, three="all")
    bring(m, 1, 95)
    bring(m, 2, 80)
    bring(m, 0, 121)
    assert m.game_over and m.winner == 0 and m.out == [0]
    assert m.skunk == ["", "", "skunk"] and m.match_points == [3, 0, 0]
    assert "nothing scores after it" in message(raises(CribError, m.apply, E.peg(1, 2)))
    m.apply(E.next_game())
    assert m.dealer == 2  # last place deals first
    finish_game(m, 1, 100)
    assert m.match_points == [3, 2, 0]


def test_three_handed_continued_play_for_second_place():
    m = new_match("three", fmt="points", to=9, three="cont", dealer=0)
    bring(m, 1, 85)
    bring(m, 2, 100)
    bring(m, 0, 121)
    assert not m.game_over and m.winner == 0 and m.out == [0] and m.active == [1, 2]
    assert m.skunk == ["", "skunk", ""]
    assert m.phase() == "starter" and m.next_show() == (1, "hand")
    assert "is out" in message(raises(CribError, m.apply, E.peg(0, 2)))
    # The show of this deal goes on without player 0, whose crib it was.
    m.apply(E.peg(1, 4, "hand"))
    m.apply(E.peg(2, 4, "hand"))
    assert m.next_show() is None
    m.apply(E.next_deal())
    assert m.dealer == 1 and m.next_show() == (2, "hand")
    m.apply(E.starter("4H"))
    assert m.play.seats == 2 and m.play_seats == [1, 2]
    m.apply(E.lay(2, "5C"))
    assert "out of this game" in message(raises(CribError, m.apply, E.lay(0, "6C")))
    m.apply(E.lay(1, "TC"))
    assert m.front[1] == 91  # fifteen
    bring(m, 2, 121)
    assert m.game_over and m.out == [0, 2]
    # First place: 2 + 1 for a skunked opponent (measured when it went out); second: 1.
    assert m.match_points == [3, 0, 1]
    assert m.results[0][1] == (0, 2)
    m.apply(E.next_game())
    assert m.dealer == 1 and m.active == [0, 1, 2]


def test_three_handed_continued_both_double_skunked_ends_at_once():
    m = new_match("three", fmt="points", to=9, three="cont")
    bring(m, 1, 60)
    bring(m, 2, 40)
    bring(m, 0, 121)
    assert m.game_over and m.out == [0] and m.skunk == ["", "double", "double"]
    assert m.match_points == [3, 0, 0]


def test_three_handed_best_of_counts_first_places():
    m = new_match("three", fmt="games", games=3, three="cont")
    finish_game(m, 2, 50)
    assert m.game_over and m.match_points == [0, 0, 1]


def test_three_handed_match_to_its_winner():
    m = new_match("three", fmt="acc", games=2, three="cont")
    bring(m, 1, 100)
    bring(m, 0, 121)
    bring(m, 1, 121)
    assert m.match_points == [3, 1, 0]
    m.apply(E.next_game())
    bring(m, 2, 100)
    bring(m, 1, 121)
    assert not m.game_over and m.match_points == [3, 1, 0]  # credited when the game ends
    bring(m, 0, 121)
    assert m.match_points == [4, 4, 0]  # player 0 was double skunked when 1 went out: 2 + 1
    assert m.match_over and m.match_winner is None  # level after the fixed games: a draw
