# Input edges (key press/release/long/stuck, hole taps, sensor faults) as small ints in a fixed ring;
# the package is the board's input: keys.py and sensors.py debounce the HAL's readings into the ring.
# The ring is allocated once and drops the oldest edge when full (Hinch's ringbuf_queue): a burst of
# input can never allocate or stall the scan task.
from array import array

from cribbage import const

# An edge is kind * 1024 + code; code is a key index, a hole id or a fault number.
PRESS = const(1)
RELEASE = const(2)
LONG = const(3)  # held past long_ms, reported once per press
STUCK = const(4)  # held past stuck_ms: reported once, ignored until released
TAP = const(5)  # a hole sensor went on: a tap, or a peg set in the hole
SENSOR_FAULT = const(6)  # code: FAULT_* below
SENSOR_OK = const(7)  # the chain reads sensibly again
UNSTUCK = const(8)  # a key reported STUCK was released (no RELEASE: its press was never acted on)

FAULT_UNPLUGGED = const(1)  # every bit set: the 74HC165 chain is not connected
FAULT_GLITCH = const(2)  # too many holes went on in one scan: noise, not pegs
FAULT_SILENT = const(3)  # no hole set for a long time on a board whose pegs rest in holes

_SHIFT = const(10)
_CODE = const(1023)


def make(kind, code):
    return (kind << _SHIFT) | code


class Ring:
    """Fixed-size FIFO of edges; put() never allocates and drops the oldest when full."""

    def __init__(self, size=32):
        self._buf = array("i", range(size))  # slots are written before they are read [array rule]
        self._size = size
        self._head = 0  # index of the oldest edge
        self._n = 0
        self.dropped = 0  # edges lost to overflow, for the log

    def put(self, edge):
        if self._n == self._size:
            self._head = (self._head + 1) % self._size
            self._n -= 1
            self.dropped += 1
        self._buf[(self._head + self._n) % self._size] = edge
        self._n += 1

    def get(self):
        """The oldest edge, or -1 when empty."""
        if not self._n:
            return -1
        edge = self._buf[self._head]
        self._head = (self._head + 1) % self._size
        self._n -= 1
        return edge

    def __len__(self):
        return self._n
