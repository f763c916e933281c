# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Discard advice: exact expected hands against an exhaustive count, rankings, tables, refusals.
from check import message, raises
from cribbage import cribtables
from cribbage.advice import Advisor, crib_entry, hundredths_text, three_total
from cribbage.cards import format_cards, parse_cards
from cribbage.errors import CardError, CribError
from verify import reference_scorer

RANKS = "A23456789TJQK"


def _exhaustive_total(kept, dealt, five_card):
    # the yardstick: every starter the player cannot see, scored by the plain reference scorer
    total = 0
    for s in range(52):
        if s not in dealt:
            total += reference_scorer.score(kept, s, False, five_card)
    return total


def _check_exactly(text, form, dealer):
    dealt = parse_cards(text)
    a = Advisor()
    n = a.advise(dealt, form, dealer)
    seen = []
    for rank in range(n):
        thrown, kept, hand, _crib, _net = a.shown(rank)
        assert sorted(kept + thrown) == sorted(dealt)
        total = _exhaustive_total(kept, dealt, form == "five")
        assert a.hand[a.order[rank]] == total, (text, format_cards(kept))
        unseen = 52 - len(dealt)
        assert hand == (total * 200 + unseen) // (2 * unseen)  # hundredths, half up
        seen.append(sorted(thrown))
    return a, seen


def test_six_card_hands_match_an_exhaustive_count_for_every_discard():
    for text in ("5H 5C 5S JD 4C 6D", "AS 2H 3D 4C 5S 6H", "JH 5H 4H 6H KH TD", "2C 7D 9S QH KC 8D"):
        a, seen = _check_exactly(text, "six", True)
        assert a.count == 15 and len(seen) == 15
        assert sorted(seen) == sorted([sorted(p) for p in _all_pairs(parse_cards(text))])


def _all_pairs(cards):
    return [[cards[i], cards[j]] for i in range(len(cards)) for j in range(i + 1, len(cards))]


def test_five_card_game_hands_of_three_match_an_exhaustive_count():
    for text in ("5H 5C JH 4H 6H", "JS QS KS 5D 5C", "2D 3D 4D 8C 7C"):
        a, _ = _check_exactly(text, "five", False)
        assert a.count == 10 and len(a.shown(0)[1]) == 3


def test_one_card_throws_of_three_and_four_handed_match_an_exhaustive_count():
    for form in ("three", "four"):
        a, seen = _check_exactly("5H 5C 5S JD 4C", form, True)
        assert a.count == 5 and len(a.shown(0)[1]) == 4
        assert sorted(seen) == sorted([[c] for c in parse_cards("5H 5C 5S JD 4C")])


def test_three_total_matches_the_reference_on_every_kind_of_hand():
    # runs of 3 and 4, double runs, pairs royal, fifteens of 2-4 cards, flushes of 3 and 4, nobs
    cases = (
        "3H 4H 5H 6C",
        "3H 3S 4H 5D",
        "5H 5C 5S 5D",
        "JH 5H 5C TS",
        "AH 2H 3H 9H",
        "JH 2H 3H 9S",
        "2S 3S 4S 5S",
        "KH QH JC TD",
        "7C 8C 8D 9H",
        "AS AH 2C 3C",
        "9D 6D 8D 7S",
        "QC KC AC 2C",
    )
    for text in cases:
        c = parse_cards(text)
        assert three_total(c[0], c[1], c[2], c[3]) == reference_scorer.score(c[:3], c[3], False, True), text
    # and a sweep: every 4th card as starter against three fixed hands
    for text in ("4C 5D 6H", "JD 5S 5C", "TH JH QH"):
        c = parse_cards(text)
        for s in range(52):
            if s not in c:
                assert three_total(c[0], c[1], c[2], s) == reference_scorer.score(c, s, False, True)


def _kept_rank(a, text):
    want = sorted(parse_cards(text))
    for rank in range(a.count):
        if sorted(a.shown(rank)[1]) == want:
            return rank
    raise AssertionError("no option keeps " + text)


def test_pone_with_ace_to_six_keeps_three_to_six_over_two_to_five():
    # The published analyses agree: as pone, A-2-3-4-5-6 keeps 3-4-5-6 (throw A-2), not 2-3-4-5.
    a = Advisor()
    a.advise(parse_cards("AS 2H 3D 4C 5S 6H"), "six", False)
    assert _kept_rank(a, "3D 4C 5S 6H") < _kept_rank(a, "2H 3D 4C 5S")
    assert a.shown(_kept_rank(a, "3D 4C 5S 6H"))[4] > a.shown(_kept_rank(a, "2H 3D 4C 5S"))[4]


