# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Every refusal: a clear CribError, and the match exactly as it was before.
from game_kit import bring, finish_game, new_match, state

from check import message, raises
from cribbage import events as E
from cribbage.errors import CribError
from cribbage.game import Match


def refused(m, ev, words):
    before = state(m)
    e = raises(CribError, m.apply, ev)
    assert words in message(e), message(e)
    assert state(m) == before, ev
    c = raises(CribError, m.check, ev)
    assert message(c) == message(e)
    return e


def test_nothing_before_the_first_dealer():
    m = Match()
    refused(m, E.peg(0, 2), "cut for the first deal")
    refused(m, E.starter("5H"), "cut for the first deal")
    refused(m, E.next_deal(), "cut for the first deal")
    refused(m, E.cut(["5H"]), "one card for each of the 2 players")
    refused(m, {"t": "cut", "cards": ["5H", "5H"]}, "5H cut twice")
    refused(m, {"t": "cut", "cards": ["5H", "ZZ"]}, "bad card")
    refused(m, E.dealer(2), "player must be 0..1")
    refused(m, E.undo(), "nothing to undo")


def test_peg_points_out_of_range():
    m = new_match()
    refused(m, E.peg(0, 30), "1..29")
    refused(m, E.peg(0, 30, "hand"), "0..29")
    refused(m, E.peg(0, 0, "manual"), "1..29")
    refused(m, E.peg(0, -2), "use a correction")
    refused(m, E.peg(0, 16, "play"), "1..15")
    refused(m, E.peg(0, 2, "go"), "1..1")
    refused(m, E.peg(0, 3, "heels"), "his heels is 2")
    refused(m, {"t": "peg", "s": 0, "n": 2.0, "why": "play"}, "whole number")
    refused(m, {"t": "peg", "s": 0, "n": True, "why": "play"}, "whole number")
    for n in (19, 25, 26, 27):
        refused(m, E.peg(1, n, "hand"), "no hand counts %d" % n)


def test_peg_for_a_side_that_does_not_exist():
    m = new_match()
    refused(m, E.peg(2, 2), "side must be 0..1")
    refused(m, E.peg(-1, 2), "side must be 0..1")
    refused(m, {"t": "peg", "n": 2}, "side must be 0..1")
    refused(m, E.peg(0, 2, "luck"), "a peg is for")


def test_show_out_of_order():
    m = new_match(dealer=0)
    refused(m, E.peg(0, 8, "hand"), "out of order: P2's hand counts next")
    refused(m, E.peg(0, 8, "crib"), "out of order")
    m.apply(E.peg(1, 8, "hand"))
    refused(m, E.peg(0, 8, "crib"), "P1's hand counts next")
    m.apply(E.peg(0, 8, "hand"))
    m.apply(E.peg(0, 8, "crib"))
    refused(m, E.peg(0, 8, "crib"), "the show of this deal is over")


def test_play_pegs_after_the_show_began():
    m = new_match(dealer=0)
    m.apply(E.peg(1, 8, "hand"))
    refused(m, E.peg(1, 2, "play"), "the show has begun")
    refused(m, E.peg(1, 1, "go"), "the show has begun")
    refused(m, E.starter("5H"), "too late for the starter")


def test_peg_after_game_over():
    m = new_match()
    finish_game(m, 0, 100)
    refused(m, E.peg(1, 2), "game over: P1 won; nothing scores after it")
    refused(m, E.fix(1, 2), "nothing scores after it")
    refused(m, E.next_deal(), "nothing scores after it")
    refused(m, E.starter("JH"), "nothing scores after it")


def test_next_game_only_after_game_over():
    m = new_match()
    refused(m, E.next_game(), "the game is not over yet")


def test_muggins_claims_with_muggins_off():
    m = new_match(dealer=0)
    refused(m, E.muggins(0, 2), "muggins is off")
    refused(m, E.peg(0, 2, "muggins"), "muggins is off")
    m.apply(E.starter("5H"))
    refused(m, E.lay(1, "7S", claim=0), "muggins, which is off")


def test_muggins_with_nothing_to_claim():
    m = new_match(dealer=0, muggins=True)
    refused(m, E.muggins(0, 2), "no missed points")


