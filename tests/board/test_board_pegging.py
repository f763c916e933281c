# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Scenarios: a whole game pegged by taps, undo of a proposal and of a committed score, auto-OK.
from board_fixture import reference
from scenario import Scenario

from board.render import anims


def _deal_by_taps(s, hands, crib):
    """One deal pegged on the holes: hands[side] each, then the crib; 0 keys a zero hand."""
    m = s.app.match
    s.press("OK")  # no starter keyed: the play on the holes
    s.press("OK")  # on to the show
    for _ in range(3):
        if m.game_over:
            return
        side, kind = m.next_show()
        pts = crib if kind == "crib" else hands[side]
        if pts:
            s.tap(side, min(m.front[side] + pts, 121))
        else:
            s.press("OK")  # a zero hand: OK proposes 0, OK again confirms
        s.press("OK")
    if not m.game_over:
        assert "OK = next deal" in s.screen()
        s.press("OK")


def test_whole_game_pegged_by_taps():
    s = Scenario()
    b = reference()
    try:
        s.keys("A OK")  # player 1 deals
        m = s.app.match
        assert m.dealer_side == 0
        deals = 0
        while not m.game_over:
            _deal_by_taps(s, (8, 14), 4)
            deals += 1
        assert m.winner == 1 and m.front == [80, 121]
        assert deals == 8
        assert "OK = next game" in s.screen()
        # the winner's colour in the game hole once the animation is over
        s.wait(anims.duration(anims.SKUNK) + 100)
        assert s.rgb(b.led_game) != (0, 0, 0)
        assert s.rgb(b.led_track[1][m.back[1] - 1]) != (0, 0, 0)
        # every score went to flash, one peg an event, in order
        pegs = [e for e in s.journal() if e["t"] == "peg"]
        assert sum(e["n"] for e in pegs if e["s"] == 1) == 121
        assert m.skunk[0] == "skunk" and m.match_points == [0, 3]  # ACC: a skunk is 3
        # a tap after the game is over is not a score, and the board says so (it was silent)
        s.tap(0, 110)
        assert s.app.controller.pending is None
        assert "Game is over:" in s.said() and "OK = next game" in s.said()
    finally:
        s.close()


def test_skunk_counts_and_animates():
    s = Scenario()
    try:
        s.keys("A OK")
        m = s.app.match
        while not m.game_over:
            _deal_by_taps(s, (2, 24), 0)
        assert m.skunk[0] == "double"
        assert m.match_points == [0, 3]
        assert s.app.render.view[15] in (anims.SKUNK, 0)
    finally:
        s.close()


def test_tap_proposes_blinks_and_ok_confirms():
    s = Scenario()
    b = reference()
    try:
        s.keys("A OK")
        s.tap(1, 6)
        led = b.led_track[1][5]
        assert "P2 +6" in s.screen()
        seen = set()
        for _ in range(8):
            s.wait(60)
            seen.add(s.rgb(led) != (0, 0, 0))
        assert seen == {True, False}  # it blinks
        assert s.app.match.front[1] == 0  # nothing pegged until OK
        s.press("OK")
        assert s.app.match.front[1] == 6
        assert s.rgb(led) != (0, 0, 0)
    finally:
        s.close()


def test_undo_a_proposal_then_a_committed_score():
    s = Scenario()
    try:
        s.keys("A OK")
        m = s.app.match
        s.tap(1, 5)
        s.press("UNDO")  # cancels the proposal: nothing pegged, nothing journaled
        assert m.front[1] == 0 and s.app.controller.pending is None
        n = len(s.journal())
        s.peg(1, 5)
        s.peg(1, 3)
        assert (m.front[1], m.back[1]) == (8, 5)
        s.press("UNDO")
        assert "Undo P2 +3?" in s.screen()
        s.press("OK")
        assert (m.front[1], m.back[1]) == (5, 0)
        j = s.journal()
        assert [e["t"] for e in j[n:]] == ["peg", "peg", "undo"]  # undo appends, never erases
    finally:
        s.close()


