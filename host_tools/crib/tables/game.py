"""A table's game as the fold of its seats' moves: shares, discards and lays, scored by the shared core."""

from crib.tables import fairdeal
from cribbage.cards import format_card, parse_card, pip
from cribbage.errors import CribError
from cribbage.forms import FORM_NAMES, FORMS, skunk_label
from cribbage.play import Play
from cribbage.show import score_show

FORM_CHOICES = ("six", "three", "four")  # the table's forms: two-player, three-handed, 2 v 2 partners
TARGET = 121
KEPT = 4


def check_form(form):
    """`form` if a table can be played in it, else Refused naming the ones it can."""
    if form not in FORM_CHOICES:
        raise Refused(
            "no table form %r: %s" % (form, ", ".join("%s (%s)" % (f, FORM_NAMES[f]) for f in FORM_CHOICES))
        )
    return form


class Refused(ValueError):
    """A move the table does not take: it says why, and the table is as it was."""


def _card(value):
    if isinstance(value, bool):
        raise Refused("%r is not a card" % (value,))
    try:
        return parse_card(value)
    except CribError as e:
        raise Refused(str(e)) from None


class Table:
    """The whole table, secrets included (the server's side): `view(seat)` is what a seat may see.

    Moves are dicts {"t": "share", "share"} | {"t": "discard", "cards": [...]} | {"t": "lay", "card"};
    `apply(seat, move)` checks the whole move before it changes anything. A go is said for a seat by
    the table itself: it knows the hand, so nothing a seat could lie about is asked of it.

    `form` is six (two seats), three (three-handed: five cards each, one each to the crib and one from
    the deck) or four (2 v 2 partners: seats 0 and 2 against 1 and 3, five each, one each to the
    crib). Seats sit in playing order; `scores` and `winner` are by side (a seat's side is seat %
    sides: the seat itself but in 2 v 2)."""

    def __init__(self, secret, names=None, form="six"):
        self.form = check_form(form)
        self.seats, self.each, self.throw, self.from_deck = fairdeal.shape(form)
        self.sides = FORMS[form][1]
        n = self.seats
        self.secret = secret
        self.names = list(names or [""] * n)
        self.shares = [None] * n
        self.seed = None
        self.phase = "shares"
        self.scores = [0] * self.sides
        self.dealer = None
        self.deal_no = 0
        self.dealt = [[] for _ in range(n)]  # the cards each seat was dealt this deal
        self.held = [[] for _ in range(n)]  # cards in hand, not yet laid
        self.kept = [[] for _ in range(n)]  # the four kept for the show
        self.thrown = [None] * n  # each seat's throw to the crib, once thrown
        self.to_crib = []  # three-handed: the deck's card for the crib
        self.starter = None
        self.play = None
        self.pegs = []  # (deal, seat, points, why), every peg of the game in order
        self.shows = []  # each finished deal's show, every card revealed
        self.winner = None
        self.moves = 0

    def side(self, seat):
        return seat % self.sides

    # ---- what is awaited ----------------------------------------------------------------------------

    def awaited(self):
        """The seats whose move the table waits for now."""
        if self.phase == "shares":
            return [s for s in range(self.seats) if self.shares[s] is None]
        if self.phase == "discard":
            return [s for s in range(self.seats) if self.thrown[s] is None]
        if self.phase == "play":
            return [self.play.turn]
        return []

    # ---- moves ------------------------------------------------------------------------------------

    def apply(self, seat, move):
        """Apply one seat's move, or raise Refused with nothing changed."""
        if isinstance(seat, bool) or seat not in range(self.seats):
            raise Refused("seat %r is not a seat of this table" % (seat,))
        if not isinstance(move, dict):
            raise Refused("a move is a JSON object")
        kind = move.get("t")
        if kind == "share":
            self._share(seat, move)
        elif kind == "discard":
            self._discard(seat, move)
        elif kind == "lay":
            self._lay(seat, move)
        else:
            raise Refused("unknown move %r: share, discard or lay" % (kind,))
        self.moves += 1

    def _share(self, seat, move):
        if self.phase != "shares" or self.shares[seat] is not None:
            raise Refused("seat %d's share is in already" % seat)
        try:
            share = fairdeal.check_share(move.get("share"))
        except fairdeal.DealError as e:
            raise Refused(str(e)) from None
        self.shares[seat] = share
        if all(s is not None for s in self.shares):
            self.seed = fairdeal.game_seed(self.secret, self.shares)
            self.dealer = fairdeal.first_dealer(self.seed, self.seats)
            self._deal()

    def _discard(self, seat, move):
        if self.phase != "discard":
            raise Refused("no discard now: the table is at the %s" % self.phase)
        if self.thrown[seat] is not None:
            raise Refused("seat %d has thrown to the crib already" % seat)
        cards = move.get("cards")
        if not isinstance(cards, list) or len(cards) != self.throw:
            raise Refused("a discard is %s" % ("two cards" if self.throw == 2 else "one card"))
        cards = [_card(c) for c in cards]
        if len(set(cards)) != len(cards):
            raise Refused("the same card twice: %s" % format_card(cards[0]))
        for c in cards:
            if c not in self.held[seat]:
                raise Refused("%s is not in seat %d's hand" % (format_card(c), seat))
        self.thrown[seat] = cards
        self.held[seat] = [c for c in self.held[seat] if c not in cards]
        self.kept[seat] = list(self.held[seat])
        if all(t is not None for t in self.thrown):
            self.phase = "play"
            self.starter = fairdeal.dealt(self.seed, self.deal_no, self.dealer, self.form)[2]
            if self.starter >> 2 == 10 and self._peg(self.dealer, 2, "heels"):
                return
            # The play starts on the dealer's left and goes round (cribbage.play: goes for 3 and 4 seats).
            self.play = Play(seats=self.seats, leader=(self.dealer + 1) % self.seats, cards_each=KEPT)

    def _lay(self, seat, move):
        if self.phase != "play":
            raise Refused("no lay now: the table is at the %s" % self.phase)
        if seat != self.play.turn:
            raise Refused("not seat %d's turn: seat %d lays next" % (seat, self.play.turn))
        card = _card(move.get("card"))
        if card not in self.held[seat]:
            raise Refused("%s is not in seat %d's hand" % (format_card(card), seat))
        if self.play.count + pip(card) > 31:
            raise Refused("%s would make %d: over 31" % (format_card(card), self.play.count + pip(card)))
        awards = self.play.lay(seat, card)
        self.held[seat].remove(card)
        if self._award(awards):
            return
        # A seat to lay with no card under 31 says go: the table says it for the seat.
        while not self.play.over and not self._fits(self.play.turn):
            if self._award(self.play.go(self.play.turn)):
                return
        if self.play.over:
            self._show()

    def _fits(self, seat):
        return any(self.play.count + pip(c) <= 31 for c in self.held[seat])

    # ---- pegging, the show, the next deal ------------------------------------------------------------

    def _award(self, awards):
        return any(self._peg(s, points, why) for s, why, points in awards)

    def _peg(self, seat, points, why):
        """Peg for the seat's side; True when it wins the game (the game ends there, whatever is left
        to count: the first side out wins, the others are judged for skunks where they stand)."""
        if points <= 0:
            return False
        side = self.side(seat)
        self.scores[side] = min(TARGET, self.scores[side] + points)
        self.pegs.append((self.deal_no, seat, points, why))
        if self.scores[side] >= TARGET:
            self.winner = side
            self.phase = "over"
            return True
        return False

    def show_order(self):
        """The seats in the show's order: from the dealer's left round to the dealer."""
        return [(self.dealer + k) % self.seats for k in range(1, self.seats + 1)]

    def crib(self):
        out = []
        for t in self.thrown:
            out += t or []
        return out + list(self.to_crib)

    def _show(self):
        crib = self.crib()
        counted = []
        done = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "starter": self.starter,
            "kept": [list(k) for k in self.kept],
            "crib": crib,
            "laid": [[s, c] for s, c in self.play.laid],
            "counted": counted,
        }
        self.shows.append(done)
        shown = [(seat, self.kept[seat], False) for seat in self.show_order()]
        for seat, cards, is_crib in shown + [(self.dealer, crib, True)]:
            s = score_show(cards, self.starter, crib=is_crib)
            counted.append(
                {
                    "seat": seat,
                    "k": "crib" if is_crib else "hand",
                    "n": s.total,
                    "items": [[i.kind, i.points, list(i.cards)] for i in s.items],
                }
            )
            if self._peg(seat, s.total, "crib" if is_crib else "hand"):
                return
        self.dealer = (self.dealer + 1) % self.seats  # the deal passes to the left
        self.deal_no += 1
        self._deal()

    def _deal(self):
        if self.deal_no == 0:
            self.deal_no = 1
        hands, to_crib, _starter = fairdeal.dealt(self.seed, self.deal_no, self.dealer, self.form)
        self.dealt = [list(h) for h in hands]
        self.held = [list(h) for h in hands]
        self.kept = [[] for _ in range(self.seats)]
        self.thrown = [None] * self.seats
        self.to_crib = list(to_crib)
        self.starter = None
        self.play = None
        self.phase = "discard"

    # ---- what a seat sees ---------------------------------------------------------------------------

    def skunks(self):
        """Each side's skunk once the game is over ("", "skunk" short of 91, "double" short of 61)."""
        if self.phase != "over":
            return None
        return [
            "" if s == self.winner else skunk_label(self.scores[s], TARGET, "acc") for s in range(self.sides)
        ]

    def proof(self):
        """The commitments, and once the game is over what they were commitments to (a three-handed or
        2 v 2 table's proof says its form: the deal depends on it)."""
        out = {"secret_commit": fairdeal.secret_commit(self.secret), "seed_commit": None}
        if self.form != "six":
            out["form"] = self.form
        if self.seed is not None:
            out["seed_commit"] = fairdeal.seed_commit(self.seed)
        if self.phase == "over":
            out.update(secret=self.secret, shares=list(self.shares), seed=self.seed)
        return out

    def view(self, seat):
        """What `seat` may see: its own cards, the cards laid, the shows of finished deals, and of the
        other seats only how many cards each holds. Never another seat's hand or throw (nor the deck's
        card for the crib) before the show."""
        play = self.play
        v = {
            "seat": seat,
            "form": self.form,
            "sides": self.sides,
            "to_throw": self.throw,
            "names": list(self.names),
            "phase": self.phase,
            "scores": list(self.scores),
            "target": TARGET,
            "dealer": self.dealer,
            "deal": self.deal_no,
            "awaited": self.awaited(),
            "share_in": self.shares[seat] is not None,
            "dealt": list(self.dealt[seat]),
            "hand": list(self.held[seat]),
            "thrown": list(self.thrown[seat] or []),
            "holds": [len(h) for h in self.held],
            "has_thrown": [t is not None for t in self.thrown],
            "starter": self.starter,
            "count": play.count if play else 0,
            "current": list(play.current) if play else [],
            "laid": [[s, c] for s, c in play.laid] if play else [],
            "pegs": [list(p) for p in self.pegs[-12:]],
            "shows": self.shows[-1:],
            "winner": self.winner,
            "skunks": self.skunks(),
            "proof": self.proof(),
            "moves": self.moves,
        }
        if self.seats == 2:  # the two-player view's names for the other seat, as clients read them
            v["other_holds"] = len(self.held[1 - seat])
            v["other_thrown"] = self.thrown[1 - seat] is not None
        return v
