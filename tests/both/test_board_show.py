# Scenarios: hands scored by card entry (a 29 hand itemised and pegged), the show in order, muggins.
from board_fixture import reference
from scenario import Scenario

from board import anims


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


def test_hand_keyed_in_the_play_scores_with_ok_alone():
    s = Scenario()
    try:
        s.keys("A OK")
        s.cards("2C")
        s.cards("TH KS 9D")
        s.press("MENU")
        s.cards("2H 5S 3C KC 4D")  # the whole play keyed, as in test_board_play
        assert s.app.match.phase() == "show"
        s.wait(10100)  # the play's last message fades
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
