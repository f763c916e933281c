# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Shows keyed as cards and counted by cribbage.show; the play card by card; muggins; a whole game.
from game_kit import bring, new_match

from check import message, raises
from cribbage import events as E
from cribbage.cards import parse_cards
from cribbage.errors import CribError
from cribbage.game import Match


def lay_all(m, plays):
    """plays: "p:card" or "p:go" words in order."""
    for word in plays.split():
        p, what = word.split(":")
        m.apply(E.go(int(p)) if what == "go" else E.lay(int(p), what))


def test_two_handed_game_from_the_cut_to_121_with_heels():
    m = Match(E.setup(names=["Ann", "Bob"]))
    m.apply(E.cut(["3H", "9C"]))  # Ann cuts low and deals
    assert m.dealer == 0 and m.next_show() == (1, "hand")
    m.apply(E.starter("JS"))  # his heels
    assert m.front == [2, 0] and m.last_pegs == [(0, 2, "heels")]
    # Bob leads. 4 (4), 5 (9), 6 (15: fifteen 2 and a run of 3), 5 (20), K (30), both go.
    lay_all(m, "1:4S 0:5C 1:6D 0:5S 1:KC")
    assert m.front == [2, 5] and m.play.count == 30
    lay_all(m, "0:go 1:go")  # Bob laid last: one for the go
    assert m.front == [2, 6] and m.play.count == 0 and m.play_seats[m.play.turn] == 0
    lay_all(m, "0:QH 1:5H 0:9H")  # Q (10), 5 (15: fifteen 2), 9 (24: last card 1)
    assert m.front == [3, 8] and m.play.over and m.phase() == "show"
    done = m.apply(E.hand(1, "4S 5H 6D KC"))  # three fifteens 6, a run of three 3
    assert done["n"] == 9 and m.front == [3, 17]
    assert m.show_items() == [
        ("fifteen", 2, parse_cards("5H KC")),
        ("fifteen", 2, parse_cards("5H JS")),
        ("fifteen", 2, parse_cards("4S 5H 6D")),
        ("run", 3, parse_cards("4S 5H 6D")),
    ]
    assert "fifteen six" in m.show_spoken()
    assert m.apply(E.hand(0, "5C 5S QH 9H"))["n"] == 10  # four fifteens 8, a pair 2
    assert m.apply(E.crib(0, "AH 2D 7C 8S"))["n"] == 2
    assert m.front == [15, 17] and m.back == [13, 8] and m.next_show() is None
    assert m.last_show == (0, "crib", tuple(parse_cards("AH 2D 7C 8S")), parse_cards("JS")[0], 2, None)
    # Later deals pegged by hand, as players do who do not key their cards.
    deals = [
        (1, 8, 6, 12, 4),
        (0, 4, 10, 7, 9),
        (1, 3, 14, 6, 2),
        (0, 6, 8, 12, 5),
        (1, 5, 7, 9, 13),
        (0, 7, 12, 8, 6),
        (1, 2, 5, 2, 0),
        (0, 1, 1, 4, 0),
    ]
    for dealer, play_pts, hand_pts, dealer_hand, crib_pts in deals:
        m.apply(E.next_deal())
        assert m.dealer == dealer
        m.apply(E.starter("2C" if m.deal_no % 2 else "3D"))
        m.apply(E.peg(1 - dealer, play_pts, "play"))
        m.apply(E.peg(1 - dealer, hand_pts, "hand"))
        m.apply(E.peg(dealer, dealer_hand, "hand"))
        m.apply(E.peg(dealer, crib_pts, "crib"))
    assert m.front == [116, 114] and m.deal_no == 9 and not m.game_over
    m.apply(E.next_deal())  # Bob deals; Ann counts first and needs 5
    m.apply(E.starter("5D"))
    lay_all(m, "0:TH 1:9S 0:4C 1:8D")  # 10, 19, 23, 31: Bob pegs 2 for 31
    assert m.front == [116, 116]
    # The rest of the play is not keyed; Ann counts first: T-5 and 4-5-6 fifteens 4, a run of four.
    done = m.apply(E.hand(0, "TH 4C 6C 7S"))
    assert done["n"] == 8 and m.front == [121, 116] and m.game_over and m.winner == 0
    assert m.skunk == ["", ""] and m.match_points == [2, 0] and m.phase() == "game over"


