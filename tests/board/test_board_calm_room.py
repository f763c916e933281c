# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The long-lived room a commit needs is taken at the app's calm points (Commit.ready, after its collection),
# not in the middle of the commit: the match log's next 256-byte chunk and the slot of the journal's next
# mark. In a 96 KB run with the code in ROM both were asked for mid-commit, with the commit's own garbage
# still held, and failed (MemoryError, "Out of memory: not saved") in game 3 (docs/memory.md).
import sys

from fakehal import remove_tree, scratch_dir

from board.store.commit import Commit
from board.store.journal import Journal
from cribbage import events
from cribbage.records import Log

MP = sys.implementation.name == "micropython"
SETUP = events.setup(form="six", fmt="acc")


def _locked(fn):
    """fn() with the heap locked on MicroPython (any allocation is a MemoryError); as is on CPython."""
    if not MP:
        return fn()
    import micropython

    micropython.heap_lock()
    try:
        return fn()
    finally:
        micropython.heap_unlock()


def test_the_log_takes_its_next_chunk_when_told_and_a_record_then_allocates_nothing():
    log = Log()
    log.add(250)  # the first chunk all but full
    log.ready()
    spare = log.spare
    assert spare is not None and len(spare) == 256
    log.ready()  # one is waiting already: no second one
    assert log.spare is spare
    p = _locked(lambda: log.add(10))  # does not fit: the next chunk opens, from the spare
    assert p == 256 and log.chunks[1] is spare and log.spare is None
    assert len(log.chunks) == 2 and log.end == 266


def test_the_journal_makes_room_for_its_next_mark_when_told():
    d = scratch_dir("/tmp/cribcalm-")
    j = Journal(d + "/journal.log")
    try:
        j.open()
        for k in range(40):
            j.append('{"t":"peg","s":0,"n":%d}' % (k % 9 + 1))
        marks = list(j._marks)
        assert len(marks) == 4  # the 1st and 33rd records
        j.ready()
        assert j._marks == marks  # the room is not a mark
        m = j._marks

        def mark():  # the next mark's two slots: no allocation
            m.append(1)
            m.append(2)

        _locked(mark)
        del m[-2:]
    finally:
        j.close()
        remove_tree(d)


def test_a_commit_after_ready_opens_the_next_chunk_from_the_spare():
    d = scratch_dir("/tmp/cribcalm-")
    book = Commit(Journal(d + "/journal.log"), SETUP, lambda *a: None, None)
    try:
        book.boot(SETUP)
        book.apply({"t": "dealer", "p": 0})
        log = book.match._log
        n = 0
        while len(log.chunks) == 1:
            book.ready()  # as the app does after each event's collection
            spare = log.spare
            book.apply({"t": "peg", "s": n % 2, "n": 1, "why": "manual"})
            n += 1
        assert log.chunks[1] is spare  # the chunk the record needed was the one taken when calm
        assert book.match.front == [(n + 1) // 2, n // 2]
    finally:
        book.journal.close()
        remove_tree(d)
