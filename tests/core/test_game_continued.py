# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Three-handed continued play is the fold of its journal at every step: restart, undo, check.
# Pins down the bug where a player who went out during the play (the first one out) moved the
# leader of the rebuilt play: after a power cut, an undo that refolded the deal, or any check(),
# the next card was refused with "not seat 1's turn: seat 2 to play".
from game_kit import bring, new_match, state

from check import message, raises
from cribbage import events as E
from cribbage.cards import pip
from cribbage.errors import CribError
from cribbage.game import replay


def _deck(seed):
    # The same shuffle on both interpreters (a small LCG, not `random`, whose streams differ).
    deck = list(range(52))
    x = seed * 7919 + 17
    for i in range(51, 0, -1):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _deal(m, seed):
    """Hands of four for the players in the play and a starter (no jack: no heels)."""
    deck = [c for c in _deck(seed) if c >> 2 != 10]
    hands = {}
    for p in m.active:
        hands[p] = deck[:4]
        deck = deck[4:]
    return hands, deck[0]


def _next_play_event(m, hands):
    # The player to lay plays the first card of their hand that fits, or says go.
    p = m.play_seats[m.play.turn]
    for c in hands[p]:
        if m.play.count + pip(c) <= 31:
            return E.lay(p, c)
    return E.go(p)


def _step(m, ev, journal):
    """Apply ev after checking that check() agrees, that the journal replays to the live match
    (trusted, as after a power cut, and counted again), and that undo then redo is exact."""
    checked = m.check(ev)
    before = state(m)
    done = m.apply(ev)
    assert done == checked, (ev, checked, done)
    journal.append(E.to_line(done))
    after = state(m)
    for trusted in (True, False):
        again = replay([E.from_line(line) for line in journal], trusted)
        assert state(again) == after, (ev, trusted)
    m.apply(E.undo())
    assert state(m) == before, ev
    assert m.check(ev) == checked  # the refolded deal answers as the live one did
    m.apply(ev)
    assert state(m) == after, ev
    return done


def _play_deal(m, seed, journal):
    hands, starter = _deal(m, seed)
    _step(m, E.starter(starter), journal)
    while not m.game_over and m.play is not None and not m.play.over:
        ev = _next_play_event(m, hands)
        if ev["t"] == "lay":
            hands[ev["p"]].remove(ev["c"])
        _step(m, ev, journal)
    return hands


def _match_near_out(dealer, first_out, gap):
    m = new_match("three", fmt="points", to=9, three="cont", dealer=dealer)
    journal = [E.to_line(m.setup)] + [E.to_line(ev) for ev in m.effective_events()]
    for p in range(3):
        # Nobody double skunked: the other two play on for second place.
        score = 121 - gap if p == first_out else 100 + p
        while m.front[p] < score:
            _step(m, E.peg(p, min(29, score - m.front[p]), "manual"), journal)
    return m, journal


def test_a_player_out_during_the_play_every_seat_every_step():
    went_out_in_play = 0
    for dealer in range(3):
        for first_out in range(3):
            for seed in range(4):
                m, journal = _match_near_out(dealer, first_out, 1 + seed % 2)
                _play_deal(m, seed, journal)
                if m.out == [first_out] and m.active != [0, 1, 2]:
                    went_out_in_play += 1
                    assert first_out not in m.active and not m.game_over
    # The deals above put the first player out in the play in most of the 36 positions.
    assert went_out_in_play >= 18, went_out_in_play


def test_continued_play_deals_to_second_place_every_step():
    # The first player out mid-play, then two-handed deals until second place goes out.
    for first_out in range(3):
        m, journal = _match_near_out(0, first_out, 1)
        seed = first_out
        deals = 0
        while not m.game_over and deals < 12:
            hands = _play_deal(m, seed, journal)
            seed += 1
            while not m.game_over and m.next_show() is not None:
                side, kind = m.next_show()
                p = m.next_shower()
                if kind == "hand" and p in hands:
                    _step(m, E.peg(side, 8, "hand"), journal)
                else:
                    _step(m, E.peg(side, 4, kind), journal)
            if not m.game_over:
                _step(m, E.next_deal(), journal)
            deals += 1
        assert m.game_over and len(m.out) == 2 and m.out[0] == first_out


def test_the_rebuilt_play_keeps_its_leader_after_the_leader_goes_out():
    # Dealer 0; player 1 leads and pegs out on a double pair royal; 2 and 0 play on.
    m = new_match("three", fmt="points", to=9, three="cont", dealer=0)
    bring(m, 0, 100)
    bring(m, 2, 101)
    bring(m, 1, 118)
    m.apply(E.starter("2C"))
    for ev in (E.lay(1, "5H"), E.lay(2, "5C"), E.lay(0, "5S"), E.lay(1, "5D")):
        m.apply(ev)
    assert m.out == [1] and m.active == [0, 2] and m.play.count == 20
    again = replay([m.setup] + m.effective_events())
    assert again.play.turn == m.play.turn == 2  # player 2, after the last card laid
    assert again.check(E.lay(2, "AC"))["n"] == 0
    assert "not P1's turn" in message(raises(CribError, again.check, E.lay(0, "AC")))
