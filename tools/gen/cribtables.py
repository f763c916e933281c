# Generates firmware/cribbage/cribtables.py: the expected crib of every discard, from first principles.
"""Usage: python -m tools.gen.cribtables [--hands N] [--check]   (numpy; `make crib-tables`)

The method (docs/advice.md says it in words, with the comparison to the published tables):

1. Exact show values. For every 4-card set (270,725 of them) the mean crib over the 48 other
   cards as starter (CRIB4) and the mean hand (HAND4), and for the five-card game every 3-card
   hand's mean over its 49 starters (HAND3). Ranks go through the 5- and 4-rank multiset points of
   verify/reference_scorer.py; flushes and nobs by their rules.
2. An opponent model, iterated as Hessel did. A player dealt n cards keeps the cards with the best
   exact expected hand over the starters he cannot see, plus the crib table's value of the cards
   he throws if the crib is his side's, minus it if not. Round 0 uses no crib table (the hand
   alone); each round rebuilds the tables from the discards the last round's players made. The
   deals are a fixed-seed sample of N hands per form, the same every round (the only randomness);
   each entry's standard error is its deals' spread over the square root of their number.
3. The crib of a discard. Two cards X thrown from a deal: the mean crib over the opponent's throws
   p (as the model throws them from a full deal, suits made symmetric, none holding a card of the
   thrower's six) and over the starters outside the thrower's six and p. A table entry is the mean
   of that over the sampled deals whose thrower, by the model, threw those ranks: so it carries
   what throwing them says about the rest of the hand (Hessel's "dynamic" averages; a pone throws
   7-8 only when his other four do not go with it, and then the deck does). Rank pairs thrown in
   fewer than MIN_DEALS sampled deals keep the static value: the mean over every card pair of
   those ranks, the rest of the hand unknown. For one card (three- and four-handed) the static
   value only, over the other seats' throws (each seat by its own model; in three-handed the
   deck's card), which no published table gives to compare with.
4. Half steps from round 2 on: a thrower's choice flips where two options tie, so full steps
   ring; each round keeps the mean of the old and the new table.

What it leaves out, as the published tables do: the pegging, and the opponent's kept cards (the
starter is uniform over the cards outside the thrower's six and the opponent's throw).
"""

import itertools
import os
import sys
import time

import numpy as np

from verify.reference_scorer import fifteens, pairs, run_points

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "firmware", "cribbage", "cribtables.py")
SEED = 14
HANDS = 100_000  # sampled deals per form: the rarest throws still get MIN_DEALS or fall back
ROUNDS = 12  # at most; a round that changes no entry by SETTLED or more is the last
SETTLED = 0.01
MIN_DEALS = 40  # a rank pair thrown in fewer sampled deals keeps its static value (see the docs)
JACK = 10


def _binomials():
    c = np.zeros((53, 6), dtype=np.int64)
    for n in range(53):
        for k in range(6):
            c[n, k] = 1 if k == 0 else (0 if n < k else c[n - 1, k - 1] + c[n - 1, k])
    return c


BINOM = _binomials()


def colex(cards):
    """Index of each row of sorted distinct cards (N, k) among the k-sets of 52 (colex order)."""
    idx = np.zeros(cards.shape[0], dtype=np.int64)
    for i in range(cards.shape[1]):
        idx += BINOM[cards[:, i], i + 1]
    return idx


def _rank_points_table(n):
    """points[code]: fifteens + pairs + runs of n ranks, code = sorted ranks in base 13."""
    table = np.zeros(13**n, dtype=np.int8)
    for ranks in itertools.combinations_with_replacement(range(13), n):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        cards = [r * 4 + ranks[:i].count(r) for i, r in enumerate(ranks)]
        code = 0
        for r in ranks:
            code = code * 13 + r
        table[code] = 2 * fifteens(cards) + 2 * pairs(cards) + run_points(cards)
    return table


RANK_POINTS = {4: _rank_points_table(4), 5: _rank_points_table(5)}


def show_points(hand, starter, crib=False):
    """Points of hands (N, k) with starters (N,), k = 4 (or 3 for a five-card game hand)."""
    k = hand.shape[1]
    ranks = np.sort(np.concatenate([hand >> 2, (starter >> 2)[:, None]], axis=1), axis=1)
    code = np.zeros(hand.shape[0], dtype=np.int64)
    for i in range(k + 1):
        code = code * 13 + ranks[:, i]
    points = RANK_POINTS[k + 1][code].astype(np.int32)
    suits = hand & 3
    one_suit = (suits == suits[:, :1]).all(axis=1)
    starter_suit = starter & 3
    with_starter = one_suit & (suits[:, 0] == starter_suit)
    points += np.where(with_starter, k + 1, 0)
    if not crib:
        points += np.where(one_suit & ~with_starter, k, 0)
    points += ((hand >> 2 == JACK) & (suits == starter_suit[:, None])).any(axis=1)
    return points


