# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Scenarios: the play assistant (a go and a 31), bad card entries refused with nothing pegged.
from scenario import Scenario


def _to_the_play(s):
    s.keys("A OK")  # player 1 deals, player 2 leads
    s.cards("2C")  # the starter: pegs nothing (not a jack)
    assert s.app.match.phase() == "play"


def test_play_with_a_go_and_a_31():
    s = Scenario()
    try:
        _to_the_play(s)
        m = s.app.match
        assert "P2 lays MENU=go" in s.screen()
        s.cards("TH KS 9D")
        assert "count 29" in s.screen()
        assert "P1 lays" in s.screen()
        s.press("MENU")  # P1 cannot lay under 31: go
        assert "P1 go" in s.screen()
        s.cards("2H")  # P2 makes 31: 2 in all
        assert "P2 2H +2" in s.screen() and "thirty-one" in s.screen() and "new count" in s.screen()
        assert m.front == [0, 2]
        s.cards("5S 3C KC 4D")  # count restarts with P1; P1 lays the last card: 1 for last
        assert m.front == [1, 2]
        assert m.phase() == "show"
        assert "play over" in s.screen()
        j = s.journal()
        assert [e["t"] for e in j[3:]] == ["lay", "lay", "lay", "go", "lay", "lay", "lay", "lay", "lay"]
    finally:
        s.close()


def test_lay_out_of_turn_or_over_31_is_refused_and_pegs_nothing():
    s = Scenario()
    try:
        _to_the_play(s)
        s.cards("KH TH KD")  # 30: no pair, no run
        s.cards("5D")
        assert "over 31" in s.said()
        assert s.app.match.play.count == 30
        assert s.app.match.front == [0, 0]
    finally:
        s.close()


def test_same_card_twice_refused_on_the_display():
    s = Scenario()
    try:
        _to_the_play(s)
        s.keys("OK")  # skip the play: on to the show
        n = len(s.journal())
        s.cards("5H 5H")
        assert "5H twice" in s.said()
        assert s.app.controller.entry.cards == [4 * 4 + 1]
        assert s.app.match.front == [0, 0] and len(s.journal()) == n
    finally:
        s.close()


def test_six_cards_refused_on_the_display():
    s = Scenario()
    try:
        _to_the_play(s)
        s.keys("OK")
        n = len(s.journal())
        s.cards("5H 5S 5C JD 6D")
        assert "4 cards a hand: 6D not taken" in s.said()  # as it is keyed, not at OK
        s.cards("7D")
        assert "4 cards a hand: 7D not taken" in s.said()
        assert s.app.match.front == [0, 0] and len(s.journal()) == n
        assert s.app.controller.entry.cards == [4 * 4 + 1, 4 * 4 + 0, 4 * 4 + 3, 10 * 4 + 2]
    finally:
        s.close()


def test_no_starter_refused_on_the_display():
    s = Scenario()
    try:
        s.keys("A OK")
        s.keys("OK OK")  # the starter skipped (the play on the holes), then on to the show
        n = len(s.journal())
        s.cards("5H 5S 5C JD")
        s.press("OK")
        assert "starter" in s.said()
        assert s.app.match.front == [0, 0] and len(s.journal()) == n
    finally:
        s.close()


def test_suit_first_and_half_cards_are_explained():
    s = Scenario()
    try:
        s.keys("A OK")
        s.press("H")
        assert "rank" in s.screen()
        s.press("7")
        assert "7?" in s.screen()
        s.press("UNDO")  # takes the half card back
        assert not s.app.controller.entry.active()
    finally:
        s.close()


def test_cut_for_first_deal_by_cards():
    s = Scenario()
    try:
        s.cards("9C 9H")
        s.press("OK")
        assert "tie" in s.screen().lower()
        s.cards("KD 3S")
        s.press("OK")
        assert s.app.match.dealer == 1  # the lower card deals
    finally:
        s.close()


def test_jack_starter_pegs_his_heels_for_the_dealer():
    s = Scenario()
    try:
        s.keys("A OK")
        s.cards("JC")
        assert s.app.match.front == [2, 0]
        assert "His heels: P1 +2" in s.said()
    finally:
        s.close()


