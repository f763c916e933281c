# The show: score a hand or crib with its starter, itemised and spoken (the fast total: cribbage.showtotal).
from cribbage.cards import JACK, format_card, format_cards, parse_card, parse_cards, pip
from cribbage.errors import CardError, CribError

# ---- the itemised show ------------------------------------------------------------------------------

# One string, split only when a count is spoken: a list of 30 strings would sit on the heap.
_WORDS = (
    "nothing one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three twenty-four "
    "twenty-five twenty-six twenty-seven twenty-eight twenty-nine"
)
_COUNT_WORDS = ("", "", "two", "three", "four", "five")


def _fifteen_masks(n):
    # Bit masks of every subset of 2 or more of n cards (where fifteens hide), smallest subsets
    # first as players count them; kept as bytes, a few dozen of them, not tuples on the heap.
    out = bytearray()
    for size in range(2, n + 1):
        for mask in range(1, 1 << n):
            bits = 0
            for i in range(n):
                bits += mask >> i & 1
            if bits == size:
                out.append(mask)
    return bytes(out)


_MASKS = (b"", b"", b"", _fifteen_masks(3), _fifteen_masks(4), _fifteen_masks(5))


def _lowest_cards():
    # out[mask]: index of the lowest card in a mask of up to 5 cards
    out = bytearray(32)
    for mask in range(1, 32):
        i = 0
        while not mask >> i & 1:
            i += 1
        out[mask] = i
    return bytes(out)


_LOWEST = _lowest_cards()
# The tables are made: with the code in RAM their builders' bytecode goes back to the heap
# (docs/memory.md, "Drop what boot alone needs").
del _fifteen_masks, _lowest_cards


class Item:
    """One scoring item of a show: kind ("fifteen", "pair", "run", "flush", "nobs"), points, cards.

    Also unpacks and compares like the tuple (kind, points, cards).
    """

    def __init__(self, kind, points, cards):
        self.kind = kind
        self.points = points
        self.cards = cards

    def _tuple(self):
        return (self.kind, self.points, self.cards)

    def __iter__(self):
        return iter(self._tuple())

    def __getitem__(self, i):
        return self._tuple()[i]

    def __len__(self):
        return 3

    def __eq__(self, other):
        if isinstance(other, Item):
            other = other._tuple()
        return self._tuple() == tuple(other) if isinstance(other, (tuple, list)) else False

    def __ne__(self, other):
        return not self.__eq__(other)

    def text(self):
        return "%s %s for %d" % (self.kind, format_cards(self.cards), self.points)

    def to_dict(self):
        return {"kind": self.kind, "points": self.points, "cards": format_cards(self.cards)}

    def __repr__(self):
        return "Item(%r, %d, %r)" % (self.kind, self.points, format_cards(self.cards))


class Show:
    """A scored hand or crib: `.total`, `.items` (Item list in counting order), `.spoken()`."""

    def __init__(self, hand, starter, crib, five_card, items):
        self.hand = hand
        self.starter = starter
        self.crib = crib
        self.five_card = five_card
        self.items = items
        total = 0
        for item in items:
            total += item.points
        self.total = total

    def spoken(self):
        """The count as players say it: "fifteen two, fifteen four, a pair is six, and ..."."""
        words = _WORDS.split()
        phrases = []
        running = 0
        pairs_said = False
        items = self.items
        i = 0
        while i < len(items):
            kind = items[i].kind
            if kind == "fifteen":
                running += 2
                phrases.append("fifteen " + words[running])
                i += 1
                continue
            j = i + 1
            if kind == "pair":
                # all pairs of one rank form one phrase: pair, pair royal (3), double pair royal (6)
                rank = items[i].cards[0] >> 2
                while j < len(items) and items[j].kind == "pair" and items[j].cards[0] >> 2 == rank:
                    j += 1
                name = {1: "pair", 3: "pair royal", 6: "double pair royal"}[j - i]
                lead = "another " if pairs_said else "a "
                pairs_said = True
            elif kind == "run":
                length = len(items[i].cards)
                while j < len(items) and items[j].kind == "run":
                    j += 1
                n = j - i
                runs = "run" if n == 1 else "runs"
                lead = "a " if n == 1 else _COUNT_WORDS[n] + " "
                name = "%s of %s" % (runs, _COUNT_WORDS[length])
            elif kind == "flush":
                lead, name = "a ", "flush of " + _COUNT_WORDS[len(items[i].cards)]
            else:
                lead, name = "", "one for his nobs"
            for item in items[i:j]:
                running += item.points
            phrases.append("%s%s is %s" % (lead, name, words[running]))
            i = j
        if not phrases:
            return "nineteen (nothing)"
        if len(phrases) > 1:
            phrases[-1] = "and " + phrases[-1]
        return ", ".join(phrases)

    def to_dict(self):
        return {
            "hand": format_cards(self.hand),
            "starter": format_card(self.starter),
            "crib": self.crib,
            "five_card": self.five_card,
            "total": self.total,
            "items": [item.to_dict() for item in self.items],
            "spoken": self.spoken(),
        }

    def __repr__(self):
        return "<Show %s | %s: %d>" % (format_cards(self.hand), format_card(self.starter), self.total)


