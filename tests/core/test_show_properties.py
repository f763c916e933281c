# Properties of the show (hypothesis): order, suits, items, crib vs hand, reference and fast path agree.
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribbage.cards import JACK, format_cards, parse_cards, pip
from cribbage.errors import CardError
from cribbage.show import _WORDS, score_show
from cribbage.showtotal import score_total, show_total
from verify import reference_scorer

five_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)
suit_maps = st.permutations([0, 1, 2, 3])


def item_multiset(show):
    return sorted((i.kind, i.points, tuple(sorted(i.cards))) for i in show.items)


def without_suit_items(show):
    return sum(i.points for i in show.items if i.kind not in ("flush", "nobs"))


@given(five_cards, st.booleans(), st.randoms(use_true_random=False))
def test_order_of_the_hand_does_not_matter(cards, crib, rnd):
    hand, starter = cards[:4], cards[4]
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    a, b = score_show(hand, starter, crib), score_show(shuffled, starter, crib)
    assert a.total == b.total
    assert item_multiset(a) == item_multiset(b)
    assert show_total(*hand, starter, crib) == show_total(*shuffled, starter, crib)


@given(five_cards, suit_maps, st.booleans())
def test_a_consistent_suit_relabelling_keeps_every_score(cards, suits, crib):
    relabelled = [(c & ~3) | suits[c & 3] for c in cards]
    a = score_show(cards[:4], cards[4], crib)
    b = score_show(relabelled[:4], relabelled[4], crib)
    assert a.total == b.total


@given(five_cards, st.lists(st.integers(0, 3), min_size=5, max_size=5), st.booleans())
def test_any_suit_relabelling_keeps_the_score_without_flush_and_nobs(cards, new_suits, crib):
    relabelled = [(c & ~3) | s for c, s in zip(cards, new_suits, strict=True)]
    if len(set(relabelled)) < 5:
        return  # two equal ranks given the same suit: not a hand
    a = score_show(cards[:4], cards[4], crib)
    b = score_show(relabelled[:4], relabelled[4], crib)
    assert without_suit_items(a) == without_suit_items(b)


@given(five_cards, st.booleans())
def test_total_is_the_sum_of_the_items(cards, crib):
    s = score_show(cards[:4], cards[4], crib)
    assert s.total == sum(i.points for i in s.items)
    assert s.to_dict()["total"] == s.total


@given(five_cards, st.booleans())
def test_agrees_with_the_reference_scorer_and_the_fast_path(cards, crib):
    hand, starter = cards[:4], cards[4]
    expected = reference_scorer.score(hand, starter, crib)
    assert score_show(hand, starter, crib).total == expected
    assert show_total(*hand, starter, crib) == expected
    assert score_total(format_cards(hand), format_cards([starter]), crib) == expected


@given(st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True))
def test_five_card_game_agrees_with_the_reference_scorer(cards):
    hand, starter = cards[:3], cards[3]
    expected = reference_scorer.score(hand, starter, False, True)
    assert score_show(hand, starter, five_card=True).total == expected


@given(five_cards)
def test_five_card_crib_scores_like_any_crib(cards):
    hand, starter = cards[:4], cards[4]
    assert score_show(hand, starter, True, True).total == score_show(hand, starter, True).total


@given(five_cards)
def test_crib_differs_from_hand_only_by_a_four_card_flush(cards):
    hand, starter = cards[:4], cards[4]
    h, c = score_show(hand, starter).total, score_show(hand, starter, crib=True).total
    four_flush = len({x & 3 for x in hand}) == 1 and hand[0] & 3 != starter & 3
    assert h - c == (4 if four_flush else 0)


@given(five_cards, st.booleans())
def test_every_item_is_what_it_says(cards, crib):
    hand, starter = cards[:4], cards[4]
    for item in score_show(hand, starter, crib).items:
        ranks = sorted(c >> 2 for c in item.cards)
        if item.kind == "fifteen":
            assert sum(pip(c) for c in item.cards) == 15 and item.points == 2
        elif item.kind == "pair":
            assert len(item.cards) == 2 and ranks[0] == ranks[1] and item.points == 2
        elif item.kind == "run":
            assert ranks == list(range(ranks[0], ranks[0] + len(ranks))) and item.points == len(ranks) >= 3
        elif item.kind == "flush":
            assert len({c & 3 for c in item.cards}) == 1 and item.points == len(item.cards)
        else:
            assert item.kind == "nobs" and item.cards[0] >> 2 == JACK
            assert item.cards[0] & 3 == starter & 3 and item.cards[0] in hand


@given(five_cards, st.booleans())
def test_impossible_scores_never_appear(cards, crib):
    t = score_show(cards[:4], cards[4], crib).total
    assert 0 <= t <= 29 and t not in (19, 25, 26, 27)


@given(five_cards, st.booleans())
def test_spoken_count_ends_on_the_total(cards, crib):
    s = score_show(cards[:4], cards[4], crib)
    words = s.spoken()
    if s.total == 0:
        assert words == "nineteen (nothing)"
    else:
        assert words.endswith(_WORDS.split()[s.total])


@given(five_cards)
def test_text_and_ints_give_the_same_show(cards):
    text = format_cards(cards)
    assert parse_cards(text) == cards
    a = score_show(text.split()[:4], text.split()[4])
    b = score_show(cards[:4], cards[4])
    assert item_multiset(a) == item_multiset(b)


@given(five_cards, st.integers(0, 4))
def test_starter_in_hand_is_always_refused(cards, i):
    with pytest.raises(CardError):
        score_show(cards[:4], cards[:4][i % 4])
