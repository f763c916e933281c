# Key matrix bitmap -> debounced press/release/long/stuck edges (polled, act on the first edge).
# Hinch's manner: the matrix is scanned into one int; the first change of a key is acted on at
# once, then further changes of that key are ignored for debounce_ms, so a contact bouncing for up
# to 20 ms counts once. A key held past stuck_ms is reported once and ignored until released.
from array import array

from board import edges
from board.ticks import add, diff


class Keys:
    debounce_ms = 30
    long_ms = 800
    stuck_ms = 10000

    def __init__(self, count, ring):
        self.count = count
        self._ring = ring
        self.held = 0  # debounced bitmap, bit i = key i down
        # tick of each key's last debounced edge, set at the first scan [array rule]
        self._since = array("i", range(count))
        self._long = 0  # keys whose long press has been reported this press
        self._ignore = 0  # keys stuck, or held at power-up: no edges until released
        self.stuck = 0  # keys reported stuck and not yet released
        self._primed = False

    def update(self, raw, now):
        """Feed one scan (bitmap of keys down now) taken at tick now; edges go to the ring."""
        if not self._primed:
            # A key already down at power-up is not a press: ignore it until it is released.
            self._primed = True
            self.held = raw
            self._ignore = raw
            past = add(now, -self.debounce_ms)  # so the very next scan may already be a press
            for i in range(self.count):
                self._since[i] = past
            return
        busy = (raw ^ self.held) | self.held
        if not busy:
            return
        ring = self._ring
        i = 0
        m = 1
        while m <= busy:
            if busy & m:
                since = self._since[i]
                age = diff(now, since)
                if (raw ^ self.held) & m:
                    if age >= self.debounce_ms:
                        self._since[i] = now
                        if raw & m:
                            self.held |= m
                            if not self._ignore & m:
                                ring.put((edges.PRESS << 10) | i)
                        else:
                            self.held &= ~m
                            self._long &= ~m
                            if self._ignore & m:
                                self._ignore &= ~m
                                if self.stuck & m:
                                    self.stuck &= ~m
                                    ring.put((edges.UNSTUCK << 10) | i)
                            else:
                                ring.put((edges.RELEASE << 10) | i)
                elif not self.stuck & m:
                    if age >= self.stuck_ms:
                        self.stuck |= m
                        self._ignore |= m
                        ring.put((edges.STUCK << 10) | i)
                    elif age >= self.long_ms and not (self._long | self._ignore) & m:
                        self._long |= m
                        ring.put((edges.LONG << 10) | i)
            i += 1
            m <<= 1
