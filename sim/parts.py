# The simulator's devices: clock (with asyncio's idle time skipped), LEDs, key matrix, sensor chain,
# display, link socket and watchdog, each with the interface of the HAL contract (docs/hal.md).
import select
import time

from hal.lines import LineBuffer, Outbox


class Clock:
    """The sim's ticks_ms: the real clock's progress plus the idle time skipped.

    Run fast (`capped`), each step of the real clock counts at most STEP_MS: a host too busy to run
    the sim (other jobs on its cores) stalls it without the firmware seeing the time pass, so a
    script's key is held as long as the script says, whatever the load (a stall of a second with a
    key down was a long press: tests/sim/test_sim_clock_mp.py)."""

    STEP_MS = 20

    def __init__(self, capped=False):
        self.capped = capped
        self.now = self._real = time.ticks_ms()

    def ticks_ms(self):
        real = time.ticks_ms()
        step = max(0, time.ticks_diff(real, self._real))
        self._real = real
        if self.capped and step > self.STEP_MS:
            step = self.STEP_MS
        self.now = time.ticks_add(self.now, step)
        return self.now

    def skip(self, ms):
        self.now = time.ticks_add(self.now, ms)


def warp(clock):
    """Run asyncio on clock and jump over idle waits: when every task sleeps, the clock moves on to
    the first wake-up at once instead of waiting for it. The firmware cannot tell (all its time
    comes from hal.ticks_ms and asyncio's sleeps); a scripted match runs in seconds, not minutes."""
    from asyncio import core  # pyright: ignore[reportAttributeAccessIssue] (MicroPython's)

    core.ticks = clock.ticks_ms
    real_wait = core.IOQueue.wait_io_event

    def wait_io_event(self, dt):
        if dt > 0:
            clock.skip(dt)
            dt = 0
        real_wait(self, dt)

    core.IOQueue.wait_io_event = wait_io_event


class SimLeds:
    def __init__(self, hal, count):
        self._hal = hal
        self.count = count
        self.frame = bytearray(3 * count)  # the last frame written
        self.writes = 0

    def write(self, frame):
        if len(frame) != len(self.frame):
            raise ValueError("frame of %d bytes for %d LEDs" % (len(frame), self.count))
        self.frame[:] = frame
        self.writes += 1
        if self._hal.term is not None:
            self._hal.term.leds(frame)


class SimKeys:
    def __init__(self, hal):
        self._hal = hal
        self.down = 0  # the board keys held now (poked by the input)

    def scan(self):
        self._hal.pump()
        return self.down


