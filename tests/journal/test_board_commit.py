# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# board/store/commit.py on its own: an event is applied and journalled, or wholly out, against a
# real journal on a scratch folder whose writes fail on cue; no app, no keys, no display.
from fakehal import remove_tree, scratch_dir
from faultkit import FailingFile, Once
from game_kit import state

from board.store.commit import Commit
from board.store.journal import Journal
from cribbage import events
from cribbage.errors import CribError
from cribbage.game import replay

SETUP = events.setup(form="six", fmt="acc")


class Book:
    """A Commit on a fresh journal, with what it logged and what it told `after`."""

    def __init__(self):
        self.dir = scratch_dir("/tmp/cribcommit-")
        self.logged = []
        self.told = []
        self.book = Commit(Journal(self.dir + "/journal.log"), SETUP, self.logged.append, self._after)
        self.book.boot(SETUP)

    def _after(self, seq, line, done, was_over):
        self.told.append((seq, line))

    def on_flash(self):
        lines = []
        j = Journal(self.dir + "/journal.log")
        j.open(lines.append)
        j.close()
        return [events.from_line(x) for x in lines]

    def close(self):
        self.book.journal.close()
        remove_tree(self.dir)


def _dealt(b):
    b.book.apply({"t": "dealer", "p": 0})
    return b.book.match


def test_an_event_is_applied_then_journalled_then_told():
    b = Book()
    try:
        m = _dealt(b)
        done = b.book.apply({"t": "peg", "s": 1, "n": 6, "why": "manual"})
        assert done["t"] == "peg" and m.front == [0, 6]
        assert [e["t"] for e in b.on_flash()] == ["setup", "dealer", "peg"]
        assert [seq for seq, _line in b.told] == [2, 3] and b.told[1][1] == events.to_line(done)
        assert b.book.last() == done and b.book.warning is None and b.book.collect
    finally:
        b.close()


def test_a_refused_event_changes_nothing():
    b = Book()
    try:
        m = _dealt(b)
        before = state(m)
        try:
            b.book.apply({"t": "peg", "s": 1, "n": 30, "why": "manual"})
            raise AssertionError("a peg of 30 was taken")
        except CribError:
            pass
        assert state(m) == before and len(b.on_flash()) == 2 and len(b.told) == 1
    finally:
        b.close()


def _write_fails(b, exc, at):
    j = b.book.journal
    j._f = FailingFile(j._f, exc, at)


def test_a_write_that_fails_before_the_record_lands_leaves_the_event_out():
    b = Book()
    try:
        m = _dealt(b)
        _write_fails(b, OSError(28), "write")  # ENOSPC
        try:
            b.book.apply({"t": "peg", "s": 0, "n": 4, "why": "manual"})
            raise AssertionError("a failed write was taken as saved")
        except CribError as e:
            assert e.args[0] == "Flash error: not saved"
        assert m.front == [0, 0] and state(m) == state(replay(b.on_flash()))
        assert b.book.match is m and len(b.told) == 1
        b.book.apply({"t": "peg", "s": 0, "n": 4, "why": "manual"})  # the journal is open again
        assert m.front == [4, 0] and [e["t"] for e in b.on_flash()] == ["setup", "dealer", "peg"]
    finally:
        b.close()


def test_a_sync_that_fails_after_the_record_landed_keeps_the_event_once():
    b = Book()
    try:
        m = _dealt(b)
        _write_fails(b, OSError(5), "flush")  # EIO after the bytes went down
        done = b.book.apply({"t": "peg", "s": 0, "n": 4, "why": "manual"})
        assert done is not None and b.book.warning == "Flash error"
        assert m.front == [4, 0] and [e["t"] for e in b.on_flash()] == ["setup", "dealer", "peg"]
        assert state(m) == state(replay(b.on_flash()))
    finally:
        b.close()


def test_out_of_heap_halfway_through_the_fold_is_rebuilt_from_the_journal():
    b = Book()
    try:
        m = _dealt(b)
        m.apply = Once(m.apply, MemoryError(), after=True)  # the match took it, then no heap
        try:
            b.book.apply({"t": "peg", "s": 1, "n": 9, "why": "manual"})
            raise AssertionError("an event that never reached the journal was kept")
        except CribError as e:
            assert e.args[0] == "Out of memory: not saved"
        assert m.front == [0, 0] and state(m) == state(replay(b.on_flash()))
        assert [x for x in b.logged if x.startswith("commit failed")]
    finally:
        b.close()


def test_a_replay_that_fails_too_is_done_before_the_next_event():
    b = Book()
    try:
        m = _dealt(b)
        m.apply = Once(m.apply, MemoryError(), after=True)
        j = b.book.journal
        j.open = Once(j.open, MemoryError())  # and no heap for the replay after it either
        try:
            b.book.apply({"t": "peg", "s": 1, "n": 9, "why": "manual"})
            raise AssertionError("taken")
        except CribError as e:
            assert e.args[0] == "Not saved: restart the board"
        assert b.book._loading is not None and m.front == [0, 9]  # half done: nothing may be written now
        try:
            b.book.apply({"t": "peg", "s": 0, "n": 2, "why": "manual"})
            raise AssertionError("an event made from a match that is not the journal's was taken")
        except CribError as e:
            assert e.args[0] == "Reloaded: not saved"
        assert b.book._loading is None and m.front == [0, 0] and len(b.on_flash()) == 2
    finally:
        b.close()


def test_what_fails_after_the_record_is_confirmed_is_logged_and_the_event_stands():
    b = Book()
    try:
        m = _dealt(b)
        b.book.after = Once(b.book.after, ValueError("push"))
        done = b.book.apply({"t": "peg", "s": 0, "n": 3, "why": "manual"})
        assert done is not None and m.front == [3, 0] and len(b.on_flash()) == 3
        assert [x for x in b.logged if x.startswith("saved, then")]
    finally:
        b.close()


def test_a_new_match_refills_the_same_match_and_keeps_only_its_set_up():
    b = Book()
    try:
        m = _dealt(b)
        b.book.apply({"t": "peg", "s": 0, "n": 3, "why": "manual"})
        b.book.new_match(events.setup(form="six", fmt="points", to=5))
        assert b.book.match is m and m.front == [0, 0] and b.book.last() is None
        assert [e["t"] for e in b.on_flash()] == ["setup"] and b.on_flash()[0]["fmt"] == "points"
    finally:
        b.close()


def test_the_undo_prompt_names_the_event_in_force_after_many_undos_and_a_reboot():
    # last() reads the match's log instead of a list of the last 8 events kept (a heap cut): after ten
    # undos in a row, and after a reboot's replay, it is still the event an undo would take back.
    b = Book()
    try:
        m = _dealt(b)
        done = []
        for n in range(1, 13):
            done.append(b.book.apply({"t": "peg", "s": n % 2, "n": n, "why": "manual"}))
        for k in range(10):
            assert b.book.last() == done[-1 - k] == m.effective_events()[-1]
            b.book.apply({"t": "undo"})
        assert b.book.last() == done[1] and m.front == [2, 1]
        b.book.journal.close()
        again = Commit(Journal(b.dir + "/journal.log"), SETUP, b.logged.append)
        again.boot(SETUP)
        assert again.last() == done[1] == again.match.effective_events(last=True)
        again.apply({"t": "undo"})
        again.apply({"t": "undo"})
        assert again.last() == {"t": "dealer", "p": 0}
        again.apply({"t": "undo"})
        assert again.last() is None and again.match.effective_events(last=True) is None
        again.journal.close()
    finally:
        b.close()
