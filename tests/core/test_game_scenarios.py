# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Whole games written from docs/rules.md: the cut, heels, leapfrog, counting out, skunks, deal rotation.
from game_kit import bring, finish_game, new_match

from check import message, raises
from cribbage import events as E
from cribbage.errors import CribError
from cribbage.game import Match


def test_cut_lowest_rank_deals_and_a_tie_cuts_again():
    m = Match()
    m.apply(E.cut(["5H", "5C"]))  # suits do not break a tie
    assert m.cut_tie and m.dealer is None and m.phase() == "cut"
    m.apply(E.cut(["KH", "AC"]))
    assert m.dealer == 1 and m.dealer_side == 1 and m.crib_side == 1 and m.deal_no == 1
    assert not m.cut_tie and m.phase() == "starter"
    assert "already known" in message(raises(CribError, m.apply, E.cut(["2H", "3H"])))


def test_three_handed_cut_tie_only_matters_for_lowest():
    m = Match(E.setup("three"))
    m.apply(E.cut(["9H", "9C", "4D"]))  # a tie above the lowest card does not matter
    assert m.dealer == 2 and not m.cut_tie
    m = Match(E.setup("three"))
    m.apply(E.cut(["2H", "2C", "4D"]))
    assert m.cut_tie and m.dealer is None


def test_heels_pegs_the_dealer_two_at_once():
    m = new_match(dealer=0)
    m.apply(E.starter("JS"))
    assert m.front == [2, 0] and m.heels and m.last_pegs == [(0, 2, "heels")]
    assert "pegged once" in message(raises(CribError, m.apply, E.peg(0, 2, "heels")))


def test_no_heels_for_another_starter():
    m = new_match(dealer=0)
    m.apply(E.starter("QS"))
    assert m.front == [0, 0] and not m.heels
    assert "not a jack" in message(raises(CribError, m.apply, E.peg(0, 2, "heels")))


def test_heels_pegged_by_hand_when_the_starter_is_not_keyed():
    m = new_match(dealer=1)
    m.apply(E.peg(1, 2, "heels"))
    assert m.front == [0, 2]
    assert "not a jack" in message(raises(CribError, m.apply, E.starter("5D")))
    m.apply(E.starter("JD"))  # the jack keyed later does not peg heels twice
    assert m.front == [0, 2]


def test_leapfrog_back_peg_is_the_previous_score():
    m = new_match()
    m.apply(E.peg(1, 5, "play"))
    assert (m.front[1], m.back[1]) == (5, 0)
    m.apply(E.peg(1, 3, "play"))
    assert (m.front[1], m.back[1]) == (8, 5)
    m.apply(E.peg(1, 12, "play"))
    assert (m.front[1], m.back[1]) == (20, 8)
    assert m.to_go(1) == 101 and m.to_go(0) == 121


def test_zero_hand_does_not_move_the_pegs_but_is_counted():
    m = new_match(dealer=0)
    m.apply(E.peg(1, 6, "play"))
    m.apply(E.peg(1, 0, "hand"))
    assert (m.front[1], m.back[1]) == (6, 0) and m.last_pegs == []
    assert m.next_show() == (0, "hand")


def test_deal_alternates_two_handed_and_the_show_order_follows():
    m = new_match(dealer=0)
    assert m.next_show() == (1, "hand") and m.next_shower() == 1
    m.apply(E.peg(1, 4, "hand"))
    assert m.next_show() == (0, "hand")
    m.apply(E.peg(0, 4, "hand"))
    assert m.next_show() == (0, "crib")
    m.apply(E.peg(0, 4, "crib"))
    assert m.next_show() is None and m.phase() == "deal"
    m.apply(E.next_deal())
    assert (m.dealer, m.deal_no, m.next_show()) == (1, 2, (0, "hand"))
    m.apply(E.next_deal())
    assert (m.dealer, m.deal_no) == (0, 3)


def test_peg_past_the_target_stops_on_it():
    m = new_match()
    bring(m, 0, 115)
    m.apply(E.peg(0, 12, "play"))
    assert m.front[0] == 121 and m.back[0] == 115 and m.last_pegs == [(0, 6, "play")]
    assert m.game_over and m.winner == 0 and m.phase() == "game over"


def test_non_dealer_counts_out_before_the_dealer_counts():
    m = new_match(dealer=0)
    bring(m, 0, 118)  # the dealer needs 3 and holds a 20 hand: too late
    bring(m, 1, 112)
    m.apply(E.peg(1, 10, "hand"))
    assert m.game_over and m.winner == 1 and m.front == [118, 121]
    e = raises(CribError, m.apply, E.peg(0, 20, "hand"))
    assert "nothing scores after it" in message(e)
    assert m.front == [118, 121] and m.skunk == ["", ""]
    assert m.match_points == [0, 2]


def test_loser_at_90_is_skunked():
    m = new_match()
    finish_game(m, 0, 90)
    assert m.skunk == ["", "skunk"] and m.match_points == [3, 0]


