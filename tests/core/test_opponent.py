# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The opponent's levels: legal discards and lays, the beginner's exact strategy, the look-ahead's reasons.
from check import raises
from cribbage.advice import Advisor
from cribbage.cards import parse_cards, pip
from cribbage.deal import deal
from cribbage.opponent import LEVELS, discard, lay, lay_points
from cribbage.play import reasons_for_lay
from cribbage.show import points_alone


def _c(text):
    return parse_cards(text)


def test_points_alone_against_known_hands():
    assert points_alone(_c("5H 5D 5S JC")) == 6 + 6 + 2  # pair royal, 5+J three ways, 5+5+5
    assert points_alone(_c("2H 3H 4H 5H")) == 4 + 4  # a run of four and a flush, no fifteen (14)
    assert points_alone(_c("AS 2D 3C KH")) == 3 + 2  # a run of three and 2+3+K
    assert points_alone(_c("7S 7D 8C 8H")) == 4 + 8  # two pairs, 7+8 four ways
    assert points_alone(_c("9S 9D 4C KH")) == 2
    # the five-card game keeps three: a fifteen of all three, and no flush of fewer than four
    assert points_alone(_c("4D 5H 6S")) == 3 + 2
    assert points_alone(_c("7H 8H 9H")) == 3 + 2  # a run and 7+8, no flush
    assert points_alone(_c("5H JD 5S")) == 2 + 4


def test_lay_points_agree_with_the_play_rules():
    # every lay of a sample of counts, against the play module's itemised reasons
    hands, _crib, _s = deal(5, "six", 0)
    for seed in range(60):
        hands, _crib, starter = deal(seed, "six", seed & 1)
        cards = list(hands[0]) + list(hands[1])
        current = []
        count = 0
        for c in cards:
            if count + pip(c) > 31:
                current = []
                count = 0
            want = sum(p for _r, p in reasons_for_lay(current + [c]))
            assert lay_points(current, count, c) == want, (current, c)
            current.append(c)
            count += pip(c)


def test_beginner_keeps_the_most_points_alone():
    hand = _c("5H 5D JC KS 2S 9D")
    thrown = discard("beginner", hand, True, 0, 0, 121)
    kept = [c for c in hand if c not in thrown]
    assert len(thrown) == 2
    best = 0
    for i in range(6):
        for j in range(i + 1, 6):
            best = max(best, points_alone([hand[k] for k in range(6) if k not in (i, j)]))
    assert points_alone(kept) == best == 10  # 5 5 J K: a pair, 5+J and 5+K twice each


def test_expected_throws_the_advice_best():
    hand = _c("5H 5D JC KS 2S 9D")
    for dealer in (True, False):
        a = Advisor()
        a.advise(hand, "six", dealer)
        assert sorted(discard("expected", hand, dealer, 0, 0, 121)) == sorted(a.shown(0)[0])


def test_every_level_throws_cards_of_the_hand_in_every_form():
    for level in LEVELS:
        for form, throw in (("six", 2), ("five", 2), ("three", 1), ("four", 1)):
            hands, _crib, _s = deal(11, form, 0)
            hand = list(hands[0])
            thrown = discard(level, hand, True, 10, 20, 61 if form == "five" else 121, form)
            assert len(thrown) == throw, (level, form)
            for c in thrown:
                assert c in hand


def test_beginner_lays_the_most_points_else_the_highest():
    # at 10 with 5H: fifteen; the beginner takes it over a higher card
    assert lay("beginner", _c("5H KS 2C"), _c("TD"), 10, _c("TD"), [], 0, 0, 121) == _c("5H")[0]
    # nothing scores: the highest card
    assert lay("beginner", _c("2H KS 3C"), _c("9D"), 9, _c("9D"), [], 0, 0, 121) == _c("KS")[0]
    # go only when nothing fits
    assert lay("beginner", _c("KS QH"), _c("TD 9S 7C"), 26, _c("TD 9S 7C"), [], 0, 0, 121) is None


def test_every_level_lays_a_card_that_fits():
    for level in LEVELS:
        for seed in range(20):
            hands, _crib, starter = deal(seed, "six", 0)
            hand = list(hands[0])[:4]
            current = list(hands[1])[:2]
            count = sum(pip(c) for c in current)
            c = lay(level, hand, current, count, current, [starter], 0, 0, 121)
            assert c in hand and count + pip(c) <= 31, (level, seed)


def test_top_lays_the_winning_point_and_avoids_an_easy_fifteen():
    # leading: a 5 invites a ten-card's fifteen; the top level leads something else
    hand = _c("5H 4S 9C KD")
    c = lay("top", hand, [], 0, [], _c("2D AS"), 0, 0, 121)
    assert c != _c("5H")[0]
    # one point from the game and a pair available: take it, whatever the look-ahead says
    hand = _c("8H 3S")
    assert lay("top", hand, _c("3D"), 3, _c("3D"), [], 119, 100, 121) == _c("3S")[0]


def test_bad_level_is_refused():
    raises(ValueError, discard, "grandmaster", _c("5H 5D JC KS 2S 9D"), True, 0, 0, 121)
    raises(ValueError, lay, "grandmaster", _c("5H"), [], 0, [], [], 0, 0, 121)


def _reach(kept, dealt, need):
    from cribbage.show import score_show

    return sum(1 for s in range(52) if s not in dealt and score_show(kept, s).total >= need)


def test_top_plays_to_the_board_near_the_end():
    # a pone one deal from home keeps the cards most likely to count out, even below the best mean
    for seed in (3, 8, 21):
        hands, _crib, _s = deal(seed, "six", 0)
        hand = list(hands[1])
        need = 10
        thrown = discard("top", hand, False, 121 - need - 3, 100, 121)
        kept = [c for c in hand if c not in thrown]
        best = 0
        for i in range(6):
            for j in range(i + 1, 6):
                k = [hand[x] for x in range(6) if x not in (i, j)]
                best = max(best, _reach(k, hand, need))
        assert _reach(kept, hand, need) == best, seed
