# The Pico's HAL (docs/hal.md): LEDs, 74HC165 hole sensors, key matrix, SSD1306, watchdog, USB link.
# Every part takes its pins as duck-typed objects (Hinch's manner), so tests drive it with fakes.
import gc
import os
import select
import sys
import time

import machine

from hal.lines import LineBuffer, Outbox

STORAGE = "/data"
# Bytes a write hands to the CDC at once: a records stream's whole chunk. MicroPython's CDC write moves
# them a packet at a time as the host takes them (a call each 64-byte packet cost more than the bytes).
_WRITE_MAX = 2048
_BLANK = (" ", "\t", 32, 9)  # a line's first item, str or bytes
_WDT_MAX_MS = 8388  # the RP2040 watchdog's longest timeout


class SensorChain:
    """hal.sensors: a 74HC165 chain on SPI; bit 0 of the chain lands in bit 7 of byte 0 (MSB first).

    PL (the latch pin) low copies every chip's inputs into its shift register; PL high lets it shift,
    with the first bit already on the chain's output, so SPI mode 0 reads it on the first clock.
    On an active-low board the reading is inverted, so a set bit is always a peg or a tap.
    """

    def __init__(self, spi, latch, active_low):
        self._spi = spi
        self._latch = latch
        self._invert = active_low
        latch.value(1)

    def readinto(self, buf):
        self._latch.value(0)
        self._latch.value(1)
        self._spi.readinto(buf, 0)
        if self._invert:
            for i in range(len(buf)):
                buf[i] ^= 0xFF


class KeyMatrix:
    """hal.keys: rows driven low one at a time (open drain), columns pulled up, a diode a key.

    scan() -> int, bit r * len(cols) + c set while the key at row r, column c is down (row-major,
    the order of board_def.key_names); positions with no key are masked out.
    """

    settle_us = 10  # the column pull-ups recharging the wiring after a row changes

    def __init__(self, rows, cols, mask=-1):
        self._rows = rows
        self._cols = cols
        self._mask = mask
        for r in range(len(rows)):
            rows[r].value(1)  # released: open drain floats

    def scan(self):
        bits = 0
        cols = self._cols
        n = len(cols)
        for r in range(len(self._rows)):
            row = self._rows[r]
            row.value(0)
            time.sleep_us(self.settle_us)
            for c in range(n):
                if not cols[c].value():
                    bits |= 1 << (r * n + c)
            row.value(1)
        return bits & self._mask


class Display:
    """hal.display: 16 x 8 cells of 8 x 8 text on micropython-lib's SSD1306 driver (a FrameBuffer), and
    large print's big rows (their first character the width scale, hal/bigtext.py)."""

    def __init__(self, oled, log):
        self._oled = oled
        self._log = log
        self.missing = oled is None

    def text(self, row, col, s):
        oled = self._oled
        if oled is None:
            return
        if s and s < " ":  # a big row: hal.bigtext, loaded at the first (no room: the text small)
            try:
                from hal.bigtext import draw

                draw(oled, row, col, s)
                return
            except MemoryError:
                s = s[1:]
        oled.text(s, col * 8, row * 8, 1)

    def fill(self, c):
        if self._oled is not None:
            self._oled.fill(c)

    def show(self):
        if self._oled is None:
            return
        try:
            self._oled.show()  # about 23 ms of I2C at 400 kHz for the 1 KB frame
        except OSError as e:
            # A display knocked loose must not stop the game: log once, carry on without it.
            self._oled = None
            self.missing = True
            self._log("display lost: %r" % (e,))


