# Discard advice: every discard of a dealt hand ranked by exact expected hand, table crib and net.
# Few names on purpose: each one is interned on the board, and the pool's edge is near (docs/memory.md).
from cribbage import const
from cribbage.cards import JACK, format_card
from cribbage.cribtables import TABLES
from cribbage.errors import CardError, CribError
from cribbage.showtotal import show_total

_MAX_OPTIONS = const(15)


def _splits(n, throw):
    # positions of the cards thrown by each option, then of the cards kept
    thrown = bytearray()
    kept = bytearray()
    for i in range(n):
        for j in range(i + 1, n) if throw == 2 else (i,):
            out = (i, j) if throw == 2 else (i,)
            thrown.extend(out)
            kept.extend([k for k in range(n) if k not in out])
    return bytes(thrown), bytes(kept)


# form -> (cards dealt, cards thrown, own-crib table's offset in TABLES, other-crib table's, splits);
# the tables in TABLES' order (tools/gen/cribtables.py): six-card dealer, pone (169 entries each),
# five-card dealer, pone (169), three-handed own, other (13), four-handed own side, other (13).
_FORMS = {
    "six": (6, 2, 0, 338, _splits(6, 2)),
    "five": (5, 2, 676, 1014, _splits(5, 2)),
    "three": (5, 1, 1352, 1378, _splits(5, 1)),
    "four": (5, 1, 1404, 1430, None),
}
_FORMS["six61"] = _FORMS["six"]
_FORMS["four"] = _FORMS["four"][:4] + _FORMS["three"][4:]
del _splits  # the tables are made: its bytecode goes back (docs/memory.md, "Drop what boot alone needs")

# Pips by card, for the five-card game's three-card hands (show_total takes four).
_PIP = bytes((c >> 2) + 1 if c >> 2 < 9 else 10 for c in range(52))
# Cards of the dealt hand, marked so the starter loop skips them (one byte a card, made once).
_SEEN = bytearray(52)


def _check(cards, form):
    # the refusals, before anything changes (while loops: a for loop keeps its iterator in the frame)
    if form not in _FORMS:
        raise CribError("unknown game form %r: one of six six61 five three four" % (form,))
    i = _FORMS[form][0]
    if len(cards) != i:
        i = (form, i, len(cards))
        raise CribError("%s deals %d cards, not %d" % i)
    while i:
        i -= 1
        c = cards[i]
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
            raise CardError("bad card %r: not a card number 0..51" % (c,))
        j = i
        while j:
            j -= 1
            if cards[j] == c:
                raise CardError("the same card twice: " + format_card(c))


def crib_entry(form, dealer, i):
    """Hundredths of a point: entry i of the form's crib table, own crib (dealer) or the other's.
    Two-card tables: i = rank * 13 + rank (both halves); one-card tables: i = rank."""
    i = 2 * i + _FORMS[form][2 if dealer else 3]
    return TABLES[i] | TABLES[i + 1] << 8


# ---- three-card hands (five-card game): allocation-free, frames within 11 words --------------------


def _fifteens(a, b, c, d):
    # pips of 4 cards: every subset of 2, 3 and 4 that makes 15
    n = (a + b == 15) + (a + c == 15) + (a + d == 15) + (b + c == 15) + (b + d == 15) + (c + d == 15)
    n += (a + b + c == 15) + (a + b + d == 15) + (a + c + d == 15) + (b + c + d == 15)
    return 2 * (n + (a + b + c + d == 15))


def _pairs(a, b, c, d):
    return 2 * ((a == b) + (a == c) + (a == d) + (b == c) + (b == d) + (c == d))


def _runs(a, b, c, d):
    # ranks of 4 cards: a run of 4, or one run of 3 counted once per card in it beyond two (3 or 6)
    m = (1 << a) | (1 << b) | (1 << c) | (1 << d)
    if m & (m >> 1) & (m >> 2) & (m >> 3):
        return 4
    m &= (m >> 1) & (m >> 2)
    if not m:
        return 0
    m |= (m << 1) | (m << 2)
    return 3 * (((m >> a) & 1) + ((m >> b) & 1) + ((m >> c) & 1) + ((m >> d) & 1) - 2)


def three_total(a, b, c, s):
    """Points of a five-card game hand (3 cards) with starter s; allocates nothing."""
    return (
        _fifteens(_PIP[a], _PIP[b], _PIP[c], _PIP[s])
        + _pairs(a >> 2, b >> 2, c >> 2, s >> 2)
        + _runs(a >> 2, b >> 2, c >> 2, s >> 2)
        + (a & 3 == b & 3 == c & 3) * (3 + (a & 3 == s & 3))  # the flush
        + (a >> 2 == JACK and a & 3 == s & 3)  # nobs
        + (b >> 2 == JACK and b & 3 == s & 3)
        + (c >> 2 == JACK and c & 3 == s & 3)
    )


