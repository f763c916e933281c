# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The play: every pegging rule of docs/rules.md, go and last card, restarts, refusals; both interpreters.
from game_kit import points_for_lay

from check import message, raises
from cribbage.cards import parse_cards
from cribbage.errors import CardError, CribError
from cribbage.play import Play, reasons_for_lay


def pts(text):
    return points_for_lay(text.split())


def why(text):
    return reasons_for_lay(text.split())


# ---- points_for_lay / reasons_for_lay -------------------------------------------------------------


def test_nothing_for_a_plain_card():
    assert pts("7H") == 0
    assert why("7H") == []
    assert pts("KS 2H") == 0


def test_fifteen_scores_two():
    assert pts("7H 8S") == 2
    assert why("7H 8S") == [("fifteen", 2)]
    assert pts("KS 5C") == 2  # court cards count 10


def test_thirty_one_scores_two():
    assert why("KS QS JS AH") == [("thirty-one", 2)]
    assert pts("TS 9S 5D 7C") == 2


def test_pair_by_rank_not_by_value():
    assert why("9S 9H") == [("pair", 2)]
    assert pts("KS QS") == 0  # same value, different rank
    assert pts("TS JS") == 0


def test_pair_royal_and_double_pair_royal():
    assert why("3S 3H 3D") == [("pair royal", 6)]
    assert why("2S 2H 2D 2C") == [("double pair royal", 12)]


def test_pair_only_with_the_card_just_before():
    assert pts("9S 4H 9H") == 0
    assert pts("3S 3H 4D 3C") == 0


def test_fifteen_with_pair_royal():
    assert why("5S 5H 5D") == [("fifteen", 2), ("pair royal", 6)]
    assert pts("5S 5H 5D") == 8


def test_thirty_one_with_pair():
    assert why("8S 8H 5D 5S 5C") == [("thirty-one", 2), ("pair royal", 6)]


def test_runs_of_three_to_seven():
    assert why("AS 2H 3D") == [("run of 3", 3)]
    assert why("AS 2H 3D 4C") == [("run of 4", 4)]
    assert why("AS 2H 3D 4C 5S") == [("fifteen", 2), ("run of 5", 5)]
    assert why("AS 2H 3D 4C 5S 6S") == [("run of 6", 6)]
    assert why("AS 2H 3D 4C 5S 6S 7S") == [("run of 7", 7)]  # count 28


def test_run_in_any_order():
    assert pts("3S AH 2D") == 3
    assert pts("6S 4H 5D") == 2 + 3  # 15 and a run
    assert pts("QS JH KD") == 3
    assert pts("5S 3H 4D 2C") == 4


def test_longest_run_taken_not_the_sum():
    assert why("2S 3H 4D 5C") == [("run of 4", 4)]


def test_run_broken_by_another_rank():
    assert pts("4S KH 6D 5C") == 0
    assert pts("4S KH 6D 5C 3S") == 0


def test_run_broken_by_a_pair():
    assert pts("2S 3H 3D") == 2
    assert pts("2S 3H 3D 4C") == 0
    assert pts("3H 2S 3D 4C") == 3  # 2 3 4 is the tail: the earlier 3 is outside it


def test_run_tail_after_older_cards():
    assert pts("KS 9H 2S 4D 3C") == 3  # 10 + 9 + 2 + 4 + 3 = 28


def test_ace_is_low_only():
    assert pts("QS KH AD") == 0


def test_lay_refuses_bad_input():
    assert "over 31" in message(raises(CribError, points_for_lay, "KS QS JS 5H".split()))
    assert "no card" in message(raises(CribError, points_for_lay, []))
    assert "twice" in message(raises(CardError, points_for_lay, ["5H", "5H"]))
    assert "1X" in message(raises(CardError, points_for_lay, ["5H", "1X"]))


def test_points_accept_ints_and_text():
    assert points_for_lay(parse_cards("7H 8S")) == 2
    assert points_for_lay("7H 8S") == 2


# ---- Play -------------------------------------------------------------------------------------------


def lay_all(play, moves):
    """moves: 'seat:card' or 'seat:go' tokens; returns all awards."""
    awards = []
    for m in moves.split():
        seat, what = m.split(":")
        if what == "go":
            awards += play.go(int(seat))
        else:
            awards += play.lay(int(seat), what)
    return awards