def test_corrections_stay_on_the_board():
    m = new_match()
    bring(m, 0, 10)
    refused(m, E.fix(0, -11), "would put P1 at -1")
    refused(m, E.fix(0, 112), "would put P1 at 122")
    refused(m, E.fix(0, 0), "changes nothing")


def test_play_refusals():
    m = new_match(dealer=0)
    refused(m, E.lay(1, "5H"), "turn the starter before the play")
    m.apply(E.starter("9D"))
    refused(m, E.lay(0, "5H"), "not P1's turn: P2 to play")
    refused(m, E.lay(1, "9D"), "9D is the starter")
    refused(m, E.lay(3, "5H"), "player must be 0..1")
    refused(m, E.go(1), "P2 cannot say go at 0")
    refused(m, {"t": "lay", "p": 1, "c": 17, "n": 2}, "5H scores 0, not 2")  # a count is checked
    m.apply(E.lay(1, "KH"))
    m.apply(E.lay(0, "QH"))
    refused(m, E.lay(1, "KH"), "KH was already played")
    m.apply(E.lay(1, "5H"))
    refused(m, E.lay(0, "7C"), "7C would make 32: over 31")
    refused(m, E.lay(0, "5H"), "5H was already played")


def test_a_hand_of_the_wrong_size_or_a_card_twice():
    m = new_match(dealer=0)
    m.apply(E.starter("9D"))
    five = {"t": "show", "s": 1, "k": "hand", "cards": [1, 2, 3, 4, 5]}
    refused(m, five, "4 cards without the starter, not 5")
    refused(m, {"t": "show", "s": 1, "k": "hand", "cards": [1, 2, 3]}, "not 3")
    refused(m, {"t": "show", "s": 1, "k": "hand", "cards": [1, 2, 3, 3]}, "AC keyed twice")
    refused(m, E.hand(1, "9D AS 2S 3S"), "9D is the starter")
    refused(m, E.hand(0, "AS 2S 3S 4S"), "out of order")
    refused(m, {"t": "show", "s": 1, "k": "box", "cards": [1, 2, 3, 4]}, "hand or the crib")


def test_show_needs_the_starter():
    m = new_match(dealer=0)
    refused(m, E.hand(1, "AS 2S 3S 4S"), "turn the starter before counting")


def test_unknown_events_and_keys():
    m = new_match()
    refused(m, {"t": "teleport"}, "unknown event")
    refused(m, {"t": "peg", "s": 0, "n": 2, "why": "play", "x": 1}, "takes no 'x'")
    refused(m, {"t": "undo", "n": 2}, "undo takes no 'n'")
    refused(m, E.setup(), "a set-up starts a new match")
    refused(m, "peg", "a dict with a text 't'")
    refused(m, {"s": 1}, "a dict with a text 't'")


def test_play_refusals_name_players_as_the_board_does():
    # The core numbers players from 0; a message named them so ("player 2 cannot say go at 0"
    # while the board showed "P3 lays"). Messages use the names on the board.
    m = new_match("three", dealer=1, names=["Ann", "Bob", "Cy"])
    m.apply(E.starter("9D"))
    refused(m, E.go(2), "Cy cannot say go at 0")
    refused(m, E.lay(0, "5H"), "not Ann's turn: Cy to play")
    m.apply(E.lay(2, "5C"))
    m.apply(E.lay(0, "6C"))
    m.apply(E.lay(1, "7C"))
    m.apply(E.lay(2, "8C"))
    m.apply(E.lay(0, "2C"))
    m.apply(E.lay(1, "3C"))
    for ev in (E.lay(2, "AC"), E.lay(0, "AD"), E.lay(1, "AH"), E.lay(2, "AS")):
        m.apply(ev)
    refused(m, E.lay(2, "4C"), "not Cy's turn: Ann to play")  # Cy is out of cards
    for name in ("player 0", "player 1", "player 2"):
        for ev in (E.go(0), E.lay(0, "4C"), E.lay(1, "4C"), E.lay(2, "4C")):
            try:
                m.check(ev)
            except CribError as e:
                assert name not in message(e), message(e)
