# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The virtual deal: a permutation of the deck, reproducible by seed on both interpreters, near uniform.
from check import raises
from cribbage.deal import FORM_DEAL, deal, new_seed, shuffle

# shuffle(0)'s top twelve cards as CPython deals them: MicroPython must deal the same.
SEED0_TOP = [23, 36, 27, 8, 43, 0, 48, 42, 17, 38, 19, 9]


def test_shuffle_is_a_permutation_of_the_deck():
    for seed in (0, 1, 2, 99, 2**30 - 1, 2**32 - 1, 2**40 + 3):
        deck = shuffle(seed)
        assert len(deck) == 52
        assert sorted(deck) == list(range(52)), seed


def test_same_seed_same_deck_on_every_interpreter():
    assert list(shuffle(0))[:12] == SEED0_TOP
    assert shuffle(12345) == shuffle(12345)
    assert deal(777, "six", 1) == deal(777, "six", 1)


def test_different_seeds_differ():
    decks = set(bytes(shuffle(s)) for s in range(200))
    assert len(decks) == 200
    # neighbouring seeds do not share their top cards
    same_top = sum(1 for s in range(200) if shuffle(s)[0] == shuffle(s + 1)[0])
    assert same_top < 20, same_top


def test_positions_are_near_uniform():
    # chi-square of card x position over 1,040 fixed seeds (20 expected a cell, 2,601 degrees of
    # freedom: mean 2,601, sd 72); the band is 6 sd wide each way, fixed seeds, so never flaky
    n = 1040
    cells = bytearray(52 * 52)
    for seed in range(n):
        deck = shuffle(seed * 7919)
        for pos in range(52):
            cells[deck[pos] * 52 + pos] += 1
    expected = n / 52
    chi = 0.0
    for v in cells:
        chi += (v - expected) * (v - expected) / expected
    assert 2601 - 6 * 72 < chi < 2601 + 6 * 72, chi
    # and a shuffle that leaves the deck nearly sorted would fail the same measure
    bad = [0] * (52 * 52)
    for seed in range(n):
        for pos in range(52):
            bad[((pos + seed % 3) % 52) * 52 + pos] += 1
    chi_bad = 0.0
    for v in bad:
        chi_bad += (v - expected) * (v - expected) / expected
    assert chi_bad > 2601 + 6 * 72


def test_deal_of_every_form():
    for form in FORM_DEAL:
        players, each = FORM_DEAL[form]
        for dealer in range(players):
            hands, crib, starter = deal(31337, form, dealer)
            deck = shuffle(31337)
            assert len(hands) == players
            cards = []
            for h in hands:
                assert len(h) == each
                cards.extend(h)
            cards.extend(crib)
            cards.append(starter)
            assert len(crib) == (1 if form == "three" else 0)
            # the cards come off the top of the deck, one at a time from the dealer's left
            assert sorted(cards) == sorted(deck[: len(cards)])
            assert hands[(dealer + 1) % players][0] == deck[0]
            assert hands[dealer][0] == deck[players - 1]
            assert starter == deck[len(cards) - 1]


def test_bad_input_is_refused():
    raises(ValueError, shuffle, -1)
    raises(ValueError, shuffle, "7")
    raises(ValueError, deal, 1, "seven")
    raises(ValueError, deal, 1, "six", 2)


def test_new_seed_is_a_small_int():
    seeds = [new_seed() for _ in range(8)]
    for s in seeds:
        assert 0 <= s < 2**30
    assert len(set(seeds)) > 1
