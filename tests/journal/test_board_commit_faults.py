# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# A confirmed event is wholly in (match and journal) or wholly out when a step of its commit fails.
# Regression: in a 96 KB sim run a MemoryError inside Match.apply (a deal's fold, after it had moved the
# dealer on) went on up from App.commit: the live match kept the half-done deal, the journal never got
# it, and the next starter was journalled straight after the crib; the next boot refused it as a second
# starter ("the starter is already 7D") and set the rest of the match aside. Now every failure before
# the record is confirmed rebuilds the match from the journal (the truth at the next boot), the display
# says whether the event was saved, and nothing is retried into a duplicate.
from faultkit import FailingFile, Once
from game_kit import state
from scenario import Scenario

from board.store import commit as board_commit
from cribbage import events
from cribbage.cards import parse_card
from cribbage.game import replay


def _to_the_deal(s):
    s.keys("A OK")  # player 1 deals
    s.cards("2C")  # the starter
    s.keys("OK")  # on to the show
    s.peg(1, 4)
    s.peg(0, 6)
    s.peg(0, 2)  # the hands and the crib: the deal is next
    assert s.app.match.phase() == "deal"


def _kinds(s):
    return [e["t"] for e in s.journal()]


def _as_on_flash(s):
    """The live match is the one the journal replays, and a reboot shows the same."""
    live = state(s.app.match)
    assert live == state(replay(s.journal()))
    s.reboot()
    assert state(s.app.match) == live
    assert not [x for x in s.hal.logged if "set aside" in x]


def _failed_in_log(s):
    return [x for x in s.hal.logged if x.startswith("commit failed")]


def test_memoryerror_in_the_fold_of_a_deal_leaves_the_deal_out():
    s = Scenario()
    try:
        _to_the_deal(s)
        m = s.app.match
        n = len(s.journal())
        # The real fault: the fold has moved the dealer and the deal number on, then its checkpoint
        # finds no heap.
        m._checkpoint = Once(m._checkpoint, MemoryError("memory allocation failed"))
        s.keys("OK")  # next deal
        assert "Out of memory: not saved" in s.said()
        assert _failed_in_log(s)
        assert m.phase() == "deal" and m.deal_no == 1 and m.dealer == 0  # as the journal has it
        assert s.app.match is m and len(s.journal()) == n
        assert state(m) == state(replay(s.journal()))
        s.cards("5H")  # what the sim's script keyed next: a starter, with no deal in force
        s.keys("OK")
        assert "No cards now" in s.said() and len(s.journal()) == n and m.starter == parse_card("2C")
        s.keys("OK")  # the deal again: it works now
        s.cards("5H")
        assert m.deal_no == 2 and m.dealer == 1 and m.starter is not None
        kinds = _kinds(s)
        assert kinds[n:] == ["deal", "starter"] and kinds.count("deal") == 1
        _as_on_flash(s)
    finally:
        s.close()


def test_memoryerror_at_the_end_of_apply_leaves_the_peg_out():
    # The match took the whole event, then making the completed event to journal found no heap.
    s = Scenario()
    try:
        s.keys("A OK")
        m = s.app.match
        m.apply = Once(m.apply, MemoryError(), after=True)
        s.tap(1, 6)
        s.press("OK")
        assert "not saved" in s.said() and m.front == [0, 0]
        assert s.app.controller.pending is None  # no retry: the players peg again if they mean it
        assert _kinds(s) == ["setup", "dealer"]
        s.peg(1, 6)
        assert m.front == [0, 6] and _kinds(s) == ["setup", "dealer", "peg"]
        _as_on_flash(s)
    finally:
        s.close()


def test_memoryerror_before_apply_changed_anything_then_the_starter_again():
    s = Scenario()
    try:
        s.keys("A OK")
        m = s.app.match
        m.apply = Once(m.apply, MemoryError())
        s.cards("JD")  # a jack: his heels would peg 2
        assert "Out of memory: not saved" in s.said()
        assert m.starter is None and m.front == [0, 0]
        assert not s.app.controller.entry.active()  # the card is not kept to be laid by mistake
        s.cards("JD")
        assert m.starter is not None and m.front == [2, 0]
        assert _kinds(s).count("starter") == 1
        _as_on_flash(s)
    finally:
        s.close()


