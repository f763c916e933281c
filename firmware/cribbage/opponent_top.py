# The top level's thinking: the discard by exact expectation and the lay with a look-ahead over unseen cards.
from cribbage.cards import pip
from cribbage.opponent import lay_points

_WIN = 1000.0  # a lay that reaches the target outweighs any expectation


_REACH = 24  # points from the target: within one deal's reach, the discard plays to the board
_REACH_OPTIONS = 3  # the keeps, best first, weighed for their chance: a bound on the board's time
_PLAY_POINTS = (300, 400)  # hundredths: a pone's and a dealer's usual points in the play


def _peg_value(kept, dealer):
    # the play's value of four kept cards (cribbage/pegtables.py), hundredths
    from cribbage.pegtables import PEG

    o = 0 if dealer else 16
    v = 0
    for i in range(4):
        a = kept[i] >> 2
        v += PEG[o + a]
        for j in range(i + 1, 4):
            b = kept[j] >> 2
            if a == b:
                v += PEG[o + 13]
            elif a - b == 1 or b - a == 1:
                v += PEG[o + 14]
            if pip(kept[i]) + pip(kept[j]) == 15:
                v += PEG[o + 15]
    return v


def _reach_chance(kept, dealt, crib, dealer, need):
    # starters (of those the player cannot see) with which this keep, the crib's expectation when
    # it is ours and the usual play points reach `need`
    from cribbage.showtotal import show_total

    base = _PLAY_POINTS[1 if dealer else 0] + (crib if dealer else 0)
    hits = 0
    for s in range(52):
        if s in dealt:
            continue
        if show_total(kept[0], kept[1], kept[2], kept[3], s) * 100 + base >= need * 100:
            hits += 1
    return hits


def top_discard(a, hand, form, dealer, my_score, their_score, target):
    # the advice's net (hand +/- crib) plus the play's value of the kept cards; within reach of the
    # target, of the best few by that value the keep most likely to get there
    if form not in ("six", "six61"):
        return a.shown(0)[0]
    options = []
    for rank in range(a.count):
        thrown, kept, _hand, crib, net = a.shown(rank)
        options.append((net + _peg_value(kept, dealer), rank, thrown, kept, crib))
    options.sort(reverse=True)
    need = target - my_score
    if need > _REACH:
        return options[0][2]
    best = None
    best_key = None
    for v, _rank, thrown, kept, crib in options[:_REACH_OPTIONS]:
        key = (_reach_chance(kept, hand, crib, dealer, need), v)
        if best_key is None or key > best_key:
            best_key = key
            best = thrown
    return best


def _unseen_by_rank(hand_left, played_all, seen):
    out = [4] * 13
    for c in hand_left:
        out[c >> 2] -= 1
    for c in played_all:
        out[c >> 2] -= 1
    for c in seen:
        out[c >> 2] -= 1
    return out


def _none_of(u, n, k):
    # chance that k cards drawn from u hold none of n particular ones
    if n <= 0:
        return 1.0
    p = 1.0
    i = 0
    while i < k:
        if u - n - i <= 0:
            return 0.0
        p *= (u - n - i) / (u - i)
        i += 1
    return p


def _reply(current, count, by_rank, u, k, need):
    # the opponent's best immediate reply over the k cards it may hold of the u unseen:
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
        p = 1.0 - _none_of(u, above, k)
        exp += p * (v - lower)
        if v >= need and not rep:
            reach = p
            rep = 1
        i -= 1
    return exp, _none_of(u, fits, k), reach


def top_lay(cards, hand_left, current, count, played_all, seen, my_score, their_score, target, kept):
    by_rank = _unseen_by_rank(hand_left, played_all, seen)
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