class UsbLink:
    """hal.link over the USB CDC serial port the REPL also uses (docs/protocol.md).

    read_line() reads only until one line is whole and leaves the rest in the USB buffer, so a host
    that floods the port is held back by USB flow control instead of filling the heap.

    `session` changes when a host comes or goes, as far as the Pico can tell. Stock MicroPython
    gives Python no line state (DTR) for the REPL's own CDC port, so: the blank line a laptop sends
    when it opens the port (docs/protocol.md) counts as a new host; and where a DTR reading exists
    (`dtr`: a callable, e.g. lambda: cdc.dtr for micropython-lib's usb-device-cdc second port) its
    changes count too. A laptop that just goes away on the REPL's port is noticed only when the
    next one says hello.
    """

    def __init__(self, stream_in=None, stream_out=None, dtr=None):
        self._in = stream_in if stream_in is not None else sys.stdin
        self._out = stream_out if stream_out is not None else sys.stdout
        # Bytes, not text: the binary stream under sys.stdin where there is one.
        self._reader = getattr(self._in, "buffer", self._in)
        self._writer = getattr(self._out, "buffer", self._out)
        # A byte at a time: stdin's readinto blocks until the whole buffer is filled.
        self._lines = LineBuffer(chunk=1)
        self._poll = None
        self._wpoll = None
        self._polled = stream_in is None
        self._dtr = dtr
        self._dtr_was = None
        self.session = 0
        # Writes wait for nobody: MicroPython's CDC write waits up to its TX timeout (500 ms) for
        # room each call, so a host that holds the port open and never reads stalled the board
        # for that long at every reply. Replies wait in the outbox instead, handed over only while
        # the port has room, and a host that takes nothing for 2 s is dropped (docs/protocol.md).
        self._box = Outbox()
        self._small = False  # the last write was cut short: a byte at a time until the box empties
        self._muted = False  # the host was dropped: nothing goes out until a laptop says hello

    def _ready(self):
        if self._poll is None:
            if not self._polled:
                return False
            # Registered on first use, so building the HAL never touches the console.
            self._poll = select.poll()
            self._poll.register(self._in, select.POLLIN)
        for _ in self._poll.ipoll(0):
            return True
        return False

    def _room(self):
        """True when the CDC TX buffer takes a byte now (POLLOUT: some room, or no host holds the
        port and MicroPython keeps the latest bytes)."""
        if self._wpoll is None:
            if not self._polled:
                return True
            self._wpoll = select.poll()
            self._wpoll.register(self._out, select.POLLOUT)
        for _ in self._wpoll.ipoll(0):
            return True
        return False

    def _readinto(self, buf):
        if not self._ready():
            return 0
        return self._reader.readinto(buf)  # pyright: ignore[reportAttributeAccessIssue]

    def read_line(self):
        if self._dtr is not None:
            dtr = bool(self._dtr())
            if dtr != self._dtr_was:
                if self._dtr_was is not None:
                    self._new_host()
                self._dtr_was = dtr
        if self._box.size:
            self._flush()
        line = self._lines.read_line(self._readinto)
        if line is not None and (not line or line[0] in _BLANK) and not line.strip():
            self._new_host()  # a laptop opening the port ends any half line with a blank one
        return line

    @property
    def size(self):
        """Bytes of replies still waiting for the host (the link streams its next chunk at 0)."""
        return self._box.size

    def _new_host(self):
        self.session += 1
        self._box.clear()  # what waited was for the last host
        self._small = False
        self._muted = False

    def send(self, view):
        if not self._room():
            return 0
        want = 1 if self._small else min(len(view), _WRITE_MAX)
        n = self._writer.write(view[:want])
        if n is None:
            n = want  # a stream that does not count (MicroPython's own does)
        if n < want:
            self._small = True  # MicroPython gave up after its TX timeout: only a byte at a time now
        return n

    def _flush(self):
        if not self._box.flush(self.send, time.ticks_ms(), time.ticks_diff):  # pyright: ignore
            self._drop()
        elif not self._box.size:
            self._small = False

    def _drop(self):
        """The host does not read: forget what waits for it and write nothing more until a laptop
        says hello (its blank line): it counts as gone, so the app ends its subscription."""
        self._box.clear()
        self._muted = True
        self.session += 1

    def write(self, data):
        if self._muted:
            return
        if not self._box.put(data):
            self._drop()
            return
        self._flush()


class _Watchdog:
    def __init__(self, wdt):
        self._wdt = wdt

    def feed(self):
        self._wdt.feed()


class Hal:
    """The Pico's parts, set up by make() (its code is dropped after boot: make's docstring)."""

    def __init__(self, board_def, storage_dir, leds, sensors, keys, display):
        self.board_def = board_def
        self.storage_dir = storage_dir
        self.unique_id = "".join("%02x" % x for x in machine.unique_id())
        self.leds = leds
        self.sensors = sensors
        self.keys = keys
        self.display = display
        self.link = UsbLink()
        self.piezo = None  # a Piezo when the board file gives its pin (make)
        self._heap_told = 0

    def board_uid(self):
        """The board's identity for the laptop's history: hex of the chip's unique id."""
        return self.unique_id

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    async def sleep_ms(self, ms):
        import asyncio

        await asyncio.sleep_ms(ms)

    def watchdog(self, timeout_ms):
        return _Watchdog(machine.WDT(timeout=min(timeout_ms, _WDT_MAX_MS)))

    def log(self, msg):
        print(msg)

    def heap_seen(self):
        """App.calm_gc calls this after its collections: the first, after the boot, says on the console
        how much heap the board has left to play in, and each later one that finds a kilobyte less than
        the last said says that (a mode's code loaded, a solo game's deal held): what `make
        bench-device` reports. (_heap_told: the free bytes last said, 0 before the first.)"""
        free = gc.mem_free()
        if not self._heap_told:
            self._heap_told = free
            self.log("heap: %d bytes free after boot" % free)
        elif free < self._heap_told - 1024:
            self._heap_told = free
            self.log("heap: %d bytes least free since boot" % free)

    def close(self, ended=False):
        pass  # the board keeps its last frame; a reset or power cut is the only way out