def _append_fails(exc, at):
    s = Scenario()
    try:
        _to_the_deal(s)
        j = s.app.journal
        j._f = FailingFile(j._f, exc, at)
        n = len(s.journal())  # (reopens the journal: wrap the new file)
        j._f = FailingFile(j._f, exc, at)
        s.keys("OK")  # next deal
        landed = at == "flush"
        m = s.app.match
        assert (m.deal_no == 2) is landed
        assert len(s.journal()) == n + (1 if landed else 0)
        assert ("but saved" in s.said()) is landed
        assert ("not saved" in s.said()) is not landed
        if not landed:
            s.keys("OK")  # the deal again, on a journal open again
        assert m.deal_no == 2
        s.cards("5H")
        kinds = _kinds(s)
        assert kinds[n:] == ["deal", "starter"] and kinds.count("deal") == 1
        _as_on_flash(s)
    finally:
        s.close()


def test_flash_write_fails_before_the_record_lands():
    _append_fails(OSError(28), "write")  # ENOSPC


def test_memoryerror_in_the_journal_write_before_it_lands():
    _append_fails(MemoryError(), "write")


def test_flash_sync_fails_after_the_record_landed():
    _append_fails(OSError(5), "flush")  # EIO: the event is in, and is not made twice


def test_link_push_fails_after_the_record_is_confirmed():
    s = Scenario()
    try:
        s.app.start_link()
        s.keys("A OK")
        link = s.app.link
        link.appended = Once(link.appended, MemoryError())
        s.peg(1, 5)
        assert s.app.match.front == [0, 5] and "not saved" not in s.said()
        assert [x for x in s.hal.logged if x.startswith("saved, then")]
        assert _kinds(s) == ["setup", "dealer", "peg"]
        s.peg(0, 3)
        assert _kinds(s) == ["setup", "dealer", "peg", "peg"]
        _as_on_flash(s)
    finally:
        s.close()


def _replay_fails(times):
    s = Scenario()
    try:
        _to_the_deal(s)
        m = s.app.match
        n = len(s.journal())
        m._checkpoint = Once(m._checkpoint, MemoryError())
        j = s.app.journal
        j.open = Once(j.open, MemoryError(), times=times)
        s.keys("OK")  # the deal fails, and so does the replay after it
        assert len(_failed_in_log(s)) == 1 + times
        assert len(s.journal()) == n
        return s, n
    except BaseException:
        s.close()
        raise


def test_no_heap_to_replay_after_a_failed_commit_replays_at_the_next_save_pass():
    s, n = _replay_fails(1)
    try:
        m = s.app.match
        assert "Reloaded: not saved" in s.said()
        assert m.deal_no == 1 and state(m) == state(replay(s.journal()))
        s.keys("OK")
        s.cards("5H")
        assert _kinds(s)[n:] == ["deal", "starter"]
        _as_on_flash(s)
    finally:
        s.close()


def test_no_heap_to_replay_twice_writes_nothing_until_a_replay_works():
    s, n = _replay_fails(2)
    try:
        m = s.app.match
        assert "Not saved: restart the board" in s.said()
        assert m.deal_no == 2  # the half-done deal: the players are told to restart
        s.cards("5H")  # a starter: the journal is replayed first, and nothing is written
        assert "Reloaded: not saved" in s.said()
        assert m.deal_no == 1 and state(m) == state(replay(s.journal())) and len(s.journal()) == n
        s.keys("OK")
        s.cards("5H")
        assert _kinds(s)[n:] == ["deal", "starter"]
        _as_on_flash(s)
    finally:
        s.close()


class _JsonOutOfHeap:
    """The json module as board.store.commit and cribbage.events see it; loads fails with MemoryError at call
    number `at` (from 1), once."""

    def __init__(self, real, at):
        self.real = real
        self.calls = 0
        self.at = at

    def dumps(self, x):
        return self.real.dumps(x)

    def loads(self, text):
        self.calls += 1
        if self.calls == self.at:
            raise MemoryError()
        return self.real.loads(text)


def test_no_heap_to_parse_a_record_in_the_replay_sets_nothing_aside():
    # events.from_line words any failure of json.loads as "not a JSON line" (a CribError): in a replay
    # the journal takes that as a bad record and sets it aside with every record after it. The replay
    # parses with json.loads itself, so a MemoryError there stops the replay and moves nothing.
    s = Scenario()
    real = events.json
    try:
        _to_the_deal(s)
        m = s.app.match
        lines = s.journal()
        m._checkpoint = Once(m._checkpoint, MemoryError())
        board_commit.json = events.json = _JsonOutOfHeap(real, 4)  # the deal fails; its replay at record 4
        s.keys("OK")
        board_commit.json = events.json = real
        assert not [x for x in s.hal.logged if "set aside" in x]
        assert s.journal() == lines
        assert "Reloaded: not saved" in s.said()  # the next save pass replayed it all
        assert m.deal_no == 1 and state(m) == state(replay(lines))
        s.keys("OK")
        assert _kinds(s)[len(lines) :] == ["deal"]
        _as_on_flash(s)
    finally:
        board_commit.json = events.json = real
        s.close()
