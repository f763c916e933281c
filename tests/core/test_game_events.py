# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Events: constructors, one compact JSON line each, exact round trips, garbage lines refused.
from check import message, raises
from cribbage import events as E
from cribbage.cards import parse_card
from cribbage.errors import CribError

ALL = [
    E.setup(names=["Ann", "Bob"]),
    E.cut(["5H", "9C"]),
    E.dealer(1),
    E.peg(0, 12, "hand"),
    E.peg(1, 2, "penalty"),
    E.fix(0, -3),
    E.starter("JD"),
    E.hand(1, "5S 5C 5D JH"),
    E.crib(0, "AS 2S 3S 4S", claim=6),
    E.lay(1, "7S"),
    E.lay(0, "8S", claim=1),
    E.go(1),
    E.muggins(0),
    E.muggins(1, 2),
    E.undo(),
    E.next_deal(),
    E.next_game(),
    E.end_match(),
]


def test_constructors_take_card_text_and_store_ints():
    assert E.starter("JD") == {"t": "starter", "c": parse_card("JD")}
    assert E.hand(1, "5S 5C 5D JH")["cards"] == [parse_card(t) for t in ("5S", "5C", "5D", "JH")]
    assert E.lay(0, 10)["c"] == 10
    assert E.peg(1, 3) == {"t": "peg", "s": 1, "n": 3, "why": "manual"}


def test_every_event_round_trips_exactly():
    for ev in ALL:
        line = E.to_line(ev)
        assert "\n" not in line and " " not in line.replace("Ann", "").replace("Bob", "")
        back = E.from_line(line)
        assert back == ev, line
        assert E.to_line(back) == line


def test_line_starts_with_t_then_sorted_keys():
    assert E.to_line(E.peg(1, 3, "go")) == '{"t":"peg","n":3,"s":1,"why":"go"}'
    assert E.to_line(E.cut([1, 2])) == '{"t":"cut","cards":[1,2]}'
    assert E.to_line({"t": "x", "b": True, "a": None}) == '{"t":"x","a":null,"b":true}'


def test_text_escapes_are_the_same_on_both_interpreters():
    ev = dict(E.setup(), names=['Zoë "Z"', "back\\slash"])  # as a line holds it
    line = E.to_line(ev)
    assert line.count("Zoë") == 1 and '\\"Z\\"' in line and "back\\\\slash" in line
    assert E.from_line(line) == ev
    assert E.from_line(line.encode("utf-8")) == ev
    tab = {"t": "x", "s": "a\tb"}
    assert "\\u0009" in E.to_line(tab) and E.from_line(E.to_line(tab)) == tab


def test_garbage_lines_are_refused():
    for bad in ("", "{", "[1,2]", '{"x":1}', '{"t":5}', "null", "peg 1 2"):
        e = raises(CribError, E.from_line, bad)
        assert message(e), bad
    assert "UTF-8" in message(raises(CribError, E.from_line, b"\xff\xfe"))
    assert "not an event" in message(raises(CribError, E.from_line, '{"x":1}'))


def test_to_line_refuses_what_json_lines_cannot_hold():
    assert "dict with a text 't'" in message(raises(CribError, E.to_line, {"s": 1}))
    assert "numbers, text" in message(raises(CribError, E.to_line, {"t": "x", "f": 1.5}))


def test_apply_completes_lays_and_goes_with_their_points():
    from game_kit import new_match

    m = new_match(dealer=0)
    m.apply(E.starter("9D"))
    assert m.apply(E.lay(1, "5H")) == {"t": "lay", "p": 1, "c": parse_card("5H"), "n": 0}
    assert m.apply(E.lay(0, "TH"))["n"] == 2  # fifteen
    m.apply(E.lay(1, "KS"))  # 25
    assert m.apply(E.go(0)) == {"t": "go", "p": 0, "n": 0}  # player 1 can still lay
    assert m.apply(E.lay(1, "6H"))["n"] == 2  # 31
    assert m.front == [2, 2] and m.play.count == 0
    m.apply(E.lay(0, "QS"))
    m.apply(E.lay(1, "KH"))  # 20: player 1 is out of cards
    m.apply(E.lay(0, "AS"))  # 21
    assert m.apply(E.lay(0, "AC"))["n"] == 3  # a pair and the last card
    assert m.front == [5, 2] and m.play.over


def test_a_go_scored_for_the_last_layer():
    from game_kit import new_match

    m = new_match(dealer=0)
    m.apply(E.starter("9D"))
    for p, c in ((1, "KS"), (0, "QS"), (1, "2H")):
        m.apply(E.lay(p, c))
    assert m.apply(E.go(0)) == {"t": "go", "p": 0, "n": 0}
    assert m.apply(E.go(1)) == {"t": "go", "p": 1, "s": 1, "n": 1}
    assert m.front == [0, 1] and m.play.count == 0 and m.play.turn == 0
