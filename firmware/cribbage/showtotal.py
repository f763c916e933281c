# The fast show total: a rank table and one int a card, for the discard advice's bulk use and `crib score`.
# Not imported by the game: the board checks a player's show with cribbage.show's itemised count, so
# its table comes onto a Pico's heap with the advice, when it is first asked for (docs/memory.md).
from cribbage import const
from cribbage.cards import JACK
from cribbage.show import _check, score_show
from cribbage.showtables import BUCKETS, DISPLACE, RANK_POINTS, RANK_WEIGHTS, SLOTS

# ---- the fast total ---------------------------------------------------------------------------------
# Each card maps to one int; the five ints add up, with no carries between fields, to
#   bits 0..18   sum of rank weights: fifteens + pairs + runs come from the rank table
#   bits 19..25  sum of the hand cards' suit codes + 25 * starter suit: flush table index
#   bits 26..29  one bit per suit of a jack held in the hand: nobs is the starter suit's bit
# The total stays below 2**30, so it is a small int on the Pico (31-bit) and nothing allocates.
_SUIT_SHIFT = const(19)
_RANK_MASK = const(0x7FFFF)
_FLUSH_MASK = const(0x7F)
_JACK_SHIFT = const(26)
# Four suit codes, (0, 1, 5, 6), whose 4-card sums tell "all four the same suit" from every mix (0..24).


# One key a card: in the hand its rank's weight, its suit's code and its jack's bit (for nobs); as the
# starter its rank's weight and 25 times its suit. Comprehensions, not helpers: a helper's name would
# stay in the board's name pool ([name budget]).
_HAND_KEY = tuple(
    RANK_WEIGHTS[c >> 2]
    + ((0, 1, 5, 6)[c & 3] << _SUIT_SHIFT)
    + ((c >> 2 == JACK) << (_JACK_SHIFT + (c & 3)))
    for c in range(52)
)
_STARTER_KEY = tuple(RANK_WEIGHTS[c >> 2] + ((25 * (c & 3)) << _SUIT_SHIFT) for c in range(52))
_NOBS_SHIFT = bytes(_JACK_SHIFT + (c & 3) for c in range(52))
# The flush's points by its field (the four hand suit codes' sum + 25 * the starter's suit): a field is
# four cards of one suit when its remainder is 4 times a suit code, with the starter's suit when that code
# is the starter's. A hand's flush is 4, or 5 with the starter; a crib's only 5.
_HAND_FLUSH = bytes(
    (4 + (i % 25 == 4 * (0, 1, 5, 6)[i // 25])) * (i % 25 % 4 == 0 and i % 25 // 4 in (0, 1, 5, 6))
    for i in range(100)
)
_CRIB_FLUSH = bytes(5 * (i % 25 == 4 * (0, 1, 5, 6)[i // 25]) for i in range(100))


def show_total(c0, c1, c2, c3, starter, crib=False):
    """Points of a 4-card hand (or crib) and starter, all card ints; for bulk use, allocates nothing.

    The caller guarantees 5 different cards 0..51 (score_show and score_total check input).
    """
    # The arguments are reused as scratch and every expression stays shallow ([frame rule]
    # docs/memory.md; tests/house/test_frames.py, tests/core/test_show_noalloc_mp.py).
    c0 = _HAND_KEY[c0] + _HAND_KEY[c1] + _HAND_KEY[c2] + _HAND_KEY[c3] + _STARTER_KEY[starter]
    c1 = c0 & _RANK_MASK
    c1 += DISPLACE[c1 % BUCKETS]
    c2 = (c0 >> _NOBS_SHIFT[starter]) & 1
    c0 = (c0 >> _SUIT_SHIFT) & _FLUSH_MASK
    if crib:
        c2 += _CRIB_FLUSH[c0]
    else:
        c2 += _HAND_FLUSH[c0]
    return RANK_POINTS[c1 % SLOTS] + c2


def score_total(hand, starter, crib=False, five_card=False):
    """Checked total only: the fast table path for 4-card hands, the itemised one otherwise."""
    hand, starter = _check(hand, starter, crib, five_card)
    if len(hand) == 4:
        return show_total(hand[0], hand[1], hand[2], hand[3], starter, crib)
    return score_show(hand, starter, crib, five_card).total