def _oled(d, log):
    try:
        import ssd1306  # pyright: ignore[reportMissingImports] (lib/ssd1306.mpy, copied by `make deploy`)
    except ImportError:
        log("no ssd1306 driver: run make deploy (it copies lib/ssd1306.mpy)")
        return None
    Pin = machine.Pin
    i2c = machine.I2C(d["i2c"], sda=Pin(d["sda"]), scl=Pin(d["scl"]), freq=d["freq"])
    try:
        return ssd1306.SSD1306_I2C(d["width"], d["height"], i2c, addr=d["address"])
    except OSError as e:  # no ACK: not wired, wrong address
        log("no display at I2C address %d: %r" % (d["address"], e))
        return None


def show_error(message, path):
    """A board file refused at start: its message on the display, if the file still says where that
    is (best effort: the file is known to be wrong somewhere), and always on the console."""
    try:
        import json

        with open(path) as f:
            raw = json.load(f)
        d = raw["display"]
        pins = raw["pins"]
        cfg = {
            "i2c": d["i2c"],
            "sda": pins["display_sda"],
            "scl": pins["display_scl"],
            "freq": d["freq"],
            "width": d["width"],
            "height": d["height"],
            "address": d["address"],
        }
        oled = _oled(cfg, print)
    except Exception as e:  # anything at all: the console already has the message
        print("no display for the error: %r" % (e,))
        return
    if oled is None:
        return
    oled.fill(0)
    text = "BOARD FILE: " + message
    for row in range(8):
        oled.text(text[row * 16 : row * 16 + 16], 0, row * 8, 1)
    oled.show()


def _makedir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # exists


def make_leds(board_def):
    """The LED chains, dark, their 5 V rail on: start.py makes them first for the first light
    (board/render/firstlight.py) and hands them to make() in options["leds"]; dropped after boot with make."""
    from hal.ws2812 import Chains  # here, so the tests of the other parts need no rp2 module

    w = board_def.wiring
    leds = Chains(w.led_pins, w.led_chains, w.led_order)
    leds.write(bytearray(3 * board_def.led_count))  # all dark before the 5 V rail comes up
    if w.led_power_pin is not None:
        machine.Pin(w.led_power_pin, machine.Pin.OUT, value=1)
    return leds


def make(board_def, options=None):
    """The Hal for board_def, wired as board_def.wiring says (start.py drops that once the board is made).
    The set-up is here, not in Hal.__init__: start.py drops this function and the ones only it calls
    once the board runs, and with the code in RAM their bytecode is heap (docs/memory.md, "Drop what
    boot alone needs")."""
    options = options or {}
    Pin = machine.Pin
    b = board_def
    w = b.wiring
    storage_dir = options.get("storage_dir", STORAGE)
    _makedir(storage_dir)
    leds = options.get("leds") or make_leds(b)

    p = w.pins
    # An unplugged chain must reach the app as all ones: pull MISO to the level that inverts to 1.
    Pin(p["sensor_miso"], Pin.IN, Pin.PULL_DOWN if b.sensor_active_low else Pin.PULL_UP)
    spi = machine.SPI(
        w.sensor_spi,
        baudrate=w.sensor_baud,
        polarity=0,
        phase=0,
        bits=8,
        firstbit=machine.SPI.MSB,
        sck=Pin(p["sensor_sck"]),
        mosi=Pin(p["sensor_mosi"]),
        miso=Pin(p["sensor_miso"]),
    )
    sensors = SensorChain(spi, Pin(p["sensor_latch"], Pin.OUT, value=1), b.sensor_active_low)

    rows = [Pin(g, Pin.OPEN_DRAIN, value=1) for g in w.key_rows]
    cols = [Pin(g, Pin.IN, Pin.PULL_UP) for g in w.key_cols]
    mask = 0
    for i in range(len(b.key_names)):
        if b.key_names[i] is not None:
            mask |= 1 << i
    keys = KeyMatrix(rows, cols, mask)
    hal = Hal(b, storage_dir, leds, sensors, keys, Display(_oled(w.display, print), print))  # Hal.log prints
    if w.piezo_pin is not None:
        from hal.piezo import Piezo  # only a board with one loads its code

        hal.piezo = Piezo(w.piezo_pin)  # pyright: ignore[reportAttributeAccessIssue] (None until fitted)
    return hal
