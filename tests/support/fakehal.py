# The fake HAL of the HAL contract (docs/hal.md) for tests: a hand-advanced clock that wraps at 2**30,
# settable key bitmap and sensor bytes, a recorded display and LED frames. No real sleeps, no I/O
# except a scratch storage folder.
import os

try:
    import random
except ImportError:  # pragma: no cover
    random = None

PERIOD = 1 << 30


def ticks_diff(a, b):
    d = (a - b) & (PERIOD - 1)
    return d - PERIOD if d >= PERIOD // 2 else d


def scratch_dir(prefix="/tmp/cribfake-"):
    """A new empty folder for the journal and settings (tempfile is not on MicroPython)."""
    while True:
        path = prefix + str(random.getrandbits(30) if random else os.getpid())
        try:
            os.mkdir(path)
            return path
        except OSError:
            continue


def remove_tree(path):
    for name in os.listdir(path):
        full = path + "/" + name
        try:
            os.remove(full)
        except OSError:
            remove_tree(full)
    os.rmdir(path)


class FakeLeds:
    def __init__(self, count):
        self.count = count
        self.frame = bytearray(3 * count)  # the last frame written
        self.writes = 0

    def write(self, frame):
        if len(frame) != 3 * self.count:
            raise ValueError("frame of %d bytes for %d LEDs" % (len(frame), self.count))
        self.frame[:] = frame
        self.writes += 1

    def rgb(self, index):
        i = 3 * index
        return (self.frame[i], self.frame[i + 1], self.frame[i + 2])


class FakeKeys:
    def __init__(self, names):
        self.names = names
        self.down = 0  # bitmap of keys held now

    def bit(self, name):
        return 1 << self.names.index(name)

    def scan(self):
        return self.down


class FakeSensors:
    def __init__(self, nbytes):
        self.raw = bytearray(nbytes)

    def readinto(self, buf):
        buf[:] = self.raw


class FakeDisplay:
    """16 x 8 text cells; `rows` is what show() last put on the glass, a big row's text (large print)
    without its mark, and `big` each row's width scale (0: small text)."""

    COLS = 16
    ROWS = 8

    def __init__(self):
        self._draft = [" " * self.COLS for _ in range(self.ROWS)]
        self._big = [0] * self.ROWS
        self.rows = list(self._draft)
        self.big = list(self._big)
        self.shows = 0

    def fill(self, c):
        self._draft = [" " * self.COLS for _ in range(self.ROWS)]
        self._big = [0] * self.ROWS

    def text(self, row, col, s):
        if not 0 <= row < self.ROWS:
            return
        if s and s < " ":  # a big row: its first character is the width scale
            self._big[row] = ord(s[:1])
            s = s[1:]
        line = self._draft[row]
        s = s[: max(0, self.COLS - col)]
        self._draft[row] = (line[:col] + s + line[col + len(s) :])[: self.COLS]

    def show(self):
        self.rows = list(self._draft)
        self.big = list(self._big)
        self.shows += 1

    def screen(self):
        """The shown text, trailing spaces stripped, one string with newlines."""
        return "\n".join(r.rstrip() for r in self.rows).rstrip("\n")


class FakeLink:
    session = 0  # one host for the fake's life
    size = 0  # no outbox: everything written is taken at once

    def __init__(self):
        self.inbox = []
        self.sent = []

    def read_line(self):
        return self.inbox.pop(0) if self.inbox else None

    def write(self, data):
        self.sent.append(bytes(data))


class FakeWatchdog:
    def __init__(self, timeout_ms):
        self.timeout_ms = timeout_ms
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class FakePiezo:
    """hal.piezo: every tone change kept as (ms, hz), on the HAL's clock."""

    def __init__(self, hal):
        self._hal = hal
        self.tones = []

    def tone(self, hz):
        self.tones.append((self._hal.now, hz))


class FakeHal:
    def __init__(self, board_def, start_ms=PERIOD - 5000, storage_dir=None, watchdog=True, piezo=False):
        self.board_def = board_def
        self.piezo = FakePiezo(self) if piezo else None
        self.now = start_ms % PERIOD
        self.leds = FakeLeds(board_def.led_count)
        self.keys = FakeKeys(list(board_def.key_names))
        self.sensors = FakeSensors(board_def.sensor_bits // 8)
        self.display = FakeDisplay()
        self.link = FakeLink()
        self.storage_dir = storage_dir or scratch_dir()
        self.logged = []
        self.uid = "f00dfeedc0ffee01"  # the chip's id (a test of two boards gives each its own)
        self.dog = None
        self._watchdog_ok = watchdog
        self.closed = False

    def board_uid(self):
        return self.uid  # hex, as machine.unique_id() on a Pico

    # clock
    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return ticks_diff(a, b)

    def advance(self, ms):
        self.now = (self.now + ms) % PERIOD

    async def sleep_ms(self, ms):  # only for completeness: tests drive app.step, never asyncio
        self.advance(ms)

    def watchdog(self, timeout_ms):
        if not self._watchdog_ok:
            return None
        self.dog = FakeWatchdog(timeout_ms)
        return self.dog

    def log(self, msg):
        self.logged.append(msg)

    def close(self, ended=False):
        self.closed = True


def make(board_def, options=None):
    options = options or {}
    return FakeHal(board_def, **options)
