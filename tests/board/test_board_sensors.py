# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Hole sensor debounce and chain faults: taps once per hole, resting pegs, unplugged and noisy chains.
from array import array

from board import edges
from board.edges.sensors import Sensors
from board.ticks import PERIOD, add
from check import drain

T0 = PERIOD - 200


def _sensors(nbytes=4, pegs_rest=False):
    ring = edges.Ring(16)
    # bit b reads hole 100 + b; the last bit is not wired to a hole
    bit_hole = array("h", [100 + b for b in range(nbytes * 8)])
    bit_hole[nbytes * 8 - 1] = -1
    s = Sensors(nbytes, bit_hole, ring, pegs_rest=pegs_rest)
    return s, ring


def _raw(nbytes, *bits):
    buf = bytearray(nbytes)
    for b in bits:
        buf[b // 8] |= 0x80 >> (b % 8)
    return buf


def test_tap_reported_once_with_bounce():
    s, ring = _sensors()
    s.update(_raw(4), T0)  # baseline
    for ms in range(2, 22, 2):  # chatter for 20 ms across the wrap
        s.update(_raw(4, 9) if (ms // 2) % 2 else _raw(4), add(T0, ms))
    for ms in range(22, 200, 5):
        s.update(_raw(4, 9), add(T0, ms))
    for ms in range(200, 300, 5):
        s.update(_raw(4), add(T0, ms))
    assert drain(ring) == [(edges.TAP, 109)]


def test_resting_peg_is_one_tap_and_then_quiet():
    s, ring = _sensors()
    s.update(_raw(4, 3), T0)  # a peg already resting at power-up: not a tap
    for ms in range(5, 20000, 500):
        s.update(_raw(4, 3, 12), add(T0, ms))  # a peg set in hole 112 and left there
    assert drain(ring) == [(edges.TAP, 112)]
    s.update(_raw(4, 3), add(T0, 20000))  # lifted
    s.update(_raw(4, 3, 12), add(T0, 20100))  # set again: a new tap
    assert drain(ring) == [(edges.TAP, 112)]


def test_unwired_bit_never_taps():
    s, ring = _sensors()
    s.update(_raw(4), T0)
    s.update(_raw(4, 31), add(T0, 50))
    assert drain(ring) == []


def test_unplugged_chain_all_ones_reported_once_never_taps():
    s, ring = _sensors()
    s.update(_raw(4), T0)
    for ms in range(5, 5000, 5):
        s.update(bytearray(b"\xff" * 4), add(T0, ms))
    assert drain(ring) == [(edges.SENSOR_FAULT, edges.FAULT_UNPLUGGED)]
    assert s.fault == edges.FAULT_UNPLUGGED
    # plugged back in with a peg resting in hole 105: a new baseline, not a tap
    s.update(_raw(4, 5), add(T0, 5000))
    s.update(_raw(4, 5), add(T0, 5100))
    assert drain(ring) == [(edges.SENSOR_OK, 0)]
    s.update(_raw(4, 5, 6), add(T0, 5200))
    assert drain(ring) == [(edges.TAP, 106)]


def test_many_holes_at_once_is_a_glitch_not_taps():
    s, ring = _sensors()
    s.update(_raw(4), T0)
    s.update(_raw(4, 1, 2, 3, 4, 5), add(T0, 50))
    s.update(_raw(4), add(T0, 100))
    assert drain(ring) == [(edges.SENSOR_FAULT, edges.FAULT_GLITCH), (edges.SENSOR_OK, 0)]


def test_silent_chain_reported_on_boards_whose_pegs_rest():
    s, ring = _sensors(pegs_rest=True)
    s.update(_raw(4, 0, 1), T0)
    for ms in range(5, 20000, 100):
        s.update(_raw(4), add(T0, ms))  # all zeros forever: the pegs cannot all have gone
    assert drain(ring) == [(edges.SENSOR_FAULT, edges.FAULT_SILENT)]


def test_all_zeros_is_normal_for_tap_switches():
    s, ring = _sensors()
    for ms in range(0, 20000, 100):
        s.update(_raw(4), add(T0, ms))
    assert drain(ring) == []
    assert s.fault == 0


def test_tied_inputs_catch_a_chain_reading_all_zeros():
    ring = edges.Ring(8)
    bit_hole = array("h", [b for b in range(32)])
    s = Sensors(4, bit_hole, ring, fixed=[(30, 1), (31, 0)])
    s.update(_raw(4, 30), T0)
    s.update(_raw(4, 30, 4), add(T0, 50))
    s.update(_raw(4), add(T0, 100))  # all zeros: bit 30 should read 1
    s.update(_raw(4, 5), add(T0, 200))  # still wrong, and no tap comes of hole 5
    assert drain(ring) == [(edges.TAP, 4), (edges.SENSOR_FAULT, edges.FAULT_UNPLUGGED)]
