# The events in force, a few bytes each in one bytearray, so a whole match fits a small heap.
from cribbage.events import KINDS, WHYS

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just x
    const = int  # type: ignore

CUT = const(1)  # cut, one card per player
DEALER = const(2)  # dealer, player
PEG = const(3)  # peg, side, points, why (index in WHYS)
FIX = const(4)  # fix, side, delta + 128
STARTER = const(5)  # starter, card
SHOW = const(6)  # show, side, kind (0 hand, 1 crib), points, claim (NONE: none), cards...
LAY = const(7)  # lay, player, card, claim (NONE: none), points it made (NONE: not yet counted)
GO = const(8)  # go, player, side it scored for (NONE: none), points (NONE: not yet counted)
MUG = const(9)  # muggins, side, points
DEAL = const(10)
GAME = const(11)
END = const(12)
NONE = const(255)


def rec_len(b, i, players, hand_size):
    """Bytes of the record at b[i]."""
    t = b[i]
    if t == LAY:
        return 5
    if t == PEG or t == GO:  # noqa: SIM109 (no tuple built)
        return 4
    if t == SHOW:
        return 5 + (4 if b[i + 2] else hand_size)
    if t == CUT:
        return 1 + players
    if t == FIX or t == MUG:  # noqa: SIM109
        return 3
    if t >= DEAL:
        return 1
    return 2


def event_of(b, i, players, hand_size):
    """The completed event dict of the record at b[i] (as apply returns and the journal keeps)."""
    t = b[i]
    if t == PEG:
        return {"t": "peg", "s": b[i + 1], "n": b[i + 2], "why": WHYS[b[i + 3]]}
    if t == LAY:
        ev = {"t": "lay", "p": b[i + 1], "c": b[i + 2]}
        if b[i + 3] != NONE:
            ev["claim"] = b[i + 3]
        if b[i + 4] != NONE:
            ev["n"] = b[i + 4]
        return ev
    if t == SHOW:
        cards = list(b[i + 5 : i + rec_len(b, i, players, hand_size)])
        ev = {"t": "show", "s": b[i + 1], "k": KINDS[b[i + 2]], "cards": cards, "n": b[i + 3]}
        if b[i + 4] != NONE:
            ev["claim"] = b[i + 4]
        return ev
    if t == GO:
        ev = {"t": "go", "p": b[i + 1]}
        if b[i + 3] != NONE:
            ev["n"] = b[i + 3]
            if b[i + 3]:
                ev["s"] = b[i + 2]
        return ev
    if t == STARTER:
        return {"t": "starter", "c": b[i + 1]}
    if t == MUG:
        return {"t": "muggins", "s": b[i + 1], "n": b[i + 2]}
    if t == FIX:
        return {"t": "fix", "s": b[i + 1], "n": b[i + 2] - 128}
    if t == CUT:
        return {"t": "cut", "cards": list(b[i + 1 : i + 1 + players])}
    if t == DEALER:
        return {"t": "dealer", "p": b[i + 1]}
    return {"t": ("deal", "game", "end")[t - DEAL]}
