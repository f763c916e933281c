# Bytes from a serial stream -> whole lines, in one buffer allocated once (the link's read_line()).
# An overlong line is cut at `limit` bytes and handed on as it is (the protocol answers it with an
# error), and the rest of it up to its newline is dropped, so a flood of noise cannot grow the heap.


class LineBuffer:
    def __init__(self, limit=2048):
        self.limit = limit
        self._buf = bytearray(limit)
        self._n = 0
        self._skipping = False  # inside the tail of a line already handed on cut short
        self._ready = []  # finished lines not yet read (small: read_line drains it every poll)

    def feed(self, data):
        """Take the bytes just read; finished lines wait for read_line()."""
        for i in range(len(data)):
            b = data[i]
            if b == 10:  # "\n"
                if self._skipping:
                    self._skipping = False
                else:
                    self._finish()
                continue
            if self._skipping:
                continue
            if self._n == self.limit:
                self._finish()
                self._skipping = True
                continue
            self._buf[self._n] = b
            self._n += 1

    def _finish(self):
        n = self._n
        if n and self._buf[n - 1] == 13:  # "\r\n" from a terminal
            n -= 1
        self._ready.append(_text(self._buf, n))
        self._n = 0

    def read_line(self):
        """The oldest finished line (str, no newline) or None."""
        if self._ready:
            return self._ready.pop(0)
        return None


def _text(buf, n):
    raw = bytes(buf[:n])
    try:
        return raw.decode()
    except UnicodeError:
        # Binary noise still becomes a line, so the protocol can answer it with an error.
        return "".join(chr(b) if b < 128 else "?" for b in raw)
