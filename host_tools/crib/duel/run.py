# A duel: deal sequences each played twice with the seats swapped, and its figures (wins, interval, skunks).
import math
import random
import time

from crib.duel.game import FORMS, play_game
from crib.duel.players import make_player

SKUNK = {121: (91, 61), 61: (31, 31)}  # loser below: skunk, double skunk (none at 61 beyond one)


def deal_seeds(seed, sequence):
    """The seeds of a deal sequence's deals, the same for both of its games."""
    cache = {}

    def seeds(i):
        if i not in cache:
            cache[i] = random.Random("%d:%d:%d" % (seed, sequence, i)).getrandbits(32)
        return cache[i]

    return seeds


class Tally:
    """The running figures of a duel between players A and B (indices 0, 1)."""

    def __init__(self, target):
        self.target = target
        self.games = 0
        self.wins = [0, 0]
        self.skunks = [0, 0]  # games won by a skunk
        self.double_skunks = [0, 0]
        self.forfeits = [0, 0]  # games lost by breaking the protocol
        self.reasons = []  # (game, player, reason) for the first forfeits
        self.deals = [0, 0]  # deals each player took part in (= all deals)
        self.points = [0, 0]  # points each scored over them
        self.pairs = []  # A's share of each sequence's two games: 0, 0.5 or 1

    def add(self, result, a_seat, game_no):
        b_seat = 1 - a_seat
        seat_of = (a_seat, b_seat)
        w = 0 if result.winner == a_seat else 1
        self.games += 1
        self.wins[w] += 1
        if result.forfeit:
            loser = 0 if result.forfeit[0] == a_seat else 1
            self.forfeits[loser] += 1
            if len(self.reasons) < 20:
                self.reasons.append({"game": game_no, "player": loser, "reason": result.forfeit[1]})
        else:
            lo = result.scores[seat_of[1 - w]]
            skunk, double = SKUNK.get(self.target, (91, 61))
            if self.target == 121 and lo < double:
                self.double_skunks[w] += 1
            elif lo < skunk:
                self.skunks[w] += 1
        for i in (0, 1):
            self.deals[i] += result.deals
            self.points[i] += sum(d[seat_of[i]] for d in result.points)
        return w

    def summary(self):
        n = len(self.pairs)
        rate = self.wins[0] / self.games if self.games else 0.0
        if n > 1:
            mean = sum(self.pairs) / n
            var = sum((x - mean) ** 2 for x in self.pairs) / (n - 1)
            half = 1.96 * math.sqrt(var / n)
        else:
            mean, half = rate, 0.5
        return {
            "games": self.games,
            "sequences": n,
            "wins": list(self.wins),
            "win_rate": round(rate, 4),
            # by the sequences (the unit that is independent), normal approximation
            "interval95": [round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4)],
            "points_per_deal": [
                round(self.points[i] / self.deals[i], 3) if self.deals[i] else 0.0 for i in (0, 1)
            ],
            "deals": self.deals[0],
            "skunks": list(self.skunks),
            "double_skunks": list(self.double_skunks),
            "forfeits": list(self.forfeits),
            "forfeit_reasons": list(self.reasons),
        }


def duel(spec_a, spec_b, sequences, seed=1, form="six", timeout=5.0, progress=None):
    """Play `sequences` deal sequences, each twice (A deals first, then B deals first on the same
    deals, each seat's cards going to the other player): returns the summary dict. `progress()` is
    called after each game."""
    if form not in FORMS:
        raise ValueError("the duel plays %s, not %r" % (" ".join(FORMS), form))
    a = make_player(spec_a, timeout)
    b = make_player(spec_b, timeout)
    tally = Tally(FORMS[form])
    start = time.perf_counter()
    try:
        for s in range(sequences):
            seeds = deal_seeds(seed, s)
            share = 0.0
            for a_seat in (0, 1):
                players = (a, b) if a_seat == 0 else (b, a)
                result = play_game(players, seeds, form)
                w = tally.add(result, a_seat, 2 * s + a_seat)
                share += 0.5 if w == 0 else 0.0
                if progress:
                    progress()
            tally.pairs.append(share)
    finally:
        a.close()
        b.close()
    elapsed = time.perf_counter() - start
    out = {"players": [spec_a, spec_b], "seed": seed, "form": form, "target": FORMS[form]}
    out.update(tally.summary())
    out["seconds"] = round(elapsed, 2)
    out["games_per_second"] = round(tally.games / elapsed, 2) if elapsed > 0 else 0.0
    return out