def mean_over_starters(k, crib):
    """Mean points of every k-card set (colex order) over the 52 - k starters it leaves."""
    sets = np.array(list(itertools.combinations(range(52), k)), dtype=np.int64)
    total = np.zeros(len(sets), dtype=np.int64)
    for s in range(52):
        free = ~(sets == s).any(axis=1)
        total[free] += show_points(sets[free], np.full(int(free.sum()), s), crib)
    out = np.zeros(len(sets))
    out[colex(sets)] = total / (52 - k)
    return out


# ---- the players' model --------------------------------------------------------------------------


def _splits(n, throw):
    """(kept positions, thrown positions) of every way to throw `throw` of n cards."""
    out = []
    for thrown in itertools.combinations(range(n), throw):
        out.append(([i for i in range(n) if i not in thrown], list(thrown)))
    return out


def choose_throws(deals, throw, hand_mean, table, sign):
    """(thrown, kept) cards of each deal (N, n sorted): best exact hand + sign * table[thrown ranks]."""
    n = deals.shape[1]
    kept_n = n - throw
    unseen_total = 52 - kept_n  # the hand_mean is over these starters
    best = np.full(len(deals), -1e9)
    choice = np.zeros((len(deals), throw), dtype=np.int64)
    held = np.zeros((len(deals), kept_n), dtype=np.int64)
    for kept, thrown in _splits(n, throw):
        keep = deals[:, kept]
        total = hand_mean[colex(keep)] * unseen_total
        for t in thrown:
            total -= show_points(keep, deals[:, t])
        value = total / (unseen_total - throw)
        ranks = deals[:, thrown] >> 2
        if throw == 2:
            value = value + sign * table[ranks[:, 0], ranks[:, 1]]
        else:
            value = value + sign * table[ranks[:, 0]]
        better = value > best
        best = np.where(better, value, best)
        choice[better] = deals[better][:, thrown]
        held[better] = keep[better]
    return choice, held


def deal(rng, hands, n):
    keys = rng.random((hands, 52))
    return np.sort(np.argpartition(keys, n, axis=1)[:, :n], axis=1)


PAIRS = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int64)  # lexicographic rows
PAIR_INDEX = colex(PAIRS)


def throw_weights(throws):
    """Probability of each thrown card pair (by colex index) or card, suits made symmetric."""
    if throws.shape[1] == 1:
        counts = np.bincount(throws[:, 0], minlength=52).astype(float)
        by_rank = counts.reshape(13, 4).mean(axis=1)
        w = np.repeat(by_rank, 4)
        return w / w.sum()
    counts = np.bincount(colex(throws), minlength=len(PAIRS)).astype(float)
    a, b = PAIRS[:, 0], PAIRS[:, 1]
    cls = ((a >> 2) * 13 + (b >> 2)) * 2 + ((a & 3) == (b & 3))
    per_pair = counts[PAIR_INDEX]
    sums = np.bincount(cls, weights=per_pair, minlength=13 * 13 * 2)
    sizes = np.bincount(cls, minlength=13 * 13 * 2)
    w = np.zeros(len(PAIRS))
    w[PAIR_INDEX] = sums[cls] / sizes[cls]
    return w / w.sum()


def _sorted4(a, b):
    return np.sort(np.concatenate([a, b], axis=-1), axis=-1)


PAIR_ROW = np.zeros((52, 52), dtype=np.int64)
PAIR_ROW[PAIRS[:, 0], PAIRS[:, 1]] = np.arange(len(PAIRS))
PAIR_ROW[PAIRS[:, 1], PAIRS[:, 0]] = np.arange(len(PAIRS))


def crib_matrix(crib4):
    """M[i, j]: mean crib over its 48 starters of pair row i thrown with pair row j (0 where they clash)."""
    out = np.zeros((len(PAIRS), len(PAIRS)))
    for lo in range(0, len(PAIRS), 128):
        m = PAIRS[lo : lo + 128]
        clash = (m[:, None, :, None] == PAIRS[None, :, None, :]).any(axis=(2, 3))
        four = _sorted4(
            np.broadcast_to(m[:, None, :], (len(m), len(PAIRS), 2)),
            np.broadcast_to(PAIRS[None, :, :], (len(m), len(PAIRS), 2)),
        )
        four = np.where(clash[..., None], np.array([0, 1, 2, 3]), four)
        cribs = crib4[colex(four.reshape(-1, 4))].reshape(len(m), len(PAIRS))
        out[lo : lo + 128] = np.where(clash, 0.0, cribs)
    return out


