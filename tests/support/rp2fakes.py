# Fakes of the Pico's machine, rp2, micropython and ssd1306 modules for testing firmware/hal/rp2.py
# off the board: duck-typed classes with real attributes (a typo is an AttributeError, not a silent
# Mock), a 74HC165 chain that shifts like the chip, and a key matrix wired through the pins.
import sys

PIN_MODES = ("IN", "OUT", "OPEN_DRAIN")


class Clock:
    """time's ticks_* and sleep_us on a microsecond counter that only moves when asked (or slept)."""

    def __init__(self):
        self.us = 0

    def ticks_us(self):
        self.us += 1  # every look at the clock costs a little time, so busy-waits end
        return self.us

    def ticks_ms(self):
        return self.us // 1000

    def ticks_diff(self, a, b):
        return a - b

    def sleep_us(self, us):
        self.us += us


class Machine:
    """The fake `machine` module: pins by GPIO number, one SPI and I2C per id, the watchdog."""

    def __init__(self):
        self.pins = {}
        self.spi = {}
        self.i2c = {}
        self.pwm = {}
        self.wdt = None
        self.chain = None  # a Chain74HC165 wired to the SPI bus and latch pin, if any
        self.matrix = None  # a KeyMatrixWiring, if any
        machine = self

        class Pin:
            IN = 0
            OUT = 1
            OPEN_DRAIN = 2
            PULL_UP = 1
            PULL_DOWN = 2

            def __init__(self, gp, mode=-1, pull=-1, value=None):
                # As on the Pico, Pin(n) alone refers to the pin without changing how it is set up.
                old = machine.pins.get(gp)
                self.gp = gp
                self.mode = old.mode if old is not None and mode == -1 else mode
                self.pull = old.pull if old is not None and pull == -1 else pull
                self.level = old.level if old is not None and value is None else value
                machine.pins[gp] = self

            def value(self, v=None):
                if v is None:
                    return machine.read(self)
                self.level = v
                machine.wrote(self, v)
                return None

        class SPI:
            MSB = 0
            LSB = 1

            def __init__(self, bus, **kw):
                self.bus = bus
                self.kw = kw
                machine.spi[bus] = self

            def readinto(self, buf, write=0):
                machine.chain.shift_into(buf)

        class I2C:
            def __init__(self, bus, **kw):
                self.bus = bus
                self.kw = kw
                machine.i2c[bus] = self

        class PWM:
            """A PWM slice on a pin: its frequency and duty as last set (machine.pwm[gp])."""

            def __init__(self, pin):
                self.pin = pin
                self.hz = 0
                self.duty = None
                machine.pwm[pin.gp] = self

            def freq(self, hz):
                self.hz = hz

            def duty_u16(self, duty):
                self.duty = duty

        class WDT:
            def __init__(self, timeout):
                self.timeout = timeout
                self.feeds = 0
                machine.wdt = self

            def feed(self):
                self.feeds += 1

        self.Pin = Pin
        self.SPI = SPI
        self.I2C = I2C
        self.WDT = WDT
        self.PWM = PWM

    def unique_id(self):
        return b"\xe6\x61\x38\x52\x83\x1c\x2a\x21"

    def read(self, pin):
        if self.matrix is not None and pin.gp in self.matrix.cols:
            return self.matrix.column_level(pin.gp)
        return pin.level or 0

    def wrote(self, pin, v):
        if self.chain is not None and pin.gp == self.chain.latch_gp:
            self.chain.latch(v)


class Chain74HC165:
    """A chain of 74HC165s: PL low loads the inputs, PL high shifts one bit out per SPI clock.

    inputs[b] is the electrical level of chain bit b (b = byte b // 8, mask 0x80 >> b % 8 of a read),
    the order the chips present them at the chain's output. SER of the last chip is tied to GND,
    so clocking past the end (or reading again without a load) shifts in zeros.
    """

    def __init__(self, nbits, latch_gp):
        self.inputs = bytearray(nbits)
        self.latch_gp = latch_gp
        self._reg = bytearray(nbits)
        self._pl = 1
        self.loads = 0

    def latch(self, v):
        if self._pl and not v:
            self._reg[:] = self.inputs
            self.loads += 1
        self._pl = v

    def shift_into(self, buf):
        if not self._pl:
            raise AssertionError("SPI clocked while PL is low: the chips would not shift")
        for i in range(len(buf)):
            byte = 0
            for _ in range(8):
                byte = (byte << 1) | self._reg[0]
                self._reg[:] = self._reg[1:] + bytearray(1)
            buf[i] = byte


class KeyMatrixWiring:
    """Rows and columns of GPIOs with a key and diode at each crossing: a column reads 0 while a key
    on it is down and that key's row is driven low."""

    def __init__(self, machine, rows, cols):
        self.machine = machine
        self.rows = list(rows)
        self.cols = list(cols)
        self.down = set()  # (row, col) of keys held

    def column_level(self, gp):
        c = self.cols.index(gp)
        for r in range(len(self.rows)):
            pin = self.machine.pins.get(self.rows[r])
            if (r, c) in self.down and pin is not None and pin.level == 0:
                return 0
        return 1