def test_a_show_must_agree_with_the_play():
    m = new_match(dealer=0)
    m.apply(E.starter("2C"))
    lay_all(m, "1:4S 0:5C")
    e = raises(CribError, m.apply, E.hand(1, "4S 5C KC QD"))
    assert "5C was laid by P1" in message(e)
    e = raises(CribError, m.apply, E.hand(1, "6D KC QD 9D"))
    assert "P2 laid 4S in the play: not in this hand" in message(e)
    m.apply(E.hand(1, "4S 6D KC QD"))
    e = raises(CribError, m.apply, E.hand(0, "4S 5C 9H 9S"))
    assert "4S was already shown this deal" in message(e)
    m.apply(E.hand(0, "5C 9H 9S AH"))
    e = raises(CribError, m.apply, E.crib(0, "5C 3D 3H KH"))
    assert "5C was already shown" in message(e)
    e = raises(CribError, m.apply, {"t": "show", "s": 0, "k": "crib", "cards": [8, 9, 10, 11], "n": 3})
    assert "counts" in message(e) and "not 3" in message(e)


def test_five_card_hands_are_three_cards_and_counted_so():
    m = new_match("five", dealer=0)
    m.apply(E.starter("5D"))
    assert m.apply(E.hand(1, "5H 5C 5S"))["n"] == 20  # the best three cards and a starter can do
    assert m.front == [0, 23]
    e = raises(CribError, m.apply, E.hand(0, "AS 2S 3S 4S"))
    assert "3 cards without the starter, not 4" in message(e)
    assert m.apply(E.hand(0, "AS 2S 3S"))["n"] == 6  # a run of three and a three-card flush
    assert m.apply(E.crib(0, "JD 9C 8C 7H"))["n"] == 8  # two fifteens, a run of three, nobs


def test_muggins_the_shortfall_is_claimable_once():
    m = new_match(dealer=0, muggins=True)
    m.apply(E.starter("JS"))
    m.apply(E.hand(1, "4S 5H 6D KC", claim=6))  # counts 9, claims 6
    assert m.front == [2, 6] and m.muggins_due == (1, 3)
    assert m.last_show[4:] == (9, 6)
    e = raises(CribError, m.apply, E.muggins(1))
    assert "cannot claim their own" in message(e)
    e = raises(CribError, m.apply, E.muggins(0, 4))
    assert "1..3" in message(e)
    assert m.apply(E.muggins(0)) == {"t": "muggins", "s": 0, "n": 3}
    assert m.front == [5, 6] and m.muggins_due is None
    assert "no missed points" in message(raises(CribError, m.apply, E.muggins(0)))
    e = raises(CribError, m.apply, E.hand(0, "5C 5S QH 9H", claim=11))
    assert "counts 10: 11 is too many" in message(e)
    m.apply(E.hand(0, "5C 5S QH 9H", claim=8))
    assert m.muggins_due == (0, 2)
    m.apply(E.crib(0, "AH 2D 7C 8S"))  # the next count: the chance to claim has passed
    assert m.muggins_due is None and m.front == [15, 6]


def test_muggins_in_the_play_and_undo_of_a_claim():
    m = new_match(dealer=0, muggins=True)
    m.apply(E.starter("2C"))
    lay_all(m, "1:7S")
    m.apply(E.lay(0, "8H", claim=0))  # a fifteen not pegged
    assert m.front == [0, 0] and m.muggins_due == (0, 2)
    e = raises(CribError, m.apply, E.lay(1, "8S", claim=3))
    assert "8S scores 2, not 3" in message(e)
    m.apply(E.muggins(1, 2))
    assert m.front == [0, 2]
    m.apply(E.undo())
    assert m.front == [0, 0] and m.muggins_due == (0, 2)
    m.apply(E.undo())
    assert m.muggins_due is None and m.play.count == 7
    m.apply(E.lay(0, "8H"))  # no claim: the board pegs what it counted
    assert m.front == [2, 0]


def test_a_show_pegged_past_the_target_wins_and_stops():
    m = new_match(dealer=0)
    bring(m, 1, 115)
    m.apply(E.starter("JS"))
    m.apply(E.hand(1, "4S 5H 6D KC"))
    assert m.front[1] == 121 and m.game_over and m.last_pegs == [(1, 6, "hand")]
