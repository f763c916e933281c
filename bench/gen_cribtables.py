# Generates firmware/cribbage/cribtables.py: the expected crib of every discard, from first principles.
"""Usage: python bench/gen_cribtables.py [--hands N] [--check]   (numpy; `make crib-tables`)

The method (docs/advice.md says it in words, with the comparison to the published tables):

1. Exact show values. For every 4-card set (270,725 of them) the mean crib over the 48 other
   cards as starter (CRIB4) and the mean hand (HAND4), and for the five-card game every 3-card
   hand's mean over its 49 starters (HAND3). Ranks go through the 5- and 4-rank multiset points of
   bench/reference_scorer.py; flushes and nobs by their rules.
2. An opponent model, iterated as Hessel did. A player dealt n cards keeps the cards with the best
   exact expected hand over the starters he cannot see, plus the crib table's value of the cards
   he throws if the crib is his side's, minus it if not. Round 0 uses no crib table (the hand
   alone); each round rebuilds the tables from the discards the last round's players made. The
   deals are a fixed-seed sample of N hands per form (the only randomness), split in 4 batches:
   the spread of the 4 batch tables gives the standard error printed with each table.
3. The crib of a discard. For two cards a, b: the mean of CRIB4(a, b, x, y) over the opponent's
   discards x, y as the model throws them (drawn from a full deal, suits made symmetric, those
   holding a or b left out). For one card (three- and four-handed): the same over the two or
   three other throws, each from its seat's model (a deck card for the third in three-handed).
   A table entry is the mean over the suits of its ranks.

What it leaves out, as the published tables do: the rest of the thrower's hand (the 4 kept cards
also shape what the crib can be: Hessel measured this at a few hundredths on average), and the
pegging. The starter is uniform over the 48 cards outside the crib.
"""

import itertools
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from reference_scorer import fifteens, pairs, run_points  # noqa: E402

OUT = os.path.join(HERE, "..", "firmware", "cribbage", "cribtables.py")
SEED = 14
HANDS = 100_000  # sampled deals per form and round: the batch spread puts the error near 0.01
ROUNDS = 12  # at most; a round that changes no entry by SETTLED or more is the last
SETTLED = 0.005
BATCHES = 4
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
    """The cards each deal (N, n sorted) throws: best exact hand + sign * table[thrown ranks]."""
    n = deals.shape[1]
    kept_n = n - throw
    unseen_total = 52 - kept_n  # the hand_mean is over these starters
    best = np.full(len(deals), -1e9)
    choice = np.zeros((len(deals), throw), dtype=np.int64)
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
    return choice


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


def two_card_table(crib4, weights):
    """13x13 mean crib of two thrown ranks against an opponent throwing by `weights`."""
    mine = PAIRS  # (P, 2)
    theirs = PAIRS
    value = np.zeros(len(mine))
    for lo in range(0, len(mine), 128):
        m = mine[lo : lo + 128]
        clash = (m[:, None, :, None] == theirs[None, :, None, :]).any(axis=(2, 3))
        four = _sorted4(
            np.broadcast_to(m[:, None, :], (len(m), len(theirs), 2)),
            np.broadcast_to(theirs[None, :, :], (len(m), len(theirs), 2)),
        )
        four = np.where(clash[..., None], np.array([0, 1, 2, 3]), four)
        cribs = crib4[colex(four.reshape(-1, 4))].reshape(len(m), len(theirs))
        w = np.where(clash, 0.0, weights[PAIR_INDEX][None, :])
        value[lo : lo + 128] = (cribs * w).sum(axis=1) / w.sum(axis=1)
    table = np.zeros((13, 13))
    count = np.zeros((13, 13))
    ra, rb = mine[:, 0] >> 2, mine[:, 1] >> 2
    np.add.at(table, (ra, rb), value)
    np.add.at(count, (ra, rb), 1)
    table = table + table.T - np.diag(np.diag(table))
    count = count + count.T - np.diag(np.diag(count))
    return table / count


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


def two_card_form(rng, hands, dealt, hand_mean, crib4, log):
    """(dealer table, pone table, their standard errors) for a form where both throw two cards."""
    dealer = np.zeros((13, 13))
    pone = np.zeros((13, 13))
    deals = deal(rng, hands, dealt)  # the same deals every round, so a change is the model's own
    batches = np.array_split(np.arange(hands), BATCHES)
    for round_ in range(ROUNDS):
        dealer_throws = choose_throws(deals, 2, hand_mean, dealer, +1)
        pone_throws = choose_throws(deals, 2, hand_mean, pone, -1)
        new_dealer = two_card_table(crib4, throw_weights(pone_throws))
        new_pone = two_card_table(crib4, throw_weights(dealer_throws))
        change = max(abs(new_dealer - dealer).max(), abs(new_pone - pone).max())
        log("  round %d: largest change %.3f" % (round_, change))
        dealer, pone = new_dealer, new_pone
        if change < SETTLED:
            break
    spread_d = np.std([two_card_table(crib4, throw_weights(pone_throws[b])) for b in batches], axis=0)
    spread_p = np.std([two_card_table(crib4, throw_weights(dealer_throws[b])) for b in batches], axis=0)
    return dealer, pone, spread_d.max() / np.sqrt(BATCHES), spread_p.max() / np.sqrt(BATCHES)


def one_card_form(rng, hands, hand_mean, crib4, dealer_side, pone_side, log):
    """(own side's crib, opponents' crib) tables for one-card throws; *_side: the other 3 seats,
    each "own" (throws to its side's crib), "opp" (throws to the other side's) or "deck"."""
    own = np.zeros(13)
    opp = np.zeros(13)
    uniform = np.full(52, 1 / 52)
    deals = deal(rng, hands, 5)
    for round_ in range(ROUNDS):
        w = {
            "own": throw_weights(choose_throws(deals, 1, hand_mean, own, +1)),
            "opp": throw_weights(choose_throws(deals, 1, hand_mean, opp, -1)),
            "deck": uniform,
        }
        new_own = one_card_table(crib4, [w[s] for s in dealer_side])
        new_opp = one_card_table(crib4, [w[s] for s in pone_side])
        change = max(abs(new_own - own).max(), abs(new_opp - opp).max())
        log("  round %d: largest change %.3f" % (round_, change))
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
    log("show means: %.1f s" % (time.perf_counter() - t0))
    tables = {}
    log("six-card:")
    tables["six"] = two_card_form(rng, hands, 6, hand4, crib4, log)
    log("five-card:")
    tables["five"] = two_card_form(rng, hands, 5, hand3, crib4, log)
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
    parts = [
        "# Generated by bench/gen_cribtables.py (make crib-tables): do not edit. Expected crib of a discard.",
        "# Each entry: hundredths of a point, 2 bytes little-endian. Two-card tables are 13 x 13 (entry",
        "# rank * 13 + rank, both halves), one-card tables 13 entries; ranks A=0 .. K=12. docs/advice.md",
        "# says how they were made and how they compare with the published tables.",
        "",
    ]
    for name, form, i, what in TABLES:
        parts.append("# " + what)
        parts.append(_bytes_literal(name, hundredths(tables[form][i])))
        parts.append("")
    return "\n".join(parts)


def main(argv):
    hands = HANDS
    if "--hands" in argv:
        hands = int(argv[argv.index("--hands") + 1])
    tables = build(hands)
    for form in ("six", "five"):
        print(
            "%s: standard error of an entry at most %.3f (dealer), %.3f (pone)"
            % (form, tables[form][2], tables[form][3])
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
