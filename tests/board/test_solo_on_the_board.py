# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Against the board on the board: chosen in the menu, played on the keypad, the board's moves on its own.
import os
import sys

from scenario import Scenario

from board.controller.solo import KEY
from cribbage import events, solo
from cribbage.cards import format_card, pip
from cribbage.game import replay
from cribbage.show import score_show

PAUSE = 1000  # board/controller/solo.py _PAUSE_MS (900) and a little: the board has moved


def _new_match(s):
    s.hold("MENU", "UNDO")
    s.wait(1500)
    s.release("MENU", "UNDO")
    s.wait(100)
    s.press("OK")
    s.wait(100)


def _solo(level=1, **settings):
    s = Scenario(solo=level, **settings)
    _new_match(s)
    return s


def _power_cut(s):
    # A new app on the same flash; the seeds this interpreter knew are forgotten, as a board's are.
    solo._seeds.clear()
    s.reboot()


def _key(s, c):
    t = format_card(c)
    s.keys(t[0] + " " + t[1])


def _turn(s):
    """The player's move on the keys, or a wait while the board moves; False once the match is over
    and its seed told."""
    m = s.app.match
    if m.match_over and solo.told(m):
        return False
    if solo.due(m):
        if m.phase() == "show" and s.app.controller.message:
            s.press("OK")  # the count read: on to the next
        else:
            s.wait(PAUSE)
        return True
    phase = m.phase()
    if phase == "starter":
        hand = sorted(solo.held(m, 0))
        _key(s, hand[0])
        _key(s, hand[-1])
        s.press("OK")
    elif phase == "play":
        count = m.play.count
        fits = [c for c in solo.held(m, 0) if count + pip(c) <= 31]
        _key(s, fits[0])
    elif phase == "show":  # muggins on: the player claims one point less than the count
        side, kind = m.next_show()
        cards = solo.crib(m) if kind == "crib" else solo.kept(m, 0)
        n = score_show(cards, m.starter, kind == "crib", False).total
        if n > 1:
            s.keys(" ".join("A23456789T"[int(d) - 1 if d != "0" else 9] for d in str(n - 1)))
        s.press("OK")
    else:
        s.press("OK")  # the next deal, the next game
    return True


def test_a_match_against_the_board_is_chosen_in_the_menu_and_played_on_the_keys():
    # The beginner: the board's play is the same at every level, and the advice's tables (the expected
    # and top levels') would stay in this interpreter's heap for every test after (the mp runner).
    s = _solo(level=1, muggins=True, form="six61", fmt="games", games=1)
    try:
        m = s.app.match
        assert m.setup["solo"][0] == "beginner" and m.names == ["P1", "Board"] and m.target == 61
        turns = 0
        while _turn(s):
            turns += 1
            assert turns < 600
        assert m.match_over and m.front[m.winner] == 61
        # The journal on flash is the match: replayed, it gives the same pegs.
        journal = s.journal()
        setup = [i for i in range(len(journal)) if journal[i]["t"] == "setup"][-1]
        again = replay(journal[setup:])
        assert again.front == m.front and again.match_points == m.match_points
        kinds = [ev["t"] for ev in journal[setup:]]
        assert kinds.count("throw") == 2 * m.deal_no and kinds[-1] == "seed" and "muggins" in kinds
        assert s.app.match.front == m.front  # and on the LEDs: the pegs are the match's
    finally:
        s.close()


def test_the_board_shows_the_hand_and_takes_a_throw_of_two_of_its_cards():
    s = _solo()
    try:
        m = s.app.match
        s.wait(10 * PAUSE)  # the board cuts and throws; "new match: done" fades (any key clears it too)
        assert m.dealer is not None and solo.thrown(m)[1] and not solo.thrown(m)[0]
        hand = sorted(solo.held(m, 0))
        screen = s.screen()
        shown = " ".join([format_card(c) for c in hand[:3]])
        assert shown in screen and "key 2, OK=throw" in screen
        count = m.count
        # A card not in the hand is refused as it is keyed; OK before two cards says what to key.
        stranger = [c for c in range(52) if c not in hand][0]
        _key(s, stranger)
        assert "%s is not" % format_card(stranger) in s.screen() and "in your hand" in s.screen()
        _key(s, hand[0])
        s.press("OK")
        assert "Key 2 cards" in s.screen() and m.count == count
        s.press("UNDO")  # takes back the card keyed
        s.press("UNDO")
        assert "No undo against" in s.screen() and m.count == count
        _key(s, hand[1])
        _key(s, hand[2])
        s.press("OK")
        assert solo.thrown(m)[0] and sorted(solo.crib(m)[:0] + solo.kept(m, 0)) == hand[:1] + hand[3:]
        s.wait(PAUSE)
        assert m.starter is not None and m.phase() == "play"
    finally:
        s.close()