def test_play_two_handed_start():
    p = Play()
    assert p.turn == 1 and p.count == 0 and not p.over
    assert p.cards_left == [4, 4]
    assert p.lay(1, "TS") == []
    assert p.turn == 0 and p.count == 10
    assert p.lay(0, "5H") == [(0, "fifteen", 2)]
    assert p.current == parse_cards("TS 5H")
    assert p.laid == [(1, parse_cards("TS")[0]), (0, parse_cards("5H")[0])]


def test_go_then_other_plays_on_then_one_for_go():
    p = Play()
    lay_all(p, "1:TS 0:KH 1:9D")  # 29
    assert p.go(0) == []
    assert p.turn == 1
    assert p.lay(1, "AS") == []  # 30, seat 1 plays on
    assert p.turn == 1
    assert p.go(1) == [(1, "go", 1)]
    # the count restarts with the seat after the last layer
    assert p.count == 0 and p.current == [] and p.turn == 0


def test_thirty_one_scores_two_in_all_and_restarts():
    p = Play()
    awards = lay_all(p, "1:TS 0:KH 1:AD 0:QS")
    assert awards == [(0, "thirty-one", 2)]
    assert p.count == 0 and p.current == []
    assert p.turn == 1


def test_go_taken_after_others_said_go_then_31():
    p = Play()
    lay_all(p, "1:TS 0:KH 1:8D")  # 28
    assert p.go(0) == []
    assert p.lay(1, "3C") == [(1, "thirty-one", 2)]
    assert p.turn == 0 and p.count == 0


def test_runs_and_pairs_do_not_span_a_restart():
    p = Play()
    lay_all(p, "1:TS 0:KH 1:9D 0:go 1:go")
    assert p.count == 0 and p.turn == 0
    # a nine after the restart does not pair with the nine before it
    assert p.lay(0, "9H") == []
    p2 = Play()
    lay_all(p2, "1:KS 0:QH 1:8D 0:go 1:go")
    # J after K Q in the old count: no run of 3 across the restart
    assert p2.lay(0, "JH") == []


def test_last_card_scores_one():
    p = Play(cards_each=2)
    awards = lay_all(p, "1:2S 0:3H 1:4D 0:9C")  # run of 3 at 4D, count 18 at the end
    assert awards[-1] == (0, "last card", 1)
    assert (1, "run of 3", 3) in awards
    assert p.over and p.turn is None


def test_last_card_making_31_scores_only_two():
    p = Play(cards_each=3)
    awards = lay_all(p, "1:TS 0:KH 1:AD 0:QS")  # 31 -> restart
    awards += lay_all(p, "1:5S 0:5H")
    assert awards[-2:] == [(0, "pair", 2), (0, "last card", 1)]
    p = Play(cards_each=2)
    awards = lay_all(p, "1:TS 0:KH 1:AD 0:QS")
    assert awards == [(0, "thirty-one", 2)]
    assert p.over


def test_seat_out_of_cards_is_skipped():
    p = Play(cards_each=2)
    lay_all(p, "1:AS 0:2H 1:3D")  # seat 1 is out of cards now
    assert p.turn == 0
    assert p.lay(0, "KC") == [(0, "last card", 1)]


def test_layer_out_of_cards_after_others_said_go_takes_the_go():
    p = Play(cards_each=2)
    lay_all(p, "1:TS 0:KH 1:8D")  # 28; seat 1 out of cards
    assert p.turn == 0
    assert p.go(0) == [(1, "go", 1)]
    assert p.turn == 0 and p.count == 0
    assert p.lay(0, "9C") == [(0, "last card", 1)]


def test_three_handed_turns_and_go():
    p = Play(seats=3, leader=1)
    lay_all(p, "1:TS 2:KH 0:5D")  # 25
    assert p.turn == 1
    assert p.go(1) == []
    assert p.turn == 2
    assert p.lay(2, "4C") == []  # 29
    assert p.turn == 0
    assert p.go(0) == []
    assert p.turn == 2  # seat 1 said go
    assert p.lay(2, "AC") == []  # 30
    assert p.go(2) == [(2, "go", 1)]
    assert p.turn == 0  # after the last layer


