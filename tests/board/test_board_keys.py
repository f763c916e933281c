# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Key debounce, long press, stuck keys and the edge ring, against a fake clock that wraps at 2**30.
from board import edges
from board.edges.keys import Keys
from board.ticks import PERIOD, add, diff
from check import drain, edge

NEAR_WRAP = PERIOD - 100  # start just before the wrap so every timing test crosses it


def _keys(start=NEAR_WRAP):
    ring = edges.Ring(16)
    k = Keys(20, ring)
    k.update(0, start)  # first scan primes the state
    return k, ring


def test_ticks_diff_across_wrap():
    assert diff(5, PERIOD - 5) == 10
    assert diff(PERIOD - 5, 5) == -10
    assert add(PERIOD - 5, 10) == 5


def test_press_and_release_edges():
    k, ring = _keys()
    t = NEAR_WRAP
    k.update(1 << 3, add(t, 5))
    k.update(0, add(t, 100))
    assert drain(ring) == [(edges.PRESS, 3), (edges.RELEASE, 3)]


def test_key_bouncing_20ms_counts_once():
    k, ring = _keys()
    t = NEAR_WRAP
    # press: contact chatters for 20 ms, scanned every 2 ms, then settles down (crosses the wrap)
    for ms in range(0, 21, 2):
        k.update((1 << 7) if (ms // 2) % 2 == 0 else 0, add(t, ms))
    for ms in range(22, 300, 4):
        k.update(1 << 7, add(t, ms))
    # release: chatters again for 20 ms, then settles up
    for ms in range(300, 321, 2):
        k.update(0 if (ms // 2) % 2 == 0 else (1 << 7), add(t, ms))
    for ms in range(322, 400, 4):
        k.update(0, add(t, ms))
    assert drain(ring) == [(edges.PRESS, 7), (edges.RELEASE, 7)]


def test_quick_tap_shorter_than_debounce_still_releases():
    k, ring = _keys()
    k.update(1, add(NEAR_WRAP, 5))
    k.update(0, add(NEAR_WRAP, 10))
    k.update(0, add(NEAR_WRAP, 40))
    assert drain(ring) == [(edges.PRESS, 0), (edges.RELEASE, 0)]


def test_long_press_reported_once():
    k, ring = _keys()
    for ms in range(0, 2000, 10):
        k.update(1 << 2, add(NEAR_WRAP, ms))
    k.update(0, add(NEAR_WRAP, 2000))
    assert drain(ring) == [(edges.PRESS, 2), (edges.LONG, 2), (edges.RELEASE, 2)]


def test_stuck_key_reported_once_then_ignored_until_released():
    k, ring = _keys()
    for ms in range(0, 30000, 50):
        k.update(1 << 5, add(NEAR_WRAP, ms))
    assert drain(ring) == [(edges.PRESS, 5), (edges.LONG, 5), (edges.STUCK, 5)]
    assert k.stuck == 1 << 5
    k.update(0, add(NEAR_WRAP, 30000))  # released: no RELEASE (its press never acted), and it works again
    assert drain(ring) == [(edges.UNSTUCK, 5)]
    assert k.stuck == 0
    k.update(1 << 5, add(NEAR_WRAP, 30100))
    assert drain(ring) == [(edges.PRESS, 5)]


def test_key_held_at_power_up_is_not_a_press():
    ring = edges.Ring(8)
    k = Keys(20, ring)
    k.update(1 << 4, 0)
    k.update(1 << 4, 100)
    k.update(0, 200)
    k.update(1 << 4, 300)
    assert drain(ring) == [(edges.PRESS, 4)]


def test_two_keys_independent():
    k, ring = _keys(0)
    k.update(1 << 1, 10)
    k.update((1 << 1) | (1 << 9), 15)  # second key inside the first one's bounce window
    k.update(1 << 9, 100)
    assert drain(ring) == [(edges.PRESS, 1), (edges.PRESS, 9), (edges.RELEASE, 1)]


def test_ring_drops_oldest_when_full():
    ring = edges.Ring(4)
    for i in range(6):
        ring.put(edges.make(edges.PRESS, i))
    assert ring.dropped == 2
    assert [edge(ring.get())[1] for _ in range(4)] == [2, 3, 4, 5]
    assert ring.get() == -1


def test_keyed_cards_wrap_between_cards_never_inside_one():
    # Before: six cards keyed at the cut showed "4H TD 5S 6C 7D 3" and "C" on the next row.
    from scenario import Scenario

    s = Scenario()
    try:
        s.cards("4H TD 5S 6C 7D 3C")
        rows = s.screen().splitlines()
        assert rows[3:5] == ["4H TD 5S 6C 7D", "3C"]
        s.keys("9")  # a rank waiting for its suit goes with the cards
        assert s.screen().splitlines()[3:5] == ["4H TD 5S 6C 7D", "3C 9?"]
    finally:
        s.close()
