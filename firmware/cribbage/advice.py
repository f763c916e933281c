# Discard advice: every discard of a dealt hand ranked by exact expected hand, table crib and net.
from cribbage import cribtables
from cribbage.cards import JACK, format_card
from cribbage.errors import CardError, CribError
from cribbage.show import show_total

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just x
    const = int  # type: ignore

_MAX_OPTIONS = const(15)

# Positions of the cards thrown by each option, then of the cards kept, per way of discarding:
# two of six, two of five (the five-card game keeps three) and one of five (three- and four-handed).
_SPLITS = {}


def _splits(n, throw):
    thrown = bytearray()
    kept = bytearray()
    for i in range(n):
        for j in range(i + 1, n) if throw == 2 else (i,):
            out = (i, j) if throw == 2 else (i,)
            thrown.extend(out)
            kept.extend([k for k in range(n) if k not in out])
    return bytes(thrown), bytes(kept)


# form -> (cards dealt, cards thrown, own-crib table, other-crib table)
_FORMS = {
    "six": (6, 2, cribtables.SIX_DEALER, cribtables.SIX_PONE),
    "six61": (6, 2, cribtables.SIX_DEALER, cribtables.SIX_PONE),
    "five": (5, 2, cribtables.FIVE_DEALER, cribtables.FIVE_PONE),
    "three": (5, 1, cribtables.THREE_DEALER, cribtables.THREE_PONE),
    "four": (5, 1, cribtables.FOUR_DEALER, cribtables.FOUR_PONE),
}
for _n, _t in ((6, 2), (5, 2), (5, 1)):
    _SPLITS[_n * 4 + _t] = _splits(_n, _t)

# Pips by card, for the five-card game's three-card hands (show_total takes four).
_PIP = bytes((c >> 2) + 1 if c >> 2 < 9 else 10 for c in range(52))
# Cards of the dealt hand, marked so the starter loop skips them (one byte a card, made once).
_SEEN = bytearray(52)


def _check_card(cards, i):
    c = cards[i]
    if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
        raise CardError("bad card %r: not a card number 0..51" % (c,))
    for j in range(i):
        if cards[j] == c:
            raise CardError("the same card twice: %s" % format_card(c))


def table_entry(table, i):
    """Hundredths of a point at entry i of a crib table (2 bytes little-endian)."""
    return table[2 * i] | table[2 * i + 1] << 8


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


def _flush_nobs(c0, c1, c2, s):
    p = 0
    if c0 & 3 == c1 & 3 == c2 & 3:
        p = 4 if c0 & 3 == s & 3 else 3
    s &= 3
    p += c0 >> 2 == JACK and c0 & 3 == s
    p += c1 >> 2 == JACK and c1 & 3 == s
    p += c2 >> 2 == JACK and c2 & 3 == s
    return p


def three_total(c0, c1, c2, s):
    """Points of a five-card game hand (3 cards) with starter s; allocates nothing."""
    return (
        _fifteens(_PIP[c0], _PIP[c1], _PIP[c2], _PIP[s])
        + _pairs(c0 >> 2, c1 >> 2, c2 >> 2, s >> 2)
        + _runs(c0 >> 2, c1 >> 2, c2 >> 2, s >> 2)
        + _flush_nobs(c0, c1, c2, s)
    )


# ---- the sums over starters ---------------------------------------------------------------------


def _one4(k, s):
    return show_total(k[0], k[1], k[2], k[3], s)


def _one3(k, s):
    return three_total(k[0], k[1], k[2], s)


def _hand_sum4(k):
    # total of the 4 kept cards k over every starter not in the dealt hand
    t = 0
    for s in range(52):
        if not _SEEN[s]:
            t += _one4(k, s)
    return t


def _hand_sum3(k):
    t = 0
    for s in range(52):
        if not _SEEN[s]:
            t += _one3(k, s)
    return t


