# The simulator's screen: the board drawn from board.json's layout, each hole in its LED's colour.
# What is drawn is the LED frame the firmware wrote (hal.leds.write), mapped through the board file's
# hole -> LED tables, so the picture is exactly what the LEDs would show. Only holes whose colour
# changed are redrawn, so a blinking proposal costs a few bytes, not a screen.
import sys
import termios
from array import array

_CSI = "\x1b["
_DARK = _CSI + "38;5;239m"
_DIM = _CSI + "38;5;244m"
_RESET = _CSI + "0m"
_MM_PER_COL = 4.0  # 8 mm hole pitch = 2 columns, the 4 mm gap between groups of 5 = 1 column
_MM_PER_ROW = 7.5  # lanes 8 mm apart, legs 30 mm apart: one row a lane, a blank row between legs
_PANEL_W = 38

# The eye's response: an LED at 1/4 of full looks about half as bright, so colours are shown on a
# square-root curve (the frame's proportions, back peg dimmer than front, are kept).
_EYE = bytes(int(255 * (i / 255) ** 0.5 + 0.5) for i in range(256))

KIND_TRACK, KIND_START, KIND_GAME, KIND_RECORD, KIND_DEALER = 0, 1, 2, 3, 4
_GLYPH_ON = ("●", "●", "◉", "■", "◆")
_GLYPH_OFF = ("·", "∘", "○", "▫", "◇")


class Layout:
    """Every lit hole: screen row/col, LED index, kind, side and hole number, in compact arrays."""

    def __init__(self, board_def):
        b = board_def
        n = b.sides * (120 + 2 + b.record_count + 1) + 1
        self.count = n
        self.row = bytearray(n)
        self.col = bytearray(n)
        self.led = array("H", [0] * n)
        self.kind = bytearray(n)
        self.side = bytearray(n)
        self.hole = bytearray(n)
        self._i = 0
        for s in range(b.sides):
            for h in range(1, 121):
                self._add(b.position("track", s, h), b.led_track[s][h - 1], KIND_TRACK, s, h)
            for i in range(2):
                self._add(b.position("start", s, i), b.led_start[s][i], KIND_START, s, 0)
            x0 = b.position("record", s, 0)[0]
            for i in range(b.record_count):
                # Record holes sit closer (6.5 mm) than two columns: spread them evenly instead.
                x, y = b.position("record", s, i)
                self._add((x0 + i * 2 * _MM_PER_COL, y), b.led_record[s][i], KIND_RECORD, s, i)
            self._add(b.position("dealer", s), b.led_dealer[s], KIND_DEALER, s, 0)
        self._add(b.position("game"), b.led_game, KIND_GAME, 0, 121)
        w, h = b.layout["board"]
        self.width = int(w / _MM_PER_COL + 0.5) + 1
        self.height = int(h / _MM_PER_ROW + 0.5) + 1
        # Hole numbers where the track turns, beside the legs' ends.
        self.labels = []
        leg = b.layout["leg"]
        for k in range(len(b.layout["legs"])):
            for hole in (k * leg + 1, k * leg + leg):
                x, y = b.position("track", 1 if b.sides > 1 else 0, hole)
                col = int(x / _MM_PER_COL + 0.5)
                at_left = col < self.width // 2
                self.labels.append((int(y / _MM_PER_ROW + 0.5), 1 if at_left else col + 2, str(hole)))

    def _add(self, pos, led, kind, side, hole):
        i = self._i
        self._i += 1
        self.row[i] = int(pos[1] / _MM_PER_ROW + 0.5)
        self.col[i] = int(pos[0] / _MM_PER_COL + 0.5)
        self.led[i] = led
        self.kind[i] = kind
        self.side[i] = side
        self.hole[i] = hole

    def at(self, row, col):
        """(side, hole) of the track/start/game hole drawn at row, col (board coordinates) or None."""
        for i in range(self.count):
            if self.row[i] == row and self.kind[i] in (KIND_TRACK, KIND_START, KIND_GAME):
                c = self.col[i]
                if c == col or c == col - 1:
                    return (self.side[i], self.hole[i])
        return None


