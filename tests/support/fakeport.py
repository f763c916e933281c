# An in-process "serial port" wired to the board's real link handler, for host tests without a board.
from linefeed import LineFeed


class FakePort:
    """Looks like an open pyserial port; each write runs the board's link handler at once.

    After every request the board's link task would also send its pushes; `tick()` does that
    by hand for tests that append events between requests.
    """

    def __init__(self, link):
        self.link = link
        self.reader = LineFeed()
        self.out = bytearray()
        self.timeout = 1.0
        self.is_open = True
        self.written = 0
        self.fail_after = None  # raise OSError after this many bytes read: a cable pulled mid-sync
        self.now = 0.0  # clock(): a read that finds nothing waits its timeout on it, not in real time

    def clock(self):
        """A client's clock (LinkClient(port, clock=port.clock)): its waits for a board that sends
        nothing pass at once."""
        return self.now

    def write(self, data):
        if not self.is_open:
            raise OSError("port closed")
        self.written += len(data)
        for line in self.reader.feed(data):
            for reply in self.link.handle(line):
                self.out += reply
        self.tick()
        return len(data)

    def tick(self):
        for push in self.link.pushes():
            self.out += push
        while True:  # a records stream, chunk by chunk, as pump() hands it to the port
            data = self.link.more()
            if data is None:
                break
            self.out += data

    def flush(self):
        pass

    @property
    def in_waiting(self):
        return len(self.out)

    def read(self, n=1):
        if not self.is_open:
            raise OSError("port closed")
        n = min(n, len(self.out))
        if not n:
            self.now += self.timeout or 0.0  # pyserial's read waits its timeout for a byte
        if self.fail_after is not None:
            if self.fail_after <= 0:
                raise OSError(5, "Input/output error")
            n = min(n, self.fail_after)
            self.fail_after -= n
        data = bytes(self.out[:n])
        del self.out[:n]
        return data

    def close(self):
        self.is_open = False
