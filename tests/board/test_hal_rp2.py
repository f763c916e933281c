# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# firmware/hal/rp2.py off the board: 74HC165 chain reads, key matrix scans, LED chains and display,
# against fakes of machine/rp2/ssd1306 (tests/support/rp2fakes.py) on both interpreters.
import board_fixture
import rp2fakes


def _hal():
    hal, m, r, o, b, _mod = rp2fakes.reference_hal()
    return hal, m, r, o, b


def _set_bit(buf, b, v):
    mask = 0x80 >> (b % 8)
    buf[b // 8] = (buf[b // 8] | mask) if v else (buf[b // 8] & ~mask)


def test_sensor_chain_reads_every_bit_in_chain_order_inverted_for_active_low():
    hal, m, _, _, b = _hal()
    try:
        assert b.sensor_active_low
        m.chain.inputs[:] = bytearray([1] * b.sensor_bits)  # nothing pressed: every input pulled high
        hole15 = b.sensor_track[1][14]
        m.chain.inputs[hole15] = 0  # blue's hole 15 tapped: that input is pulled low
        buf = bytearray(b.wiring.sensor_chips)
        hal.sensors.readinto(buf)
        assert m.chain.loads == 1
        expect = bytearray(b.wiring.sensor_chips)
        _set_bit(expect, hole15, 1)
        assert buf == expect, (buf, expect)
        # The tap is released: the next read latches the inputs again and sees nothing.
        m.chain.inputs[hole15] = 1
        hal.sensors.readinto(buf)
        assert m.chain.loads == 2
        assert buf == bytearray(b.wiring.sensor_chips)
    finally:
        rp2fakes.uninstall()


def test_sensor_chain_unplugged_reads_all_ones_after_inversion():
    hal, m, _, _, b = _hal()
    try:
        # MISO is pulled down on an active-low board, so a missing chain shifts zeros...
        assert m.pins[b.wiring.pins["sensor_miso"]].pull == m.Pin.PULL_DOWN
        m.chain.inputs[:] = bytearray(b.sensor_bits)
        buf = bytearray(b.wiring.sensor_chips)
        hal.sensors.readinto(buf)
        # ...which the app sees as every hole on: the "unplugged" reading it reports, never pegs.
        assert buf == bytearray([0xFF] * b.wiring.sensor_chips)
        spi = m.spi[b.wiring.sensor_spi]
        assert spi.kw["baudrate"] == b.wiring.sensor_baud and spi.kw["polarity"] == 0 and spi.kw["phase"] == 0
    finally:
        rp2fakes.uninstall()


def test_sensor_chain_active_high_is_not_inverted():
    rp2fakes.install()
    try:
        hal_rp2 = rp2fakes.hal_module("rp2")

        m = rp2fakes.sys.modules["machine"]
        latch = m.Pin(17, m.Pin.OUT, value=1)
        m.chain = rp2fakes.Chain74HC165(16, 17)
        m.chain.inputs[3] = 1
        m.chain.inputs[12] = 1
        spi = m.SPI(0)
        chain = hal_rp2.SensorChain(spi, latch, False)
        buf = bytearray(2)
        chain.readinto(buf)
        assert list(buf) == [0x10, 0x08], list(buf)
    finally:
        rp2fakes.uninstall()


def test_key_scan_bitmap_is_row_major_like_key_names():
    hal, m, _, _, b = _hal()
    try:
        assert hal.keys.scan() == 0
        ncols = len(b.wiring.key_cols)
        for name in ("A", "5", "MENU", "OK"):
            i = b.key_names.index(name)
            m.matrix.down = {(i // ncols, i % ncols)}
            assert hal.keys.scan() == 1 << i, name
        # Two keys together (MENU+UNDO, the guarded reset) on the same row: both bits, no ghost.
        menu, undo = b.key_names.index("MENU"), b.key_names.index("UNDO")
        m.matrix.down = {(menu // ncols, menu % ncols), (undo // ncols, undo % ncols)}
        assert hal.keys.scan() == (1 << menu) | (1 << undo)
        # Every row is released after a scan, so the next scan starts clean.
        assert all(m.pins[g].level == 1 for g in b.wiring.key_rows)
        assert all(m.pins[g].pull == m.Pin.PULL_UP for g in b.wiring.key_cols)
        assert all(m.pins[g].mode == m.Pin.OPEN_DRAIN for g in b.wiring.key_rows)
    finally:
        rp2fakes.uninstall()


def test_key_positions_without_a_key_are_masked():
    rp2fakes.install()
    try:
        hal_rp2 = rp2fakes.hal_module("rp2")

        m = rp2fakes.sys.modules["machine"]
        hal_rp2.time = rp2fakes.Clock()
        rows = [m.Pin(1, m.Pin.OPEN_DRAIN, value=1)]
        cols = [m.Pin(2, m.Pin.IN, m.Pin.PULL_UP), m.Pin(3, m.Pin.IN, m.Pin.PULL_UP)]
        m.matrix = rp2fakes.KeyMatrixWiring(m, [1], [2, 3])
        keys = hal_rp2.KeyMatrix(rows, cols, mask=0b01)
        m.matrix.down = {(0, 0), (0, 1)}
        assert keys.scan() == 0b01
    finally:
        rp2fakes.uninstall()


def test_leds_go_out_grb_one_dma_per_chain_paced_by_its_state_machine():
    hal, m, r, _, b = _hal()
    try:
        frame = bytearray(3 * b.led_count)
        for i in range(b.led_count):
            frame[3 * i] = i % 256  # R
            frame[3 * i + 1] = 255 - i % 256  # G
            frame[3 * i + 2] = 7  # B
        for sm in r.machines.values():
            sm.words = []  # forget the dark frame sent at start-up
        hal.leds.write(frame)
        assert len(r.machines) == len(b.wiring.led_pins)
        for c in range(len(b.wiring.led_pins)):
            sm = r.machines[c]
            assert sm.running and sm.freq == 8_000_000 and sm.pin.gp == b.wiring.led_pins[c]
            assert len(sm.words) == b.wiring.led_chains[c]
            for k in range(b.wiring.led_chains[c]):
                i = b.wiring.led_chain_start[c] + k
                want = ((255 - i % 256) << 24) | ((i % 256) << 16) | (7 << 8)
                assert sm.words[k] == want, (c, k, hex(sm.words[k]), hex(want))
        # The LED rail comes up only after a dark frame has gone out.
        assert m.pins[b.wiring.led_power_pin].level == 1
    finally:
        rp2fakes.uninstall()


def test_display_text_cells_and_watchdog():
    hal, m, _, o, b = _hal()
    try:
        hal.display.fill(0)
        hal.display.text(0, 0, "RED 15")
        hal.display.text(1, 10, "GO 31!!!!")  # cut at the 16th column
        hal.display.show()
        assert o.oled.shown[-1] == "RED 15\n          GO 31!", o.oled.shown[-1]
        assert o.oled.addr == b.wiring.display["address"]
        assert m.i2c[b.wiring.display["i2c"]].kw["freq"] == b.wiring.display["freq"]
        dog = hal.watchdog(20000)
        dog.feed()
        assert m.wdt.timeout == 8388 and m.wdt.feeds == 1
        assert hal.unique_id == "e6613852831c2a21"
    finally:
        rp2fakes.uninstall()


def test_link_reads_whole_lines_and_writes_bytes():
    rp2fakes.install()
    try:
        hal_rp2 = rp2fakes.hal_module("rp2")

        class Stream:
            def __init__(self, data):
                self.data = bytearray(data)
                self.out = bytearray()

            def readinto(self, buf):
                if not self.data:
                    return 0
                buf[0] = self.data[0]
                self.data = self.data[1:]
                return 1

            def write(self, b):
                self.out += b

        hal_rp2.time = rp2fakes.Clock()
        src = Stream(b'{"op":"hello"}\r\n{"op":')
        link = hal_rp2.UsbLink(src, src)
        link._ready = lambda: len(src.data) > 0  # no select.poll on a fake stream
        assert link.read_line() == b'{"op":"hello"}'
        assert link.read_line() is None  # half a line waits for its newline
        src.data += b'"state"}\n'
        assert link.read_line() == b'{"op":"state"}'
        link.write(b"ok\n")
        assert bytes(src.out) == b"ok\n"
    finally:
        rp2fakes.uninstall()


def test_link_flood_leaves_all_but_one_line_in_the_usb_buffer():
    """Regression (link flood): read_line() drained all input at once into a queue of lines, so a
    600 KB burst filled the heap; it now reads a byte at a time only until one line is whole."""
    rp2fakes.install()
    try:
        hal_rp2 = rp2fakes.hal_module("rp2")

        class Usb:
            def __init__(self, data):
                self.data = data
                self.pos = 0

            def readinto(self, buf):
                n = min(len(buf), len(self.data) - self.pos)
                buf[:n] = self.data[self.pos : self.pos + n]
                self.pos += n
                return n

        line = b'{"id":1,"op":"hello","pad":"' + b"p" * 170 + b'"}'
        usb = Usb((line + b"\n") * 3000)
        link = hal_rp2.UsbLink(usb, usb)
        link._ready = lambda: usb.pos < len(usb.data)
        assert link.read_line() == line
        assert usb.pos == len(line) + 1  # not a byte more: 2,999 lines wait in the USB buffer
        for _ in range(2999):
            assert link.read_line() == line
        assert link.read_line() is None
    finally:
        rp2fakes.uninstall()


def test_link_session_changes_on_a_laptops_hello_blank_line_or_dtr():
    """Best effort on the Pico (the REPL's CDC port shows Python no DTR): the blank line crib sends on
    opening the port marks a new host; a DTR reading, where one exists, marks comings and goings."""
    rp2fakes.install()
    try:
        hal_rp2 = rp2fakes.hal_module("rp2")

        class Usb:
            def __init__(self):
                self.data = bytearray()

            def readinto(self, buf):
                n = min(len(buf), len(self.data))
                buf[:n] = self.data[:n]
                self.data = self.data[n:]
                return n

        usb = Usb()
        link = hal_rp2.UsbLink(usb, usb)
        link._ready = lambda: len(usb.data) > 0
        assert link.session == 0 and link.read_line() is None
        usb.data += b'{"id":1,"op":"hello"}\n'
        link.read_line()
        assert link.session == 0
        usb.data += b'\n{"id":1,"op":"hello"}\n \t\r\n'  # a laptop opens the port, then a blank line
        assert link.read_line() == b"" and link.session == 1
        link.read_line()
        assert link.read_line() == b" \t" and link.session == 2
        dtr = [False]
        link = hal_rp2.UsbLink(usb, usb, dtr=lambda: dtr[0])
        link._ready = lambda: len(usb.data) > 0
        link.read_line()
        assert link.session == 0  # the state found at start is no change
        dtr[0] = True
        link.read_line()
        assert link.session == 1
        dtr[0] = False
        link.read_line()
        assert link.session == 2
    finally:
        rp2fakes.uninstall()


class _CdcPort:
    """The REPL's USB CDC port as MicroPython drives it with a host holding it open: a TX buffer of
    `room` bytes. A write that does not fit waits for room, as mp_usbd_cdc_tx_strn does: a reading
    host makes room within a USB frame (1 ms); one that does not read lets the write wait the CDC
    TX timeout (500 ms on the clock) and hand over nothing."""

    def __init__(self, clock, room=256):
        self.clock = clock
        self.room = room
        self.free = room
        self.reading = True
        self.data = bytearray()  # host to board
        self.got = bytearray()  # what the host has read
        self.waited_ms = 0

    def readinto(self, buf):
        n = min(len(buf), len(self.data))
        buf[:n] = self.data[:n]
        self.data = self.data[n:]
        return n

    def write(self, b):
        if len(b) > self.free and self.reading:
            self.clock.sleep_us(1000)
            self.waited_ms += 1
            self.host_reads()
        if len(b) > self.free:
            self.clock.sleep_us(500000)
            self.waited_ms += 500
            return 0
        self.free -= len(b)
        self.pending = getattr(self, "pending", b"") + bytes(b)
        return len(b)

    def host_reads(self):
        self.got += getattr(self, "pending", b"")
        self.pending = b""
        self.free = self.room


def _held_open(port_class):
    """(clock, port, UsbLink) over a CDC port of `port_class` a host holds open (fakes installed)."""
    hal_rp2 = rp2fakes.hal_module("rp2")
    clock = hal_rp2.time = rp2fakes.Clock()
    usb = port_class(clock)
    link = hal_rp2.UsbLink(usb, usb)
    link._ready = lambda: len(usb.data) > 0
    link._room = lambda: usb.free > 0
    return clock, usb, link


def test_a_host_that_never_reads_never_stalls_the_board():
    """Issue 9 item 9: each write to a host that held the port open without reading waited the CDC
    TX timeout, at every reply and push: the board stalled for as long as the host sat there. The
    link now writes only while the port has room, and drops a host that takes nothing for 2 s."""
    rp2fakes.install()
    try:
        clock, usb, link = _held_open(_CdcPort)
        reply = b'{"id":1,"ok":true,"pad":"' + b"p" * 90 + b'"}\n'  # 120 bytes
        usb.data += b"\n"
        link.read_line()  # a laptop says hello: session 1
        assert link.session == 1
        for _ in range(30):
            link.write(reply)
            link.read_line()
        usb.host_reads()
        assert bytes(usb.got) == reply * 30 and usb.waited_ms < 30  # a reading host gets it all
        usb.got = bytearray()
        # now the host stops reading, while the board goes on answering every pass (20 ms each)
        usb.reading = False
        usb.waited_ms = 0
        passes = 0
        while link.session == 1 and passes < 1000:
            link.write(reply)
            link.read_line()
            clock.sleep_us(20000)
            passes += 1
        assert link.session == 2  # dropped: the app ends its subscription
        assert usb.waited_ms <= 500  # one CDC timeout at most (a write cut short), never one per reply
        assert passes * 20 <= 2500  # within the 2 s stall bound
        # nothing more is written to it, however much the board has to say
        before = usb.free
        for _ in range(50):
            link.write(reply)
        assert usb.free == before and usb.waited_ms <= 500
        # a laptop that opens the port again (its blank line) is answered again
        usb.reading = True
        usb.host_reads()  # what sat in the CDC buffer from before
        usb.got = bytearray()
        usb.data += b"\n"
        link.read_line()
        assert link.session == 3
        link.write(reply)
        usb.host_reads()
        assert bytes(usb.got) == reply
    finally:
        rp2fakes.uninstall()


class _PacketCdc(_CdcPort):
    """The CDC as mp_usbd_cdc_tx_strn drives it: a write moves what fits in the TX buffer, waits for
    the host to read (1 ms a USB frame) and goes on, and gives up with what it moved after the TX
    timeout when the host reads nothing. Counts the calls."""

    def write(self, b):
        self.calls = getattr(self, "calls", 0) + 1
        moved = 0
        while moved < len(b):
            n = min(self.free, len(b) - moved)
            self.free -= n
            self.pending = getattr(self, "pending", b"") + bytes(b[moved : moved + n])
            moved += n
            if moved < len(b):
                if not self.reading:
                    self.clock.sleep_us(500000)
                    self.waited_ms += 500
                    return moved
                self.clock.sleep_us(1000)
                self.waited_ms += 1
                self.host_reads()
        return moved


def test_a_records_chunk_goes_to_the_cdc_in_one_write():
    """A stream's chunk (about a KB of record lines) was handed over 64 bytes a write: the calls cost
    the board more than the bytes. Now one write a chunk, which MicroPython moves a packet at a time
    as the host reads; a host that stops reading still costs one CDC timeout at most."""
    rp2fakes.install()
    try:
        clock, usb, link = _held_open(_PacketCdc)
        usb.data += b"\n"
        link.read_line()
        chunk = b"".join(b'%d 0badc0de {"t":"peg","s":0,"n":1}\n' % s for s in range(1000, 1030))
        assert len(chunk) > 1000
        link.write(memoryview(chunk))
        usb.host_reads()
        assert bytes(usb.got) == chunk and usb.calls == 1 and link.size == 0
        usb.reading = False
        usb.waited_ms = 0
        for _ in range(20):
            link.write(memoryview(chunk))
            link.read_line()
            clock.sleep_us(20000)
        assert usb.waited_ms <= 500 and link.session == 2  # one timeout, then dropped as before
    finally:
        rp2fakes.uninstall()


def test_a_reply_that_piles_up_past_the_outbox_drops_the_host():
    """A host that reads too slowly for what the board must say is dropped once 8 KB wait, rather
    than the board's heap holding its replies."""
    rp2fakes.install()
    try:
        hal_rp2 = rp2fakes.hal_module("rp2")
        clock = hal_rp2.time = rp2fakes.Clock()
        usb = _CdcPort(clock, room=0)
        usb.reading = False
        link = hal_rp2.UsbLink(usb, usb)
        link._ready = lambda: len(usb.data) > 0
        link._room = lambda: usb.free > 0
        page = b"x" * 7000 + b"\n"
        link.write(page)  # one big reply always fits an empty outbox
        assert link.session == 0
        link.write(page)
        assert link.session == 1 and usb.waited_ms == 0
    finally:
        rp2fakes.uninstall()


def test_a_refused_board_file_is_named_on_the_display():
    m, _, o = rp2fakes.install()
    try:
        hal_rp2 = rp2fakes.hal_module("rp2")
        src = board_fixture.root() + "/hardware/board.json"
        hal_rp2.show_error("leds.track[1][37]: LED 17 used twice", src)
        shown = o.oled.shown[-1]
        assert shown.startswith("BOARD FILE: leds\n.track[1][37]: L"), shown
        assert m.i2c[0].kw["freq"] == 400000
    finally:
        rp2fakes.uninstall()


def test_the_board_file_s_piezo_sounds_a_tone_at_half_duty_and_falls_silent():
    from board.boarddef.boardfile import load, read

    hal, m, _, _, b = _hal()
    try:
        assert hal.piezo is None and m.pwm == {}  # no piezo in the reference board file
    finally:
        rp2fakes.uninstall()
    raw = read(__file__.rsplit("/", 1)[0] + "/../../hardware/board.json")
    raw["pins"]["piezo"] = 22
    hal, m, _, _, b, _mod = rp2fakes.reference_hal(board=load(raw))
    try:
        pwm = m.pwm[22]
        assert pwm.duty == 0  # silent from the start
        hal.piezo.tone(2093)
        assert (pwm.hz, pwm.duty) == (2093, 32768)
        hal.piezo.tone(0)
        assert pwm.duty == 0 and pwm.hz == 2093
    finally:
        rp2fakes.uninstall()
