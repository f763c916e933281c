# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# board/store/salvage.py is loaded only for a journal open() cannot simply replay, and dropped after.
import sys

from test_journal import _read, _remove_tree, _tmpdir, _write

from board import store
from board.store import journal as J
from board.store import salvage
from cribbage.journal import record

SALVAGE = "board.store.salvage"


def _journal(payloads):
    out = J._header(1)
    for k, p in enumerate(payloads):
        out += record(1 + k, p.encode())
    return out


def _open(data):
    """(payloads applied, was salvage loaded by open(), is it still loaded, .bad bytes or None)."""
    d = _tmpdir()
    try:
        path = d + "/journal.log"
        _write(path, data)
        J._drop(SALVAGE)  # as on a board that never loaded it (this file imported it)
        loaded = []
        real = J._drop

        def spy(*names):  # open() drops salvage.py when it is done: was it loaded by then?
            loaded.append(SALVAGE in sys.modules)
            real(*names)

        J._drop = spy
        got = []
        try:
            j = J.Journal(path)
            j.open(got.append)
            j.close()
        finally:
            J._drop = real
        try:
            bad = _read(path + ".bad")
        except OSError:
            bad = None
        return got, any(loaded), SALVAGE in sys.modules, bad
    finally:
        _remove_tree(d)
        sys.modules[SALVAGE] = salvage  # as this file's import left it, for the tests after
        store.salvage = salvage


def test_a_good_journal_opens_without_loading_salvage():
    got, loaded, kept, bad = _open(_journal(["a", "b", "c"]))
    assert got == ["a", "b", "c"]
    assert not loaded and not kept and bad is None


def test_a_torn_last_record_loads_salvage_sets_it_aside_and_drops_it():
    data = _journal(["a", "b"]) + record(3, b"c")[:-4]
    got, loaded, kept, bad = _open(data)
    assert got == ["a", "b"]
    assert loaded and not kept
    assert bad is not None and record(3, b"c")[:-4] in bad and b"torn last record" in bad


def test_a_damaged_header_loads_salvage_keeps_the_records_and_drops_it():
    data = b"X" + _journal(["a", "b"])[1:]
    got, loaded, kept, _ = _open(data)
    assert got == ["a", "b"]
    assert loaded and not kept


def _consts(module):
    """{name: value} of the `_NAME = const(N)` lines of a module's source (MicroPython keeps no name)."""
    out = {}
    with open(module.__file__) as f:
        for line in f:
            if line.startswith("_") and " = const(" in line:
                name, rest = line.split(" = const(", 1)
                out[name] = int(rest.split(")", 1)[0])
    return out


def test_salvage_reads_lines_as_the_journal_writes_them():
    # salvage.py keeps its own copies of the journal's limits: a const has no name to import on the board
    mine, theirs = _consts(salvage), _consts(J)
    assert mine["_MAX_RECORD"] == theirs["_MAX_RECORD"] == 1100
    assert mine["_MARK_EVERY"] == theirs["_MARK_EVERY"] == 32
