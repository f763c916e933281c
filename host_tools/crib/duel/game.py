# One duel game: the virtual deal, both discards, the play and the show, scored by the core's rules.
from crib.duel.players import BotError
from cribbage.cards import JACK, format_card, format_cards, pip
from cribbage.deal import deal
from cribbage.errors import CribError
from cribbage.play import Play
from cribbage.showtotal import show_total

FORMS = {"six": 121, "six61": 61}


class View:
    """What a seat knows when it lays: its cards left, the running count, every card laid, the
    cards it knows are not the other's (the starter, its throws), the scores from its side."""

    __slots__ = ("hand_left", "current", "count", "played_all", "seen", "my_score", "their_score")


class Result:
    """The game's end: `winner` seat, `scores`, `deals` played, `points` each seat scored deal by
    deal, and `forfeit` (the losing seat, the reason) when a player broke the protocol."""

    def __init__(self, winner, scores, deals, points, forfeit=None):
        self.winner = winner
        self.scores = scores
        self.deals = deals
        self.points = points
        self.forfeit = forfeit


class _Won(Exception):
    pass


class _Game:
    def __init__(self, players, seeds, form):
        self.players = players
        self.seeds = seeds
        self.form = form
        self.target = FORMS[form]
        self.scores = [0, 0]
        self.points = []  # [seat 0, seat 1] per deal

    def tell_both(self, line):
        for s in (0, 1):
            self.guard(s, self.players[s].tell, line)

    def guard(self, seat, fn, *args):
        # a player's BotError (or a crash of its code) names the seat that loses
        try:
            return fn(*args)
        except BotError as e:
            raise _Forfeit(seat, str(e)) from None
        except CribError as e:
            raise _Forfeit(seat, "refused: %s" % e) from None

    def peg(self, seat, n, deal_points):
        n = min(n, self.target - self.scores[seat])  # the game ends at the target: no points past it
        if n <= 0:
            return
        self.scores[seat] += n
        deal_points[seat] += n
        if self.scores[seat] == self.target:
            raise _Won(seat)

    def discards(self, hands, dealer):
        kept = []
        crib = []
        for s in (0, 1):
            hand = list(hands[s])
            thrown = self.guard(
                s, self.players[s].discard, hand, s == dealer, self.scores[s], self.scores[1 - s]
            )
            if (
                not isinstance(thrown, (list, tuple))
                or len(thrown) != 2
                or thrown[0] == thrown[1]
                or any(c not in hand for c in thrown)
            ):
                raise _Forfeit(
                    s, "threw %s from %s: two different cards of the hand" % (_cards(thrown), _cards(hand))
                )
            kept.append([c for c in hand if c not in thrown])
            crib.extend(thrown)
            self.seen[s] = list(thrown)
        return kept, crib

    def play(self, kept, dealer, starter, deal_points):
        p = Play(seats=2, leader=1 - dealer, cards_each=4)
        left = [list(kept[0]), list(kept[1])]
        laid = []
        while not p.over:
            s = p.turn
            v = View()
            v.hand_left = left[s]
            v.current = list(p.current)
            v.count = p.count
            v.played_all = laid
            v.seen = self.seen[s] + [starter]
            v.my_score = self.scores[s]
            v.their_score = self.scores[1 - s]
            c = self.guard(s, self.players[s].lay, v)
            if c is None:
                if any(p.count + pip(x) <= 31 for x in left[s]):
                    raise _Forfeit(s, "said go at %d holding %s" % (p.count, _cards(left[s])))
                awards = p.go(s)
                self.tell_both("go %d" % s)
            else:
                if c not in left[s]:
                    raise _Forfeit(s, "laid %s, not a card it holds (%s)" % (_card(c), _cards(left[s])))
                if p.count + pip(c) > 31:
                    raise _Forfeit(s, "laid %s at %d: over 31" % (_card(c), p.count))
                awards = p.lay(s, c)
                left[s].remove(c)
                laid.append(c)
                self.tell_both("laid %d %s %d" % (s, format_card(c), sum(a[2] for a in awards)))
            for seat, _why, n in awards:
                self.peg(seat, n, deal_points)

    def show(self, kept, crib, dealer, starter, deal_points):
        pone = 1 - dealer
        for seat, cards, kind in (
            (pone, kept[pone], "hand"),
            (dealer, kept[dealer], "hand"),
            (dealer, crib, "crib"),
        ):
            n = show_total(cards[0], cards[1], cards[2], cards[3], starter, kind == "crib")
            self.tell_both("show %d %s %d %s" % (seat, kind, n, format_cards(cards)))
            self.peg(seat, n, deal_points)

    def one_deal(self, number, dealer):
        hands, _crib, starter = deal(self.seeds(number), self.form, dealer)
        deal_points = [0, 0]
        self.points.append(deal_points)
        self.seen = [[], []]
        kept, crib = self.discards(hands, dealer)
        self.tell_both("starter %s" % format_card(starter))
        if starter >> 2 == JACK:
            self.peg(dealer, 2, deal_points)  # his heels
        self.play(kept, dealer, starter, deal_points)
        self.show(kept, crib, dealer, starter, deal_points)


class _Forfeit(Exception):
    def __init__(self, seat, reason):
        super().__init__(reason)
        self.seat = seat
        self.reason = reason


def _card(c):
    return format_card(c) if isinstance(c, int) and 0 <= c < 52 else repr(c)


def _cards(cs):
    try:
        return " ".join(_card(c) for c in cs)
    except TypeError:
        return repr(cs)


def play_game(players, seeds, form="six"):
    """Play one game: players[0] deals first; `seeds(i)` the seed of deal i (cribbage/deal.py).
    A player that breaks the protocol loses it (Result.forfeit says why); the scores stand."""
    g = _Game(players, seeds, form)
    forfeit = None
    winner = None
    number = 0
    try:
        for s in (0, 1):
            g.guard(s, players[s].new_game, s, g.target)
        dealer = 0
        while True:
            g.one_deal(number, dealer)
            number += 1
            dealer = 1 - dealer
    except _Won as w:
        winner = w.args[0]
    except _Forfeit as f:
        winner = 1 - f.seat
        forfeit = (f.seat, f.reason)
    end = "endgame %d %d %d %s" % (winner, g.scores[0], g.scores[1], "forfeit" if forfeit else "won")
    for s in (0, 1):
        if forfeit and forfeit[0] == s:
            broken = getattr(players[s], "broken", None)
            if broken:
                broken()
            continue
        try:
            players[s].tell(end)
        except BotError:
            players[s].broken()
    return Result(winner, list(g.scores), len(g.points), g.points, forfeit)
