# Derived state -> LED frame in one preallocated bytearray: pegs, proposal, dealer, match points, animations.
# frame = f(view, now_ms): nothing here blocks or keeps time itself, so an animation never delays
# input, and a frame is only redrawn when the view or its blink/animation phase changed. Nothing
# allocates after __init__ (tests/board/test_board_alloc_mp.py proves it under heap_lock).
from array import array

from board.render import anims
from board.ticks import diff

try:
    import framebuf
except ImportError:  # CPython: a blank frame to copy instead
    framebuf = None

from cribbage import const

# The view: what the board shows, filled by the app from the game and the controller each step.
FRONT = const(0)  # + track: front peg hole (0 = start hole, 1..120, 121 = game hole, -1 unused)
BACK = const(3)  # + side: back peg hole
POINTS = const(6)  # + side: match points (game-record holes)
SIDES = const(9)  # tracks drawn
DEALER = const(10)  # side of the dealer, -1 before the first deal
WINNER = const(11)  # side that won the game, -1 while it runs
PEND_SIDE = const(12)  # side of a proposed score, -1 when none
PEND_HOLE = const(13)  # its hole (blinks)
PEND_T0 = const(14)  # tick the proposal was made, so the blink starts lit
ANIM = const(15)  # anims.* running, 0 when none
ANIM_SIDE = const(16)
ANIM_T0 = const(17)  # tick the animation started
ANIM_ARG = const(18)  # animation detail (skunk line, loser side, ...)
BRIGHT = const(19)  # brightness 1..255
PHASE = const(20)  # derived here: blink state and animation frame number (a wink: minus its number)
CUE = const(21)  # 1: the front pegs wink, side k's k+1 times a cycle: the sides told apart without colour
SIZE = const(22)

# Back peg, game-record and dealer LEDs at a fraction of the side's colour, in 1/256ths.
_BACK_LEVEL = const(48)
_RECORD_LEVEL = const(64)
_DEALER_LEVEL = const(96)
# The winks' cycle: wink k (1, 2, 3) darkens the front pegs of tracks k-1 and up for _WINK_MS, a
# _WINK_MS apart, so track 0's peg winks once a cycle, track 1's twice and track 2's three times.
_CUE_MS = const(2000)
_WINK_MS = const(150)


