# Discard advice allocates nothing on MicroPython once its Advisor exists: no object, no heap frame.
import gc

import micropython

from cribbage.advice import Advisor

_SIX = bytes((17, 16, 19, 42, 15, 22))  # 5H 5S 5C JD 4C 6D
_FIVE = bytes((17, 16, 41, 13, 21))  # 5H 5S JH 4H 6H
_ADVISOR = Advisor()


def _advise_all():
    a = _ADVISOR
    t = a.advise(_SIX, "six", True)
    t += a.advise(_SIX, "six", False)
    t += a.advise(_FIVE, "five", False)
    t += a.advise(_FIVE, "three", True)
    t += a.advise(_FIVE, "four", False)
    return t + a.hand[a.order[0]]


def test_advice_allocates_nothing_under_heap_lock():
    expected = _advise_all()
    first = list(_ADVISOR.hand)
    micropython.heap_lock()
    try:
        got = _advise_all()
    finally:
        micropython.heap_unlock()
    assert got == expected and list(_ADVISOR.hand) == first
    assert expected > 15 + 15 + 10 + 5 + 5


def test_advice_frames_stay_off_the_heap():
    # as in test_show_noalloc: with gc.threshold(1) any heap allocation runs a collection, which
    # frees the garbage left here, so free memory would grow
    _advise_all()
    gc.collect()
    garbage = bytearray(2000)
    garbage = None  # noqa: F841 (left for the collector)
    before = gc.mem_free()
    gc.threshold(1)
    try:
        _advise_all()
    finally:
        gc.threshold(-1)
    assert gc.mem_free() == before, "advice allocated: a frame spilled to the heap?"
