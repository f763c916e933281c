# Game events as plain dicts, and one compact JSON line each (identical on MicroPython and CPython).
import json

from cribbage.cards import parse_card, parse_cards
from cribbage.errors import CribError
from cribbage.forms import make_setup

# Why a peg was made (docs/rules.md: pegs by hand, crib, play, go, heels, muggins, penalty, or by hand).
WHYS = ("hand", "crib", "play", "go", "heels", "muggins", "penalty", "manual")
KINDS = ("hand", "crib")


def setup(form="six", fmt="acc", games=None, to=None, muggins=False, names=None, three="all", solo=None):
    """The set-up line: game form, match format, muggins, the sides' names, against the board (see
    cribbage.forms)."""
    return make_setup(form, fmt, games, to, muggins, names, three, solo)


def cut(cards):
    """Cut for first deal: one card per player, in player order. Lowest rank deals; a tie cuts again."""
    return {"t": "cut", "cards": parse_cards(cards)}


def dealer(player):
    """Name the first dealer of the match without keying a cut."""
    return {"t": "dealer", "p": player}


def peg(side, points, why="manual"):
    """A side pegs points (0 only for a zero hand or crib, which moves no peg)."""
    return {"t": "peg", "s": side, "n": points, "why": why}


def fix(side, delta):
    """A correction (not a penalty): move a side's front peg by delta, forwards or back."""
    return {"t": "fix", "s": side, "n": delta}


def starter(card):
    """The starter card; a jack pegs his heels (2) for the dealer at once."""
    return {"t": "starter", "c": parse_card(card)}


def show(side, kind, cards, claim=None):
    """A hand or the crib keyed as cards (without the starter); the board counts it.

    With muggins on, claim is what the player counted: the shortfall becomes claimable.
    """
    ev = {"t": "show", "s": side, "k": kind, "cards": parse_cards(cards)}
    if claim is not None:
        ev["claim"] = claim
    return ev


def hand(side, cards, claim=None):
    return show(side, "hand", cards, claim)


def crib(side, cards, claim=None):
    return show(side, "crib", cards, claim)


def lay(player, card, claim=None):
    """A player lays a card in the play; with muggins on, claim is what they pegged for it."""
    ev = {"t": "lay", "p": player, "c": parse_card(card)}
    if claim is not None:
        ev["claim"] = claim
    return ev


def go(player):
    """A player says go (taken on trust: the board does not know the hands)."""
    return {"t": "go", "p": player}


def muggins(side, points=None):
    """A side claims points an opponent missed (all of them when points is None)."""
    ev = {"t": "muggins", "s": side}
    if points is not None:
        ev["n"] = points
    return ev


def name(side, text):
    """A side takes a name (1..12 printable ASCII characters): shown from now on; nothing else changes."""
    return {"t": "name", "s": side, "name": text}


def undo():
    """Take back the last event still in force (undo appends; it never erases the record)."""
    return {"t": "undo"}


def next_deal():
    return {"t": "deal"}


def next_game():
    return {"t": "game"}


def end_match():
    """Stop the match now (a casual evening ends): the leader on match points wins it."""
    return {"t": "end"}


# ---- one compact JSON line ------------------------------------------------------------------------


def _text(s):
    # Escape only what JSON requires, leaving other characters as they are, so both interpreters
    # write the same bytes (CPython's json.dumps would write \u escapes, MicroPython's would not).
    # Over the UTF-8 bytes: iterating a str would intern each character, and names come from players.
    raw = s.encode()
    for c in raw:
        if c < 32 or c == 34 or c == 92:
            break
    else:
        return '"' + s + '"'  # nothing to escape: the common case, one pass and no copies
    out = bytearray(b'"')
    for c in raw:
        if c == 34 or c == 92:
            out.append(92)
            out.append(c)
        elif c < 32:
            out.extend(("\\u%04x" % c).encode())
        else:
            out.append(c)
    out.append(34)
    return out.decode()


def _value(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _text(v)
    if isinstance(v, (list, tuple)):
        return "[" + ",".join([_value(x) for x in v]) + "]"
    raise CribError("an event holds only numbers, text, true/false/null and lists, not %r" % (v,))


def to_line(ev):
    """The event as one compact JSON line (no newline): "t" first, then the other keys in order."""
    if not isinstance(ev, dict) or not isinstance(ev.get("t"), str):
        raise CribError("an event is a dict with a text 't', not %r" % (ev,))
    keys = sorted(k for k in ev if k != "t")
    parts = ['{"t":' + _text(ev["t"])]
    for k in keys:
        parts.append(_text(k) + ":" + _value(ev[k]))
    return ",".join(parts) + "}"


def from_line(line):
    """The event dict of one JSON line; a line that is not an event is refused with CribError."""
    if type(line) is str:
        # The boot replay's way (a journal line), in few steps: no try in this frame, which
        # MicroPython would then make on the heap at every call. Anything else: _line_error.
        ev = _line(line)
        if type(ev) is dict and type(ev.get("t")) is str:
            return ev
    return _line_error(line)


def _line(text):
    # The JSON value of a line, None if it is not JSON. ([name budget] docs/memory.md: helper names
    # here are ones the firmware interns already.)
    try:
        return json.loads(text)
    except Exception:
        return None


def _line_error(line):
    # The CribError that says what is wrong with a line from_line did not take at once (or its
    # event after all: bytes, a str subclass).
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode("utf-8")
        except Exception:
            raise CribError("an event line must be UTF-8 text")
    if not isinstance(line, str):
        raise CribError("an event line is text, not %r" % (line,))
    try:
        ev = json.loads(line)
    except Exception:
        raise CribError("not a JSON line: %r" % (line[:40],))
    if not isinstance(ev, dict) or not isinstance(ev.get("t"), str):
        raise CribError("not an event (a JSON object with a text 't'): %r" % (line[:40],))
    return ev
