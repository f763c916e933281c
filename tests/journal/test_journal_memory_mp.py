# Replay reads the journal a line at a time: a journal bigger than the heap replays in 64 KB.
import os
import sys

from board.store.journal import Journal

HEAP = "64k"
_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_ROOT = _HERE + "/../.."
_BIN = sys.executable.rsplit("/", 1)[0]


def _tmpdir():
    import binascii

    d = "/tmp/cribjournal-mem-" + binascii.hexlify(os.urandom(6)).decode()
    os.mkdir(d)
    return d


def _remove_tree(d):
    for name, kind, *_ in os.ilistdir(d):
        if kind == 0x4000:
            _remove_tree(d + "/" + name)
        else:
            os.remove(d + "/" + name)
    os.rmdir(d)


def _compile(lib, package, names=None):
    """mpy-cross the package's modules into lib, as the board runs them (compiling needs more heap)."""
    os.mkdir(lib + "/" + package)
    src = _ROOT + "/firmware/" + package
    for name in names or [n[:-3] for n in os.listdir(src) if n.endswith(".py")]:
        rc = os.system("%s/mpy-cross -o %s/%s/%s.mpy %s/%s.py" % (_BIN, lib, package, name, src, name))
        assert rc == 0, "mpy-cross failed on %s/%s.py" % (package, name)


def _replay_in_small_heap(lib, path, mode, expected, heap=HEAP):
    cmd = "MICROPYPATH=.frozen:%s %s -X heapsize=%s %s/journal_small_heap.py %s %s %d" % (
        lib,
        sys.executable,
        heap,
        _HERE,
        path,
        mode,
        expected,
    )
    return os.system(cmd)


def test_a_journal_bigger_than_the_heap_replays_in_64k():
    d = _tmpdir()
    try:
        lib = d + "/lib"
        os.mkdir(lib)
        _compile(lib, "board", ["__init__"])
        _compile(lib, "board/store", ["__init__", "journal", "salvage"])
        _compile(lib, "cribbage", ["__init__", "journal"])  # const and the record line, for the journal
        path = d + "/journal.log"
        j = Journal(path)
        j.open()
        line = '{"t":"show","s":1,"k":"hand","cards":[12,5,33,40],"n":8}'
        n = 1500
        j.compact([line] * n)  # one sync, not 1500
        j.close()
        assert j.size > 96 * 1024  # well past the 64 KB heap: it cannot be held whole
        assert _replay_in_small_heap(lib, path, "count", n) == 0
    finally:
        _remove_tree(d)


def _match_journal(d):
    from match_script import match_events

    from cribbage import events

    lines = []
    match_events(seed=1, sink=lambda ev: lines.append(events.to_line(ev)))
    path = d + "/journal.log"
    j = Journal(path)
    j.open()
    j.compact(lines)
    j.close()
    return path, len(lines)


def test_a_three_game_match_journal_replays_into_event_dicts_in_64k():
    d = _tmpdir()
    try:
        lib = d + "/lib"
        os.mkdir(lib)
        _compile(lib, "board", ["__init__"])
        _compile(lib, "board/store", ["__init__", "journal", "salvage"])
        _compile(lib, "cribbage", ["__init__", "cards", "errors", "events", "forms", "journal"])
        path, n = _match_journal(d)
        assert _replay_in_small_heap(lib, path, "events", n) == 0
    finally:
        _remove_tree(d)


# The game's own code does not fit a 64 KB heap on this 64-bit port (bench/bench_replay.py: about
# 77 KB of code loaded; a Pico's 32-bit objects take ~1/1.4 of it): the 64 KB target for the fold is
# the game's. This checks the journal adds little to it: the board's boot replay (Journal.open
# folding every line into Match) fits the 128 KB heap in which bench_replay finds the game fits.
GAME_HEAP = "128k"


def test_a_three_game_match_journal_replays_into_the_game_in_the_games_heap():
    d = _tmpdir()
    try:
        lib = d + "/lib"
        os.mkdir(lib)
        _compile(lib, "board", ["__init__"])
        _compile(lib, "board/store", ["__init__", "journal", "salvage"])
        _compile(lib, "cribbage")
        path, n = _match_journal(d)
        assert _replay_in_small_heap(lib, path, "game", n, GAME_HEAP) == 0
    finally:
        _remove_tree(d)
