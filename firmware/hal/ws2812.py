# WS2812B chains on the Pico: one PIO state machine per chain, fed by DMA, so the CPU is free on the wire.
#
# Why not machine.bitstream: it bit-bangs with interrupts off for the whole frame, 30 us a LED
# (24 bits at 800 kHz), about 12 ms for this board's 397 LEDs, during which USB CDC and the tick stall.
# Here the CPU only packs the frame (a viper loop, well under 0.1 ms) and starts one DMA a chain; the
# PIO programs clock the bits out in parallel, so the wire time is the longest chain (133 LEDs: 4 ms).
import time
from array import array

import micropython
import rp2
from machine import Pin

TYPE_CHECKING = False
if TYPE_CHECKING:  # the PIO assembler's names exist only inside @asm_pio at run time
    from rp2.asm_pio import *  # noqa: F403

_US_PER_LED = 30  # 24 bits x 1.25 us
_LATCH_US = 300  # low time that ends a frame: WS2812B V5 needs > 280 us (older parts 50 us)
_FIFO_LEDS = 9  # words still in the joined 8-deep TX FIFO and the OSR when DMA reports done


# 10 PIO cycles a bit at 8 MHz = 1.25 us: high 2 cycles then low 8 for a 0, high 7 then low 3 for a 1.
@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopull=True,
    pull_thresh=24,
    fifo_join=rp2.PIO.JOIN_TX,
)
def _ws2812():
    wrap_target()  # noqa: F405
    label("bitloop")  # noqa: F405
    out(x, 1).side(0)[2]  # noqa: F405
    jmp(not_x, "do_zero").side(1)[1]  # noqa: F405
    jmp("bitloop").side(1)[4]  # noqa: F405
    label("do_zero")  # noqa: F405
    nop().side(0)[4]  # noqa: F405
    wrap()  # noqa: F405


# Wire byte order -> offsets of those colours in an R,G,B frame.
ORDERS = {"GRB": (1, 0, 2), "RGB": (0, 1, 2), "BRG": (2, 0, 1)}


@micropython.viper
def pack(frame, words, first: int, n: int, a: int, b: int, c: int):
    """words[k] = the 24 bits of LED first+k, wire order (offsets a, b, c), left-aligned for the PIO."""
    src = ptr8(frame)  # noqa: F405
    dst = ptr32(words)  # noqa: F405
    j = first * 3
    k = 0
    while k < n:
        dst[k] = (src[j + a] << 24) | (src[j + b] << 16) | (src[j + c] << 8)
        j += 3
        k += 1


class Chains:
    """hal.leds: write(frame) packs an R,G,B frame and starts every chain's DMA; returns at once."""

    def __init__(self, pins, counts, order="GRB", pio=0, first_sm=0):
        self.count = sum(counts)
        self._a, self._b, self._c = ORDERS[order]
        self._chains = []
        start = 0
        for i in range(len(pins)):
            sm_id = first_sm + i
            sm = rp2.StateMachine(pio * 4 + sm_id, _ws2812, freq=8_000_000, sideset_base=Pin(pins[i]))
            sm.active(1)
            dma = rp2.DMA()
            # Words, read address walking the array, write address fixed on the FIFO, paced by its DREQ.
            ctrl = dma.pack_ctrl(size=2, inc_write=False, treq_sel=(pio << 3) + sm_id)
            words = array("I", range(counts[i]))  # packed before each send [array rule]
            self._chains.append((sm, dma, ctrl, words, start, counts[i]))
            start += counts[i]
        self._frame_us = (max(counts) + _FIFO_LEDS) * _US_PER_LED + _LATCH_US
        self._started = time.ticks_us()
        self._busy = False

    def busy(self):
        """True while the last frame is still going out on the wire (or latching)."""
        if not self._busy:
            return False
        if time.ticks_diff(time.ticks_us(), self._started) < self._frame_us:
            return True
        self._busy = False
        return False

    def write(self, frame):
        # A new frame must not overwrite words the DMA is still reading, nor cut the latch short;
        # the app renders far slower than the 4 ms wire time, so this wait is normally zero.
        while self.busy():
            pass
        a, b, c = self._a, self._b, self._c
        for chain in self._chains:
            pack(frame, chain[3], chain[4], chain[5], a, b, c)
        self._started = time.ticks_us()
        self._busy = True
        for chain in self._chains:
            chain[1].config(read=chain[3], write=chain[0], count=chain[5], ctrl=chain[2], trigger=True)

    def close(self):
        for chain in self._chains:
            chain[1].close()
            chain[0].active(0)
