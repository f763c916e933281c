# A straightforward show scorer, written for obviousness not speed: the yardstick for the fast core.
# Runs on CPython and MicroPython. Cards are ints rank*4+suit (rank 0..12 = A..K, suit 0..3).


def _pip(c):
    r = c >> 2
    return r + 1 if r < 9 else 10


def fifteens(cards):
    """Number of distinct combinations of cards whose pips total 15."""
    n = len(cards)
    found = 0
    for mask in range(1, 1 << n):
        total = 0
        for i in range(n):
            if mask >> i & 1:
                total += _pip(cards[i])
        if total == 15:
            found += 1
    return found


def pairs(cards):
    """Number of pairs of equal rank."""
    found = 0
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            if cards[i] >> 2 == cards[j] >> 2:
                found += 1
    return found


def run_points(cards):
    """Points for runs: each distinct maximal run of 3+ ranks, counted once per choice of cards."""
    counts = [0] * 13
    for c in cards:
        counts[c >> 2] += 1
    best = 0
    r = 0
    while r < 13:
        if counts[r] == 0:
            r += 1
            continue
        start = r
        ways = 1
        while r < 13 and counts[r]:
            ways *= counts[r]
            r += 1
        length = r - start
        if length >= 3:
            best += length * ways
    return best


def flush_points(hand, starter, crib, five_card):
    suit = hand[0] & 3
    for c in hand:
        if c & 3 != suit:
            return 0
    if starter & 3 == suit:
        return len(hand) + 1
    if crib:
        return 0  # a crib flush needs all five cards
    return len(hand)


def nobs(hand, starter):
    for c in hand:
        if c >> 2 == 10 and c & 3 == starter & 3:
            return 1
    return 0


def score(hand, starter, crib=False, five_card=False):
    """Total points of hand (list of card ints) with the starter."""
    cards = list(hand) + [starter]
    return (
        2 * fifteens(cards)
        + 2 * pairs(cards)
        + run_points(cards)
        + flush_points(hand, starter, crib, five_card)
        + nobs(hand, starter)
    )
