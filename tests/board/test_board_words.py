# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# How the board words an event (board/display.py): the undo prompt and a laptop's proposal say what
# the change does, never only what the laptop wrote (issue 9, item 6).
from board import display
from cribbage import events
from cribbage.game import Match


def _match():
    m = Match(events.setup())
    m.apply(events.dealer(0))
    m.apply(events.fix(1, 26))
    return m


def test_a_proposal_says_what_ok_would_do():
    m = _match()
    assert display.ask(m, {"t": "fix", "s": 1, "n": 29}) == "P2 +29 to 55?"
    assert display.ask(m, {"t": "fix", "s": 1, "n": -6}) == "P2 -6 to 20?"
    assert display.ask(m, {"t": "peg", "s": 0, "n": 2, "why": "manual"}) == "P1 +2 to 2?"
    assert display.ask(m, {"t": "peg", "s": 1, "n": 95, "why": "manual"}) == "P2 +95 game?"
    assert display.ask(m, {"t": "show", "s": 0, "k": "hand", "cards": [], "n": 12}) == "P1 hand 12?"
    assert display.ask(m, {"t": "muggins", "s": 1, "n": 4}) == "P2 muggins 4?"
    assert display.ask(m, {"t": "go", "p": 1}) == "P2 go?"
    assert display.ask(m, {"t": "dealer", "p": 0}) == "dealer P1?"
    assert display.ask(m, {"t": "deal"}) == "next deal?"
    assert display.ask(m, {"t": "end"}) == "end match?"
