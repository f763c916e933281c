# A player against the board on the emulated Pico: reads its display, presses its keys, to the match's end.
"""What a person does at a board playing against it (docs/keys.md, "Against the board"), done through the
emulator's control port (tools/emupico.Pico): nothing is read from the board but its display, its console
and its LEDs. The player throws the first two cards the display shows and lays the first card shown that
fits; each count on the display is read (OK) and each next deal or game asked for (OK). Used by
tests/device/smoke_pico.py (a whole game played) and bench/device.py (the heap the game leaves)."""

import re
import time

from tools.emupico import until

# the 4x5 key matrix (hardware/board.json's "keys"): name -> "row column" for the control port
_ROWS = (
    ("A", "2", "3", "4", "5"),
    ("6", "7", "8", "9", "T"),
    ("J", "Q", "K", "MENU", "UNDO"),
    ("S", "H", "D", "C", "OK"),
)
KEY = {name: "%d %d" % (r, c) for r, row in enumerate(_ROWS) for c, name in enumerate(row)}
_CARD = re.compile(r"\b([A2-9TJQK][SHDC])\b")
_HAND = re.compile(r"^[A2-9TJQK][SHDC]( [A2-9TJQK][SHDC])*$")
PIPS = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def pip(card):
    return PIPS.get(card[0]) or int(card[0])


def rows(pico):
    return [r.rstrip() for r in pico.ctl_json("oled")["text"]]


def wait_device(pico, ms):
    t = pico.time_ms()
    until(lambda: pico.time_ms() > t + ms, "%d ms of device time" % ms, 60)


def press(pico, name):
    """A key pressed 100 ms and released, then 100 ms of device time for the board to take it."""
    pico.ctl("press %s" % KEY[name])
    until(lambda: not pico.ctl("keys").strip(), "%s released" % name, 60)
    wait_device(pico, 100)


def new_match(pico):
    """MENU and UNDO held together, then OK: the guarded new match (the settings' match against the board)."""
    pico.ctl("key %s 1" % KEY["MENU"])
    pico.ctl("key %s 1" % KEY["UNDO"])
    wait_device(pico, 1500)
    pico.ctl("key %s 0" % KEY["MENU"])
    pico.ctl("key %s 0" % KEY["UNDO"])
    until(lambda: any("key a seed" in r for r in rows(pico)), "the new match's question", 60)
    press(pico, "OK")


def _key(pico, card):
    press(pico, card[0])
    press(pico, card[1])


def turn(pico):
    """One look at the display and what the player does about it; -> the display's rows, or None once
    the match is over (its seed told)."""
    shown = rows(pico)
    hint = shown[-1]
    body = shown[3:-1]
    if hint == "OK = new match":
        return None
    if hint == "key 2, OK=throw":
        # The hand is the rows of cards alone (the news row above may name a card: "Board 7S +2");
        # cards keyed before (a throw refused) are cleared first, UNDO a card (it acts on its release).
        hand = [c for r in body if _HAND.match(r) for c in _CARD.findall(r)]
        crib = [r for r in body if r.startswith("crib:")]
        if len(hand) < 2 or not crib:
            # a message over the hand ("Key 2 cards for the crib"): UNDO clears it (and a card keyed)
            press(pico, "UNDO")
            return shown
        for _ in _CARD.findall(crib[0]):
            press(pico, "UNDO")
        _key(pico, hand[0])
        _key(pico, hand[1])
        press(pico, "OK")
    elif hint.endswith(" lays: a card"):
        count = 0
        hand = []
        for r in body:
            if r.startswith("hand "):
                hand = _CARD.findall(r)
            elif re.match(r"\d+: ", r):
                count = int(r.split(":")[0])
        fits = [c for c in hand if count + pip(c) <= 31]
        if not fits:
            wait_device(pico, 300)  # read while the display was being drawn (the board says a go itself)
            return shown
        _key(pico, fits[0])
    elif hint.startswith("OK") or "MENU=more" in shown[2]:
        press(pico, "OK")  # a count read, the next deal or game
    else:
        wait_device(pico, 300)  # the board is to move
    return shown


def play_match(pico, timeout=1800):
    """A whole match played on the keys; -> the display's rows at its end."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        shown = turn(pico)
        if shown is None:
            return rows(pico)
        last = shown
        if time.monotonic() > deadline:
            raise AssertionError("the match did not end in %d s: the display shows %r" % (timeout, last))


def least_free(console):
    """The fewest free heap bytes the board said on its console (hal.rp2's heap lines), or None."""
    said = [
        int(x) for x in re.findall(r"heap: (\d+) bytes (?:free after boot|least free since boot)", console)
    ]
    return min(said) if said else None
