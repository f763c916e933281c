# A match at a remote table (docs/remote.md): a solo match whose cards come from outside, not a seed.
"""A table match is a solo match (cribbage/solo.py) whose set-up says "solo": ["table", tag, 0]: the
board's player is player 0 (keyed on the board), the table's other seat is player 1 (solo.BOARD's
place), and the table deals. Loaded only for such a match (solo.py asks for it), never at boot.

The events besides solo's (its throw, by places) and the usual lay, go, starter, show, dealer, deal:
    hand(p, cards)  {"t":"hand","p","cards":[6]}: for p 0, the six the table dealt the board's player,
                    before the throw; for p 1, at the show, the other seat's four kept cards (the four
                    it laid) and then its two thrown to the crib, journaled with its throw (places 4
                    and 5)
The dealer, the starter, the other seat's lays and every go come from the table (board/link/table.py)
and are checked here against what the board knows: the player's six and throw, the cards laid, the
starter. The other seat's cards are known once laid, and all six at the show: the board never holds a
card the table has not shown.

The `tag` is the bridge's own number for its table (0 .. 2**30 - 1), so a bridge tells its table's
match from another; nothing is dealt from it.
"""

from cribbage import checks, const
from cribbage.cards import format_card, pip
from cribbage.errors import CribError

# ---- record types: written by tools/gen/records.py from cribbage/records.py; do not edit ----
_SOLO = const(15)
# ---- end of the record types ----
_HAND = const(254)  # a solo record's player byte for a hand: [_SOLO, _HAND, 7, p, the six cards]


def hands(m):
    """[the player's six, the other seat's six] of the deal in force as journaled (b"" until told)."""
    from cribbage.solo import _records

    out = [b"", b""]
    for b, i in _records(m):
        if b[i] == _SOLO and b[i + 1] == _HAND:
            out[b[i + 3]] = bytes(b[i + 4 : i + 10])
    return out


def dealt(m):
    """(hands, crib, starter) as solo.dealt answers, or None while the player's six are not in."""
    h = hands(m)
    return (h, b"", m.starter) if h[0] else None


def hand(m, ev):
    """The record of a hand event in table match m, or CribError (nothing changed)."""
    checks._in_game(m)
    p = checks._int(ev, "p", 0, 1, "player")
    cards = ev.get("cards")
    if type(cards) is not list or len(cards) != 6:
        raise CribError("a hand is six cards, not %r" % (cards,))
    for i in range(6):
        c = cards[i]
        if type(c) is not int or not 0 <= c < 52:
            raise CribError("a card is 0..51, not %r" % (c,))
        if c in cards[:i]:
            raise CribError("%s twice: one pack, each card once" % format_card(c))
    h = hands(m)
    if h[p]:
        raise CribError("%s's hand is in already" % m.names[p])
    if p == 0:
        if m.starter is not None or m.shown:
            raise CribError("a hand is dealt before the starter")
    else:
        if m.phase() != "show" or not h[0]:
            raise CribError("the other seat's cards are told at the show")
        seats = m.play_seats
        gone = [a & 63 for a in m._acts if a >= 0 and seats[a >> 6] == 1]
        if sorted(gone) != sorted(cards[:4]):
            raise CribError("%s laid other cards: its four kept come first" % m.names[1])
        for c in cards:
            if c in h[0] or c == m.starter:
                raise CribError("%s is not %s's card" % (format_card(c), m.names[1]))
    return bytes([_SOLO, _HAND, 7, p] + cards)


def why(m, t, rec):
    """Why the record of a lay, go or starter (the usual check's) cannot be in this deal, or None."""
    from cribbage import solo

    d = dealt(m)
    if d is None:
        return "the table deals first"
    if t == "starter":
        if not solo.thrown(m)[0]:
            return "the crib first: %s throws 2" % m.names[0]
        return "not this deal's starter" if rec[1] in d[0][0] else None
    if rec[1] == 1:
        if t == "lay" and rec[2] in d[0][0]:
            return "%s is not in %s's hand" % (format_card(rec[2]), m.names[1])
        return None
    cards = solo.held(m, 0, d) or []
    if t == "lay" and rec[2] not in cards:
        return "%s is not in %s's hand" % (format_card(rec[2]), m.names[0])
    if t == "go":
        for c in cards:
            if m.play.count + pip(c) <= 31:
                return "%s can lay a card: no go" % m.names[0]
    return None


def move(m):
    """The board's own move in table match m: the counts, once their cards are known; else None."""
    if m.match_over or m.game_over or m.phase() != "show":
        return None
    from cribbage import solo

    side, kind = m.next_show()
    d = dealt(m)
    if d is None or (side == 1 or kind == "crib") and not d[0][1]:
        return None  # the other seat's cards: told by the table at the show
    cards = solo.crib(m, d) if kind == "crib" else solo.kept(m, m.next_shower(), d)
    return {"t": "show", "s": side, "k": kind, "cards": cards}


def state(m):
    """What the board has applied of the deal in force (the `state`'s "table", docs/protocol.md)."""
    from cribbage import solo

    h = hands(m)
    seats = m.play_seats if m.dealer is not None else ()
    return {
        "tag": m.setup["solo"][1],
        "deal": m.deal_no,
        "dealer": m.dealer,
        "hand": bool(h[0]),
        "thrown": bool(solo.thrown(m)[0]),
        "starter": m.starter,
        "acts": [[seats[a >> 6], a & 63] if a >= 0 else [seats[-1 - a], -1] for a in m._acts],
        "shown": bool(h[1]),
    }
