# The sim's terminal drawing read back: a screen of cells, and the board's LED holes and display as drawn.
"""The drawn sim (sim/term.py) draws each LED frame the firmware writes (hal.leds.write), hole by hole in
its LED's colour through the board file's hole -> LED tables, and each display frame (hal.display.show)
in its box: what a person would see on the board. Screen replays that output; DrawnBoard is fed it as it
comes off the sim's pipe, in any pieces, and keeps the time each hole was drawn lit and each display
frame's rows, so a test or a bench can tell when the board showed something."""

import codecs
import re

from sim import term

_SEQ = re.compile(r"\x1b\[([0-9;?<]*)([A-Za-z])")
_OPEN = re.compile(r"\x1b(\[[0-9;?<]*)?\Z")  # an escape cut at a piece's end: kept for the next piece
_ON = set(term._GLYPH_ON)


class Screen:
    """Enough of a VT100 to replay the sim's output: cursor moves, clears and 24-bit colours."""

    def __init__(self, rows=60, cols=200):
        self.cells = {}  # (row, col) 1-based -> (char, colour or None)
        self.row = self.col = 1
        self.fg = None
        self.modes = []

    def feed(self, text):
        pos = 0
        while pos < len(text):
            m = _SEQ.match(text, pos)
            if m:
                self._csi(m.group(1), m.group(2))
                pos = m.end()
                continue
            ch = text[pos]
            pos += 1
            if ch == "\x1b":
                continue
            if ch in "\r\n":
                self.row += ch == "\n"
                self.col = 1
                continue
            self.put(self.row, self.col, ch)
            self.col += 1

    def put(self, row, col, ch):
        self.cells[(row, col)] = (ch, self.fg)

    def _csi(self, args, cmd):
        if cmd == "H":
            parts = [int(p) for p in args.split(";")] if args else [1, 1]
            self.row, self.col = parts[0], parts[1]
        elif cmd == "J" and args == "2":
            self.cells = {}
        elif cmd == "K" and args == "2":
            for key in [k for k in self.cells if k[0] == self.row]:
                del self.cells[key]
        elif cmd == "m":
            nums = args.split(";") if args else ["0"]
            if nums[:2] == ["38", "2"]:
                self.fg = tuple(int(n) for n in nums[2:5])
            elif nums[:2] == ["38", "5"] or nums == ["0"]:
                self.fg = None
        elif cmd in "hl":
            self.modes.append(args + cmd)

    def text(self, row):
        cols = [c for (r, c) in self.cells if r == row]
        return "".join(self.cells.get((row, c), (" ",))[0] for c in range(1, max(cols, default=0) + 1))

    def find(self, needle):
        for r in sorted({r for r, _ in self.cells}):
            if needle in self.text(r):
                return r, self.text(r).index(needle) + 1
        return None


class DrawnBoard(Screen):
    """The drawn sim's output fed as it arrives (feed(bytes, t)): `lit` holds (t, kind, track, hole) each
    time a hole is drawn lit (term.KIND_*; the game hole is kind KIND_GAME, hole 121), `shown` (t, rows)
    each display frame drawn (its 8 rows of text). `t` is the caller's clock when the piece came."""

    def __init__(self, board_def):
        super().__init__()
        lay = term.Layout(board_def)
        # Where each hole is drawn (Term._hole: the board's frame on row 1, column 1).
        self.holes = {
            (2 + lay.row[i], 2 + lay.col[i]): (lay.kind[i], lay.side[i], lay.hole[i])
            for i in range(lay.count)
        }
        self.lit = []
        self.shown = []
        self.box = None  # (row, col) of the display box's first cell, once drawn
        self._t = 0.0
        self._rest = ""
        self._text = codecs.getincrementaldecoder("utf-8")("replace")
        self._dirty = False

    def feed(self, data, t=0.0):  # pyright: ignore[reportIncompatibleMethodOverride] (bytes and a time)
        self._t = t
        text = self._rest + self._text.decode(data)
        cut = _OPEN.search(text)
        self._rest = text[cut.start() :] if cut else ""
        super().feed(text[: cut.start()] if cut else text)
        if self.box is None:
            at = self.find("┌ display")
            if at is not None:
                self.box = (at[0] + 1, at[1] + 1)
        if self._dirty and self.box is not None:
            self._dirty = False
            rows = self.rows()
            if not self.shown or self.shown[-1][1] != rows:
                self.shown.append((t, rows))

    def put(self, row, col, ch):
        super().put(row, col, ch)
        hole = self.holes.get((row, col))
        if hole is not None and ch in _ON and self.fg is not None:
            self.lit.append((self._t, *hole))
        box = self.box
        if box is not None and box[0] <= row < box[0] + 8 and box[1] <= col < box[1] + 16:
            self._dirty = True

    def rows(self):
        """The display's 8 rows as drawn now."""
        r0, c0 = self.box or (0, 0)
        return [
            "".join(self.cells.get((r0 + r, c0 + c), (" ",))[0] for c in range(16)).rstrip() for r in range(8)
        ]
