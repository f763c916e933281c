# Replay reads the journal a line at a time: a journal bigger than the heap replays in 64 KB.
import os
import sys

from board.journal import Journal

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


def _replay_in_small_heap(lib, path, mode, expected):
    cmd = "%s -X heapsize=%s %s/journal_small_heap.py %s %s %s %d" % (
        sys.executable,
        HEAP,
        _HERE,
        lib,
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
        _compile(lib, "board", ["__init__", "crc", "journal"])
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
