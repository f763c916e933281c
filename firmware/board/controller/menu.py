# The menu (the settings editor) and player-name entry: what MENU opens, its rows and its keys.
# Loaded the first time the menu opens (Controller._open), not at boot: with the code in RAM (a stock
# Pico) its code is heap from then on, and a board that is only played never pays for it
# (docs/memory.md, "Loaded when first used"). The controller keeps the menu's state (the item open, the
# side being named) and asks these functions what a key does to it; they write none of its fields.
from board.settings import MATCH_SETTINGS, tracks_for
from board.ticks import diff
from cribbage.cards import RANKS

COLS = 16
# The menu: (setting, label) in the order MENU steps through them.
MENU = (
    ("brightness", "Brightness"),
    ("cue", "Peg winks"),
    ("auto_ok_ms", "Auto OK"),
    ("play", "Key the play"),
    ("form", "Game form"),
    ("fmt", "Match format"),
    ("games", "Games in match"),
    ("to", "Match points"),
    ("muggins", "Muggins"),
    ("three", "3-handed match"),
    ("tracks", "2 sides' tracks"),
    ("watchdog", "Watchdog"),
    ("advice", "Discard advice"),
    ("sound", "Sound"),
    ("large", "Large print"),
    ("solo", "Vs the board"),
    ("name", "Player names"),  # not a setting: OK keys each side's name (Controller._naming)
)


def _press(at, name, settings, now):
    """A key pressed while the menu is open at item `at`: OK changes the item's setting. -> True when
    the item is "Player names": the controller then has each side's name keyed in turn."""
    if name != "OK":
        return False
    if MENU[at][0] == "name":
        return True
    settings.cycle(MENU[at][0], now)
    return False


def _short(at, name):
    """MENU or UNDO released while the menu is open at item `at`: -> the next item, or -1 (leave)."""
    return (at + 1) % len(MENU) if name == "MENU" else -1


def _entry(c, name, now):
    """A key pressed while a name is keyed (c: the controller, whose entry and side it reads): OK saves
    it (the core's `name` event), a rank key is a letter; UNDO (delete) and MENU (leave) act on
    release (Controller._short). -> the side to name next once OK saved the name (or kept it), else -1."""
    e = c.entry
    if name == "OK":
        side = c.num_side
        text = e.name.decode().strip()
        m = c.book.match
        ev = {"t": "name", "s": side, "name": text}
        if text and text != m.names[side] and not c.commit(ev, keep=True):
            return -1  # refused (said): the name stays keyed, to correct
        return side + 1  # OK on the name as it was keeps it
    if name != "UNDO" and name != "MENU":
        refused = letter(e, RANKS.find(name) if len(name) == 1 else -1, now)
        if refused:
            c.say(*refused)
    return -1


def letter(e, r, now):
    """A rank key r while a name is keyed in e (board.controller.entry.Entry), as on a phone: 2 = a b c 2, ...
    9 = w x y z 9, A = . - ' 1, T = space 0; the same key again within 1.2 s turns the last letter to
    the key's next one. A letter starting the name or a word is a capital; K turns the last letter's
    case. -> display lines when refused, else None. Bytes throughout: a str's characters would be
    interned ([name budget] docs/memory.md)."""
    name = e.name or b""  # called only while a name is keyed
    if r == 12:  # K: the last letter's case (letters only: the signs and digits stay)
        if name and 97 <= name[-1] | 32 <= 122:
            e.name = name[:-1] + bytes((name[-1] ^ 32,))
        e.rank = -1
        return None
    if r < 0 or r >= 10:
        return ("2-9 A T: letters",)
    keys = b".-'1/abc2/def3/ghi4/jkl5/mno6/pqrs7/tuv8/wxyz9/ 0".split(b"/")[r]
    c = keys[0]
    if r == e.rank and name and diff(now, e.t0) < 1200:
        c = keys[(keys.find(bytes((name[-1] | 32,))) + 1) % len(keys)]
        name = name[:-1]
    elif len(name) >= 12:
        return ("Full: 12 letters",)
    if 97 <= c <= 122 and (not name or name[-1] == 32):
        c -= 32  # a capital starts the name and each word
    e.name = name + bytes((c,))
    e.rank = r
    e.t0 = now
    return None


def rows(match, settings, at, colours):
    """(body rows, hint) of the menu open at item `at` (colours: the pegs' colour word on each track)."""
    key, label = MENU[at]
    v = ", ".join(match.names) if key == "name" else _value(settings, key, colours)
    head = "%d/%d UNDO=leave" % (at + 1, len(MENU))
    body = [head, label, ("= " + v if len(v) < COLS - 1 else v)[:COLS]]
    if key in MATCH_SETTINGS:
        body.append("(new match)")
    return body, "OK=chg MENU=next"


def _value(settings, key, colours):
    """A setting's value in players' words (not the settings' own names); the match's settings say
    how long the match is."""
    v = settings[key]
    fmt = settings["fmt"]
    if key == "form":
        words = {
            "six": "6-card to 121",
            "six61": "6-card to 61",
            "three": "3-handed to 121",
            "four": "partners 2v2",
        }
        return words.get(v, "5-card to 61")
    if (key == "games" and (fmt == "points" or fmt == "lurch")) or (
        key == "to" and (fmt == "acc" or fmt == "games")
    ):
        return "%d (not used)" % v
    if key == "fmt" or key == "games" or key == "to":
        n = settings["games"]
        if fmt == "games":
            return "best of %d game%s" % (n, "s" if n > 1 else "")
        if fmt == "acc":
            return "ACC, %d game%s" % (n, "s" if n > 1 else "")  # (a one-game match: "ACC, 1 game")
        return "%s %s" % (fmt, "to %d" % settings["to"])  # points (1/2/3 a game) or lurch (1/2) to win
    if key == "auto_ok_ms":
        return "after %d secs" % (v // 1000) if v else "off"
    if key == "three":
        return "winner takes all" if v == "all" else "play on for 2nd"
    if key == "solo":
        return ("off", "beginner level", "expected level", "the top level")[v]  # ([name budget]: long)
    if key == "tracks":
        pair = tracks_for(2, v, len(colours)) if len(colours) > 2 else (0, 1)
        return "%s %s" % (colours[pair[0]], colours[pair[1]]) if colours else str(v)
    if v is True:
        return "on"
    if v is False:
        return "off"
    return str(v)


def lines(match, c):
    """The rows while a name is keyed: "P2: Bob_" (the set-up's name, which a rename never changes),
    then the keys; the last is the hint."""
    e = c.entry
    side = c.num_side
    typed = match.setup["names"][side] + ": " + e.name.decode()
    # ([name budget] docs/memory.md: one string split, not three names.)
    keys = "2-9=abc T=space/K=Aa MENU=leave/OK=save UNDO=del"
    return [typed + "_" if len(e.name) < 12 else typed] + keys.split("/")
