# Bytes pushed at the board's link -> request lines, cut by the board's own LineBuffer (hal/lines.py), for
# host tests that write to the link directly: the same limits and the same too-long lines as the board.
from hal.lines import LineBuffer


class LineFeed:
    def __init__(self):
        self._lines = LineBuffer()
        self._waiting = bytearray()

    def reset(self):
        """Forget a half line (a new host connected)."""
        self._lines.reset()
        self._waiting = bytearray()

    def feed(self, data):
        """Take received bytes; -> the lines they finish (str, or bytes the link refuses)."""
        self._waiting += data
        out = []
        while True:
            line = self._lines.read_line(self._readinto)
            if line is not None:
                out.append(line)
            elif not self._waiting:
                return out

    def _readinto(self, buf):
        n = min(len(buf), len(self._waiting))
        buf[:n] = self._waiting[:n]
        del self._waiting[:n]
        return n