def test_second_tap_moves_the_proposal_and_other_side_confirms_it():
    s = Scenario()
    try:
        s.keys("A OK")
        m = s.app.match
        s.tap(1, 5)
        s.tap(1, 7)  # changed their mind: one proposal, now 7
        assert s.app.controller.pending.ev["n"] == 7
        s.tap(0, 4)  # the other side pegs: the first score stands
        assert m.front[1] == 7
        s.press("OK")
        assert m.front[0] == 4
    finally:
        s.close()


def test_tap_behind_front_peg_is_a_resting_peg_not_a_score():
    s = Scenario()
    try:
        s.keys("A OK")
        s.peg(1, 10)
        s.tap(1, 4)
        assert s.app.controller.pending is None
    finally:
        s.close()


def test_auto_ok_setting_confirms_after_timeout():
    s = Scenario(auto_ok_ms=2000)
    try:
        s.keys("A OK")
        s.tap(1, 9)
        s.wait(1500)
        assert s.app.match.front[1] == 0
        s.wait(600)
        assert s.app.match.front[1] == 9
    finally:
        s.close()


def test_keyed_points_peg_without_sensors():
    s = Scenario()
    try:
        s.keys("A OK")
        s.keys("OK OK")  # no starter, the play on the holes, then to the show: P2's hand is next
        s.keys("A 2")  # 1 then 2: twelve points
        assert "+12 P2" in s.screen()
        s.press("OK")  # proposal, blinking at hole 12
        assert s.app.controller.pending.hole == 12
        s.press("OK")
        assert s.app.match.front[1] == 12
    finally:
        s.close()


def test_stink_hole_winks_and_never_blocks_input():
    s = Scenario()
    try:
        s.keys("A OK OK OK")  # no starter, the play on the holes, then to the show
        s.peg(1, 24)  # P2's hand
        s.keys("OK OK OK OK")  # P1's hand and crib: nineteen each
        assert s.app.match.phase() == "deal"  # from here a peg is a manual one (29 at most)
        for _ in range(3):
            s.peg(1, 29)
        s.peg(1, 9)
        assert s.app.match.front[1] == 120
        assert s.app.render.view[15] == anims.STINK
        s.tap(0, 5)  # input goes on while it plays
        s.press("OK")
        assert s.app.match.front[0] == 5
    finally:
        s.close()


def _show_turn(s):
    s.keys("A OK")  # player 1 deals
    s.press("OK")  # no starter keyed: the play on the holes
    s.press("OK")  # on to the show
    assert s.app.match.next_show() == (1, "hand")


def test_keyed_points_only_what_a_hand_can_make():
    # Keyed 19 was proposed (`P2 +19 hand`, the hole blinking) and refused only after OK.
    s = Scenario()
    try:
        _show_turn(s)
        for keyed, n in (("A 9", 19), ("2 5", 25), ("2 6", 26), ("2 7", 27)):
            s.keys(keyed + " OK")
            assert s.app.controller.pending is None, n
            assert "no hand counts %d" % n in s.said()
        s.keys("2 8 OK")
        assert s.app.controller.pending.ev == {"t": "peg", "s": 1, "n": 28, "why": "hand"}
        s.press("UNDO")
        s.keys("2 9 OK")
        assert s.app.controller.pending.ev["n"] == 29
        s.press("OK")
        assert s.app.match.front == [0, 29]
    finally:
        s.close()


def test_a_tap_a_hand_cannot_make_is_refused_at_once_and_drops_the_old_proposal():
    s = Scenario()
    try:
        _show_turn(s)
        s.tap(1, 18)
        assert s.app.controller.pending.ev["n"] == 18
        s.tap(1, 19)  # moved on to 19: no hand counts it
        assert s.app.controller.pending is None and "no hand counts 19" in s.said()
        s.tap(1, 20)
        s.press("OK")
        assert s.app.match.front == [0, 20]
    finally:
        s.close()


def test_keyed_points_five_card_hand_and_crib():
    s = Scenario(form="five")
    try:
        s.keys("A OK")
        s.keys("OK OK")  # the play on the holes, then the show
        m = s.app.match
        side, kind = m.next_show()
        assert kind == "hand"
        s.keys("A 7 OK")  # three cards and a starter never make 17
        assert s.app.controller.pending is None and "no hand counts 17" in s.said()
        s.keys("2 A OK")
        assert s.app.controller.pending is None and "21" in s.said()
        s.keys("2 T OK")
        s.press("OK")
        s.keys("2 OK")  # the dealer's hand
        s.press("OK")
        assert m.next_show()[1] == "crib"
        s.keys("A 7 OK")  # a crib of four and the starter can
        assert s.app.controller.pending.ev["n"] == 17 and s.app.controller.pending.ev["why"] == "crib"
    finally:
        s.close()