def test_a_power_cut_mid_deal_resumes_the_same_cards_and_the_board_plays_on():
    s = _solo(level=1)
    try:
        m = s.app.match
        while not (m.phase() == "play" and len(m.play.laid) >= 3):
            _turn(s)
        held = (solo.held(m, 0), solo.held(m, 1), solo.crib(m), m.starter, m.count)
        _power_cut(s)  # the journal replayed; the seed given back by the key beside it
        m = s.app.match
        s.wait(20)
        assert (solo.held(m, 0), solo.held(m, 1), solo.crib(m), m.starter, m.count) == held
        while m.deal_no == 1:
            _turn(s)
        assert m.phase() == "starter" and solo.thrown(m)[0] == []
    finally:
        s.close()


def test_a_board_that_lost_its_key_says_so_and_moves_nothing():
    s = _solo()
    try:
        s.wait(PAUSE)
        path = s.app.journal.path
        os.remove(path[: path.rfind("/") + 1] + KEY)
        _power_cut(s)
        m = s.app.match
        count = m.count
        s.wait(3 * PAUSE)
        assert "No solo key:" in s.screen() and m.count == count
    finally:
        s.close()


def test_an_ordinary_match_after_one_against_the_board():
    s = _solo()
    try:
        s.wait(2 * PAUSE)
        s.app.settings.set("solo", 0)
        _new_match(s)
        m = s.app.match
        assert "solo" not in m.setup and m.phase() == "cut"
        s.keys("4 H T D OK")  # the cut, keyed as ever
        assert m.dealer == 0
        s.wait(2 * PAUSE)
        assert m.count == 1
        assert events.to_line(m.setup).find("solo") < 0
    finally:
        s.close()


def test_the_board_counts_each_hand_and_waits_while_it_is_read():
    s = _solo()
    try:
        m = s.app.match
        while m.phase() != "show" or not m.shown:
            _turn(s)
        shown = m.shown
        assert s.app.controller.message and m.names[m.last_show[0]] in s.screen()  # the count shown
        s.wait(3 * PAUSE)
        assert m.shown == shown  # the next count waits for the player
        s.press("OK")
        s.wait(PAUSE)
        assert m.shown == shown + 1 and s.app.controller.message
    finally:
        s.close()


def test_a_boot_from_the_checkpoint_resumes_the_deal_against_the_board():
    s = _solo(level=1)
    try:
        m = s.app.match
        while not (m.deal_no >= 3 and m.phase() == "play" and len(m.play.laid) >= 2):
            _turn(s)
        s.wait(500)  # a calm pass writes the boot checkpoint (every 25 records)
        assert s.app.book.kept >= 25  # written on the way, at a calm pass
        held = (solo.held(m, 0), solo.held(m, 1), solo.crib(m), m.starter, m.count, list(m.front))
        _power_cut(s)
        m = s.app.match
        assert s.app.book.kept >= 25  # the boot replayed from its checkpoint, not the whole journal
        assert (solo.held(m, 0), solo.held(m, 1), solo.crib(m), m.starter, m.count, list(m.front)) == held
        while m.deal_no == 3:
            _turn(s)
        assert m.deal_no == 4 or m.game_over
    finally:
        s.close()


def test_a_form_the_board_does_not_play_is_refused_and_the_match_stays():
    s = Scenario(solo=1, form="three")
    try:
        before = s.app.match.setup
        _new_match(s)
        assert "against the" in s.screen() and "board: the" in s.screen()
        assert s.app.match.setup is before and "solo" not in s.app.match.setup
        assert s.app.controller.advising is None  # nothing of the solo game loaded into the controller
    finally:
        s.close()


class _NoRoom:
    """Stands for the opponent's module in sys.modules: its code runs out of heap."""

    def __getattr__(self, name):
        raise MemoryError


