# The virtual deal: a seeded shuffle (xorshift32 on two 16-bit halves) and the deal of each game form.
#
# The generator is Marsaglia's xorshift32 (shifts 13, 17, 5), kept as two 16-bit halves so every
# intermediate fits a MicroPython small int (no long ints on the board): the same seed gives the
# same deck on CPython and MicroPython. Draws below n use the top 16 bits with rejection (no bias).

# form -> (players, cards dealt to each); three-handed adds one card from the deck to the crib.
FORM_DEAL = {"six": (2, 6), "six61": (2, 6), "five": (2, 5), "three": (3, 5), "four": (4, 5)}


def new_seed():
    """A fresh seed from the hardware entropy (os.urandom): 0 .. 2**30 - 1 (a small int on the board)."""
    import os

    b = os.urandom(4)
    return ((b[0] & 0x3F) << 24) | (b[1] << 16) | (b[2] << 8) | b[3]


class _Xorshift:
    # state x = hi << 16 | lo, never 0
    def __init__(self, seed):
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError("seed must be a whole number >= 0, not %r" % (seed,))
        seed %= 4294967296
        self.hi = seed >> 16
        self.lo = seed & 0xFFFF
        if not (self.hi | self.lo):
            self.lo = 0x9E37  # the one state xorshift cannot leave
        self.lo ^= 0x2545  # near seeds (0, 1, 2) start apart after the warm-up
        if not (self.hi | self.lo):
            self.lo = 1
        for _ in range(12):
            self.step()

    def step(self):
        hi = self.hi
        lo = self.lo
        # x ^= x << 13
        hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
        lo ^= (lo << 13) & 0xFFFF
        # x ^= x >> 17
        lo ^= hi >> 1
        # x ^= x << 5
        hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
        lo ^= (lo << 5) & 0xFFFF
        self.hi = hi
        self.lo = lo
        return hi

    def below(self, n):
        # uniform in 0..n-1 from the top 16 bits, rejecting the uneven tail
        limit = 65536 - 65536 % n
        while True:
            v = self.step()
            if v < limit:
                return v % n


def shuffle(seed):
    """The 52 card codes (rank * 4 + suit, cribbage/cards.py) in the order `seed` shuffles them
    (Fisher-Yates): a bytearray, the top of the deck first."""
    deck = bytearray(range(52))
    rng = _Xorshift(seed)
    i = 51
    while i > 0:
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck


def deal(seed, form="six", dealer=0):
    """Deal one hand of `form` (six six61 five three four) from the deck `seed` shuffles.

    Returns (hands, crib, starter):
    - hands: a list with one bytearray per seat (seats 0..players-1 in playing order), dealt one card
      at a time from the top of the deck starting with the seat left of `dealer`, as at the table;
    - crib: the deck's card for the crib (three-handed: the next card), else an empty bytearray;
    - starter: the card after those (the cut: the virtual deal needs no cut of its own).
    Same seed, form and dealer: the same deal on every interpreter.
    """
    if form not in FORM_DEAL:
        raise ValueError("unknown game form %r: one of six six61 five three four" % (form,))
    players, each = FORM_DEAL[form]
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ValueError("dealer %r is not a seat 0..%d" % (dealer, players - 1))
    deck = shuffle(seed)
    hands = [bytearray(each) for _ in range(players)]
    k = 0
    for i in range(each):
        for p in range(players):
            hands[(dealer + 1 + p) % players][i] = deck[k]
            k += 1
    crib = bytearray()
    if form == "three":
        crib.append(deck[k])
        k += 1
    return hands, crib, deck[k]
