"""A table's game as the fold of its seats' moves: shares, discards and lays, scored by the shared core."""

from crib.tables import fairdeal
from cribbage.cards import format_card, parse_card, pip
from cribbage.errors import CribError
from cribbage.play import Play
from cribbage.show import score_show

SEATS = 2
TARGET = 121
KEPT = 4


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

    Moves are dicts {"t": "share", "share"} | {"t": "discard", "cards": [a, b]} | {"t": "lay", "card"};
    `apply(seat, move)` checks the whole move before it changes anything. A go is said for a seat by
    the table itself: it knows the hand, so nothing a seat could lie about is asked of it."""

    def __init__(self, secret, names=None):
        self.secret = secret
        self.names = list(names or ["", ""])
        self.shares = [None] * SEATS
        self.seed = None
        self.phase = "shares"
        self.scores = [0, 0]
        self.dealer = None
        self.deal_no = 0
        self.dealt = [[], []]  # the six each seat was dealt this deal
        self.held = [[], []]  # cards in hand, not yet laid
        self.kept = [[], []]  # the four kept for the show
        self.thrown = [None, None]  # each seat's two for the crib, once thrown
        self.starter = None
        self.play = None
        self.pegs = []  # (deal, seat, points, why), every peg of the game in order
        self.shows = []  # each finished deal's show, every card revealed
        self.winner = None
        self.moves = 0

    # ---- what is awaited ----------------------------------------------------------------------------

    def awaited(self):
        """The seats whose move the table waits for now."""
        if self.phase == "shares":
            return [s for s in range(SEATS) if self.shares[s] is None]
        if self.phase == "discard":
            return [s for s in range(SEATS) if self.thrown[s] is None]
        if self.phase == "play":
            return [self.play.turn]
        return []

    # ---- moves ------------------------------------------------------------------------------------

    def apply(self, seat, move):
        """Apply one seat's move, or raise Refused with nothing changed."""
        if seat not in range(SEATS):
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
            self.dealer = fairdeal.first_dealer(self.seed)
            self._deal()

    def _discard(self, seat, move):
        if self.phase != "discard":
            raise Refused("no discard now: the table is at the %s" % self.phase)
        if self.thrown[seat] is not None:
            raise Refused("seat %d has thrown to the crib already" % seat)
        cards = move.get("cards")
        if not isinstance(cards, list) or len(cards) != 2:
            raise Refused("a discard is two cards")
        cards = [_card(c) for c in cards]
        if cards[0] == cards[1]:
            raise Refused("the same card twice: %s" % format_card(cards[0]))
        for c in cards:
            if c not in self.held[seat]:
                raise Refused("%s is not in seat %d's hand" % (format_card(c), seat))
        self.thrown[seat] = cards
        self.held[seat] = [c for c in self.held[seat] if c not in cards]
        self.kept[seat] = list(self.held[seat])
        if all(t is not None for t in self.thrown):
            self.phase = "play"
            self.starter = fairdeal.deal(self.seed, self.deal_no, self.dealer)[1]
            if self.starter >> 2 == 10 and self._peg(self.dealer, 2, "heels"):
                return
            self.play = Play(seats=SEATS, leader=1 - self.dealer, cards_each=KEPT)

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
        """Peg; True when it wins the game (the game ends there, whatever is left to count)."""
        if points <= 0:
            return False
        self.scores[seat] = min(TARGET, self.scores[seat] + points)
        self.pegs.append((self.deal_no, seat, points, why))
        if self.scores[seat] >= TARGET:
            self.winner = seat
            self.phase = "over"
            return True
        return False

    def _show(self):
        pone = 1 - self.dealer
        crib = self.thrown[0] + self.thrown[1]
        counted = []
        done = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "starter": self.starter,
            "kept": [list(self.kept[0]), list(self.kept[1])],
            "crib": crib,
            "laid": [[s, c] for s, c in self.play.laid],
            "counted": counted,
        }
        self.shows.append(done)
        for seat, cards, is_crib in (
            (pone, self.kept[pone], False),
            (self.dealer, self.kept[self.dealer], False),
            (self.dealer, crib, True),
        ):
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
        self.dealer = 1 - self.dealer
        self.deal_no += 1
        self._deal()

    def _deal(self):
        if self.deal_no == 0:
            self.deal_no = 1
        hands, _starter = fairdeal.deal(self.seed, self.deal_no, self.dealer)
        self.dealt = [list(h) for h in hands]
        self.held = [list(h) for h in hands]
        self.kept = [[], []]
        self.thrown = [None, None]
        self.starter = None
        self.play = None
        self.phase = "discard"

    # ---- what a seat sees ---------------------------------------------------------------------------

    def proof(self):
        """The commitments, and once the game is over what they were commitments to."""
        out = {"secret_commit": fairdeal.secret_commit(self.secret), "seed_commit": None}
        if self.seed is not None:
            out["seed_commit"] = fairdeal.seed_commit(self.seed)
        if self.phase == "over":
            out.update(secret=self.secret, shares=list(self.shares), seed=self.seed)
        return out

    def view(self, seat):
        """What `seat` may see: its own cards, the cards laid, the shows of finished deals, and of the
        other seat only how many cards it holds. Never the other seat's hand or throw before the show."""
        other = 1 - seat
        play = self.play
        v = {
            "seat": seat,
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
            "other_holds": len(self.held[other]),
            "other_thrown": self.thrown[other] is not None,
            "starter": self.starter,
            "count": play.count if play else 0,
            "current": list(play.current) if play else [],
            "laid": [[s, c] for s, c in play.laid] if play else [],
            "pegs": [list(p) for p in self.pegs[-12:]],
            "shows": self.shows[-1:],
            "winner": self.winner,
            "proof": self.proof(),
            "moves": self.moves,
        }
        return v
