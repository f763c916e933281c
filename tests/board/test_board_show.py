# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Scenarios: hands scored by card entry (a 29 hand itemised and pegged), the show in order, muggins.
from board_fixture import reference
from scenario import Scenario

from board.render import anims
from cribbage.cards import parse_cards


def test_29_hand_keyed_itemised_and_pegged():
    s = Scenario()
    b = reference()
    try:
        s.keys("A OK")  # player 1 deals; player 2's hand counts first
        s.cards("5D")  # the starter
        s.keys("OK")  # no play keyed: on to the show
        assert "P2 hand: cards" in s.screen()
        s.cards("5H 5S 5C JD")
        assert "5H 5S 5C JD" in s.screen() and "4 cards OK=score" in s.screen()
        s.press("OK")
        said = s.said()
        assert "P2 hand 29" in said
        assert "15s x8 16" in said and "pairs x6 12" in said and "nobs 1" in said  # itemised
        assert s.app.match.front[1] == 29
        assert s.app.render.view[15] == anims.H29  # the gold sparkle over the track
        s.wait(anims.duration(anims.H29) + 50)
        assert s.rgb(b.led_track[1][28]) != (0, 0, 0)  # the front peg in hole 29
        j = s.journal()
        assert j[-1]["t"] == "show" and j[-1]["n"] == 29 and j[-1]["cards"] == [17, 16, 19, 42]
        assert "P1 hand: cards" in s.screen()  # the show goes on in order
    finally:
        s.close()


def _played_whole(s):
    # P1 deals, the starter 2C, the play keyed card by card: P2 lays TH 9D 2H 3C, P1 KS 5S KC 4D.
    s.keys("A OK")
    s.cards("2C")
    s.cards("TH KS 9D")
    s.press("MENU")
    s.cards("2H 5S 3C KC 4D")
    assert s.app.match.phase() == "show"
    s.wait(10100)  # the play's last message fades


def test_hand_keyed_in_the_play_scores_with_ok_alone():
    s = Scenario()
    try:
        _played_whole(s)  # the whole play keyed, as in test_board_play
        assert "laid TH 9D 2H 3C" in s.screen()
        s.press("OK")  # P2's hand: the cards laid, with the starter 2C
        assert "P2 hand" in s.said()
        assert s.app.match.next_show() == (0, "hand")
    finally:
        s.close()


def test_muggins_claim_then_the_opponent_takes_what_was_missed():
    s = Scenario(muggins=True)
    try:
        s.hold("MENU", "UNDO")  # muggins applies at a new match
        s.wait(1000)
        s.release("MENU", "UNDO")
        s.wait(60)
        s.press("OK")
        assert s.app.match.muggins
        s.keys("A OK")
        s.cards("5D")
        s.keys("OK")
        s.cards("5H 5S 5C JD")
        s.press("OK")
        assert "Your count?" in s.screen()
        s.keys("2 3 OK")  # P2 claims 23 of 29
        assert s.app.match.front[1] == 23
        assert "P1: muggins 6?" in s.said()
        s.press("OK")
        assert s.app.match.front[0] == 6
        j = s.journal()
        assert j[-2]["claim"] == 23 and j[-1] == {"t": "muggins", "s": 0, "n": 6}
    finally:
        s.close()


def test_a_card_the_other_player_laid_is_refused_as_it_is_keyed():
    # Before: KS (laid by P1) went into P2's hand and was refused only at OK, in the core's words.
    s = Scenario()
    try:
        _played_whole(s)
        n = len(s.journal())
        s.cards("TH KS")
        assert "KS was laid by P1: not taken" in s.said()
        assert s.app.controller.entry.cards == parse_cards("TH")  # TH stays, KS is not taken
        s.cards("9D 2H 3C")
        s.press("OK")
        assert s.journal()[-1]["t"] == "show" and len(s.journal()) == n + 1
        assert s.app.match.next_show() == (0, "hand")
        s.wait(10100)
        s.cards("KS 5S TH")  # the dealer's hand: TH was P2's
        assert "TH was laid by P2: not taken" in s.said()
        assert s.app.controller.entry.cards == parse_cards("KS 5S")
    finally:
        s.close()


def test_a_card_laid_in_the_play_is_refused_in_the_crib_as_it_is_keyed():
    s = Scenario()
    try:
        _played_whole(s)
        s.peg(1, 4)  # the hands pegged on the holes, their cards not shown
        s.peg(0, 6)
        assert s.app.match.next_show() == (0, "crib")
        s.wait(10100)
        s.cards("AH 4D")
        assert "4D was laid by P1: not taken" in s.said()
        assert s.app.controller.entry.cards == parse_cards("AH")
    finally:
        s.close()


def test_a_fifth_card_is_refused_as_it_is_keyed():
    # Before: a fifth and a sixth card were taken without a word, refused only at OK
    # ("a hand is 4 cards without the starter, not 6").
    s = Scenario()
    try:
        s.keys("A OK")
        s.cards("5D")
        s.keys("OK")  # no play keyed: on to the show
        s.cards("5H 5S 5C JD 9H")
        assert "4 cards a hand: 9H not taken" in s.said()
        assert s.app.controller.entry.cards == parse_cards("5H 5S 5C JD")
        s.cards("6H")
        assert "4 cards a hand: 6H not taken" in s.said()
        s.press("OK")
        assert s.app.match.front[1] == 29
    finally:
        s.close()


def test_a_hand_laid_whole_in_the_play_is_one_key_under_the_last_count():
    # Before: under the first hand's count the prompt said "P1 hand: cards", as if the dealer's hand had
    # to be keyed; it was laid whole in the play, and OK alone scores it.
    s = Scenario()
    try:
        _played_whole(s)
        assert "P2 hand OK=score" in s.screen()
        s.press("OK")
        assert "P2 hand" in s.said() and "P1 hand OK=score" in s.screen()  # under P2's count
        s.press("OK")
        assert s.journal()[-1]["t"] == "show" and s.journal()[-1]["cards"] == parse_cards("KS 5S KC 4D")
        assert s.app.match.next_show() == (0, "crib") and "P1 crib: cards" in s.screen()
    finally:
        s.close()
