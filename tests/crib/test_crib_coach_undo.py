# The coach follows undo: keyed cards an undo took back are not paired with the show (issue 14).
from crib.history.replay import replay_board
from cribbage import events as E
from cribbage.cards import parse_cards
from cribbage.game import Match

DEALT = parse_cards("AS 2S 3S 4S 5D 6S")
HAND = parse_cards("2S 3S 4S 5D")  # Bob, the pone, throws AS 6S


def _discards(with_undo):
    m = Match(E.setup(names=["Ann", "Bob"]))
    evs = [m.setup, m.apply(E.dealer(0))]
    evs.append(m.apply({"t": "advice", "p": 1, "cards": DEALT}))
    if with_undo:
        evs.append(m.apply(E.undo()))  # keyed by mistake, taken back: the coach has nothing to pair
    evs.append(m.apply(E.starter("KH")))
    evs.append(m.apply(E.show(1, "hand", HAND)))
    games, _orphans, _m = replay_board("b1", list(enumerate(evs)))
    return games[0].discards


def test_a_discard_is_paired_with_the_keyed_cards():
    (d,) = _discards(with_undo=False)
    assert d["side"] == 1 and d["thrown"] == "AS 6S" and d["kept"] == "2S 3S 4S 5D" and d["dealer"] is False


def test_keyed_cards_an_undo_took_back_are_not_paired():
    # Before: the advice event stayed paired after its undo, and the show was coached against it.
    assert _discards(with_undo=True) == []