class Term:
    """Raw-mode terminal: the board, the display box, key help, a status line and the log."""

    def __init__(self, board_def, help_lines, out=None, fd=0):
        self.b = board_def
        self.lay = Layout(board_def)
        self.help = help_lines
        self.out = out or sys.stdout
        self.fd = fd
        self.rows, self.cols = 50, 160
        self._saved = None
        self._drawn = bytearray(3 * board_def.led_count)  # colours on screen now
        self._frame = bytearray(3 * board_def.led_count)
        self._display = [""] * 8
        self._big = bytes(8)  # each row's width scale (large print), 0 for small text
        self._log = []
        self._status = ""
        self._top = 1  # screen row of the board frame
        self._place()

    # terminal modes
    def enter(self):
        try:
            self._saved = termios.tcgetattr(self.fd)
            termios.setraw(self.fd)
        except OSError:
            self._saved = None  # not a terminal: draw anyway (tests, pipes)
        # Alternate screen, no cursor, SGR mouse clicks, then ask where the far corner is (the size).
        self.w(_CSI + "?1049h" + _CSI + "?25l" + _CSI + "?1000h" + _CSI + "?1006h")
        self.query_size()
        self.redraw()

    def leave(self):
        self.w(_CSI + "?1000l" + _CSI + "?1006l" + _RESET + _CSI + "?25h" + _CSI + "?1049l")
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSANOW, self._saved)
            self._saved = None

    def query_size(self):
        self.w(_CSI + "s" + _CSI + "999;999H" + _CSI + "6n" + _CSI + "u")

    def resize(self, rows, cols):
        if (rows, cols) != (self.rows, self.cols):
            self.rows, self.cols = rows, cols
            self._place()
            self.redraw()

    def minimum(self):
        """(rows, cols) for the board, its display and help beside it, and a few log lines."""
        lay = self.lay
        return self._top + max(lay.height + 2, 11 + len(self.help)) + 1 + 3, lay.width + 2 + _PANEL_W

    def _place(self):
        lay = self.lay
        self._wide = self.cols >= lay.width + 2 + _PANEL_W
        if self._wide:
            self._panel = (self._top, lay.width + 5)
            self._log_top = self._top + max(lay.height + 2, 11 + len(self.help)) + 1
        else:
            self._panel = (self._top + lay.height + 2, 1)
            self._log_top = self._panel[0] + 11 + len(self.help)
        self._log_rows = max(3, self.rows - self._log_top - 1)

    def w(self, s):
        self.out.write(s)

    def at(self, row, col, s):
        self.out.write("%s%d;%dH%s" % (_CSI, row, col, s))

    # drawing
    def redraw(self):
        self.w(_RESET + _CSI + "2J")
        lay = self.lay
        top, left = self._top, 1
        line = "─" * lay.width
        self.at(top, left, _DIM + "┌" + line + "┐")
        for r in range(1, lay.height + 1):
            self.at(top + r, left, "│")
            self.at(top + r, left + lay.width + 1, "│")
        self.at(top + lay.height + 1, left, "└" + line + "┘" + _RESET)
        self.at(top, left + 2, " %s " % self.b.name)
        need_rows, need_cols = self.minimum()
        if self.rows < need_rows or self.cols < need_cols:
            # Said on the top line, which every terminal shows: the display may be off the screen.
            warn = " terminal %dx%d: the board and its display need %dx%d " % (
                self.cols,
                self.rows,
                need_cols,
                need_rows,
            )
            self.at(top, left, _RESET + _CSI + "7m" + warn[: self.cols - 1] + _RESET)
        for row, col, text in lay.labels:
            self.at(top + 1 + row, left + 1 + col, _DIM + text + _RESET)
        for i in range(len(self._drawn)):
            self._drawn[i] = 0
        for i in range(lay.count):
            self._hole(i)
        self._draw_panel()
        self._draw_display()
        self._draw_log()
        self._draw_status()

    def _hole(self, i):
        lay = self.lay
        k = 3 * lay.led[i]
        f = self._frame
        r, g, b = f[k], f[k + 1], f[k + 2]
        self._drawn[k], self._drawn[k + 1], self._drawn[k + 2] = r, g, b
        pos = "%s%d;%dH" % (_CSI, self._top + 1 + lay.row[i], 2 + lay.col[i])
        if r | g | b:
            self.w("%s%s38;2;%d;%d;%dm%s" % (pos, _CSI, _EYE[r], _EYE[g], _EYE[b], _GLYPH_ON[lay.kind[i]]))
        else:
            self.w(pos + _DARK + _GLYPH_OFF[lay.kind[i]])

    def leds(self, frame):
        """Draw the holes whose LED changed since the last frame."""
        self._frame[:] = frame
        lay = self.lay
        drawn = self._drawn
        changed = False
        for i in range(lay.count):
            k = 3 * lay.led[i]
            if frame[k] != drawn[k] or frame[k + 1] != drawn[k + 1] or frame[k + 2] != drawn[k + 2]:
                self._hole(i)
                changed = True
        if changed:
            self.w(_RESET)

    def _draw_panel(self):
        row, col = self._panel
        self.at(row, col, _DIM + "┌ display " + "─" * 7 + "┐")
        for r in range(8):
            self.at(row + 1 + r, col, "│")
            self.at(row + 1 + r, col + 17, "│")
        self.at(row + 9, col, "└" + "─" * 16 + "┘" + _RESET)
        legend = []
        for s in range(self.b.sides):
            r, g, b = self.b.colours[s]
            name = self.b.side_names[s]
            legend.append("%s38;2;%d;%d;%dm● %s%s" % (_CSI, _EYE[r], _EYE[g], _EYE[b], name, _RESET))
        self.at(row + 10, col, "  ".join(legend))
        for i in range(len(self.help)):
            self.at(row + 11 + i, col, _DIM + self.help[i] + _RESET)

    def display(self, rows, big=bytes(8)):
        """The display's rows; big: each row's width scale, 0 for small text (large print's big rows
        cover 3 rows and are drawn as the glass shows them, board/large.py)."""
        self._display = list(rows)
        self._big = big
        self._draw_display()

    def _draw_display(self):
        row, col = self._panel
        big = self._big
        r = 0
        while r < 8:
            text = self._display[r] if r < len(self._display) else ""
            lines = big_rows(text, big[r]) if big[r] else None
            if lines is None:
                lines = [(text + " " * 16)[:16]]
            for line in lines:
                if r < 8:
                    self.at(row + 1 + r, col + 1, _CSI + "1;97;44m" + line + _RESET)
                r += 1

    def log(self, msg):
        self._log.append(msg)
        if len(self._log) > 200:
            self._log = self._log[-100:]
        self._draw_log()

    def _draw_log(self):
        n = self._log_rows
        width = max(20, self.cols - 2)
        lines = []
        for text in self._log[-n:]:
            # A line wider than the terminal goes on over the next rows, cut at a space and indented
            # past the time (the start-up line is longer than the README's 139 columns).
            while len(text) > width:
                i = text.rfind(" ", width // 2, width + 1)
                if i < 0:
                    i = width
                lines.append(text[:i])
                text = " " * 10 + text[i:].lstrip()
            lines.append(text)
        lines = lines[-n:]
        for i in range(n):
            self.at(self._log_top + i, 1, _CSI + "2K" + (lines[i] if i < len(lines) else ""))

    def status(self, text):
        if text != self._status:
            self._status = text
            self._draw_status()

    def _draw_status(self):
        self.at(self._log_top - 1, 1, _CSI + "2K" + _CSI + "7m" + self._status[: self.cols - 1] + _RESET)

    def click(self, row, col):
        """(side, hole) under a mouse click at screen row/col (0-based), or None."""
        return self.lay.at(row + 1 - self._top - 1, col + 1 - 2)


def big_rows(text, w):
    """A big row (text w text columns a character, 3 rows high) as 3 rows of 16 braille characters,
    each dot a 4 x 2 pixel block of the OLED's 8 x 8 cell: the real font scaled by hal.bigtext on a
    FrameBuffer, as the glass shows it (w 2 and 3). None where there is no framebuf (CPython)."""
    if w == 1:
        # 8 x 24 px glyphs are 2 braille dots wide here, too few for any letter: the text on the
        # middle of its 3 rows, as tall on the glass as the rows it takes.
        return [" " * 16, (text + " " * 16)[:16], " " * 16]
    try:
        import framebuf

        from hal import bigtext
    except ImportError:
        return None
    buf = bytearray(16 * 24)
    fb = framebuf.FrameBuffer(buf, 128, 24, framebuf.MONO_HLSB)
    bigtext.draw(fb, 0, 0, "\x01\x02\x03"[w - 1 : w] + text.rstrip())
    lines = []
    for r in range(3):
        line = ""
        for c in range(16):
            dots = 0
            for dy in range(4):
                for dx in range(2):
                    # the pixel at the dot's middle: an OR of its 4 x 2 would close the font's gaps
                    if buf[(8 * r + 2 * dy + 1) * 16 + c] & (0x20 >> 4 * dx):
                        dots |= _DOT[dy * 2 + dx]
            line += chr(0x2800 + dots) if dots else " "
        lines.append(line)
    return lines


_DOT = (0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80)  # braille dot (row, column) -> its bit