def _by_ranks(value, rows):
    """13x13 mean of per-row values over the card pairs of each rank pair (rows: PAIRS rows)."""
    table = np.zeros((13, 13))
    count = np.zeros((13, 13))
    ra, rb = PAIRS[rows, 0] >> 2, PAIRS[rows, 1] >> 2
    np.add.at(table, (ra, rb), value)
    np.add.at(count, (ra, rb), 1)
    table = table + table.T - np.diag(np.diag(table))
    count = count + count.T - np.diag(np.diag(count))
    return table / np.maximum(count, 1), count


def static_table(matrix, weights):
    """13x13 mean crib of two thrown ranks, whatever else the thrower held, against `weights`."""
    w = weights[PAIR_INDEX][None, :] * (matrix > 0)
    value = (matrix * w).sum(axis=1) / w.sum(axis=1)
    return _by_ranks(value, np.arange(len(PAIRS)))[0]


def starter_classes():
    """(class of each (pair row, card) for the card as starter, representatives (pair row, card)).

    The crib of a thrown pair X and an opponent's pair p with starter k depends on the suits only
    through which of them are equal, so (ranks, suit pattern) classes stand for all of them.
    """
    a, b = PAIRS[:, 0][:, None], PAIRS[:, 1][:, None]
    k = np.arange(52)[None, :]
    sa, sb, sk = a & 3, b & 3, k & 3
    sb_ = np.where(sb == sa, 0, 1)
    sk_ = np.where(sk == sa, 0, np.where(sk == sb, sb_, np.where(sb_ == 0, 1, 2)))
    key = (((a >> 2) * 13 + (b >> 2)) * 2 + sb_) * 39 + (k >> 2) * 3 + sk_
    inside = (k == a) | (k == b)
    key = np.where(inside, -1, key)
    keys, classes = np.unique(key, return_inverse=True)
    classes = classes.reshape(key.shape)
    first = keys[0] == -1
    reps = []
    for kk in keys[1:] if first else keys:
        pair, kpart = divmod(int(kk), 39)
        ranks, s1 = divmod(pair, 2)
        rk, s2 = divmod(kpart, 3)
        ra, rb = divmod(ranks, 13)
        reps.append((ra * 4, rb * 4 + s1, rk * 4 + s2))
    classes = classes - 1 if first else classes
    return np.where(inside, -1, classes), np.array(reps, dtype=np.int64)


def starter_scores(reps):
    """(scores, valid): crib of each representative pair + every pair row p, its card the starter."""
    scores = np.zeros((len(reps), len(PAIRS)), dtype=np.int8)
    valid = np.zeros((len(reps), len(PAIRS)), dtype=bool)
    for lo in range(0, len(reps), 256):
        r = reps[lo : lo + 256]
        ok = ~(PAIRS[None, :, :, None] == r[:, None, None, :]).any(axis=(2, 3))
        four = _sorted4(
            np.broadcast_to(r[:, None, :2], (len(r), len(PAIRS), 2)),
            np.broadcast_to(PAIRS[None, :, :], (len(r), len(PAIRS), 2)),
        ).reshape(-1, 4)
        starter = np.broadcast_to(r[:, None, 2], (len(r), len(PAIRS))).reshape(-1)
        points = show_points(four, starter, True).reshape(len(r), len(PAIRS))
        scores[lo : lo + 256] = np.where(ok, points, 0)
        valid[lo : lo + 256] = ok
    return scores, valid