def test_a_board_with_no_room_for_its_opponent_says_so_and_changes_nothing():
    import cribbage

    was = sys.modules.get("cribbage.opponent")
    had = getattr(cribbage, "opponent", None)
    if had is not None:
        delattr(cribbage, "opponent")
    sys.modules["cribbage.opponent"] = _NoRoom()
    s = _solo()
    try:
        m = s.app.match
        s.wait(3 * PAUSE)  # the board cuts (no opponent needed), then cannot throw
        assert m.dealer is not None and not solo.thrown(m)[1]
        assert "Out of memory:" in s.screen() and "the board cannot" in s.screen()
        count = m.count
        s.wait(3 * PAUSE)
        assert m.count == count
        if was is not None:
            sys.modules["cribbage.opponent"] = was
        else:
            del sys.modules["cribbage.opponent"]
        s.wait(3 * PAUSE)  # room again: the board throws
        assert solo.thrown(m)[1]
    finally:
        if was is not None:
            sys.modules["cribbage.opponent"] = was
        elif "cribbage.opponent" in sys.modules and isinstance(sys.modules["cribbage.opponent"], _NoRoom):
            del sys.modules["cribbage.opponent"]
        if had is not None:
            cribbage.opponent = had
        s.close()


def _seeded_match(s, digits):
    s.hold("MENU", "UNDO")
    s.wait(1500)
    s.release("MENU", "UNDO")
    s.wait(100)
    assert "key a seed" in s.screen() or "new match, seed?" in s.screen()
    s.keys(digits)
    s.wait(100)


def _played(s):
    # The match played out with _turn's choices; -> its events after the set-up (the set-up's seal
    # differs: a fresh salt each match).
    turns = 0
    while _turn(s):
        turns += 1
        assert turns < 600
    journal = s.journal()
    setup = [i for i in range(len(journal)) if journal[i]["t"] == "setup"][-1]
    return journal[setup + 1 :]


def test_a_seed_keyed_at_the_new_match_deals_the_same_match_again():
    s = Scenario(solo=1, form="six61", fmt="games", games=1)
    try:
        _seeded_match(s, "K")  # a court card is no digit: said, and nothing keyed
        assert "(A=1..9, T=0)" in s.screen()
        s.keys("4 7 A A")
        assert "new match, seed 4711?" in " ".join(s.screen().split())
        s.press("OK")
        s.wait(100)
        m = s.app.match
        assert solo.match_seed(m) == 4711
        first = _played(s)
        assert "Match's seed:" in s.screen() and "4711" in s.screen()  # told once the match is over
        # Again from the same seed, with the same choices: the same deals, throws, lays and counts.
        _seeded_match(s, "4 7 A A")
        s.press("OK")
        s.wait(100)
        again = _played(s)
        assert again == first and [ev for ev in first if ev["t"] == "seed"]
        # The reset board choice drops the seed; a seed past 2**30 - 1 is refused as its digit comes.
        _seeded_match(s, "9 9 9 9 9 9 9 9 9")
        s.keys("9")
        assert "seed 999999999? (too big)" in " ".join(s.screen().split())
        s.press("UNDO")
        s.wait(100)
        assert s.journal()[-len(again) :] == again  # UNDO said no: nothing changed
    finally:
        s.close()


def test_the_new_match_question_keeps_unsynced_games_apart_from_the_seed():
    # Before: `new match? or` `key a seed 1` `game not synced:`: the count read as a seed keyed.
    s = _solo()
    try:
        while s.app.match.dealer is None:
            s.wait(50)
        _seeded_match(s, "")
        screen = s.screen().split("\n")
        assert "new match, seed?" in screen and "1 game not" in screen, screen
        s.keys("4 7")
        assert "new match, seed 47? 1 game not synced: OK to keep going" in " ".join(s.screen().split())
        s.press("UNDO")
    finally:
        s.close()


def test_a_card_keyed_for_the_throw_stays_while_the_board_throws():
    # Before: the board's throw, due about a second after the deal, was committed while the player
    # keyed theirs, and the commit cleared the cards keyed so far (`crib: 7D_`, then `Key 2 cards`).
    s = _solo()
    try:
        m = s.app.match
        while m.dealer is None:
            s.wait(50)
        assert not solo.thrown(m)[1]  # the board has not thrown yet
        hand = sorted(solo.held(m, 0))
        _key(s, hand[0])
        s.wait(3 * PAUSE)
        assert s.app.controller.entry.cards == [hand[0]]
        assert "crib: %s_" % format_card(hand[0]) in s.screen()
        _key(s, hand[1])
        s.press("OK")
        assert solo.thrown(m)[0] and sorted(solo.kept(m, 0)) == hand[2:]
        s.wait(PAUSE)
        assert solo.thrown(m)[1]  # the board throws after the player
        s.wait(PAUSE)  # the starter: the play, the player's hand in order
        if m.phase() == "play" and len(solo.held(m, 0)) == 4:
            assert "hand " + " ".join([format_card(c) for c in hand[2:]]) in s.screen(), s.screen()
    finally:
        s.close()


