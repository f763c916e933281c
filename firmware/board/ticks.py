# Millisecond tick arithmetic that wraps at 2**30 like time.ticks_ms on the Pico, for pure code given now_ms.
from cribbage import const

PERIOD = const(1 << 30)
_HALF = const(1 << 29)
_MASK = const((1 << 30) - 1)


def diff(a, b):
    """a - b in ms, signed, correct across the wrap (as time.ticks_diff).

    Every intermediate stays inside the Pico's small-int range (+-2**30), so it never allocates.
    """
    d = a - b
    if d >= _HALF:
        d -= PERIOD
    elif d < -_HALF:
        d += PERIOD
    return d


def add(a, delta):
    """The tick delta ms after a (as time.ticks_add)."""
    return (a + delta) & _MASK
