# The simulator's keyboard: bytes from a raw terminal -> board key presses, hole taps and sim commands.
# A terminal reports no key releases, so a keyboard key is one press of the board key; long presses
# have their own prefix. The help text shown beside the board is HELP, kept next to the mapping.
from sim.script import ScriptError, hole_number, side_index

# 1 is the A key: A is one when rank keys are digits (keyed points), and a player types 1 for it.
RANKS = {"a": "A", "1": "A", "t": "T", "0": "T", "j": "J", "q": "Q", "k": "K"}
SUITS = {"s": "S", "h": "H", "d": "D", "c": "C"}

HELP = (
    "keys  A(1) 2-9 T(0) J Q K  ranks",
    "      s h d c           suits",
    "      Enter             OK/SCORE",
    "      Backspace u       UNDO",
    "      m                 MENU",
    "      !X  long press X  (!m, !u)",
    "      @   MENU+UNDO long (reset)",
    "holes :r15 Enter  tap red 15",
    "      :2.15  side 2;  :rs start",
    "      :g  game hole; or click",
    "quit  Ctrl-C (a power cut)",
)


def key_for(ch):
    """Board key name for one typed character, or None."""
    c = ch.lower()
    if c in RANKS:
        return RANKS[c]
    if "2" <= c <= "9":
        return c
    if c in SUITS:
        return SUITS[c]
    if ch in ("\r", "\n"):
        return "OK"
    if ch in ("\x7f", "\x08", "u", "U"):
        return "UNDO"
    if c == "m":
        return "MENU"
    return None


def parse_hole(text, side_names):
    """`r15`, `red15`, `2.15`, `rs`, `g` -> (side, hole 0..121); raises ScriptError."""
    t = text.strip().lower()
    if t in ("g", "game", "121"):
        return (0, 121)
    if "." in t:
        side, hole = t.split(".", 1)
    else:
        i = 0
        while i < len(t) and t[i : i + 1].isalpha():
            i += 1
        side, hole = t[:i], t[i:]
        if not side and hole:
            raise ScriptError("which side? e.g. r15 or 1.15")
        if side and not hole and len(side) > 1 and side[-1:] in "sg":
            side, hole = side[:-1], side[-1:]
    if not hole:
        raise ScriptError("which hole? e.g. r15")
    return (side_index(side, side_names), hole_number(hole))


class Keyboard:
    """feed(byte) -> an action tuple or None:
    ("key", names, hold_ms) ("tap", side, hole) ("quit",) ("redraw",) ("size", rows, cols)
    ("click", row, col) ("entry", text or None) ("error", message)."""

    def __init__(self, side_names, long_ms=1500, reset_ms=2500, press_ms=60):
        self.side_names = side_names
        self.long_ms = long_ms
        self.reset_ms = reset_ms
        self.press_ms = press_ms
        self.entry = None  # the hole being typed after ":", or None
        self._long = False
        self._esc = None  # bytes of an escape sequence being read

    def feed(self, b):
        ch = chr(b)
        if self._esc is not None:
            return self._escape(ch)
        if b == 3 or b == 4:  # Ctrl-C, Ctrl-D
            return ("quit",)
        if b == 12:  # Ctrl-L
            return ("redraw",)
        if b == 27:
            self._esc = ""
            return None
        if self.entry is not None:
            return self._entry(ch)
        if ch == ":":
            self.entry = ""
            return ("entry", "")
        if ch == "!":
            self._long = True
            return None
        if ch == "@":
            return ("key", ("MENU", "UNDO"), self.reset_ms)
        name = key_for(ch)
        hold = self.long_ms if self._long else self.press_ms
        self._long = False
        if name is None:
            return None
        return ("key", (name,), hold)

    def _entry(self, ch):
        if ch in ("\r", "\n"):
            text, self.entry = self.entry, None
            try:
                side, hole = parse_hole(text, self.side_names)
            except ScriptError as e:
                return ("error", "hole %r: %s" % (text, e))
            return ("tap", side, hole)
        entry = self.entry or ""
        if ch in ("\x7f", "\x08"):
            entry = entry[:-1]
        elif ch.isalpha() or ch.isdigit() or ch == ".":
            entry += ch
        self.entry = entry
        return ("entry", entry)

    def _escape(self, ch):
        # CSI sequences: cursor position reports (the terminal's size) and SGR mouse clicks.
        if self._esc == "" and ch != "[":
            # A lone Esc cancels a hole entry; the character after it counts on its own.
            self._esc = None
            cancelled = self.entry is not None
            self.entry = None
            act = self.feed(ord(ch))
            return act if act is not None or not cancelled else ("entry", None)
        s = (self._esc or "") + ch
        self._esc = s
        if len(s) < 32 and (s == "[" or not (ch.isalpha() or ch == "~")):
            return None  # more of the sequence to come
        self._esc = None
        if s.endswith("R"):
            parts = s[1:-1].split(";")
            if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                return ("size", int(parts[0]), int(parts[1]))
        if s.startswith("[<") and s.endswith("M"):  # a button press (m is its release)
            parts = s[2:-1].split(";")
            if len(parts) == 3 and parts[0] == "0" and parts[1].isdigit() and parts[2].isdigit():
                return ("click", int(parts[2]) - 1, int(parts[1]) - 1)
        return None