class Render:
    blink_ms = 250

    def __init__(self, board_def, limiter):
        self.board = board_def
        self.limiter = limiter
        self.frame = bytearray(3 * board_def.led_count)
        self._blanker = None
        self._blank = None
        if framebuf is not None:
            # The frame seen as one row of 8-bit pixels: fill(0) blanks it in C, with no second
            # frame-sized buffer of zeros to copy from, on the heap for good.
            self._blanker = framebuf.FrameBuffer(self.frame, 3 * board_def.led_count, 1, framebuf.GS8)
        else:
            self._blank = bytearray(3 * board_def.led_count)
        self.view = array("i", range(SIZE))  # [array rule]
        for i in range(SIZE):
            self.view[i] = 0
        self.view[DEALER] = self.view[WINNER] = self.view[PEND_SIDE] = -1
        self.view[SIDES] = board_def.sides
        self.view[BRIGHT] = board_def.brightness
        self._last = array("i", range(SIZE))
        for i in range(SIZE):
            self._last[i] = -1
        # The view and the last one drawn seen as rows of bytes: update() compares them with == and
        # copies one over the other with blit, both in C (a Python loop over the 21 entries was a
        # fifth of a frame's render on a Pico).
        self._shown = self._view = None
        if framebuf is not None:
            self._shown = framebuf.FrameBuffer(self._last, 4 * SIZE, 1, framebuf.GS8)
            self._view = framebuf.FrameBuffer(self.view, 4 * SIZE, 1, framebuf.GS8)
        # per side: full, back, record, dealer colour (r, g, b each) at the current brightness
        self.colours = bytearray(12 * board_def.sides)
        self.bright = -1  # brightness the colours were made for
        self.redraws = 0

    def _set_brightness(self, bright):
        self.bright = bright
        c = self.colours
        for side in range(self.board.sides):
            rgb = self.board.colours[side]
            for ch in range(3):
                full = rgb[ch] * bright // 255
                o = 12 * side + ch
                c[o] = full
                c[o + 3] = full * _BACK_LEVEL >> 8
                c[o + 6] = full * _RECORD_LEVEL >> 8
                c[o + 9] = full * _DEALER_LEVEL >> 8

    def front(self, side):
        return self.view[FRONT + side]

    def put(self, led, r, g, b):
        f = self.frame
        i = 3 * led
        f[i] = r
        f[i + 1] = g
        f[i + 2] = b

    def put_side(self, led, side, level):
        """LED in side's colour; level 0 full, 1 back peg, 2 record, 3 dealer."""
        c = self.colours
        o = 12 * side + 3 * level
        f = self.frame
        i = 3 * led
        f[i] = c[o]
        f[i + 1] = c[o + 1]
        f[i + 2] = c[o + 2]

    def peg(self, side, hole, level):
        """A side's peg in `hole` at `level` (0 front, 1 back: also the start hole's slot): hole_led and
        put_side in one call, the two a frame's pegs cost most (a call costs more than its work). Names are
        reused so that the frame stays within 11 words (docs/memory.md)."""
        if hole <= 0:
            hole = self.board.led_start[side][level]
        elif hole > 120:
            hole = self.board.led_game
        else:
            hole = self.board.led_track[side][hole - 1]
        hole *= 3  # the LED's first byte in the frame
        level = 12 * side + 3 * level  # its colour in self.colours
        side = self.colours
        f = self.frame
        f[hole] = side[level]
        f[hole + 1] = side[level + 1]
        f[hole + 2] = side[level + 2]

    def hole_led(self, side, hole, start_slot=0):
        """LED of a side's hole: 0 a start hole, 1..120 the track, 121 and over the game hole."""
        b = self.board
        if hole <= 0:
            return b.led_start[side][start_slot]
        if hole > 120:
            return b.led_game
        return b.led_track[side][hole - 1]

    def update(self, now):
        """Redraw the frame if anything shown changed; True when the frame is new."""
        v = self.view
        phase = 0
        if v[ANIM]:
            t = diff(now, v[ANIM_T0])
            if t >= anims.duration(v[ANIM]) or t < 0:
                v[ANIM] = 0
            else:
                phase = 1 + t // anims.FRAME_MS
        if not phase and v[PEND_SIDE] >= 0:
            phase = 1 + (diff(now, v[PEND_T0]) // self.blink_ms & 1)
        elif not phase and v[CUE]:
            t = now % _CUE_MS
            k = t // (2 * _WINK_MS)
            if k < v[SIDES] and t % (2 * _WINK_MS) < _WINK_MS:
                phase = -1 - k
        v[PHASE] = phase
        if v == self._last:
            return False
        if self._shown is not None:
            self._shown.blit(self._view, 0, 0)  # pyright: ignore[reportArgumentType] (set with _shown)
        else:
            self._last[:] = v
        self._draw(now)
        return True

    def _draw(self, now):
        v = self.view
        if v[BRIGHT] != self.bright:
            self._set_brightness(v[BRIGHT])
        if self._blanker is not None:
            self._blanker.fill(0)
        elif self._blank is not None:
            self.frame[:] = self._blank
        b = self.board
        for side in range(v[SIDES]):
            back = v[BACK + side]
            front = v[FRONT + side]
            if front < 0:
                continue  # a track no side plays on in this game
            self.peg(side, back, 1)
            if v[PHASE] >= 0 or side < -1 - v[PHASE]:  # a wink darkens the front pegs from its track on
                self.peg(side, front, 0)
            for i in range(min(v[POINTS + side], b.record_count)):
                self.put_side(b.led_record[side][i], side, 2)
        if v[DEALER] >= 0:
            self.put_side(b.led_dealer[v[DEALER]], v[DEALER], 3)
        if v[WINNER] >= 0:
            self.put_side(b.led_game, v[WINNER], 0)
        side = v[PEND_SIDE]
        if side >= 0 and not v[ANIM]:
            led = self.hole_led(side, v[PEND_HOLE], 0)
            if v[PHASE] == 1:
                self.put_side(led, side, 0)
            else:
                self.put(led, 0, 0, 0)
        if v[ANIM]:
            anims.draw(self, v[ANIM], v[ANIM_SIDE], v[ANIM_ARG], diff(now, v[ANIM_T0]))
        # At most two pegs and the record holes a side, the dealer, the winner and a proposal are lit,
        # unless an animation runs: the limiter sums the frame only when that many could pass its budget.
        self.limiter.limit(self.frame, -1 if v[ANIM] else v[SIDES] * (2 + b.record_count) + 3)
        self.redraws += 1

    def animate(self, kind, side, arg, now):
        v = self.view
        v[ANIM] = kind
        v[ANIM_SIDE] = side
        v[ANIM_ARG] = arg
        v[ANIM_T0] = now
