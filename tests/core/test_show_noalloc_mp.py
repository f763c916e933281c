# The bulk show total allocates nothing on MicroPython: no object, and no call frame on the heap.
import gc

import micropython

from cribbage.showtotal import show_total


def _deal():
    # About 200 shows of 5 different cards, built before the heap is locked.
    out = bytearray()
    for i in range(0, 1000, 5):
        cs = bytes((j * 7 + (j // 5) * 3) % 52 for j in range(i, i + 5))
        if len(set(cs)) == 5:
            out.extend(cs)
    return bytes(out)


_CARDS = _deal()
_N = len(_CARDS)
# AS 2S 3S JS + 4S (hand flush of five, nobs); AH 2H 3H QH + JH (crib flush of five, starter jack)
_FLUSH_AND_NOBS = bytes((0, 4, 8, 40, 12, 1, 5, 9, 45, 41))


# The loop and the call each keep their own frames small too (see the frame test below).
def _one(i, crib):
    return show_total(_CARDS[i], _CARDS[i + 1], _CARDS[i + 2], _CARDS[i + 3], _CARDS[i + 4], crib)


def _score_all(crib):
    total = 0
    for i in range(0, _N, 5):
        total += _one(i, crib)
    return total


def test_show_total_allocates_nothing_under_heap_lock():
    expected = _score_all(False) + _score_all(True)
    f = _FLUSH_AND_NOBS
    extra = show_total(f[0], f[1], f[2], f[3], f[4]) + show_total(f[5], f[6], f[7], f[8], f[9], True)
    micropython.heap_lock()
    try:
        got = _score_all(False) + _score_all(True)
        got_extra = show_total(f[0], f[1], f[2], f[3], f[4]) + show_total(f[5], f[6], f[7], f[8], f[9], True)
    finally:
        micropython.heap_unlock()
    assert got == expected and got_extra == extra
    assert _N >= 150 * 5


def test_show_total_frame_stays_off_the_heap():
    # heap_lock alone cannot see it: a call whose frame needs more than 11 words takes it from the
    # heap and frees it, falling back to the C stack when the heap is locked. With gc.threshold(1)
    # any heap allocation runs a collection, which frees the garbage left here: free memory grows.
    gc.collect()
    garbage = bytearray(2000)
    garbage = None  # noqa: F841 (left for the collector)
    before = gc.mem_free()
    gc.threshold(1)
    try:
        _score_all(False)
        _score_all(True)
    finally:
        gc.threshold(-1)
    assert gc.mem_free() == before, "show_total (or this loop) allocated: its frame spilled to the heap?"


def test_the_probe_sees_a_spilled_frame():
    # The same probe catches a function whose frame is too big (12+ words), so the check above is real.
    def wide(a, b, c, d, e, f):
        g = a + b
        h = c + d
        i = e + f
        j = g + h
        k = i + j
        return a + (b + (c + (d + (e + (f + (g + (h + (i + (j + k)))))))))

    gc.collect()
    garbage = bytearray(2000)
    garbage = None  # noqa: F841
    before = gc.mem_free()
    gc.threshold(1)
    try:
        for _ in range(10):
            wide(1, 2, 3, 4, 5, 6)
    finally:
        gc.threshold(-1)
    assert gc.mem_free() > before