def test_three_fives_and_jack_counted_by_hand():
    # 5H 5C 5S JD kept (4C 6D thrown): 14 on every one of the 46 cuts, plus 15 more for 5D (29),
    # 6 for each of the 12 tens, queens and kings, 8 for each of the 3 other jacks (a pair too) and
    # 1 for nobs with each of the 10 other diamonds: (644 + 15 + 72 + 24 + 10) / 46 = 16.63
    a = Advisor()
    a.advise(parse_cards("5H 5C 5S JD 4C 6D"), "six", True)
    rank = _kept_rank(a, "5H 5C 5S JD")
    assert a.hand[a.order[rank]] == 765
    assert a.shown(rank)[2] == 1663
    # as dealer 5-5-4-6 with 5-J in the crib does better: the 5-J is worth ~6.8 to its owner
    assert sorted(a.shown(0)[0])[1] == parse_cards("JD")[0]


def test_ranking_is_by_net_and_net_is_hand_plus_or_minus_crib():
    for dealer in (True, False):
        a = Advisor()
        a.advise(parse_cards("2C 7D 9S QH KC 8D"), "six", dealer)
        exact = []
        for rank in range(a.count):
            thrown, _kept, hand, crib, net = a.shown(rank)
            assert net == (hand + crib if dealer else hand - crib)
            lo, hi = sorted([thrown[0] >> 2, thrown[1] >> 2])
            assert crib == crib_entry("six", dealer, lo * 13 + hi) == crib_entry("six", dealer, hi * 13 + lo)
            total = a.hand[a.order[rank]]
            exact.append(total * 100 + (crib * 46 if dealer else -crib * 46))  # net x 46, exactly
        assert exact == sorted(exact, reverse=True)


def test_two_decimals_without_floats():
    assert hundredths_text(1726) == "17.26" and hundredths_text(-305) == "-3.05"
    assert hundredths_text(7) == "0.07"


def test_one_advisor_is_reused_and_each_advice_starts_clean():
    a = Advisor()
    a.advise(parse_cards("AS 2H 3D 4C 5S 6H"), "six", False)
    first = [a.shown(r) for r in range(15)]
    a.advise(parse_cards("5H 5C JH 4H 6H"), "five", True)
    a.advise(parse_cards("AS 2H 3D 4C 5S 6H"), "six", False)
    assert [a.shown(r) for r in range(15)] == first


# ---- the tables -----------------------------------------------------------------------------------

_TWO_CARD = (("six", True), ("six", False), ("five", True), ("five", False))
_ONE_CARD = (("three", True), ("three", False), ("four", True), ("four", False))


def _entries(case, n):
    return [crib_entry(case[0], case[1], i) for i in range(n)]


def test_tables_have_their_sizes_and_two_card_tables_are_symmetric():
    assert len(cribtables.TABLES) == 2 * (4 * 169 + 4 * 13)
    for case in _TWO_CARD:
        e = _entries(case, 169)
        for a in range(13):
            for b in range(13):
                assert e[a * 13 + b] == e[b * 13 + a], (case, RANKS[a], RANKS[b])
    assert _entries(("six61", True), 169) == _entries(("six", True), 169)


def test_five_five_is_the_best_throw_and_a_crib_is_worth_more_to_its_owner_side():
    for case in _TWO_CARD:
        e = _entries(case, 169)
        assert max(e) == e[4 * 13 + 4], case
        assert min(e) >= 250 and max(e) <= 1000, case
    for case in _ONE_CARD:
        e = _entries(case, 13)
        assert max(e) == e[4] and min(e) >= 250, case
    # the opponent as dealer throws his best to his own crib, as pone his worst: so every discard
    # is worth more in the pone's table than in the dealer's
    for form in ("six", "five"):
        d, p = _entries((form, True), 169), _entries((form, False), 169)
        assert all(d[i] < p[i] for i in range(169)), form


def test_table_sums_sit_near_a_random_crib():
    # A crib of 5 random cards averages 4.73 (every 4-card set over its 48 starters); the dealer's
    # table averages over the 91 rank pairs below it (the pone throws to spoil), the pone's above.
    mean_d = sum(_entries(("six", True), 169)) / 169
    mean_p = sum(_entries(("six", False), 169)) / 169
    assert 380 < mean_d < 473 < mean_p < 560, (mean_d, mean_p)


# ---- refusals ------------------------------------------------------------------------------------


def test_bad_dealt_hands_are_refused_and_change_nothing():
    a = Advisor()
    a.advise(parse_cards("AS 2H 3D 4C 5S 6H"), "six", False)
    before = (bytes(a.dealt), bytes(a.order), list(a.hand), a.count, a.form, a.dealer)
    e = raises(CribError, a.advise, parse_cards("AS 2H 3D 4C 5S"), "six", True)
    assert "six deals 6 cards, not 5" in message(e)
    e = raises(CardError, a.advise, [0, 4, 8, 12, 16, 4], "six", True)
    assert "the same card twice: 2S" in message(e)
    for bad in (52, -1, True, "5H"):
        e = raises(CardError, a.advise, [0, 4, 8, 12, 16, bad], "six", True)
        assert "not a card number" in message(e)
    e = raises(CribError, a.advise, [0, 4, 8, 12, 16, 20], "seven", True)
    assert "unknown game form" in message(e)
    assert (bytes(a.dealt), bytes(a.order), list(a.hand), a.count, a.form, a.dealer) == before