def test_loser_at_91_is_not_skunked():
    m = new_match()
    finish_game(m, 0, 91)
    assert m.skunk == ["", ""] and m.match_points == [2, 0]


def test_loser_at_60_is_double_skunked():
    m = new_match(fmt="points")
    finish_game(m, 1, 60)
    assert m.skunk == ["double", ""] and m.match_points == [0, 3]
    m = new_match(fmt="points")
    finish_game(m, 1, 61)
    assert m.skunk == ["skunk", ""] and m.match_points == [0, 2]


def test_sixty_one_point_game_skunk_at_31_no_double():
    m = new_match("six61", fmt="points")
    finish_game(m, 0, 30)
    assert m.skunk == ["", "skunk"] and m.match_points == [2, 0]
    m = new_match("six61", fmt="points")
    finish_game(m, 0, 0)
    assert m.skunk == ["", "skunk"]
    m = new_match("six61", fmt="points")
    finish_game(m, 0, 31)
    assert m.skunk == ["", ""] and m.match_points == [1, 0]


def test_heels_wins_the_game():
    m = new_match(dealer=1)
    bring(m, 1, 119)
    bring(m, 0, 100)
    m.apply(E.starter("JH"))
    assert m.game_over and m.winner == 1 and m.front == [100, 121]
    assert m.last_pegs == [(1, 2, "heels")]
    assert m.skunk == ["", ""] and m.match_points == [0, 2]


def test_next_game_the_loser_deals_first():
    m = new_match(dealer=0)
    finish_game(m, 0, 100)
    m.apply(E.next_game())
    assert (m.game_no, m.dealer, m.deal_no, m.front, m.back) == (2, 1, 1, [0, 0], [0, 0])
    assert not m.game_over and m.winner is None and m.results[0][0] == 0
    finish_game(m, 0, 100)  # the same loser deals again
    m.apply(E.next_game())
    assert m.dealer == 1


def test_three_handed_deal_passes_left_and_show_order():
    m = new_match("three", dealer=1)
    assert m.next_show() == (2, "hand")
    m.apply(E.peg(2, 2, "hand"))
    assert m.next_show() == (0, "hand")
    m.apply(E.peg(0, 2, "hand"))
    assert m.next_show() == (1, "hand")
    m.apply(E.peg(1, 2, "hand"))
    assert m.next_show() == (1, "crib")
    m.apply(E.next_deal())
    assert m.dealer == 2 and m.next_show() == (0, "hand")
    m.apply(E.next_deal())
    assert m.dealer == 0 and m.next_show() == (1, "hand")


def test_partners_sides_and_show_order():
    m = new_match("four", dealer=3)  # player 3 is on side 1
    assert m.dealer_side == 1
    order = []
    while m.next_show() is not None:
        order.append((m.next_shower(), m.next_show()))
        side, kind = m.next_show()
        m.apply(E.peg(side, 2, kind))
    assert order == [
        (0, (0, "hand")),
        (1, (1, "hand")),
        (2, (0, "hand")),
        (3, (1, "hand")),
        (3, (1, "crib")),
    ]
    assert m.front == [4, 6]
    m.apply(E.next_deal())
    assert m.dealer == 0 and m.dealer_side == 0


def test_partners_game_to_121():
    m = new_match("four", fmt="points", dealer=0)
    finish_game(m, 1, 80)
    assert m.winner == 1 and m.skunk == ["skunk", ""] and m.match_points == [0, 2]
    m.apply(E.next_game())
    assert m.dealer % 2 == 0 and m.dealer == 2  # the losing side, left of the last dealer


def test_five_card_three_for_last_every_game():
    m = new_match("five", fmt="points", dealer=0)
    assert m.front == [0, 3] and m.last_pegs == [(1, 3, "last")]
    m.apply(E.peg(1, 20, "hand"))  # five-card hand: three cards and the starter
    assert "0..20" in message(raises(CribError, m.apply, E.peg(0, 21, "hand")))
    finish_game(m, 0, 40)
    assert m.skunk == ["", ""] and m.match_points == [1, 0]
    m.apply(E.next_game())
    assert m.dealer == 1 and m.front == [3, 0]


def test_five_card_three_for_last_after_a_cut():
    m = Match(E.setup("five"))
    m.apply(E.cut(["2H", "KC"]))
    assert m.dealer == 0 and m.front == [0, 3]


def test_the_example_at_the_top_of_game_py():
    m = Match(E.setup(form="six", fmt="acc", games=3, muggins=False, names=["Ann", "Bob"]))
    m.apply(E.cut(["5H", "9C"]))
    m.apply(E.starter("JD"))
    m.apply(E.lay(1, "7S"))
    done = m.apply(E.hand(1, "7S 3S 4S 5S"))
    assert done["n"] == 11
    m.apply(E.peg(0, 8, "hand"))
    m.apply(E.undo())
    assert m.front == [2, 11] and m.undone == {"t": "peg", "s": 0, "n": 8, "why": "hand"}
