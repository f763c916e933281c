# The coach: each discard from cards keyed on the board, against the best by the core's advice.
from crib.advise import advice
from cribbage.cards import format_cards


def discard_of(form, dealt, hand, dealer):
    """The discard a player made from `dealt` (card numbers keyed for advice) keeping `hand` (the cards
    of their show), as {"thrown", "kept", "lost", "best"}: `lost` the expected points (net: hand and
    crib) it gave away against the best discard, two decimals. None when the hand is not from `dealt`."""
    if not hand or any(c not in dealt for c in hand) or len(set(hand)) != len(hand):
        return None
    thrown = sorted(c for c in dealt if c not in hand)
    rows = advice(list(dealt), form, dealer)
    mine = next((r for r in rows if sorted(r["discard"]) == sorted(format_cards(thrown).split())), None)
    if mine is None:
        return None
    return {
        "thrown": format_cards(thrown),
        "kept": format_cards(sorted(hand)),
        "lost": round(rows[0]["net"] - mine["net"], 2),
        "best": " ".join(rows[0]["discard"]),
        "dealer": dealer,
    }
