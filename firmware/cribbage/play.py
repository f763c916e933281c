# The play (pegging): points for each card laid, go, last card, restarts, five-card single count.
from cribbage.cards import format_card, parse_card, parse_cards, pip
from cribbage.errors import CribError

_PAIR_NAMES = ("", "", "pair", "pair royal", "double pair royal")
_PAIR_POINTS = (0, 0, 2, 6, 12)


def reasons_for_lay(cards):
    """(reason, points) earned by the last of `cards`, the cards of the current count in order.

    Go and last card are not included: they depend on what the other players can do.
    """
    cards = parse_cards(cards)
    if not cards:
        raise CribError("no card laid")
    count = 0
    for c in cards:
        count += pip(c)
    if count > 31:
        raise CribError("count %d is over 31" % count)
    reasons = []
    if count == 15:
        reasons.append(("fifteen", 2))
    elif count == 31:
        reasons.append(("thirty-one", 2))
    n = len(cards)
    rank = cards[-1] >> 2
    same = 1
    while same < n and cards[n - 1 - same] >> 2 == rank:
        same += 1
    if same > 1:
        reasons.append((_PAIR_NAMES[same], _PAIR_POINTS[same]))
    else:
        run = _longest_run(cards)
        if run:
            reasons.append(("run of %d" % run, run))
    return reasons


def _longest_run(cards):
    # The last k cards form a run when their ranks are k distinct consecutive values; any pair
    # among them breaks it. Try the longest tail first so the answer is the maximal run.
    n = len(cards)
    k = n
    while k >= 3:
        ranks = [c >> 2 for c in cards[n - k :]]
        lo = min(ranks)
        seen = 0
        for r in ranks:
            seen |= 1 << (r - lo)
        if seen == (1 << k) - 1:
            return k
        k -= 1
    return 0


class Play:
    """The state of one play: who lays next, the count, and the points each lay or go earns.

    Seats are numbered 0..seats-1 in playing order; `leader` (left of the dealer) lays first.
    `turn` is the seat to lay or say go next (None once the play is over).
    `current` holds only the cards of the running count and is emptied on every restart, and
    scoring looks at nothing else, so runs and pairs cannot reach across a restart.
    """

    def __init__(self, seats=2, leader=1, cards_each=4, single_count=False):
        if seats not in (2, 3, 4):
            raise CribError("the play needs 2, 3 or 4 seats, not %r" % (seats,))
        if not (isinstance(leader, int) and 0 <= leader < seats):
            raise CribError("leader %r is not a seat 0..%d" % (leader, seats - 1))
        if not (isinstance(cards_each, int) and 1 <= cards_each <= 6):
            raise CribError("cards_each %r is not 1..6" % (cards_each,))
        self.seats = seats
        self.single_count = single_count
        self.count = 0
        self.current = []
        self.turn = leader
        self.over = False
        self.cards_left = [cards_each] * seats
        self.laid = []
        # said_go[seat]: this seat has said go in the running count.
        self.said_go = [False] * seats
        # The seat that laid the last card of the running count (it gets the go).
        self.last_layer = None

    def _check_turn(self, seat):
        if self.over:
            raise CribError("the play is over")
        if not (isinstance(seat, int) and 0 <= seat < self.seats):
            raise CribError("seat %r is not a seat 0..%d" % (seat, self.seats - 1))
        if seat != self.turn:
            raise CribError("not seat %d's turn: seat %d to play" % (seat, self.turn))

    def lay(self, seat, card):
        """Seat lays card; returns the awards [(seat, reason, points)], go and last card included."""
        self._check_turn(seat)
        c = parse_card(card)
        for _s, done in self.laid:
            if done == c:
                raise CribError("%s was already played" % format_card(c))
        if self.cards_left[seat] <= 0:
            raise CribError("seat %d has no cards left" % seat)
        if self.count + pip(c) > 31:
            raise CribError("%s would make %d: over 31" % (format_card(c), self.count + pip(c)))
        # Validated: from here on nothing can refuse.
        self.current.append(c)
        self.count += pip(c)
        self.cards_left[seat] -= 1
        self.laid.append((seat, c))
        self.last_layer = seat
        awards = [(seat, reason, points) for reason, points in reasons_for_lay(self.current)]
        if self.count == 31:
            # 31 scores 2 in all: no extra point for the go or for the last card.
            self._end_count(seat)
        elif self._all_out():
            awards.append((seat, "last card", 1))
            self.over = True
            self.turn = None
        else:
            nxt = self._next_can_lay(seat, include_self=True)
            if nxt is None:
                # The layer is out of cards and everyone else has said go: nobody can go on.
                awards.append((seat, "go", 1))
                self._end_count(seat)
            else:
                self.turn = nxt
        self.awards = awards  # the last lay's, for the board's words ("fifteen, pair")
        return awards

    def go(self, seat):
        """Seat says go (taken on trust, hands are not keyed); returns any award it brings about."""
        self._check_turn(seat)
        if self.count <= 21:
            # Every card is worth 10 or less, so any card still held fits under 31.
            raise CribError("seat %d cannot say go at %d: any card fits" % (seat, self.count))
        self.said_go[seat] = True
        nxt = self._next_can_lay(seat, include_self=False)
        if nxt is not None:
            self.turn = nxt
            return []
        layer = self.last_layer
        self._end_count(layer)
        return [(layer, "go", 1)]

    def _all_out(self):
        return not any(self.cards_left)

    def _next_can_lay(self, seat, include_self):
        # The next seat after `seat` in playing order that holds cards and has not said go.
        for step in range(1, self.seats + 1):
            s = (seat + step) % self.seats
            if s == seat and not include_self:
                break
            if self.cards_left[s] and not self.said_go[s]:
                return s
        return None

    def _end_count(self, layer):
        if self.single_count or self._all_out():
            self.over = True
            self.turn = None
            return
        self.count = 0
        self.current = []
        self.said_go = [False] * self.seats
        self.last_layer = None
        # The count restarts with the seat after the last layer (skipping seats out of cards):
        # nobody has said go in the new count, and someone still holds cards.
        self.turn = self._next_can_lay(layer, True)
