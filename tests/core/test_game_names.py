# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# A side renamed (issue 12, "players, not seats"): the `name` event folds into the match's names and
# nothing else, is undone and replayed like any event, and refuses what the board cannot show.
from check import message, raises
from cribbage import events as E
from cribbage.errors import CribError
from cribbage.game import Match, replay


def _played():
    """A match two deals in: Bob renamed in the second, then more pegs."""
    m = Match(E.setup(names=["P1", "P2"]))
    evs = [m.setup]
    for ev in (E.dealer(0), E.starter("5S"), E.peg(1, 6, "play"), E.peg(0, 8, "manual"), E.next_deal()):
        evs.append(m.apply(ev))
    evs.append(m.apply(E.starter("9C")))
    evs.append(m.apply(E.name(1, "Bob")))
    evs.append(m.apply(E.peg(1, 4, "play")))
    return m, evs


def test_a_rename_changes_the_name_and_nothing_else():
    m, evs = _played()
    assert m.names == ["P1", "Bob"]
    assert m.setup["names"] == ["P1", "P2"]  # the journal's set-up line stays as it was written
    assert m.front == [8, 10] and m.deal_no == 2 and m.starter is not None
    assert evs[-2] == {"t": "name", "s": 1, "name": "Bob"}


def test_the_rename_replays_from_its_line_and_undoes():
    m, evs = _played()
    lines = [E.to_line(ev) for ev in evs]
    again = replay([E.from_line(x) for x in lines])
    assert again.names == ["P1", "Bob"] and again.front == m.front
    m.apply(E.undo())  # the peg after it
    assert m.names == ["P1", "Bob"] and m.front == [8, 6]
    m.apply(E.undo())  # the rename: the deal is refolded from its checkpoint, without it
    assert m.names == ["P1", "P2"] and m.undone == {"t": "name", "s": 1, "name": "Bob"}
    assert m.front == [8, 6] and m.starter is not None
    m.apply(E.name(0, "Ann"))
    m.apply(E.name(0, "Annie"))
    m.apply(E.undo())
    assert m.names == ["Ann", "P2"]


def test_a_rename_survives_the_next_game_and_its_undo():
    m = Match(E.setup(names=["P1", "P2"], games=3))
    m.apply(E.name(0, "Ann"))  # before the cut: named at the table
    m.apply(E.dealer(1))
    m.apply(E.fix(0, 121))  # a correction home ends the game
    m.apply(E.next_game())
    assert m.names == ["Ann", "P2"] and m.game_no == 2
    m.apply(E.undo())
    assert m.names == ["Ann", "P2"] and m.game_over


def test_names_the_board_cannot_show_are_refused_and_change_nothing():
    m, _evs = _played()
    before = (list(m.names), m.count)
    for bad, words in (
        ("", "1..12 characters"),
        ("   ", "1..12 characters"),
        ("Thirteen_char", "1..12 characters"),
        ("Ren\u00e9e", "ASCII"),
        ("a\tb", "ASCII"),
        (7, "text"),
    ):
        e = raises(CribError, m.apply, E.name(0, bad))
        assert words in message(e), message(e)
    assert "side" in message(raises(CribError, m.apply, E.name(2, "Cy")))
    assert "takes no" in message(raises(CribError, m.apply, {"t": "name", "s": 0, "name": "Al", "x": 1}))
    assert m.names == before[0] and m.count == before[1]
    assert m.check(E.name(0, "Al-12 ok!")) == {"t": "name", "s": 0, "name": "Al-12 ok!"}
