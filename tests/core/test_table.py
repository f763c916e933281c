# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# A match at a remote table: the cards come from outside (the table), checked against what the board knows.
from game_kit import state
from tableplay import Table, play, player_move, setup, table_moves

from check import message, raises
from cribbage import events, solo
from cribbage.errors import CribError
from cribbage.events import from_line, to_line
from cribbage.game import Match, replay
from cribbage.show import score_show


def _at(seed, stop, first_dealer=0):
    m = Match(setup())
    t = Table(seed, first_dealer)
    play(m, t, stop=stop)
    return m, t


def _refused(m, ev, words):
    before = (state(m), m.count, [to_line(e) for e in m.effective_events()])
    e = raises(CribError, m.apply, ev)
    assert words in message(e), (message(e), words)
    assert (state(m), m.count, [to_line(e) for e in m.effective_events()]) == before
    return message(e)


def test_a_table_game_played_to_its_end_from_cards_told_by_the_table():
    m = Match(setup())
    t = Table(11, first_dealer=1)
    done = play(m, t)
    assert m.match_over and m.front[m.winner] == 121
    assert done[0] == {"t": "dealer", "p": 1}
    # Every show is counted by the board from the cards it was told, with the deal's starter.
    starter = None
    shows = 0
    for ev in done:
        if ev["t"] == "starter":
            starter = ev["c"]
        elif ev["t"] == "show":
            shows += 1
            assert ev["n"] == score_show(ev["cards"], starter, ev["k"] == "crib", False).total
    assert shows >= 3 * (m.deal_no - 1)
    # The journal's lines give the same match: the board's boot replay, and a laptop's full check.
    lines = [to_line(m.setup)] + [to_line(ev) for ev in done]
    for trusted in (True, False):
        again = replay([from_line(line) for line in lines], trusted)
        assert state(again) == state(m) and again.match_over


def test_the_other_seats_cards_are_known_only_once_laid_or_told_at_the_show():
    m, t = _at(23, lambda m: m.phase() == "show")
    d = solo.dealt(m)
    assert list(d[0][0]) == t.deal(m)[0] and d[0][1] == b""  # the other seat's six: not yet told
    assert len(solo.held(m, 1)) == 0 and solo.crib(m) == [t.deal(m)[0][k] for k in (0, 1)]
    # The board counts what it knows (the pone's hand when it is the player's), then waits for the table.
    while solo.next_move(m) is not None:
        m.apply(solo.next_move(m))
    side, kind = m.next_show()
    assert side == 1 or kind == "crib"
    m.apply({"t": "hand", "p": 1, "cards": t.other_six(m)})
    assert solo.thrown(m)[1] == [4, 5] and sorted(solo.crib(m)) == sorted(t.deal(m)[0][:2] + t.deal(m)[1][4:])
    while solo.next_move(m) is not None:
        m.apply(solo.next_move(m))
    assert m.phase() == "deal"


def test_the_table_and_the_keys_are_refused_what_the_deal_does_not_allow():
    m = Match(setup())
    t = Table(5)
    _refused(m, {"t": "hand", "p": 0, "cards": t.deal(m, 1, 0)[0]}, "cut for the first deal first")
    m.apply(events.dealer(0))
    six, other, starter = t.deal(m)
    _refused(m, solo.throw(0, [0, 1]), "the table deals first")
    _refused(m, events.starter(starter), "the table deals first")
    _refused(m, {"t": "hand", "p": 0, "cards": six[:5]}, "a hand is six cards")
    _refused(m, {"t": "hand", "p": 0, "cards": six[:5] + [six[0]]}, "twice: one pack")
    _refused(m, {"t": "hand", "p": 0, "cards": six[:5] + [52]}, "a card is 0..51")
    _refused(m, {"t": "hand", "p": 1, "cards": other}, "told at the show")
    _refused(m, {"t": "hand", "p": 0, "cards": six, "x": 1}, "takes no 'x'")
    m.apply({"t": "hand", "p": 0, "cards": six})
    _refused(m, {"t": "hand", "p": 0, "cards": six}, "hand is in already")
    _refused(m, solo.throw(1, [0, 1]), "throws at the table")
    _refused(m, events.starter(starter), "the crib first")
    m.apply(solo.throw(0, [0, 1]))
    _refused(m, events.starter(six[3]), "not this deal's starter")
    m.apply(events.starter(starter))
    _refused(m, {"t": "hand", "p": 0, "cards": six}, "hand is in already")
    # The play: the pone (player 1, the dealer is 0) leads.
    assert m.play_seats[m.play.turn] == 1
    _refused(m, events.lay(1, six[2]), "is not in Bob's hand")  # the player's card
    _refused(m, events.lay(1, starter), "the starter")
    _refused(m, events.lay(0, six[2]), "not")  # not the player's turn
    m.apply(events.lay(1, other[0]))
    _refused(m, events.lay(0, six[0]), "is not in Ann's hand")  # thrown to the crib
    _refused(m, events.lay(0, other[1]), "is not in Ann's hand")
    _refused(m, events.go(0), "go")
    # Nothing of this is a laptop's to check (a proposal): the same words whatever the cards.
    for ev in ({"t": "hand", "p": 1, "cards": other}, events.lay(0, six[2]), events.lay(1, other[1])):
        assert message(raises(CribError, m.check, ev)) == "against the board: played on the board"


def test_the_other_seats_six_at_the_show_must_hold_what_it_laid():
    m, t = _at(23, lambda m: m.phase() == "show")
    while solo.next_move(m) is not None:
        m.apply(solo.next_move(m))
    six = t.other_six(m)
    _refused(m, {"t": "hand", "p": 1, "cards": six[4:] + six[:4]}, "laid other cards")
    mine = t.deal(m)[0][0]
    _refused(m, {"t": "hand", "p": 1, "cards": six[:4] + [mine, six[5]]}, "is not Bob's card")
    _refused(m, {"t": "hand", "p": 1, "cards": six[:4] + [m.starter, six[5]]}, "is not Bob's card")
    _refused(m, solo.throw(1, [4, 5]), "the crib is thrown before the starter")


def test_a_table_set_up_is_the_six_card_game_and_a_tag():
    e = raises(CribError, events.setup, form="five", solo=["table", 1, 0])
    assert "the six-card game" in message(e)
    raises(CribError, events.setup, solo=["table", 1, 5])
    raises(CribError, events.setup, solo=["table", -1, 0])
    assert setup(tag=99)["solo"] == ["table", 99, 0]
    m = Match(setup())
    assert solo.game_seed(m) is None and solo.next_move(m) is None and player_move(m) is None
    assert table_moves(Table(1), m) == [events.dealer(0)]
    raises(CribError, m.apply, events.undo())
