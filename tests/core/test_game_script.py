# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The scripted match (tests/support/match_script.py) in every form: whole matches played by simple players.
from match_script import match_events

from cribbage import events as E
from cribbage.game import Match


def _check(form, three="all", fmt="acc"):
    lines = []
    kinds = {}

    def journal(ev):
        lines.append(E.to_line(ev))
        kinds[ev["t"]] = kinds.get(ev["t"], 0) + 1

    live = match_events(form=form, three=three, fmt=fmt, sink=journal)
    assert live.match_over and len(live.results) >= 2
    for r in live.results:
        assert live.target in r[4]
    for trusted in (True, False):  # as at boot; and recounted, the play run and every show scored
        # Line by line, as the board does: a list of 900 dicts would not find room in a fragmented
        # MicroPython heap (and the board never holds one).
        m = Match(E.from_line(lines[0]))
        for k in range(1, len(lines)):  # no lines[1:]: a copy of the list is one more big block
            m.apply(E.from_line(lines[k]), trusted)
        assert m.match_points == live.match_points and m.front == live.front
        assert m.results == live.results and m.count == live.count
    for t in ("cut", "starter", "lay", "go", "show", "deal", "game", "undo"):
        assert kinds.get(t), t
    return live, lines


def test_six_card_three_game_match():
    m, lines = _check("six")
    assert 300 < len(lines) < 800 and len(m.results) == 3


def test_six_card_to_61():
    _check("six61")


def test_three_handed_both_formats():
    _check("three", "all")
    m, _evs = _check("three", "cont")
    assert all(len(r[1]) in (1, 2) for r in m.results)


def test_partners():
    _check("four")


def test_five_card():
    _check("five", fmt="games")


def test_same_seed_same_match_and_max_events():
    a = match_events(seed=7, max_events=50)
    assert a == match_events(seed=7, max_events=50) and len(a) == 50
    assert a != match_events(seed=8, max_events=50)