# ---- the sums over starters ---------------------------------------------------------------------


def _hand_sum4(k):
    # total of the 4 kept cards k over every starter not in the dealt hand
    t = 0
    for s in range(52):
        if not _SEEN[s]:
            t += show_total(k[0], k[1], k[2], k[3], s)
    return t


def _hand_sum3(k):
    t = 0
    for s in range(52):
        if not _SEEN[s]:
            t += three_total(k[0], k[1], k[2], s)
    return t


class Advisor:
    """Ranks the discards of one dealt hand. Its buffers are made once: advising allocates nothing
    (and every function on the way keeps its frame within 11 words: docs/memory.md).

    After advise(): `count` options, `order` their indices best first; for option i, `hand[i]`
    the total of the kept cards over the 52 - n starters not dealt, `crib[i]` the table's crib in
    hundredths, `net[i]` the sort key ((hand * 100 +/- crib * unseen) * 2048 + hand: ties go to
    the better hand). shown(rank) reads an option out.
    """

    def __init__(self):
        self.dealt = bytearray(6)
        self.kept = bytearray(4)
        self.order = bytearray(_MAX_OPTIONS)
        self.hand = [0] * _MAX_OPTIONS
        self.crib = [0] * _MAX_OPTIONS
        self.net = [0] * _MAX_OPTIONS
        self.n = 0
        self.throw = 0
        self.count = 0
        self.dealer = True
        self.form = "six"

    def advise(self, cards, form="six", dealer=True):
        """Rank every discard of `cards` (card ints); returns the number of options.
        Bad cards or form: CribError naming what is wrong, and nothing changes."""
        _check(cards, form)
        for i in range(len(cards)):
            self.dealt[i] = cards[i]
            _SEEN[cards[i]] = 1
        self.form = form
        self.dealer = dealer
        self.n = len(cards)
        self.throw = _FORMS[form][1]
        self.count = len(_FORMS[form][4][0]) // self.throw
        for i in range(self.count):
            self._option(i)
        for i in range(self.n):
            _SEEN[self.dealt[i]] = 0
        for i in range(self.count):
            self._sort(i)
        return self.count

    def _option(self, i):
        k = self.kept
        keep = self.n - self.throw
        for j in range(keep):
            k[j] = self.dealt[_FORMS[self.form][4][1][i * keep + j]]
        self.hand[i] = _hand_sum4(k) if keep == 4 else _hand_sum3(k)
        i = self._crib(i)
        k = self.crib[i] * (52 - self.n)
        self.net[i] = ((self.hand[i] * 100 + (k if self.dealer else -k)) << 11) + self.hand[i]

    def _sort(self, i):
        # insertion of option i among the first i, best net first (stable: ties keep their order); its
        # own frame, as _crib's
        order = self.order
        j = i
        while j > 0 and self.net[order[j - 1]] < self.net[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i

    def _crib(self, i):
        # the table entry of the thrown ranks: 13 x 13 for two cards, 13 for one (its own frame: folded
        # into _option, the frame would pass 11 words and spill to the heap, docs/memory.md)
        thrown = _FORMS[self.form][4][0]
        t = self.dealt[thrown[i * self.throw]] >> 2
        if self.throw == 2:
            t = t * 13 + (self.dealt[thrown[2 * i + 1]] >> 2)
        self.crib[i] = crib_entry(self.form, self.dealer, t)
        return i

    def shown(self, rank):
        """(thrown cards, kept cards, hand, crib, net) of the option ranked `rank` (0 = the best);
        points in hundredths, hand rounded half up, net = hand +/- crib. Allocates its result."""
        o = self.order[rank]
        splits = _FORMS[self.form][4]
        keep = self.n - self.throw
        thrown = [self.dealt[splits[0][o * self.throw + j]] for j in range(self.throw)]
        kept = [self.dealt[splits[1][o * keep + j]] for j in range(keep)]
        unseen = 52 - self.n
        hand = (self.hand[o] * 200 + unseen) // (2 * unseen)
        crib = self.crib[o]
        return thrown, kept, hand, crib, hand + crib if self.dealer else hand - crib


def hundredths_text(h):
    """'17.26' from 1726 (and '-3.05' from -305): two decimals without floats."""
    sign = "-" if h < 0 else ""
    h = -h if h < 0 else h
    return "%s%d.%02d" % (sign, h // 100, h % 100)
