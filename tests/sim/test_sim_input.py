# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The simulator's keyboard and script grammar (sim/keys.py, sim/script.py): pure, both interpreters.
from check import message, raises
from sim import keys as simkeys
from sim import script as simscript

NAMES = [
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "T",
    "J",
    "Q",
    "K",
    "MENU",
    "UNDO",
    "S",
    "H",
    "D",
    "C",
    "OK",
]
SIDES = ["red", "blue", "green"]


def feed(kb, text):
    out = []
    for ch in text:
        act = kb.feed(ord(ch))
        if act is not None:
            out.append(act)
    return out


def test_typed_keys_press_board_keys():
    kb = simkeys.Keyboard(SIDES)
    acts = feed(kb, "5h0qK\r\x7fum")
    names = [a[1] for a in acts]
    assert names == [("5",), ("H",), ("T",), ("Q",), ("K",), ("OK",), ("UNDO",), ("UNDO",), ("MENU",)]
    assert all(a[0] == "key" and a[2] == kb.press_ms for a in acts)


def test_long_presses_and_the_guarded_chord():
    kb = simkeys.Keyboard(SIDES, long_ms=1500, reset_ms=2500)
    assert feed(kb, "!m") == [("key", ("MENU",), 1500)]
    assert feed(kb, "m") == [("key", ("MENU",), kb.press_ms)]  # the prefix is used up
    assert feed(kb, "@") == [("key", ("MENU", "UNDO"), 2500)]


def test_hole_entry_taps_a_hole():
    kb = simkeys.Keyboard(SIDES)
    acts = feed(kb, ":r15\r")
    assert acts[-1] == ("tap", 0, 15)
    assert acts[0] == ("entry", "")
    assert feed(kb, ":2.1x\x7f20\r")[-1] == ("tap", 1, 120)
    assert feed(kb, ":g\r")[-1] == ("tap", 0, 121)
    assert feed(kb, ":bs\r")[-1] == ("tap", 1, 0)
    assert feed(kb, ":q5\r")[-1][0] == "error"
    assert kb.entry is None
    # Esc cancels an entry; the key after it counts on its own.
    got = feed(kb, ":r1\x1bh")
    assert got == [("entry", ""), ("entry", "r"), ("entry", "r1"), ("key", ("H",), kb.press_ms)], got


def test_terminal_replies_and_quit():
    kb = simkeys.Keyboard(SIDES)
    assert feed(kb, "\x1b[50;160R") == [("size", 50, 160)]
    assert feed(kb, "\x1b[<0;12;7M\x1b[<0;12;7m") == [("click", 6, 11)]
    assert feed(kb, "\x1b[A") == []  # an arrow key: nothing
    assert feed(kb, "\x03") == [("quit",)]


def test_script_lines():
    p = simscript.parse_line
    assert p("  # only a comment", NAMES, SIDES) is None
    assert p("+500 key 5 h ok", NAMES, SIDES) == (500, False, "key", ("5", "H", "OK"))
    assert p("cards 10H js", NAMES, SIDES) == (0, False, "key", ("T", "H", "J", "S"))
    assert p("@2000 hold menu undo 2500", NAMES, SIDES) == (2000, True, "hold", (("MENU", "UNDO"), 2500))
    assert p("tap blue game", NAMES, SIDES) == (0, False, "tap", (1, 121))
    assert p("tap 3 start", NAMES, SIDES) == (0, False, "tap", (2, 0))
    assert p("+100 wait 400", NAMES, SIDES) == (500, False, "wait", ())
    assert p("expect display 'P1 +6 '", NAMES, SIDES) == (0, False, "expect", ("display", "P1 +6 "))
    assert p("expect game 2 121 90", NAMES, SIDES) == (0, False, "expect", ("game", (2, 121, 90)))
    assert p("expect winner b", NAMES, SIDES) == (0, False, "expect", ("winner", 1))


def test_script_errors_name_the_line():
    text = "key OK\n\ntap red 130\n"
    e = raises(simscript.ScriptError, simscript.parse, text, NAMES, SIDES, "x.script")
    assert message(e) == "x.script:3: no hole '130' (1..120, start or game)", message(e)
    for bad in ("key Z", "cards 5X", "hold MENU", "tap red", "expect score 1", "jump 3", "+x key OK"):
        raises(simscript.ScriptError, simscript.parse_line, bad, NAMES, SIDES)


def test_end_state_checks():
    state = {"score": [121, 95], "games": [[121, 80], [70, 121]], "match": [3, 2], "winner": 0}
    ok = [("score", (121, 95)), ("game", (2, 70, 121)), ("match", (3, 2)), ("winner", 0)]
    assert simscript.check(ok, state, SIDES) == []
    bad = simscript.check([("game", (3, 121, 1)), ("winner", 1), ("score", (121, 96))], state, SIDES)
    assert bad == [
        "game 3 never finished (2 games finished)",
        "match winner red, expected blue",
        "score 121 95, expected 121 96",
    ], bad


def test_the_one_key_is_the_ace():
    # Typing 1 for a keyed point (A is one) did nothing, without a word.
    from sim import keys

    assert keys.key_for("1") == "A"
    assert keys.Keyboard(["red", "blue"]).feed(ord("1")) == ("key", ("A",), 60)