class Cribs:
    """What the two-card tables need, computed once: the crib matrix and the starter corrections."""

    def __init__(self, crib4):
        self.matrix = crib_matrix(crib4)
        self.classes, reps = starter_classes()
        self.scores, self.valid = starter_scores(reps)

    def dynamic_table(self, deals, throws, kept, weights, static):
        """13x13 mean crib of each thrown rank pair over the deals that threw it (the rest of the
        hand out of the opponent's cards and the starters), with its standard error and count.
        Rank pairs thrown in fewer than MIN_DEALS deals keep the static value."""
        w_rows = weights[PAIR_INDEX]
        w_class = (self.scores * w_rows).sum(axis=1) / (self.valid * w_rows).sum(axis=1)
        by_starter = np.where(self.classes >= 0, w_class[np.maximum(self.classes, 0)], 0.0)
        values = np.zeros(len(deals))
        rows = PAIR_ROW[throws[:, 0], throws[:, 1]]
        for lo in range(0, len(deals), 2000):
            d = deals[lo : lo + 2000]
            held = np.zeros((len(d), 52), dtype=bool)
            held[np.arange(len(d))[:, None], d] = True
            w = (~held[:, PAIRS[:, 0]] & ~held[:, PAIRS[:, 1]]) * w_rows[None, :]
            r = rows[lo : lo + 2000]
            mean = (w * self.matrix[r]).sum(axis=1) / w.sum(axis=1)
            k = kept[lo : lo + 2000]
            correction = by_starter[r[:, None], k].sum(axis=1)
            values[lo : lo + 2000] = (48 * mean - correction) / (48 - k.shape[1])
        table, count = _by_ranks(values, rows)
        squares, _ = _by_ranks(values**2, rows)
        error = np.sqrt(np.maximum(squares - table**2, 0) / np.maximum(count, 1))
        few = count < MIN_DEALS
        return np.where(few, static, table), np.where(few, 0, error), count


def one_card_table(crib4, seats):
    """13 mean cribs of one thrown rank with the other throws drawn from `seats` (weights by card)."""
    cards = np.arange(52)
    x, y, z = np.meshgrid(cards, cards, cards, indexing="ij")
    x, y, z = x.ravel(), y.ravel(), z.ravel()
    w_other = seats[0][x] * seats[1][y] * seats[2][z]
    out = np.zeros(13)
    for rank in range(13):
        a = rank * 4  # suits are symmetric in the model: one card stands for its rank
        distinct = (x != y) & (x != z) & (y != z) & (x != a) & (y != a) & (z != a)
        four = np.sort(np.stack([np.full(len(x), a), x, y, z], axis=1)[distinct], axis=1)
        w = w_other[distinct]
        out[rank] = (crib4[colex(four)] * w).sum() / w.sum()
    return out


# ---- the forms -----------------------------------------------------------------------------------


def two_card_form(rng, hands, dealt, hand_mean, cribs, log):
    """(dealer table, pone table, their largest standard errors, fewest deals behind an entry)."""
    dealer = np.zeros((13, 13))
    pone = np.zeros((13, 13))
    deals = deal(rng, hands, dealt)  # the same deals every round, so a change is the model's own
    for round_ in range(ROUNDS):
        dealer_throws, dealer_kept = choose_throws(deals, 2, hand_mean, dealer, +1)
        pone_throws, pone_kept = choose_throws(deals, 2, hand_mean, pone, -1)
        by_pone, by_dealer = throw_weights(pone_throws), throw_weights(dealer_throws)
        new_dealer, err_d, n_d = cribs.dynamic_table(
            deals, dealer_throws, dealer_kept, by_pone, static_table(cribs.matrix, by_pone)
        )
        new_pone, err_p, n_p = cribs.dynamic_table(
            deals, pone_throws, pone_kept, by_dealer, static_table(cribs.matrix, by_dealer)
        )
        if round_ >= 2:  # half steps: a thrower's choice flips at a table value, so full steps ring
            new_dealer, new_pone = (new_dealer + dealer) / 2, (new_pone + pone) / 2
        change = max(abs(new_dealer - dealer).max(), abs(new_pone - pone).max())
        log("  round %d: largest change %.3f" % (round_, change))
        dealer, pone = new_dealer, new_pone
        if change < SETTLED:
            break
    return dealer, pone, err_d.max(), err_p.max(), int(min(n_d.min(), n_p.min()))


def one_card_form(rng, hands, hand_mean, crib4, dealer_side, pone_side, log):
    """(own side's crib, opponents' crib) tables for one-card throws; *_side: the other 3 seats,
    each "own" (throws to its side's crib), "opp" (throws to the other side's) or "deck"."""
    own = np.zeros(13)
    opp = np.zeros(13)
    uniform = np.full(52, 1 / 52)
    deals = deal(rng, hands, 5)
    for round_ in range(ROUNDS):
        w = {
            "own": throw_weights(choose_throws(deals, 1, hand_mean, own, +1)[0]),
            "opp": throw_weights(choose_throws(deals, 1, hand_mean, opp, -1)[0]),
            "deck": uniform,
        }
        new_own = one_card_table(crib4, [w[s] for s in dealer_side])
        new_opp = one_card_table(crib4, [w[s] for s in pone_side])
        change = max(abs(new_own - own).max(), abs(new_opp - opp).max())
        log("  round %d: largest change %.3f" % (round_, change))
        if round_ >= 2:
            new_own, new_opp = (new_own + own) / 2, (new_opp + opp) / 2
        own, opp = new_own, new_opp
        if change < SETTLED:
            break
    return own, opp


