# The board's opponent: discards and lays at a level (beginner, expected, top), for the board and the duel.
"""The opponent's two decisions, at a level. Pure: no I/O, no clock; cards are ints (rank * 4 + suit).

discard(level, hand, dealer_is_me, my_score, their_score, target, form=None) -> list of the cards
    to throw (2 of a six- or five-card hand, 1 in the three- and four-handed forms). `form` is one of
    cribbage/forms.py's ids; None: "six" for 6 cards (six61 when target is 61), "five" for 5.
lay(level, hand_left, played_this_count, count, played_all, seen, my_score, their_score, target,
    kept=4) -> the card to lay, or None for go (only when no card fits under 31).
    hand_left: my cards not yet laid; played_this_count: the running count's cards in order;
    count: their pips; played_all: every card laid this play by anyone, in order; seen: other cards
    I know are not in the opponent's hand (the starter, my own throws); kept: cards each seat holds
    in the play (4; 3 in the five-card game), for the number the opponent still holds.

Levels (LEVELS): beginner keeps the cards with the most points on their own and lays the card
scoring most, else the highest; expected discards by the exact expectation of cribbage/advice.py
(hand +/- crib) and lays like the beginner; top discards like expected and lays with a look-ahead
over the cards the opponent may still hold, playing to the board near the end. docs/bots.md.
"""

from cribbage.cards import pip
from cribbage.show import points_alone

LEVELS = ("beginner", "expected", "top")
_advisor = None  # made on the first expected or top discard: the advice comes with its tables


def discard(level, hand, dealer_is_me, my_score, their_score, target, form=None):
    """The cards to throw to the crib (a list): see the module docstring."""
    # (one function, no helpers: each name a module holds costs the board's name pool, [name budget])
    if level not in LEVELS:
        raise ValueError("unknown level %r: one of %s" % (level, " ".join(LEVELS)))
    if form is None:
        form = ("six61" if target == 61 else "six") if len(hand) == 6 else "five"
    throw = 1 if form in ("three", "four") else 2
    if level == "beginner":
        # keep the cards with the most points on their own
        n = len(hand)
        best = None
        best_pts = -1
        for i in range(n):
            for j in range(i + 1, n) if throw == 2 else (i,):
                kept = [hand[k] for k in range(n) if k != i and k != j]
                p = points_alone(kept)
                if p > best_pts:
                    best_pts = p
                    best = [hand[i], hand[j]] if throw == 2 else [hand[i]]
        return best
    global _advisor
    if _advisor is None:
        from cribbage.advice import Advisor

        _advisor = Advisor()
    a = _advisor
    a.advise(list(hand), form, dealer_is_me)
    if level == "top":
        from cribbage.opponent_top import top_discard

        return top_discard(a, hand, form, dealer_is_me, my_score, their_score, target)
    return a.shown(0)[0]


# ---- the play -------------------------------------------------------------------------------------


def lay_points(current, count, card):
    """Points laying `card` earns on the running count (`current` its cards, `count` their pips):
    fifteen, thirty-one, pairs, runs; go and last card not included. The card must fit."""
    n = count + pip(card)
    pts = 2 if n == 15 or n == 31 else 0
    r = card >> 2
    k = len(current)
    same = 0
    while same < k and current[k - 1 - same] >> 2 == r:
        same += 1
    if same:
        return pts + (0, 2, 6, 12)[same]
    best = 0
    m = 1 << r
    lo = hi = r
    i = k - 1
    length = 1
    while i >= 0:
        q = current[i] >> 2
        if m >> q & 1:
            break
        m |= 1 << q
        lo = q if q < lo else lo
        hi = q if q > hi else hi
        length += 1
        if length >= 3 and hi - lo + 1 == length:
            best = length
        i -= 1
    return pts + best


def lay(
    level,
    hand_left,
    played_this_count,
    count,
    played_all,
    seen,
    my_score,
    their_score,
    target,
    kept=4,
):
    """The card to lay, or None for go: see the module docstring."""
    if level not in LEVELS:
        raise ValueError("unknown level %r: one of %s" % (level, " ".join(LEVELS)))
    cards = [c for c in hand_left if count + pip(c) <= 31]
    if not cards:
        return None
    if len(cards) == 1:
        return cards[0]
    if level == "top":
        from cribbage.opponent_top import top_lay

        return top_lay(
            cards, hand_left, played_this_count, count, played_all, seen, my_score, their_score, target, kept
        )
    # the card scoring most, else (and among equals) the highest
    best = None
    best_key = None
    for c in cards:
        key = (lay_points(played_this_count, count, c), pip(c), c >> 2, c)
        if best_key is None or key > best_key:
            best_key = key
            best = c
    return best
