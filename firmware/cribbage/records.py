# The events in force, a few bytes each in one bytearray, so a whole match fits a small heap.
from cribbage import const
from cribbage.events import KINDS, WHYS

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
# name, side, length, the name's ASCII bytes (a side renamed). Private, so no module global: one
# interned name less ([name budget] docs/memory.md); checks.py and fold.py get copies (gen_records).
_NAME = const(13)
# advice, player, count, the cards dealt to the player, keyed for discard advice (crib's coach)
_ADVICE = const(14)
# solo (a match against the board, cribbage/solo.py): player, count, the positions in the player's
# dealt hand thrown to the crib; or 255, 4 and a game's seed in four bytes, once the game is over
_SOLO = const(15)
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
        return 3 + b[i + 2] if t >= _NAME else 1
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
    if t == _NAME:
        return {"t": "name", "s": b[i + 1], "name": bytes(b[i + 3 : i + 3 + b[i + 2]]).decode()}
    if t == _ADVICE:
        return {"t": "advice", "p": b[i + 1], "cards": list(b[i + 3 : i + 3 + b[i + 2]])}
    if t > _ADVICE:
        from cribbage import solo

        return solo.event_of(b, i)
    return {"t": ("deal", "game", "end")[t - DEAL]}


# A position p is in chunk p >> _SHIFT, at byte p & _MASK: the one place the chunk size is set (fold.py
# and checks.py read the chunks in the boot replay's hot path through const copies of these two,
# written by tools/gen/records.py).
_SHIFT = const(8)
_MASK = const(255)


class Log:
    """The records in force, in 256-byte chunks: a long match never needs one big block, which a
    fragmented heap may not have. A record never straddles chunks; a 0 byte ends a chunk early.
    Positions are ints (chunk * 256 + byte), in the order the records were made."""

    def __init__(self):
        self.chunks = [bytearray(_MASK + 1)]
        self.end = 0
        self.spare = None  # the next chunk, taken at a calm point (ready)

    def ready(self):
        """Take the next chunk now, if none is waiting: the app calls this at its calm points (after
        a collection), so that a record never needs a new 256-byte block in the middle of a commit,
        when the heap also holds the commit's own garbage (docs/memory.md, "Take long-lived room at
        calm points")."""
        if self.spare is None:
            self.spare = bytearray(_MASK + 1)

    def _next(self):
        chunk = self.spare
        self.spare = None
        return chunk if chunk is not None else bytearray(_MASK + 1)

    def append(self, rec):
        """Add a record; returns (chunk, index, position) where it now lies."""
        n = len(rec)
        p = self.add(n)
        chunk = self.chunks[-1]
        o = p & _MASK
        chunk[o : o + n] = rec
        return chunk, o, p

    def add(self, n):
        """Room for a record of n bytes at the end; returns its position, where the caller writes
        the record (the boot replay writes its bytes there, with no record made first)."""
        chunks = self.chunks
        p = self.end
        o = p & _MASK
        if p >> _SHIFT == len(chunks):  # the last chunk is exactly full
            chunks.append(self._next())
        elif o + n > (_MASK + 1):
            chunks[-1][o] = 0
            chunks.append(self._next())
            p += (_MASK + 1) - o
        self.end = p + n
        return p

    def at(self, p):
        """(chunk, index) of position p."""
        return self.chunks[p >> _SHIFT], p & _MASK

    def after(self, p, players, hand_size):
        """The position of the record after the one at p (may be self.end)."""
        chunk = self.chunks[p >> _SHIFT]
        q = p + rec_len(chunk, p & _MASK, players, hand_size)
        o = q & _MASK
        if o and q < self.end and chunk[o] == 0:
            q = q - o + (_MASK + 1)  # the chunk ended early: the next record opens the next one
        return q

    def norm(self, p):
        """p, or the next chunk's start if the chunk ends early at p (a checkpoint's position)."""
        o = p & _MASK
        if o and p < self.end and self.chunks[p >> _SHIFT][o] == 0:
            return p - o + (_MASK + 1)
        return p

    def truncate(self, p):
        """Drop every record from position p on."""
        del self.chunks[(p >> _SHIFT) + 1 :]
        self.end = p
