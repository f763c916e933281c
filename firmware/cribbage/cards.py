# Cards as small ints (rank * 4 + suit) and the notation of docs/rules.md: parse and format.
from cribbage.errors import CardError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
# Suit symbols accepted on input (filled, then outline forms), each at its suit's place mod 4: one string,
# not a name each ([name budget]).
_SYMBOLS = "♠♥♦♣♤♡♢♧"

JACK = 10


def pip(c):
    """Counting value: A = 1, 2..10 face value, J Q K = 10."""
    r = c >> 2
    return r + 1 if r < 9 else 10


def parse_card(token):
    """One card from a token like '5H', 'TS', '10s', 'JD' or 'A♣'; CardError names a bad token."""
    if isinstance(token, int) and not isinstance(token, bool):
        if 0 <= token < 52:
            return token
        raise CardError("bad card %r: not a card number 0..51" % token)
    if not isinstance(token, str):
        raise CardError("bad card %r: expected text like 5H" % (token,))
    t = token.strip()
    if not t:
        raise CardError("bad card '': empty")
    suit_char = t[-1:]  # a slice: indexing would intern any character the input holds
    rank_text = t[:-1].upper()
    suit = _SYMBOLS.find(suit_char)
    if suit >= 0:
        suit &= 3
    else:
        suit = SUITS.find(suit_char.upper())
    if suit < 0 or not rank_text:
        raise CardError("bad card %r: expected rank A 2-9 T J Q K then suit S H D C" % token)
    if rank_text == "10":
        rank = 9
    elif len(rank_text) == 1:
        rank = RANKS.find(rank_text)
    else:
        rank = -1
    if rank < 0:
        raise CardError("bad card %r: rank %r is not one of A 2-9 10 T J Q K" % (token, rank_text))
    return rank * 4 + suit


def parse_cards(text_or_list):
    """Cards from 'AS 5h 10d' or a list of tokens/ints; refuses bad tokens and repeats."""
    if isinstance(text_or_list, str):
        items = text_or_list.replace(",", " ").replace(";", " ").split()
    else:
        items = list(text_or_list)
    cards = []
    for item in items:
        c = parse_card(item)
        if c in cards:
            raise CardError("the same card twice: %s" % format_card(c))
        cards.append(c)
    return cards


def format_card(c):
    return RANKS[c >> 2] + SUITS[c & 3]


def format_cards(cards):
    return " ".join(format_card(c) for c in cards)