def test_four_handed_pair_royal_across_seats():
    p = Play(seats=4, leader=1)
    awards = lay_all(p, "1:7S 2:7H 3:7D 0:7C")
    assert awards == [(2, "pair", 2), (3, "pair royal", 6), (0, "double pair royal", 12)]
    assert p.count == 28 and p.turn == 1


def test_single_count_ends_at_first_go():
    p = Play(cards_each=3, single_count=True)
    lay_all(p, "1:TS 0:KH 1:5D")  # 25
    assert p.go(0) == []
    # seat 1 plays on to 29 and is out of cards: nobody can go on, so it takes the go and the play ends
    assert p.lay(1, "4C") == [(1, "go", 1)]
    assert p.over and p.cards_left == [2, 0]
    assert p.laid[-1][0] == 1


def test_single_count_go_point_ends_play():
    p = Play(cards_each=3, single_count=True)
    awards = lay_all(p, "1:TS 0:KH 1:5D 0:go 1:go")
    assert awards == [(1, "go", 1)]
    assert p.over and p.turn is None
    assert p.cards_left == [2, 1]


def test_single_count_ends_at_31():
    p = Play(cards_each=3, single_count=True)
    awards = lay_all(p, "1:TS 0:KH 1:AD 0:QS")
    assert awards == [(0, "thirty-one", 2)]
    assert p.over


def state(p):
    return (p.count, list(p.current), p.turn, p.over, list(p.cards_left), list(p.laid), list(p.said_go))


def test_refusals_change_nothing():
    p = Play()
    lay_all(p, "1:TS 0:KH 1:9D")
    before = state(p)
    assert "turn" in message(raises(CribError, p.lay, 1, "2S"))
    assert "already played" in message(raises(CribError, p.lay, 0, "TS"))
    assert "over 31" in message(raises(CribError, p.lay, 0, "3S"))
    assert "5Z" in message(raises(CardError, p.lay, 0, "5Z"))
    assert "seat" in message(raises(CribError, p.lay, 7, "AS"))
    assert "turn" in message(raises(CribError, p.go, 1))
    assert state(p) == before


def test_go_refused_when_any_card_fits():
    p = Play()
    p.lay(1, "TS")
    before = state(p)
    assert "any card fits" in message(raises(CribError, p.go, 0))
    assert state(p) == before


def test_play_over_refuses_everything():
    p = Play(cards_each=1)
    lay_all(p, "1:AS 0:2S")
    assert p.over
    assert "over" in message(raises(CribError, p.lay, 0, "3S"))
    assert "over" in message(raises(CribError, p.go, 1))


def test_bad_setup_refused():
    assert "seats" in message(raises(CribError, Play, seats=5))
    assert "leader" in message(raises(CribError, Play, seats=2, leader=2))
    assert "cards_each" in message(raises(CribError, Play, cards_each=0))


def test_full_two_handed_play():
    # non-dealer (seat 1): 4S 5S 6S JD; dealer (seat 0): 4H 5H 6H 9C
    p = Play()
    awards = lay_all(p, "1:5S 0:5H 1:6S 0:4H 1:4S 0:6H 1:go 0:go")
    # 5 5 pair(0:2) | 6 -> 16 | 4H -> 20: run 4 5 6? tail 5H 6S 4H = run of 3 (0:3)
    # 4S -> 24: pair with 4H (1:2) | 6H -> 30: tail 4H 4S 6H no run | both go: 0 takes go
    assert awards == [
        (0, "pair", 2),
        (0, "run of 3", 3),
        (1, "pair", 2),
        (0, "go", 1),
    ]
    awards = lay_all(p, "1:JD 0:9C")
    assert awards == [(0, "last card", 1)]
    assert p.over


def test_fifteen_for_fifteen():
    # The most one card can peg: a double pair royal making 15 with the last card of the play.
    p = Play(cards_each=3)
    awards = lay_all(p, "1:9S 0:2H 1:AS 0:AH 1:AD 0:AC")
    assert awards[-3:] == [(0, "fifteen", 2), (0, "double pair royal", 12), (0, "last card", 1)]
    assert sum(pts for seat, _r, pts in awards if seat == 0) == 2 + 15