def _check(hand, starter, crib, five_card):
    cards = parse_cards(hand)
    s = parse_card(starter)
    wanted = 3 if five_card and not crib else 4
    if len(cards) != wanted:
        if crib:
            what = "a crib has 4 cards (plus the starter)"
        elif five_card:
            what = "a five-card game hand shows 3 cards (plus the starter)"
        else:
            what = "a hand shows 4 cards (plus the starter)"
        raise CribError("%s, not %d: %s" % (what, len(cards), format_cards(cards) or "no cards"))
    if s in cards:
        raise CardError("the same card twice: starter %s is also in the hand" % format_card(s))
    return cards, s


def score_show(hand, starter, crib=False, five_card=False):
    """Score a hand (4 cards, 3 in the five-card game) or a crib (4) with the starter, itemised.

    hand: text like "5H 5C 5S JD" or a list of tokens or card ints; starter: a token or card int.
    """
    hand, starter = _check(hand, starter, crib, five_card)
    cards = hand + [starter]
    items = _counted(cards)
    suit = hand[0] & 3
    if all(c & 3 == suit for c in hand):
        if starter & 3 == suit:
            items.append(Item("flush", len(cards), cards))
        elif not crib:
            items.append(Item("flush", len(hand), list(hand)))
    for c in hand:
        if c >> 2 == JACK and c & 3 == starter & 3:
            items.append(Item("nobs", 1, [c]))
    return Show(hand, starter, crib, five_card, items)


def _counted(cards):
    # The fifteens, pairs and runs of cards, as items: a show's five, or a kept hand before the starter.
    items = []
    n = len(cards)
    # sums[mask]: pips of the cards in mask, each built from a smaller mask plus its lowest card
    pips = [pip(c) for c in cards]
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        sums[mask] = sums[mask & (mask - 1)] + pips[_LOWEST[mask]]
    for mask in _MASKS[n]:
        if sums[mask] == 15:
            items.append(Item("fifteen", 2, [cards[i] for i in range(n) if mask >> i & 1]))
    by_rank = [[] for _ in range(13)]
    for c in cards:
        by_rank[c >> 2].append(c)
    for same in by_rank:
        for i in range(len(same)):
            for j in range(i + 1, len(same)):
                items.append(Item("pair", 2, [same[i], same[j]]))
    items.extend(_runs(by_rank))
    return items


def points_alone(cards):
    """Points of kept cards before the starter: fifteens, pairs, runs, a flush of 4 or more (no nobs)."""
    points = 0
    for item in _counted(cards):
        points += item.points
    if len(cards) >= 4 and all(c & 3 == cards[0] & 3 for c in cards):
        points += len(cards)
    return points


def _runs(by_rank):
    # Each maximal stretch of 3+ consecutive ranks gives one run per choice of one card a rank.
    items = []
    r = 0
    while r < 13:
        start = r
        while r < 13 and by_rank[r]:
            r += 1
        if r - start >= 3:
            choices = [[]]
            for rank in range(start, r):
                choices = [chosen + [c] for chosen in choices for c in by_rank[rank]]
            for run in choices:
                items.append(Item("run", len(run), run))
        r += 1
    return items
