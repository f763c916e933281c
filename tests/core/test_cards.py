# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Card notation: every accepted spelling, and every refused token named in the error.
from check import message, raises
from cribbage.cards import format_card, format_cards, parse_card, parse_cards, pip
from cribbage.errors import CardError


def test_parse_plain_and_ten_spellings():
    assert format_card(parse_card("5H")) == "5H"
    assert parse_card("TS") == parse_card("10s") == parse_card("10S") == parse_card("ts")
    assert format_card(parse_card("JD")) == "JD"


def test_parse_suit_symbols():
    assert format_cards(parse_cards("A♣ 2♠ 3♥ 4♦")) == "AC 2S 3H 4D"


def test_pip_values():
    assert [pip(parse_card(t)) for t in "AS 2S 9S TS JS QS KS".split()] == [1, 2, 9, 10, 10, 10, 10]


def test_rank_and_suit():
    c = parse_card("QD")
    assert c >> 2 == 11 and c & 3 == 2  # rank * 4 + suit: Q is rank 11, D suit 2


def test_parse_cards_separators_and_lists():
    assert parse_cards("5h,5c; 5s JD") == parse_cards(["5H", "5C", "5S", "JD"])
    assert parse_cards([0, 51]) == [0, 51]


def test_bad_tokens_are_named():
    for bad in ("1X", "11H", "5", "H", "ZZ", "5Z", "1H"):
        err = raises(CardError, parse_card, bad)
        assert bad in message(err), message(err)
    assert "empty" in message(raises(CardError, parse_card, ""))
    raises(CardError, parse_card, 52)
    raises(CardError, parse_card, None)


def test_duplicate_card_refused():
    err = raises(CardError, parse_cards, "5H 6H 5h")
    assert "5H" in message(err) and "twice" in message(err)
