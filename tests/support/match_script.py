# A realistic scripted match (cut, deals, play card by card, shows from cards, slips undone), as events.
"""Reusable by the journal's power-cut test, the simulator and the benches (both interpreters).

    from match_script import match_events
    evs = match_events()          # [setup, cut, starter, lay, ..., game, ...]: a three-game ACC match
    m = replay(evs)               # cribbage.game.replay: the Match those events make

Every event is the completed dict Match.apply returned, so each one can be journaled as it is.
The deck is shuffled by a small LCG: the same seed gives the same match on both interpreters.
"""

from cribbage import events as E
from cribbage.cards import pip
from cribbage.game import Match

# form -> (cards dealt to each player, extra cards from the pack to the crib)
_DEAL = {"six": (6, 0), "six61": (6, 0), "three": (5, 1), "four": (5, 0), "five": (5, 0)}


class _Rng:
    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF or 1

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _shuffled(rng):
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def has_scorer():
    try:
        __import__("cribbage.show")
        return True
    except ImportError:
        return False


# Plausible hand counts for shows pegged by hand (players who do not key their cards).
_HAND_POINTS = (0, 2, 2, 4, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12, 12, 14, 16, 20, 24)


def match_events(
    seed=1,
    form="six",
    fmt="acc",
    games=3,
    muggins=False,
    three="all",
    slips=True,
    max_events=None,
    names=None,
    cards=None,
    sink=None,
):
    """The events of a whole match (set-up first), played out by simple players.

    slips: now and then a wrong peg is made and undone, and a correction is made and taken back,
    as happens at a real table. max_events stops early (the match is then unfinished).
    cards: shows keyed as cards and counted by cribbage.show (default when it is there), else
    pegged by hand. sink: a function given each event as it is made instead of keeping them all
    (for a small heap); match_events then returns the live Match.
    """
    if cards is None:
        cards = has_scorer()
    setup = E.setup(form=form, fmt=fmt, games=games, muggins=muggins, three=three, names=names)
    m = Match(setup)
    out = [m.setup]
    if sink is not None:
        sink(m.setup)
    rng = _Rng(seed)
    made = [1]

    def go(ev):
        done = m.apply(ev)
        made[0] += 1
        if sink is None:
            out.append(done)
        else:
            sink(done)
        return max_events is not None and made[0] >= max_events

    # The cut: cards from a shuffled pack until one player is lowest.
    stop = False
    while m.dealer is None and not stop:
        stop = go(E.cut(_shuffled(rng)[: m.players]))
    while not stop and not m.match_over:
        stop = _deal(m, rng, go, slips, cards)
        if not stop and m.game_over and not m.match_over:
            stop = go(E.next_game())
    return out if sink is None else m


def _deal(m, rng, go, slips, keyed):
    """One deal, from the starter to the crib (or the game's end); True when max_events is reached."""
    dealt, extra = _DEAL[m.form]
    keep = m.hand_size
    deck = _shuffled(rng)
    hands = {}
    crib = []
    pos = 0
    for p in m.active:
        cards = deck[pos : pos + dealt]
        pos += dealt
        hands[p] = cards[:keep]
        crib.extend(cards[keep:])
    crib.extend(deck[pos : pos + extra])
    pos += extra
    # A short-handed deal (continued play) leaves the crib short: fill it from the pack.
    while len(crib) < 4:
        crib.append(deck[pos])
        pos += 1
    starter = deck[pos]
    if go(E.starter(starter)):
        return True
    if m.game_over:
        return False
    if slips and m.deal_no % 4 == 3:
        # A slip of the hand: a wrong peg, taken back at once.
        if go(E.peg(m.dealer_side, 2, "manual")) or go(E.undo()):
            return True
        if m.game_over:
            return False
    if _play(m, hands, go):
        return True
    if m.game_over:
        return False
    while m.next_show() is not None and not m.game_over:
        side, kind = m.next_show()
        cards = crib if kind == "crib" else hands[m.next_shower()]
        if keyed:
            ev = E.show(side, kind, cards)
        else:
            n = _HAND_POINTS[rng.below(len(_HAND_POINTS))]
            ev = E.peg(side, min(n, 20) if m.five and kind == "hand" else n, kind)
        if go(ev):
            return True
    if m.game_over:
        return False
    # A correction, then noticed to be wrong and undone.
    if slips and m.deal_no % 5 == 2 and m.to_go(0) > 1 and (go(E.fix(0, 1)) or go(E.undo())):
        return True
    return go(E.next_deal())


def _play(m, hands, go):
    left = {p: list(hands[p]) for p in hands}
    play = m.play
    while play is not None and not play.over and not m.game_over:
        p = m.play_seats[play.turn]
        fits = [c for c in left[p] if play.count + pip(c) <= 31]
        if fits:
            # A simple player: the highest card that fits (keeps the low ones for later counts).
            best = fits[0]
            for c in fits:
                if pip(c) > pip(best):
                    best = c
            left[p].remove(best)
            if go(E.lay(p, best)):
                return True
        elif go(E.go(p)):
            return True
    return False
