# Heap a whole three-game match needs on MicroPython: played live, and replayed from its journal.
# Figures are gc.mem_alloc() after a collection at every event, above what was in use before, on
# this 64-bit port (a Pico's 32-bit objects are smaller). bench/bench_replay.py runs the same match
# in a real 64 KB heap with the modules precompiled.
import gc

from match_script import match_events

from cribbage import events as E
from cribbage.game import Match

LIVE_BUDGET = 40 * 1024  # the Match and the scripted players' hands, deck and play
REPLAY_BUDGET = 16 * 1024  # the Match alone, fed line by line as at boot


def _used():
    gc.collect()
    return gc.mem_alloc()


def test_live_three_game_match_heap():
    base = _used()
    peak = [0]

    def sample(ev):
        used = _used() - base
        if used > peak[0]:
            peak[0] = used

    m = match_events(sink=sample)
    assert m.match_over and len(m.results) == 3
    print("game heap: live three-game match (%d events in force) peak %d bytes" % (m.count, peak[0]))
    assert peak[0] < LIVE_BUDGET


def test_replay_three_game_journal_heap():
    lines = []
    match_events(sink=lambda ev: lines.append(E.to_line(ev)))
    base = _used()
    peak = 0
    m = Match(E.from_line(lines[0]))
    for k in range(1, len(lines)):
        m.apply(E.from_line(lines[k]), True)
        used = _used() - base
        if used > peak:
            peak = used
    assert m.match_over
    end = _used() - base
    print("game heap: replay of %d lines peak %d bytes, %d at the end" % (len(lines), peak, end))
    assert peak < REPLAY_BUDGET
    # The play, rebuilt when read after a trusted replay, costs little and nothing stays behind.
    assert m.play is not None
    assert _used() - base < REPLAY_BUDGET
