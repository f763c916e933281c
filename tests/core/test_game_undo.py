# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Undo of every kind of event, the winning peg included: the match returns exactly to before.
from game_kit import bring, finish_game, new_match, state

from check import message, raises
from cribbage import events as E
from cribbage.game import Match


def undo_restores(m, ev):
    """Apply ev, undo it, check nothing is left of it, then apply it again."""
    before = state(m)
    done = m.apply(ev)
    after = state(m)
    assert after != before or ev["t"] == "peg" and ev["n"] == 0, ev
    assert m.apply(E.undo()) == {"t": "undo"}
    assert m.undone == done
    assert state(m) == before, ev
    m.apply(ev)
    assert state(m) == after
    return done


def test_undo_cut_dealer_and_a_tied_cut():
    m = Match()
    undo_restores(m, E.cut(["5H", "5C"]))
    undo_restores(m, E.cut(["AH", "5C"]))
    m = Match(E.setup("five"))
    undo_restores(m, E.dealer(1))  # takes back three for last too
    assert m.front == [3, 0]


def test_undo_pegs_fixes_and_starter_with_heels():
    m = new_match(dealer=0)
    undo_restores(m, E.peg(1, 5, "play"))
    undo_restores(m, E.peg(1, 3, "penalty"))
    undo_restores(m, E.fix(1, -2))
    undo_restores(m, E.fix(0, 4))
    undo_restores(m, E.starter("JC"))
    assert m.front[0] == 6 and m.heels


def test_undo_each_card_of_the_play_and_a_go():
    m = new_match(dealer=0)
    m.apply(E.starter("9D"))
    for ev in (E.lay(1, "5H"), E.lay(0, "TH"), E.lay(1, "5S"), E.lay(0, "6S"), E.lay(1, "4S")):
        undo_restores(m, ev)
    assert m.play.count == 30 and m.front == [2, 3]  # fifteen, then a run of 3 (5-6-4)
    undo_restores(m, E.go(0))
    undo_restores(m, E.go(1))  # player 1 laid last: one for the go
    assert m.front == [2, 4] and m.play.count == 0


def test_undo_show_pegs_and_next_deal():
    m = new_match(dealer=1)
    undo_restores(m, E.peg(0, 0, "hand"))
    undo_restores(m, E.peg(1, 12, "hand"))
    undo_restores(m, E.peg(1, 4, "crib"))
    undo_restores(m, E.next_deal())
    assert m.dealer == 0 and m.deal_no == 2


def test_undo_the_winning_peg_reopens_the_game():
    m = new_match(fmt="points", to=3)
    finish_game(m, 0, 80)
    m.apply(E.next_game())
    bring(m, 1, 100)
    bring(m, 0, 120)
    before = state(m)
    m.apply(E.peg(0, 1, "go"))
    assert m.game_over and m.match_over and m.match_winner == 0 and m.match_points == [3, 0]
    m.apply(E.undo())
    assert state(m) == before
    assert not m.game_over and not m.match_over and m.match_points == [2, 0] and m.winner is None
    assert len(m.results) == 1 and m.skunk == ["", ""]
    m.apply(E.peg(1, 21, "manual"))  # the other side now wins instead
    assert m.winner == 1 and m.match_points == [2, 1]


def test_undo_next_game_and_end_match():
    m = new_match(fmt="points", to=7)
    finish_game(m, 1, 70)
    undo_restores(m, E.next_game())
    bring(m, 0, 20)
    undo_restores(m, E.end_match())


def test_undo_over_many_deals_and_games_back_to_the_start():
    m = new_match(fmt="points", to=9, dealer=0)
    states = {m.count: state(m)}

    def ap(ev):
        m.apply(ev)
        states[m.count] = state(m)

    for g in range(3):
        if g:
            ap(E.next_game())
        for _deal in range(6):
            ap(E.peg(1, 7, "play"))
            while m.next_show() is not None:
                side, kind = m.next_show()
                ap(E.peg(side, 4, kind))
            ap(E.next_deal())
        while not m.game_over:
            ap(E.peg(g % 2, 29, "manual"))
    assert len(m.results) == 3 and len(states) == m.count
    # The heap a match keeps for undo: checkpoints at the set-up, the cut and each next game, and at
    # this game's last 3 deals of its 6.
    assert len(m._cps) == 4 + 3, len(m._cps)
    while m.count > 1:
        m.apply(E.undo())
        assert state(m) == states[m.count], m.count
    assert m.front == [0, 0] and m.phase() == "starter" and m.dealer == 0
    m.apply(E.undo())
    assert m.phase() == "cut" and m.count == 0
    assert "nothing to undo" in message(raises(ValueError, m.apply, E.undo()))


def test_undo_keyed_shows_and_the_play_that_came_before():
    m = new_match(dealer=0, muggins=True)
    undo_restores(m, E.starter("JS"))
    for p, c in ((1, "4S"), (0, "5C"), (1, "6D"), (0, "5S"), (1, "KC")):
        undo_restores(m, E.lay(p, c))
    undo_restores(m, E.go(0))
    undo_restores(m, E.go(1))
    for p, c in ((0, "QH"), (1, "5H"), (0, "9H")):
        undo_restores(m, E.lay(p, c))
    done = undo_restores(m, E.hand(1, "4S 5H 6D KC", claim=7))
    assert done["n"] == 9 and m.muggins_due == (1, 2)
    undo_restores(m, E.muggins(0, 2))
    undo_restores(m, E.hand(0, "5C 5S QH 9H"))
    undo_restores(m, E.crib(0, "AH 2D 7C 8S"))
    assert m.front == [17, 15] and m.last_show[1] == "crib"
    # Back through the whole deal: every show and card taken back in turn.
    while m.count > 1:
        m.apply(E.undo())
    assert m.front == [0, 0] and m.starter is None and m.play is None and m.last_show is None