class SimSensors:
    """The 74HC165 chain as the rp2 HAL hands it over: set bit = peg/tap present, tied inputs at
    their level (inverted on an active-low board, as the rp2 HAL inverts the whole reading)."""

    def __init__(self, hal, board_def):
        self._hal = hal
        self.present = bytearray(board_def.sensor_bits // 8)
        flip = 1 if board_def.sensor_active_low else 0
        for bit, level in board_def.wiring.sensor_fixed:
            if level ^ flip:
                self.present[bit // 8] |= 0x80 >> (bit % 8)
        self.unplugged = False

    def readinto(self, buf):
        self._hal.pump()
        if self.unplugged:
            for i in range(len(buf)):
                buf[i] = 0xFF
        else:
            buf[:] = self.present

    def set(self, bit, on):
        if on:
            self.present[bit // 8] |= 0x80 >> (bit % 8)
        else:
            self.present[bit // 8] &= ~(0x80 >> (bit % 8))


class SimDisplay:
    """16 x 8 cells of text; `rows` holds what show() last put on the glass, a big row's text (large
    print: its first character the width scale, board/large.py) without its mark, and `big` the width
    scale of each row (0: small text; a big row covers it and the two rows under it)."""

    def __init__(self, hal):
        self._hal = hal
        self._draft = [bytearray(b" " * 16) for _ in range(8)]
        self._big = bytearray(8)
        self.rows = [""] * 8
        self.big = bytes(8)
        self.shows = 0

    def fill(self, c):
        for row in self._draft:
            for i in range(16):
                row[i] = 32
        for i in range(8):
            self._big[i] = 0

    def text(self, row, col, s):
        if not 0 <= row < 8:
            return
        if s and s < " ":  # a big row: 3 text rows high, w text columns a character
            self._big[row] = 1 if s < "\x02" else 2 if s < "\x03" else 3
            s = s[1:]
        line = self._draft[row]
        for i in range(len(s)):
            ch = s[i : i + 1]  # a slice, not s[i]: indexing interns the character ([name budget])
            if 0 <= col < 16:
                line[col] = ord(ch) if " " <= ch <= "~" else 63
            col += 1

    def show(self):
        rows = [bytes(r).decode() for r in self._draft]
        self.shows += 1
        if rows == self.rows and self._big == self.big:
            return
        self.rows = rows
        self.big = bytes(self._big)
        hal = self._hal
        if hal.term is not None:
            hal.term.display(rows, self.big)
        elif hal.options["trace"]:
            hal.log("display: " + " | ".join(r.rstrip() for r in rows))

    def screen(self):
        return "\n".join(r.rstrip() for r in self.rows).rstrip("\n")


class NoLink:
    """hal.link with no socket: no host ever comes, but a script's `laptop` lines (sim/script.py) are
    read one a pass, as bytes from a laptop would be. The replies are counted (the log would intern
    nothing, but a reply's text is the laptop's business). first() is called at the first reply: the
    link's code is loaded by then (the sim's --qstr count)."""

    session = 0
    size = 0  # no outbox: a records stream's next chunk is handed over at once

    def __init__(self):
        self.lines = []
        self.replies = 0
        self.first = None

    def read_line(self):
        return self.lines.pop(0) if self.lines else None

    def write(self, data):
        self.replies += 1
        if self.replies == 1 and self.first is not None:
            self.first()


class SocketLink:
    """hal.link in the sim: a TCP server on localhost that pyserial's socket:// URL opens.

    read_line() reads the socket only until one line is whole (LineBuffer), so a flooding host waits
    in its own send buffer. `session` changes whenever a host connects or goes (accept, close): the
    app then ends what the last host asked for (link.disconnect()). write() never waits: the client
    socket is non-blocking and what it does not take waits in an Outbox; a host that lets replies
    pile up or takes nothing for 2 s is not reading and is dropped (docs/protocol.md).
    """

    def __init__(self, port, log):
        import socket

        self._log = log
        self._srv = socket.socket()
        self._srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # pyright: ignore (unix port)
        self._srv.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
        self._srv.listen(1)
        self._srv.setblocking(False)
        self._client = None
        self._poll = select.poll()
        self._lines = LineBuffer()
        self._box = Outbox()
        self.session = 0
        self.port = port

    def _accept(self):
        try:
            client, _ = self._srv.accept()
        except OSError:
            return
        if self._client is not None:
            self._drop()
        client.setblocking(False)  # a write blocked on a host that never read froze the board
        self._client = client
        self._poll.register(client, select.POLLIN)
        self._lines.reset()
        self.session += 1
        self._log("link: laptop connected")

    def _drop(self):
        client = self._client
        if client is None:
            return
        self._poll.unregister(client)
        client.close()
        self._client = None
        self._box.clear()
        self.session += 1
        self._log("link: laptop gone")

    def _readinto(self, buf):
        client = self._client
        if client is None or not self._poll.poll(0):
            return 0
        try:
            data = client.recv(len(buf))
        except OSError:
            data = b""
        if not data:
            self._drop()
            return 0
        buf[: len(data)] = data
        return len(data)

    def read_line(self):
        self._accept()
        if self._client is None:
            return None
        if self._box.size:
            self._flush()
        return self._lines.read_line(self._readinto) if self._client is not None else None

    @property
    def size(self):
        """Bytes of replies still waiting for the host (the link streams its next chunk at 0)."""
        return self._box.size

    def send(self, view):
        try:
            return self._client.write(view) or 0  # pyright: ignore (None: the socket is full)
        except OSError as e:
            if e.args and e.args[0] == 11:  # EAGAIN: full
                return 0
            raise

    def _flush(self):
        try:
            ok = self._box.flush(self.send, time.ticks_ms(), time.ticks_diff)  # pyright: ignore
        except OSError:
            ok = False  # the host went
        if not ok:
            self._log("link: laptop not reading: dropped")
            self._drop()

    def write(self, data):
        if self._client is None:
            return
        if not self._box.put(data):
            self._log("link: laptop not reading: dropped")
            self._drop()
            return
        self._flush()


def board_uid(storage_dir):
    """The sim's stand-in for machine.unique_id(): 8 random bytes in hex, made the first time and
    kept in the sim's flash, so one flash image is one board to the laptop (and --fresh, a new
    image with a new journal, is another), never the board file's name that every sim shares."""
    path = storage_dir + "/board_uid"
    try:
        with open(path) as f:
            uid = f.read().strip()
        if len(uid) == 16:
            return uid
    except OSError:
        pass  # first boot of this image
    import os

    uid = "".join("%02x" % b for b in os.urandom(8))
    with open(path, "w") as f:
        f.write(uid + "\n")
    return uid


class SimWatchdog:
    def __init__(self, hal, timeout_ms):
        self._hal = hal
        self.timeout_ms = timeout_ms
        self.fed = hal.ticks_ms()

    def feed(self):
        self.fed = self._hal.ticks_ms()
