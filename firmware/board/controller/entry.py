# Keyed cards and numbers: a rank key then a suit key makes a card; rank keys as digits make a number.
# Pure state for the controller; docs/keys.md tells the grammar. A = 1 .. 9, T = 0 (T alone is 10).
# A player's name is keyed here too: the rank keys as a phone's letters (board/controller/menu.py letter()).
from cribbage.cards import format_card

DIGIT_RANKS = 10  # ranks A..T can be digits; J Q K cannot
MAX_CARDS = 6  # more than any hand: the game says what is wrong with the count


class Entry:
    def __init__(self):
        self.reset()

    def reset(self):
        self.cards = []  # cards keyed so far
        self.rank = -1  # a rank keyed, waiting for its suit
        self.digits = []  # rank keys read as digits
        self.claiming = False  # muggins: the cards are keyed, now the player's own count
        self.name = None  # type: bytes | None  # a player's name being keyed; rank/t0: its last letter key

    def active(self):
        return (
            bool(self.cards) or self.rank >= 0 or bool(self.digits) or self.claiming or self.name is not None
        )

    def numbering(self):
        """True while what is keyed can still be a number (digits, or one lone rank)."""
        return bool(self.digits) or (self.rank >= 0 and not self.cards and self.rank < DIGIT_RANKS)

    def rank_key(self, r, cards=False):
        """A rank key (cards: a card's only, never a digit); returns display lines when it is refused,
        else None."""
        if not cards and (self.digits or self.claiming):
            if r >= DIGIT_RANKS:
                return ("Digits: A=1..9", "T=0")
            if len(self.digits) >= 2:
                return ("2 digits at most",)
            self.digits.append(r)
            return None
        if not cards and self.rank >= 0 and not self.cards and self.rank < DIGIT_RANKS and r < DIGIT_RANKS:
            self.digits = [self.rank, r]  # two ranks in a row: a number, e.g. 1 2 = 12 points
            self.rank = -1
            return None
        self.rank = r  # a second rank before the suit replaces the first
        return None

    def suit_key(self, s):
        """A suit key -> (the card completed or -1, display lines when refused or None)."""
        if self.rank < 0:
            return -1, (None if self.digits else ("Key the rank", "first, then suit"))
        c = self.rank * 4 + s
        self.rank = -1
        if c in self.cards:
            return -1, (format_card(c) + " twice:", "not taken")
        if len(self.cards) >= MAX_CARDS:
            return -1, ("%d cards at most" % MAX_CARDS,)
        self.cards.append(c)
        return c, None

    def backspace(self):
        if self.name is not None:
            # A name's last letter; an empty name leaves the naming (nothing changed).
            self.name = self.name[:-1] if self.name else None
            self.rank = -1
        elif self.digits:
            self.digits.pop()
        elif self.rank >= 0:
            self.rank = -1
        elif self.claiming:
            self.claiming = False
        elif self.cards:
            self.cards.pop()

    def number(self):
        """The keyed digits as a number, or -1 when none."""
        d = self.digits
        if not d and self.numbering():
            d = [self.rank]
        if not d:
            return -1
        if len(d) == 1:
            return 10 if d[0] == 9 else d[0] + 1
        return ((d[0] + 1) % 10) * 10 + (d[1] + 1) % 10
