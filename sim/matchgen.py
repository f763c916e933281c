# Plays whole matches with random cards through the core's Match: the event lines a board would journal.
# Used by the sync tests and bench_sync (a 100-game history). Seeded, so every run plays the same games.
from cribbage import events
from cribbage.cards import pip
from cribbage.game import Match

# form -> (cards dealt each, cards each puts in the crib, cards from the pack to the crib)
DEALS = {"six": (6, 2, 0), "six61": (6, 2, 0), "three": (5, 1, 1), "four": (5, 1, 0), "five": (5, 2, 0)}
# Plausible hand counts when the core has no show scorer to count keyed cards.
_HAND_POINTS = (0, 2, 2, 4, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12, 12, 14, 16, 20, 24)
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


def _has_show_scorer():
    try:
        __import__("cribbage.show")
        return True
    except ImportError:
        return False


class MatchPlayer:
    """Plays one match: `events` gets every completed event (the set-up first)."""

    def __init__(self, rng, names=("Ann", "Bob"), form="six", fmt="acc", games=3, shows=None):
        self.rng = rng
        self.m = Match(events.setup(form=form, fmt=fmt, games=games, names=list(names)))
        self.events = [self.m.setup]
        self.shows = _has_show_scorer() if shows is None else shows
        self.dealt, self.to_crib, self.extra = DEALS[form]

    def do(self, ev):
        self.events.append(self.m.apply(ev))

    def play(self, max_games=None):
        m = self.m
        rng = self.rng
        while True:
            ranks = rng.sample(range(13), m.players)  # distinct ranks: no tie to cut again
            self.do(events.cut([r * 4 + rng.randrange(4) for r in ranks]))
            if not m.cut_tie:
                break
        while not m.match_over:
            if max_games is not None and len(m.results) >= max_games:
                self.do(events.end_match())
                break
            if m.game_over:
                self.do(events.next_game())
                continue
            self.deal()
            if not m.game_over and not m.match_over:
                self.do(events.next_deal())
        return self.events

    def deal(self):
        m = self.m
        rng = self.rng
        deck = list(range(52))
        rng.shuffle(deck)
        hands = []
        crib = []
        for _ in range(m.players):
            cards = [deck.pop() for _ in range(self.dealt)]
            rng.shuffle(cards)
            crib.extend(cards[: self.to_crib])
            hands.append(cards[self.to_crib :])
        for _ in range(self.extra):
            crib.append(deck.pop())
        self.do(events.starter(deck.pop()))
        left = [list(h) for h in hands]
        while not m.game_over and m.play is not None and not m.play.over:
            play = m.play
            p = m.play_seats[play.turn]
            fits = [c for c in left[p] if play.count + pip(c) <= 31]
            if fits:
                c = rng.choice(fits)
                left[p].remove(c)
                self.do(events.lay(p, c))
            else:
                self.do(events.go(p))
        while not m.game_over:
            nxt = m.next_show()
            if nxt is None:
                break
            side, kind = nxt
            cards = hands[m.next_shower()] if kind == "hand" else crib
            if self.shows:
                self.do(events.show(side, kind, cards))
            else:
                self.do(events.peg(side, rng.choice(_HAND_POINTS), kind))


def history(rng, n_games, names=NAMES, forms=("six",), games_a_match=3):
    """Events of matches totalling n_games finished games: a list of event dicts, set-ups included."""
    out = []
    played = 0
    while played < n_games:
        form = rng.choice(forms)
        sides = 3 if form == "three" else 2
        who = rng.sample(list(names), sides)
        left = n_games - played
        p = MatchPlayer(rng, who, form=form, fmt="acc", games=games_a_match)
        p.play(max_games=min(left, games_a_match))
        played += len(p.m.results)
        out.extend(p.events)
    return out
