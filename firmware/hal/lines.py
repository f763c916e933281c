# The link's two directions on a serial stream: LineBuffer reads one whole line at a time, in
# buffers allocated once; Outbox writes without ever waiting for the host.
# Input is read only until a line is ready: the rest stays in the USB/TCP buffer, so a host that
# floods the port fills its own send buffer, not the board's heap (docs/protocol.md, back-pressure).
# A line over the limit is discarded up to its newline and handed on once, cut to limit + 1 bytes,
# so the link answers it with one too-long error.
MAX_LINE = 1024  # docs/protocol.md: the most bytes of a request line, without its newline


class LineBuffer:
    """read_line(readinto) -> the next whole line or None, reading the stream no further than it.

    `chunk` bytes are read at a time and what follows a line's newline waits in the chunk for the next
    call: so at most one chunk is read ahead (1 on a stream whose readinto blocks until the buffer
    is full, like the Pico's stdin). A call takes at most `budget` bytes from the stream, so even an
    endless line without a newline costs each pass a bounded amount of work.
    """

    def __init__(self, limit=MAX_LINE, chunk=256):
        self.limit = limit
        self._buf = bytearray(limit + 1)  # one over: a longer line reaches the link as too long
        self._line = memoryview(self._buf)
        self._n = 0
        self._skipping = False  # inside a line already over the limit: dropped up to its newline
        self._chunk = bytearray(chunk)
        self._ahead = memoryview(self._chunk)
        self._pos = 0  # the unread bytes of the chunk: [_pos, _end)
        self._end = 0
        # Bytes taken from the stream per call at most: enough for the longest line (and its CR LF)
        # after what a chunk read ahead; a byte-at-a-time stream reads nothing ahead.
        self.budget = limit + 3 if chunk == 1 else 2 * (limit + 1) + chunk

    def reset(self):
        """Forget a half line and what was read ahead (a new host connected)."""
        self._n = 0
        self._skipping = False
        self._pos = self._end = 0

    def read_line(self, readinto):
        """The next line: bytes, never decoded (the link checks the bytes themselves: MicroPython's
        decoder reads the overlong C0 AF as "/"), no newline, a CR before it dropped; or None when
        no whole line has arrived yet.

        readinto(buf) -> the number of bytes it put in buf now (0 or None: nothing waiting); it is
        only called while no line is finished.
        """
        if len(self._chunk) == 1:
            return self._bytewise(readinto)
        taken = 0
        while True:
            if self._pos < self._end:
                line = self._take()
                if line is not None:
                    return line
            if taken + len(self._chunk) > self.budget:
                return None  # the rest of a very long line next pass
            n = readinto(self._chunk)
            if not n:
                return None
            self._pos = 0
            self._end = n
            taken += n

    def _take(self):
        """Move read-ahead bytes into the line up to the first newline; the line once it is whole."""
        pos = self._pos
        end = self._end
        nl = self._chunk.find(b"\n", pos, end)
        stop = end if nl < 0 else nl
        if not self._skipping:
            k = stop - pos
            room = len(self._buf) - self._n
            if k > room:
                k = room
                self._skipping = True
            if k:
                self._line[self._n : self._n + k] = self._ahead[pos : pos + k]
                self._n += k
        if nl < 0:
            self._pos = end
            return None
        self._pos = nl + 1
        return self._finish()

    def _bytewise(self, readinto):
        """read_line for a stream read a byte at a time (the Pico's stdin): each byte straight into
        the line, nothing read ahead; a 1-byte chunk through _take cost 28x the work a byte."""
        one = self._chunk
        buf = self._buf
        size = len(buf)
        for _ in range(self.budget):
            if not readinto(one):
                return None
            b = one[0]
            if b == 10:
                return self._finish()
            n = self._n
            if n < size:
                buf[n] = b
                self._n = n + 1
            else:
                self._skipping = True
        return None

    def _finish(self):
        """The line just ended by a newline; the buffer is ready for the next."""
        n = self._n
        over = self._skipping
        self._n = 0
        self._skipping = False
        if over:
            return bytes(self._buf)  # limit + 1 bytes, CR and all: the link calls it too long
        if n and self._buf[n - 1] == 13:  # "\r\n" from a terminal
            n -= 1
        return bytes(self._line[:n])


class Outbox:
    """The lines the board has for a host, sent as fast as the host takes them, never waited for.

    flush(send, now, diff): send(view) -> the bytes the stream took now, without blocking (0 when it
    is full). A host that lets more than `limit` bytes pile up (one line of any size is always
    taken into an empty box) or takes nothing for STALL_MS while bytes wait is not reading: put()
    or flush() then return False and the HAL drops that host (docs/protocol.md, "A host that does
    not read"). The lines are the reply objects themselves, kept until sent: no copy.
    """

    def __init__(self, limit=8192):
        self.limit = limit
        self._lines = []
        self._n = 0  # bytes of the first line already sent
        self.size = 0  # bytes waiting to be sent
        self._since = None  # when the stream last took nothing while bytes waited

    def clear(self):
        """Forget what waits (the host was dropped, or another came)."""
        self._lines = []
        self._n = 0
        self.size = 0
        self._since = None

    def put(self, data):
        """Queue one line; False when the host has let too much pile up: drop it."""
        if self.size and self.size + len(data) > self.limit:
            return False
        self._lines.append(data)
        self.size += len(data)
        return True

    def flush(self, send, now, diff):
        """Send what the stream takes now; False when it has taken nothing for 2 s while some waits: a host
        that is not reading, to drop."""
        lines = self._lines
        while lines:
            line = lines[0]
            n = send(memoryview(line)[self._n :])
            if not n:
                if self._since is None:
                    self._since = now
                return diff(now, self._since) < 2000
            self._since = None
            self.size -= n
            self._n += n
            if self._n >= len(line):
                lines.pop(0)
                self._n = 0
        self._since = None
        return True