class Rp2:
    """The fake `rp2` module: asm_pio keeps the program, StateMachine/DMA record what reaches the wire."""

    def __init__(self):
        self.machines = {}
        self.dmas = []
        rp2 = self

        class PIO:
            OUT_LOW = 2
            SHIFT_LEFT = 0
            JOIN_TX = 1

        def asm_pio(**kw):
            def keep(fn):
                return fn

            return keep

        class StateMachine:
            def __init__(self, sm_id, program, freq=0, sideset_base=None):
                self.sm_id = sm_id
                self.freq = freq
                self.pin = sideset_base
                self.running = False
                self.words = []  # every word DMA'd into the TX FIFO
                rp2.machines[sm_id] = self

            def active(self, v=None):
                if v is not None:
                    self.running = bool(v)
                return self.running

        class DMA:
            def __init__(self):
                self.closed = False
                self.transfers = 0
                rp2.dmas.append(self)

            def pack_ctrl(self, size=2, inc_write=True, treq_sel=63):
                return size | (int(inc_write) << 5) | (treq_sel << 15)

            def config(self, read=None, write=None, count=0, ctrl=0, trigger=False):
                assert trigger and write is not None and read is not None
                assert (ctrl >> 15) & 63 == write.sm_id, "paced by another state machine's DREQ"
                write.words.extend(read[i] for i in range(count))
                self.transfers += 1

            def active(self, v=None):
                return False

            def close(self):
                self.closed = True

        self.PIO = PIO
        self.asm_pio = asm_pio
        self.StateMachine = StateMachine
        self.DMA = DMA


class Ssd1306:
    """The fake micropython-lib `ssd1306` module: SSD1306_I2C draws text into 8 rows of 16 cells."""

    def __init__(self):
        oled_mod = self

        class SSD1306_I2C:
            def __init__(self, width, height, i2c, addr=0x3C):
                self.size = (width, height)
                self.i2c = i2c
                self.addr = addr
                self.cells = [[" "] * 16 for _ in range(8)]
                self.shown = []
                oled_mod.oled = self

            def fill(self, c):
                self.cells = [[" "] * 16 for _ in range(8)]

            def text(self, s, x, y, c=1):
                assert x % 8 == 0 and y % 8 == 0
                for i in range(len(s)):
                    if x // 8 + i < 16:
                        self.cells[y // 8][x // 8 + i] = s[i]

            def show(self):
                self.shown.append("\n".join("".join(r).rstrip() for r in self.cells).rstrip())

        self.SSD1306_I2C = SSD1306_I2C
        self.oled = None


class Micropython:
    """CPython only: viper becomes plain Python over a bytearray and an array("I")."""

    @staticmethod
    def viper(fn):
        return fn

    @staticmethod
    def native(fn):
        return fn

    @staticmethod
    def const(x):
        return x


_NAMES = ("machine", "rp2", "ssd1306", "hal.rp2", "hal.ws2812", "hal.piezo")


def install():
    """Put the fakes where `import machine` etc. find them; -> (machine, rp2, ssd1306)."""
    m, r, o = Machine(), Rp2(), Ssd1306()
    for name in ("hal.rp2", "hal.ws2812", "hal.piezo"):
        sys.modules.pop(name, None)
    sys.modules["machine"] = m
    sys.modules["rp2"] = r
    sys.modules["ssd1306"] = o
    if sys.implementation.name != "micropython":
        import builtins

        sys.modules["micropython"] = Micropython
        # The viper emitter's pointer casts: a bytearray and an array("I") index the same way.
        builtins.ptr8 = lambda buf: buf
        builtins.ptr32 = lambda buf: buf
    return m, r, o


def reference_hal(storage="/tmp", board=None):
    """hal.rp2's Hal of the reference board made on the fakes, on one fake clock; -> (hal, machine, rp2,
    ssd1306, board, the hal.rp2 module); board: another Board to wire instead. uninstall() after."""
    import board_fixture

    m, r, o = install()
    hal_rp2 = hal_module("rp2")
    clock = Clock()
    hal_rp2.time = clock
    hal_module("ws2812").time = clock
    b = board or board_fixture.reference()
    m.chain = Chain74HC165(b.sensor_bits, b.wiring.pins["sensor_latch"])
    m.matrix = KeyMatrixWiring(m, b.wiring.key_rows, b.wiring.key_cols)
    return hal_rp2.make(b, {"storage_dir": storage}), m, r, o, b, hal_rp2


def hal_module(name):
    """A fresh import of hal.<name> against the fakes (the hal package may still hold a stale one)."""
    full = "hal." + name
    __import__(full)
    return sys.modules[full]


def uninstall():
    for name in _NAMES:
        sys.modules.pop(name, None)
    if sys.implementation.name != "micropython":
        sys.modules.pop("micropython", None)