def test_a_go_names_who_scores_it():
    # P2 says go at 23 with P1 out of cards: the point is P1's (the last to lay), but the display
    # said "P2 go +1" while P1's peg moved.
    s = Scenario()
    try:
        s.keys("2 OK")  # player 2 deals, P1 leads
        s.cards("2C")
        m = s.app.match
        s.cards("KH KS AD TC")  # P2: pair (+2) and 31 (+2)
        s.cards("QH 4C 9S")  # P1 lays the last of four cards: 23
        assert m.front == [0, 4]
        s.press("MENU")  # P2 holds 9C: go
        assert m.front == [1, 4]
        assert "P2 go +1" not in s.said()
        assert "P2 go" in s.said() and "P1 +1" in s.said()
    finally:
        s.close()


def test_a_go_names_who_scores_it_three_handed():
    s = Scenario(form="three")
    try:
        s.keys("3 OK")  # P3 deals, P1 leads
        s.cards("2C")
        m = s.app.match
        s.cards("KH KS AD TC")  # P2 a pair (+2), P1 31 (+2)
        s.cards("QH AC 9S 2H")  # 22
        s.press("MENU")  # P3: go
        s.cards("AH")  # P1 lays the last of four cards: 23
        assert m.front == [2, 2, 0]
        s.press("MENU")  # P2: go; nobody else can lay: the point is P1's
        assert m.front == [3, 2, 0]
        assert "P2 go +1" not in s.said()
        assert "P2 go" in s.said() and "P1 +1" in s.said()
    finally:
        s.close()


def test_the_play_s_points_say_why():
    # Before: "P1 4S +2" and nothing else: a player saw the points, never the fifteen or the pair.
    s = Scenario()
    try:
        _to_the_play(s)  # P1 deals, the starter 2C; P2 leads
        said = []
        for card in "4H 4S 4D 3C 9H 7S KH 8D".split():
            s.card(card)
            said.append(s.screen().splitlines()[3:7])
        assert said[1][:2] == ["P1 4S +2", "pair"]
        assert said[2][:2] == ["P2 4D +6", "pair royal"]
        assert said[3][:3] == ["P1 3C +2", "fifteen", "count 15"]
        assert said[4][:2] == ["P2 9H", "count 24"]  # no points: no words
        assert said[5][:3] == ["P1 7S +2", "thirty-one", "new count"]
        assert said[7][:3] == ["P1 8D +1", "last card", "play over"]
        assert s.app.match.front == [7, 6]
    finally:
        s.close()


def test_a_run_and_a_go_say_why_and_two_reasons_share_a_row():
    s = Scenario()
    try:
        _to_the_play(s)
        s.cards("2H 3S 4D")
        assert s.screen().splitlines()[3:5] == ["P2 4D +3", "run of 3"]
        s.cards("KS QH")  # 29
        s.press("MENU")  # P1 cannot lay under 31: go
        s.cards("AH")  # P2's last card, P1 has said go: 1 for the go
        assert s.screen().splitlines()[3:6] == ["P2 AH +1", "go", "new count"]
        s.cards("5C")  # P1 lays on alone
        assert s.screen().splitlines()[3:5] == ["P1 5C", "count 5"]
        s.cards("5S")  # a pair, and P1's last card
        assert s.screen().splitlines()[3:6] == ["P1 5S +3", "pair, last card", "play over"]
        assert s.app.match.front == [3, 4]
    finally:
        s.close()


def _marked(s):
    """The score rows marked as the side to move ("> " before the points)."""
    rows = s.screen().splitlines()[: s.app.match.sides]
    return [r[1:10].strip() for r in rows if "> " in r]


def test_the_side_to_move_is_marked_on_its_score_row_in_the_play_and_the_show():
    s = Scenario()
    try:
        s.keys("A OK")  # the cut: player 1 deals
        assert _marked(s) == []  # no one moves before the starter
        s.cards("2C")
        assert _marked(s) == ["P2"]  # the pone leads
        assert s.screen().splitlines()[1] == " P2          > 0"
        s.cards("TH")
        assert _marked(s) == ["P1"]
        s.cards("KS 9D")
        s.press("MENU")  # P1's go
        assert _marked(s) == ["P2"]
        s.cards("2H 5S 3C KC 4D")
        assert s.app.match.phase() == "show"
        assert _marked(s) == ["P2"]  # the pone's hand counts first
        s.press("OK")  # P2's laid cards scored and pegged
        assert _marked(s) == ["P1"]  # then the dealer's hand
        s.press("OK")
        assert _marked(s) == ["P1"]  # and the dealer's crib
    finally:
        s.close()
