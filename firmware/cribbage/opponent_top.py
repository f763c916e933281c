# The top level's thinking: the discard by exact expectation and the lay with a look-ahead over unseen cards.
from cribbage import const
from cribbage.cards import pip
from cribbage.opponent import lay_points

_WIN = const(1000)  # a lay that reaches the target outweighs any expectation


_REACH = const(24)  # points from the target: within one deal's reach, the discard plays to the board
_REACH_OPTIONS = const(3)  # the keeps, best first, weighed for their chance: a bound on the board's time


def top_discard(a, hand, form, dealer, my_score, their_score, target):
    # the advice's net (hand +/- crib) plus the play's value of the kept cards; within reach of the
    # target, of the best few by that value the keep most likely to get there
    if form not in ("six", "six61"):
        return a.shown(0)[0]
    # (one function, no helpers: each name a module holds costs the board's name pool, [name budget])
    from cribbage.pegtables import PEG

    o = 0 if dealer else 16
    options = []
    for rank in range(a.count):
        thrown, kept, _hand, crib, net = a.shown(rank)
        # the play's value of the four kept cards (cribbage/pegtables.py), hundredths
        v = 0
        for i in range(4):
            r = kept[i] >> 2
            v += PEG[o + r]
            for j in range(i + 1, 4):
                b = kept[j] >> 2
                if r == b:
                    v += PEG[o + 13]
                elif r - b == 1 or b - r == 1:
                    v += PEG[o + 14]
                if pip(kept[i]) + pip(kept[j]) == 15:
                    v += PEG[o + 15]
        options.append((net + v, rank, thrown, kept, crib))
    options.sort(reverse=True)
    need = target - my_score
    if need > _REACH:
        return options[0][2]
    from cribbage.showtotal import show_total

    best = None
    best_key = None
    for v, _rank, thrown, kept, crib in options[:_REACH_OPTIONS]:
        # the starters (of those the player cannot see) with which this keep, the crib's expectation
        # when it is ours and the usual play points (hundredths: a dealer's 4, a pone's 3) reach `need`
        base = 400 + crib if dealer else 300
        hits = 0
        for s in range(52):
            if s not in hand and show_total(kept[0], kept[1], kept[2], kept[3], s) * 100 + base >= need * 100:
                hits += 1
        key = (hits, v)
        if best_key is None or key > best_key:
            best_key = key
            best = thrown
    return best


def _none_of(a, n, k):
    # chance that k cards drawn from a unseen hold none of n particular ones
    if n <= 0:
        return 1.0
    p = 1.0
    i = 0
    while i < k:
        if a - n - i <= 0:
            return 0.0
        p *= (a - n - i) / (a - i)
        i += 1
    return p


def _reply(current, count, by_rank, a, k, need):
    # the opponent's best immediate reply over the k cards it may hold of the a unseen:
    # (expected points, chance it has no card that fits, chance it reaches `need` points)
    values = []
    fits = 0
    rep = 0
    for r in range(13):
        m = by_rank[r]
        if not m:
            continue
        c = r * 4
        if count + pip(c) > 31:
            continue
        fits += m
        v = lay_points(current, count, c)
        if v:
            values.append((v, m))
    values.sort()
    exp = 0.0
    reach = 0.0
    above = 0
    i = len(values) - 1
    # E[max] = sum over levels v of P(max >= v) * (v - next lower level)
    while i >= 0:
        v, m = values[i]
        above += m
        lower = values[i - 1][0] if i else 0
        while i > 0 and values[i - 1][0] == v:
            i -= 1
            above += values[i][1]
            lower = values[i - 1][0] if i else 0
        p = 1.0 - _none_of(a, above, k)
        exp += p * (v - lower)
        if v >= need and not rep:
            reach = p
            rep = 1
        i -= 1
    return exp, _none_of(a, fits, k), reach


def top_lay(cards, hand_left, current, count, played_all, seen, my_score, their_score, target, kept):
    by_rank = [4] * 13  # the cards of each rank this player has not seen
    for c in hand_left:
        by_rank[c >> 2] -= 1
    for c in played_all:
        by_rank[c >> 2] -= 1
    for c in seen:
        by_rank[c >> 2] -= 1
    u = 0
    for m in by_rank:
        u += m
    k = 2 * kept - len(played_all) - len(hand_left)  # the opponent's cards still held
    need_me = target - my_score
    need_them = target - their_score
    best = None
    best_v = None
    for c in cards:
        pts = lay_points(current, count, c)
        n = count + pip(c)
        v = float(pts)
        if pts >= need_me:
            v += _WIN
        elif n < 31 and k > 0 and u > 0:
            nxt = list(current)
            nxt.append(c)
            exp, none, reach = _reply(nxt, n, by_rank, u, min(k, u), need_them)
            v -= exp
            v += none * 0.9  # the go (or more) when it cannot follow
            v -= reach * _WIN / 10
        elif n < 31 and k == 0 and len(hand_left) == 1:
            v += 1  # last card
        # among equals keep the low cards for the go and the last card
        key = (v, pip(c), c)
        if best_v is None or key > best_v:
            best_v = key
            best = c
    return best