def test_the_last_card_of_the_play_is_shown_before_the_first_count():
    # Before: the play's last card (the board's or the player's) took the deal to the show, whose rows
    # were empty: its points went on the pegs, and the display never said which card or why.
    s = _solo()
    try:
        m = s.app.match
        while m.phase() != "show":
            if solo.due(m):
                s.wait(20)
            else:
                _turn(s)
        assert not m.shown
        last = [ev for ev in s.journal() if ev["t"] == "lay"][-1]
        screen = s.screen()
        assert "%s %s" % (m.names[last["p"]], format_card(last["c"])) in screen, screen
        assert "Board to move" in screen
    finally:
        s.close()


def test_while_a_count_is_read_the_prompt_says_ok_goes_on():
    # Before: the bottom line said `Board to move` while the board waited for the player's key.
    s = _solo()
    try:
        m = s.app.match
        while m.phase() != "show" or not m.shown:
            _turn(s)
        shown = m.shown
        s.wait(3 * PAUSE)
        assert m.shown == shown and "OK = next count" in s.screen() and "to move" not in s.screen()
        s.press("OK")
        assert "Board to move" in s.screen()
        s.wait(PAUSE)
        assert m.shown == shown + 1
    finally:
        s.close()


def test_ok_at_the_winning_count_waits_for_the_seed_which_stays_on_the_result():
    # Before: OK at the count that won (as after every count) went on to `New match?` before the board
    # told the game's seed: a second OK started the match without the seed in the journal (the laptop
    # cannot check the game), and the seed, told in a message any key clears, was not seen again.
    s = Scenario(solo=1, form="six61", fmt="games", games=1)
    try:
        _seeded_match(s, "4 7 A A")
        s.press("OK")
        s.wait(100)
        m = s.app.match
        while not m.match_over:
            _turn(s)
        s.press("OK")  # the winning count (or lay) read
        s.press("OK")
        assert m.match_over and s.app.controller.pending is None
        s.wait(PAUSE)
        assert s.journal()[-1]["t"] == "seed" and "Match's seed:" in s.screen()
        s.press("OK")  # the seed read: the result stays, with the match's seed
        s.press("UNDO")  # (OK offered a new match: UNDO said no)
        assert "wins match" in s.screen() and "seed 4711" in s.screen(), s.screen()
        assert "OK = new match" in s.screen()
    finally:
        s.close()


def test_against_the_board_the_players_cards_are_big():
    # Large print against the board: the six dealt three a row at 16 x 24 px for the throw (read at
    # arm's length), then in the play the hand held big under the count.
    # (here, not in test_board_large.py: a test there would load the solo code before
    # test_board_solo_lazy_mp.py checks that nothing has loaded it, in one pytest process)
    from test_board_large import _shown

    s = Scenario(large=True, solo=1)
    try:
        s.hold("MENU", "UNDO")
        s.wait(1500)
        s.release("MENU", "UNDO")
        s.wait(100)
        s.press("OK")
        s.wait(3000)  # the board cuts and throws
        m = s.app.match
        held = sorted(solo.held(m, 0))
        six = [" ".join(format_card(c) for c in held[:3]), " ".join(format_card(c) for c in held[3:])]
        assert [(w, t) for w, t in _shown(s) if w] == [(2, six[0]), (2, six[1])]
        assert _shown(s)[-2:] == [(0, "crib: _"), (0, "key 2, OK=throw")]
        for c in (held[0], held[-1]):
            t = format_card(c)
            s.keys(t[0] + " " + t[1])
        s.press("OK")
        for _ in range(10):  # the board's starter, and its lead when it is the pone
            if m.phase() == "play" and not solo.due(m):
                break
            s.wait(1000)
        hand = sorted(solo.held(m, 0))
        text = " ".join(format_card(c) for c in hand)
        assert (2 if len(hand) <= 3 else 1, text) in _shown(s)  # 3 cards 16 x 24 px, 4 cards 8 x 24
        c = [c for c in hand if m.play.count + pip(c) <= 31][0]
        t = format_card(c)
        s.keys(t[0] + " " + t[1])  # laid: the hand left is big
        s.wait(100)
        assert (2, " ".join(format_card(x) for x in sorted(solo.held(m, 0)))) in _shown(s)
    finally:
        s.close()