def build(hands=HANDS, log=print):
    t0 = time.perf_counter()
    rng = np.random.default_rng(SEED)
    crib4 = mean_over_starters(4, True)
    hand4 = mean_over_starters(4, False)
    hand3 = mean_over_starters(3, False)
    cribs = Cribs(crib4)
    log("show means: %.1f s" % (time.perf_counter() - t0))
    tables = {}
    log("six-card:")
    tables["six"] = two_card_form(rng, hands, 6, hand4, cribs, log)
    log("five-card:")
    tables["five"] = two_card_form(rng, hands, 5, hand3, cribs, log)
    log("three-handed:")
    tables["three"] = one_card_form(
        rng, hands, hand4, crib4, ("opp", "opp", "deck"), ("own", "opp", "deck"), log
    )
    log("four-handed:")
    tables["four"] = one_card_form(
        rng, hands, hand4, crib4, ("own", "opp", "opp"), ("own", "own", "opp"), log
    )
    log("built in %.1f s" % (time.perf_counter() - t0))
    return tables


# ---- the module ----------------------------------------------------------------------------------

# (name in the module, form, index in build()'s tuple, what it is)
TABLES = (
    ("SIX_DEALER", "six", 0, "six-card game, two cards to your own crib (dealer)"),
    ("SIX_PONE", "six", 1, "six-card game, two cards to the opponent's crib (pone)"),
    ("FIVE_DEALER", "five", 0, "five-card game, two cards to your own crib"),
    ("FIVE_PONE", "five", 1, "five-card game, two cards to the opponent's crib"),
    ("THREE_DEALER", "three", 0, "three-handed, one card to your own crib"),
    ("THREE_PONE", "three", 1, "three-handed, one card to an opponent's crib"),
    ("FOUR_DEALER", "four", 0, "partners, one card to your side's crib (dealer or dealer's partner)"),
    ("FOUR_PONE", "four", 1, "partners, one card to the other side's crib"),
)


def hundredths(values):
    """Little-endian 2-byte hundredths of a point, row by row (13x13 tables: rank * 13 + rank)."""
    out = bytearray()
    for v in np.asarray(values).ravel():
        h = int(round(float(v) * 100))
        out += bytes((h & 0xFF, h >> 8))
    return bytes(out)


def _bytes_literal(name, data, width=26):
    lines = ["%s = (" % name]
    for i in range(0, len(data), width):
        lines.append('    b"' + "".join("\\x%02x" % b for b in data[i : i + width]) + '"')
    lines.append(")")
    return "\n".join(lines)


def render(tables):
    """The module text: one bytes constant, the tables one after another in TABLES' order (one
    interned name on the board instead of eight; firmware/cribbage/advice.py knows the offsets)."""
    parts = [
        "# Generated by tools/gen/cribtables.py (make crib-tables): do not edit. Expected crib of a discard.",
        "# Each entry: hundredths of a point, 2 bytes little-endian. Two-card tables are 13 x 13 (entry",
        "# rank * 13 + rank, both halves), one-card tables 13 entries; ranks A=0 .. K=12. docs/advice.md",
        "# says how they were made and how they compare with the published tables. In this order:",
    ]
    data = bytearray()
    for name, form, i, what in TABLES:
        parts.append("#   %-13s at %4d: %s" % (name, len(data), what))
        data += hundredths(tables[form][i])
    parts.append("")
    parts.append(_bytes_literal("TABLES", bytes(data)))
    parts.append("")
    return "\n".join(parts)


def main(argv):
    hands = HANDS
    if "--hands" in argv:
        hands = int(argv[argv.index("--hands") + 1])
    tables = build(hands)
    for form in ("six", "five"):
        print(
            "%s: standard error of an entry at most %.3f (dealer), %.3f (pone); fewest deals %d"
            % (form, tables[form][2], tables[form][3], tables[form][4])
        )
    text = render(tables)
    if "--check" in argv:
        with open(OUT) as f:
            same = f.read() == text
        print("committed tables %s a fresh build" % ("equal" if same else "DIFFER FROM"))
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s" % os.path.normpath(OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
