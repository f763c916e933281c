# Properties of the play (hypothesis): random plays by 2-4 seats keep every rule of docs/rules.md.
from game_kit import points_for_lay
from hypothesis import given
from hypothesis import strategies as st

from cribbage.cards import pip
from cribbage.errors import CribError
from cribbage.play import Play


def plain_points(cards):
    """The pegging rules restated the obvious way, to check points_for_lay against."""
    count = sum(pip(c) for c in cards)
    points = 2 if count in (15, 31) else 0
    ranks = [c >> 2 for c in cards]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(ranks), 2, -1):
        tail = ranks[-k:]
        if len(set(tail)) == k and max(tail) - min(tail) == k - 1:
            points += k
            break
    return points


@st.composite
def counts(draw):
    """Cards of one count (distinct, total at most 31), in the order laid."""
    pool = draw(st.permutations(range(52)))
    out, total = [], 0
    for c in pool[: draw(st.integers(1, 8))]:
        if total + pip(c) > 31:
            break
        out.append(c)
        total += pip(c)
    return out


@given(counts())
def test_points_for_lay_match_the_plain_rules(cards):
    assert points_for_lay(cards) == plain_points(cards)


@st.composite
def deals(draw):
    seats = draw(st.integers(2, 4))
    each = draw(st.integers(1, 6 if seats == 2 else 5))
    cards = draw(st.permutations(range(52)))
    hands = [list(cards[i * each : (i + 1) * each]) for i in range(seats)]
    return seats, each, hands, draw(st.integers(0, seats - 1)), draw(st.booleans()), draw(st.randoms())


@given(deals())
def test_random_plays_keep_the_rules(deal):
    seats, each, hands, leader, single, rnd = deal
    p = Play(seats, leader, each, single)
    segment = []  # the cards of this count, kept by the test itself
    points = [0] * seats
    steps = 0
    while not p.over:
        steps += 1
        assert steps < 200
        seat = p.turn
        hand = hands[seat]
        assert hand, "the turn never lands on a seat without cards"
        fits = [c for c in hand if p.count + pip(c) <= 31]
        before = p.count
        if fits:
            c = rnd.choice(fits)
            awards = p.lay(seat, c)
            hand.remove(c)
            segment.append(c)
            lay_points = sum(pts for s, r, pts in awards if r not in ("go", "last card"))
            # scoring sees only this count: runs and pairs cannot reach across a restart
            assert lay_points == plain_points(segment)
            assert all(s == seat for s, _r, _p in awards)
        else:
            awards = p.go(seat)
        for s, _r, pts in awards:
            points[s] += pts
        extra = [r for _s, r, _p in awards if r in ("go", "last card")]
        assert len(extra) <= 1
        if "thirty-one" in [r for _s, r, _p in awards]:
            assert not extra
        if extra or ("thirty-one" in [r for _s, r, _p in awards]):
            # a go, last card or 31 closes the count: the play is over or the count restarts
            assert p.over or (p.count == 0 and p.current == [])
        else:
            assert p.count >= before
        if p.over:
            break
        if p.count == 0 and p.current == []:
            segment = []
        assert p.current == segment and p.count == sum(pip(c) for c in segment) <= 31
        assert p.cards_left == [len(h) for h in hands]
    assert p.turn is None
    if not single:
        assert all(not h for h in hands) and len(p.laid) == seats * each
    refused = False
    try:
        p.go(0)
    except CribError:
        refused = True
    assert refused
