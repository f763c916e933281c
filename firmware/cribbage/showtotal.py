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
# Four suit codes whose 4-card sums tell "all four the same suit" from every mix (0..24).
_SUIT_CODES = (0, 1, 5, 6)


def _card_key(c, is_starter):
    rank, suit = c >> 2, c & 3
    key = RANK_WEIGHTS[rank]
    if is_starter:
        return key + ((25 * suit) << _SUIT_SHIFT)
    key += _SUIT_CODES[suit] << _SUIT_SHIFT
    if rank == JACK:
        key += 1 << (_JACK_SHIFT + suit)
    return key


def _flush_table(crib):
    table = bytearray(100)
    for starter_suit in range(4):
        for suit in range(4):
            points = 5 if suit == starter_suit else (0 if crib else 4)
            table[4 * _SUIT_CODES[suit] + 25 * starter_suit] = points
    return bytes(table)


_HAND_KEY = tuple(_card_key(c, False) for c in range(52))
_STARTER_KEY = tuple(_card_key(c, True) for c in range(52))
_NOBS_SHIFT = bytes(_JACK_SHIFT + (c & 3) for c in range(52))
_HAND_FLUSH = _flush_table(False)
_CRIB_FLUSH = _flush_table(True)
# The tables are made: their builders' bytecode goes back (docs/memory.md, "Drop what boot alone needs").
del _card_key, _flush_table


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