def test_the_play_pegged_on_the_holes_is_play_and_keeps_the_show_order():
    # Issue 11: with no cards keyed, OK=skip at "Starter?" went straight on to the show: a tap in the
    # play proposed "P2 +2 hand", used up P2's show turn, and the next tap was "P1 +1 hand".
    s = Scenario()
    try:
        s.keys("A OK")
        s.keys("OK")  # no starter keyed: the play is pegged on the holes
        assert "Peg play OK=show" in s.screen()
        s.tap(1, 2)
        assert s.app.controller.pending.ev == {"t": "peg", "s": 1, "n": 2, "why": "play"}
        s.press("OK")
        s.tap(0, 1)
        assert s.app.controller.pending.ev == {"t": "peg", "s": 0, "n": 1, "why": "play"}
        s.press("OK")
        m = s.app.match
        assert m.front == [1, 2] and m.next_show() == (1, "hand")  # the show order untouched
        assert [e["why"] for e in s.journal() if e["t"] == "peg"] == ["play", "play"]
        s.keys("OK")  # on to the show
        assert "P2 hand: cards" in s.screen()
        s.tap(1, 10)
        assert s.app.controller.pending.ev == {"t": "peg", "s": 1, "n": 8, "why": "hand"}
        s.press("OK")
        s.tap(0, 5)
        assert s.app.controller.pending.ev == {"t": "peg", "s": 0, "n": 4, "why": "hand"}
    finally:
        s.close()


def test_keyed_play_points_go_to_the_leader_and_a_keyed_card_is_the_starter():
    s = Scenario()
    try:
        s.keys("A OK OK")  # P1 deals, no starter: the play on the holes
        s.keys("2 OK")  # a go or a pair: to the leader (P2), as play
        assert s.app.controller.pending.ev == {"t": "peg", "s": 1, "n": 2, "why": "play"}
        s.press("OK")
        s.cards("5S")  # a card keyed now is still the starter
        assert s.app.match.starter is not None and s.app.match.front == [0, 2]
    finally:
        s.close()


def test_a_skipped_starter_is_undone_alone():
    # Issue 11: UNDO after skipping the starter offered "Undo next deal?" (the event before the skip).
    s = Scenario()
    try:
        s.keys("A OK")
        n = len(s.journal())
        s.keys("OK")  # skip the starter
        s.press("UNDO")
        assert "Undo starter skipped?" in s.said()
        s.press("OK")
        assert "Starter? OK=skip" in s.screen() and len(s.journal()) == n  # no event undone
        assert s.screen().count("Starter? OK=skip") == 1, s.screen()  # a message said it over the prompt
        s.cards("5S")
        assert s.app.match.starter is not None
    finally:
        s.close()


def test_going_on_to_the_show_is_undone_alone_back_to_the_play_on_the_holes():
    s = Scenario()
    try:
        s.keys("A OK OK")  # the play on the holes
        s.peg(1, 2)
        n = len(s.journal())
        s.keys("OK")  # on to the show
        s.press("UNDO")
        assert "Undo on to the show?" in s.said()
        s.press("OK")
        assert "Peg play OK=show" in s.screen() and len(s.journal()) == n
        s.press("UNDO")  # now the peg itself
        assert "Undo P2 +2?" in s.said()
    finally:
        s.close()


def test_a_peg_in_the_track_no_side_uses_is_said_not_silently_ignored():
    # Two sides on a three-track board: a peg in the dark track (green) did nothing without a word.
    s = Scenario()
    try:
        s.keys("A OK OK")  # the play on the holes
        bit = s.board.sensor_track[2][4]  # green 5
        s._bit(bit, True)
        s.wait(80)
        s._bit(bit, False)
        s.wait(60)
        assert s.app.controller.pending is None and s.app.match.front == [0, 0]
        assert "No side pegs on that track" in s.said()
    finally:
        s.close()