class Advisor:
    """Ranks the discards of one dealt hand. Its buffers are made once: advising allocates nothing
    (and every function on the way keeps its frame within 11 words: docs/memory.md).

    After advise(): `count` options, `order` their indices best first; for option i, `hand[i]` the
    total of the kept hand over the `unseen` starters, `crib[i]` the table's crib in hundredths,
    `net[i]` the sort key (hand * 100 +/- crib * unseen).
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
        self.keep = 0
        self.count = 0
        self.unseen = 0
        self.dealer = True
        self.form = "six"
        self.table = b""
        self.thrown_at = b""
        self.kept_at = b""

    def check(self, cards, form):
        """Copy the dealt cards in, or raise CribError naming what is wrong (nothing changes)."""
        if form not in _FORMS:
            raise CribError("unknown game form %r: one of %s" % (form, ", ".join(sorted(_FORMS))))
        if len(cards) != _FORMS[form][0]:
            raise CribError("%s deals %d cards, not %d" % (form, _FORMS[form][0], len(cards)))
        for i in range(len(cards)):
            _check_card(cards, i)
        for i in range(len(cards)):
            self.dealt[i] = cards[i]

    def advise(self, cards, form="six", dealer=True):
        """Rank every discard of `cards` (card ints); returns the number of options."""
        self.check(cards, form)
        self.dealer = dealer
        self._setup(form)
        self._mark(1)
        for o in range(self.count):
            self._option(o)
        self._mark(0)
        self._sort()
        return self.count

    def _setup(self, form):
        f = _FORMS[form]
        self.form = form
        self.n = f[0]
        self.throw = f[1]
        self.keep = f[0] - f[1]
        self.table = f[2] if self.dealer else f[3]
        f = _SPLITS[f[0] * 4 + f[1]]
        self.thrown_at = f[0]
        self.kept_at = f[1]
        self.count = len(f[0]) // self.throw
        self.unseen = 52 - self.n

    def _mark(self, seen):
        for i in range(self.n):
            _SEEN[self.dealt[i]] = seen

    def _option(self, o):
        k = self.kept
        for j in range(self.keep):
            k[j] = self.dealt[self.kept_at[o * self.keep + j]]
        self.hand[o] = _hand_sum4(k) if self.keep == 4 else _hand_sum3(k)
        o = self._crib_of(o)
        self.net[o] = self.hand[o] * 100 + self.crib[o] * (self.unseen if self.dealer else -self.unseen)

    def _crib_of(self, o):
        # table entry of the thrown ranks: 13 x 13 for two cards, 13 for one
        t = self.dealt[self.thrown_at[o * self.throw]] >> 2
        if self.throw == 2:
            t = t * 13 + (self.dealt[self.thrown_at[2 * o + 1]] >> 2)
        self.crib[o] = table_entry(self.table, t)
        return o

    def _sort(self):
        # insertion sort of at most 15 options, best net first; ties keep the better hand, then order
        for i in range(self.count):
            self._insert(i)

    def _insert(self, i):
        order = self.order
        j = i
        while j > 0 and self._better(i, order[j - 1]):
            order[j] = order[j - 1]
            j -= 1
        order[j] = i

    def _better(self, a, b):
        if self.net[a] != self.net[b]:
            return self.net[a] > self.net[b]
        return self.hand[a] > self.hand[b]

    # ---- reading an option (rank 0 = the best) ----

    def option(self, rank):
        return self.order[rank]

    def thrown_cards(self, rank):
        o = self.order[rank]
        return [self.dealt[self.thrown_at[o * self.throw + j]] for j in range(self.throw)]

    def kept_cards(self, rank):
        o = self.order[rank]
        return [self.dealt[self.kept_at[o * self.keep + j]] for j in range(self.keep)]

    def hand_hundredths(self, rank):
        """Expected kept-hand points in hundredths, rounded half up."""
        return (self.hand[self.order[rank]] * 200 + self.unseen) // (2 * self.unseen)

    def crib_hundredths(self, rank):
        return self.crib[self.order[rank]]

    def net_hundredths(self, rank):
        c = self.crib_hundredths(rank)
        return self.hand_hundredths(rank) + (c if self.dealer else -c)


def hundredths_text(h):
    """'17.26' from 1726 (and '-3.05' from -305): two decimals without floats."""
    sign = "-" if h < 0 else ""
    h = -h if h < 0 else h
    return "%s%d.%02d" % (sign, h // 100, h % 100)
