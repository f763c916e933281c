# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# [map rule] docs/memory.md: the match's names leave room in MicroPython's map of them.
from match_script import match_events

from cribbage.game import Match

# MicroPython's sizes of a map's slots (py/map.c, hash_allocation_sizes): a map grows only when
# every slot is taken, so its names decide how full it is.
SLOTS = (0, 2, 4, 6, 8, 10, 12, 17, 23, 29, 37, 47, 59, 73, 97, 127, 167, 223)

# Above this share of taken slots, a name the map does not hold (every method called on the match,
# hundreds an event at boot) probes most of them before it is known missing.
MOST = 0.85


def _slots(names):
    for n in SLOTS:
        if n >= names:
            return n
    raise AssertionError(names)


def _most_names(form, three="all"):
    most = [0]

    def step(ev):
        if m[0] is None:
            m[0] = Match(ev)
        else:
            m[0].apply(ev, True)
        most[0] = max(most[0], len(m[0].__dict__))

    m = [None]
    match_events(form=form, three=three, games=2, sink=step)
    return most[0]


def test_the_match_leaves_room_in_its_map_of_names():
    for form, three in (("six", "all"), ("five", "all"), ("three", "cont"), ("four", "all")):
        names = _most_names(form, three)
        assert names <= MOST * _slots(names), (form, names, _slots(names))
