# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Scenarios: discard advice on the board: held MENU before the starter, the dealt cards keyed, the
# discards ranked and paged, nothing pegged; a kept hand scored at the show.
from scenario import Scenario

from board.controller.menu import MENU
from cribbage.advice import Advisor, hundredths_text
from cribbage.cards import format_cards, parse_cards
from cribbage.showtotal import score_total


def _advice_mode(s):
    s.hold("MENU")
    s.wait(1000)  # a long press (800 ms)
    s.release("MENU")
    s.wait(60)


def _expected(cards, form, dealer, rank):
    a = Advisor()
    a.advise(parse_cards(cards), form, dealer)
    return a.shown(rank), a.count


def test_pone_asks_keys_six_cards_and_pages_the_ranked_discards():
    s = Scenario(advice=True)
    try:
        s.keys("A OK")  # player 1 deals: P2 is pone
        assert "Starter? OK=skip" in s.screen()
        _advice_mode(s)
        assert "Advice: P1" in s.screen() and "dealer: own crib" in s.screen()
        s.press("MENU")  # whose cards: P2's
        assert "Advice: P2" in s.screen() and "pone: their crib" in s.screen()
        s.cards("AS 2H 3D 4C 5S 6H")
        assert "AS 2H 3D 4C 5S 6H" in s.said()
        journal_before = len(s.journal())
        s.press("OK")
        (thrown, kept, hand, crib, net), count = _expected("AS 2H 3D 4C 5S 6H", "six", False, 0)
        # One discard a page under its head, paged as an itemised count is: MENU=more k/n (issue 14).
        rows = s.screen().splitlines()
        assert rows[2] == "MENU=more 1/15" and rows[3] == "P2 hand-crib=net"
        assert rows[4:7] == [
            "1 throw AS 2H",
            "keep 3D 4C 5S 6H",
            "%s-%s=%s" % tuple(map(hundredths_text, (hand, crib, net))),
        ]
        assert "keep 3D 4C 5S 6H" in rows  # the published analyses' keep
        assert rows[7] == "OK=keep UNDO=end"
        s.press("MENU")
        (thrown, kept, hand, crib, net), _ = _expected("AS 2H 3D 4C 5S 6H", "six", False, 1)
        rows = s.screen().splitlines()
        assert rows[2] == "MENU=more 2/15" and rows[3] == "P2 hand-crib=net"
        assert rows[4] == "2 throw " + format_cards(thrown) and rows[6].endswith("=" + hundredths_text(net))
        for _ in range(count - 1):
            s.press("MENU")
        assert "MENU=more 1/15" in s.screen()  # round again after the last page
        # nothing was pegged; the dealt cards alone were journalled, for the coach (issue 14), and UNDO
        # goes back to the starter with nothing else changed
        assert s.app.match.front == [0, 0] and len(s.journal()) == journal_before + 1
        assert s.journal()[-1] == {"t": "advice", "p": 1, "cards": parse_cards("AS 2H 3D 4C 5S 6H")}
        s.press("UNDO")
        assert "Starter? OK=skip" in s.screen()
        s.cards("5D")
        assert s.app.match.starter == parse_cards("5D")[0]  # keyed cards are the starter again
    finally:
        s.close()


def test_a_kept_hand_is_scored_at_its_show_with_ok_alone():
    s = Scenario(advice=True)
    try:
        s.keys("A OK")
        _advice_mode(s)
        s.press("MENU")  # P2, pone
        s.cards("5H 5C 5S JD 4C 6D")
        s.press("OK")
        (thrown, kept, _h, _c, _n), _ = _expected("5H 5C 5S JD 4C 6D", "six", False, 0)
        assert format_cards(kept) == "5H 5C 5S JD"  # as pone the fives and the jack stay
        s.press("OK")  # keep them for the show
        assert "P2 hand kept:" in s.said()
        s.wait(10100)
        assert "Starter? OK=skip" in s.screen()
        s.cards("KD")  # the starter
        s.keys("OK")  # no play keyed: on to the show, P2's hand first
        s.wait(10100)
        assert "kept 5H 5C 5S JD" in s.said() and "OK=score them" in s.said()
        s.press("OK")
        assert s.app.match.front[1] == score_total("5H 5C 5S JD", "KD") == 21  # 14 + 6 + nobs
        assert s.journal()[-1]["cards"] == parse_cards("5H 5C 5S JD")
    finally:
        s.close()


def test_too_few_cards_are_refused_and_the_keying_goes_on():
    s = Scenario(advice=True)
    try:
        s.keys("A OK")
        _advice_mode(s)
        s.cards("5H 5C 5S JD 4C")
        s.press("OK")
        # Before: "six deals 6 cards, not 5" (the game form's name in the code), and the bottom line
        # said "Starter? OK=skip" while the advice's keying went on.
        assert "key the 6 cards, not 5" in s.said() and "six" not in s.said()
        assert s.screen().splitlines()[-1] == "MENU=who OK=rank"
        s.wait(10100)
        assert (
            "Advice: P1" in s.screen() and "dealer: own crib" in s.screen() and "5H 5C 5S JD 4C" in s.said()
        )
        s.cards("6D")
        s.press("OK")
        assert "MENU=more 1/15" in s.said()
        assert s.app.match.front == [0, 0]
    finally:
        s.close()


def test_three_handed_advice_throws_one_card():
    s = Scenario(form="three", advice=True)
    try:
        s.keys("A OK")
        _advice_mode(s)
        s.cards("5H 5C 5S JD 4C")
        s.press("OK")
        (thrown, kept, _h, _c, net), count = _expected("5H 5C 5S JD 4C", "three", True, 0)
        assert count == 5
        rows = s.screen().splitlines()
        # three sides leave three rows: the head and one discard a page (the kept four are the rest)
        assert rows[3] == "MENU=more 1/5" and rows[4] == "P1 hand+crib=net"
        assert rows[5] == "1 throw " + format_cards(thrown) and rows[6].endswith("=" + hundredths_text(net))
        s.press("MENU")
        (thrown, kept, _h, _c, net), count = _expected("5H 5C 5S JD 4C", "three", True, 1)
        assert "MENU=more 2/5" in s.screen() and "2 throw " + format_cards(thrown) in s.screen()
    finally:
        s.close()


def test_without_the_setting_held_menu_opens_the_menu_and_no_advice_is_loaded():
    s = Scenario()
    try:
        assert s.app.controller.advising is None
        s.keys("A OK")
        _advice_mode(s)
        assert "1/%d UNDO=leave" % len(MENU) in s.screen()
    finally:
        s.close()


def test_the_advice_s_head_keeps_its_words_with_a_name():
    # Before: "Bob hand+crib=ne" (cut at the display's 16 columns).
    s = Scenario(advice=True)
    try:
        s.app.book.apply({"t": "name", "s": 0, "name": "Bob"})
        s.app.book.apply({"t": "name", "s": 1, "name": "Christopher"})
        s.keys("A OK")  # Bob deals
        _advice_mode(s)
        s.cards("5H 5C 5S JD 4C 6D")
        s.press("OK")
        assert s.screen().splitlines()[3] == "Bob hand+crib"
        s.press("UNDO")
        _advice_mode(s)
        s.press("MENU")  # Christopher's cards, the pone's
        s.cards("5H 5C 5S JD 4C 6D")
        s.press("OK")
        assert s.screen().splitlines()[3] == "Christ hand-crib"
        assert all(len(row) <= 16 for row in s.screen().splitlines())
    finally:
        s.close()
