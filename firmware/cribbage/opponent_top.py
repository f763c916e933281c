# The top level's thinking: the discard by exact expectation and the lay with a look-ahead over unseen cards.
from cribbage.cards import pip
from cribbage.opponent import lay_points

_WIN = 1000.0  # a lay that reaches the target outweighs any expectation


def top_discard(a, hand, form, dealer, my_score, their_score, target):
    # the advice's best net (hand +/- crib)
    return a.shown(0)[0]


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
