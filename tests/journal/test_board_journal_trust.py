# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Issue 9 on the whole board: what the journal found is said on the display and the console, and a
# new match (OK at "New match?", MENU+UNDO) keeps the events no laptop has acknowledged.
from fakehal import scratch_dir
from scenario import Scenario

from board.store.journal import Journal
from cribbage.journal import crc32


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _guard(s):
    """Hold MENU+UNDO: the new-match guard."""
    s.hold("MENU", "UNDO")
    s.wait(1000)
    s.release("MENU", "UNDO")
    s.wait(60)


def _seqs(s):
    return [seq for seq, _ in s.app.journal.records()]


def test_a_damaged_journal_boots_and_the_display_and_console_say_so():
    # Before: the board stopped with a traceback (JournalError) before anything was drawn.
    for data in (b"", b"\xff" * 3000, b"cribboard-journal 1 first 0\n", b"cribboard-journal 2 first 1\n"):
        d = scratch_dir()
        _write(d + "/journal.log", data)
        s = Scenario(storage_dir=d)
        try:
            assert "Journal damaged" in s.said(), (data[:30], s.said())
            assert any("header" in m and "journal.log.old" in m for m in s.hal.logged), s.hal.logged
            assert _read(d + "/journal.log.old") == data
            s.keys("A OK")  # and the board plays on
            assert s.app.match.dealer is not None
        finally:
            s.close()


def test_a_journal_of_newer_firmware_says_update_and_refuses_to_record():
    d = scratch_dir()
    head = b"cribboard-journal 7 first 1 fold 1"
    data = head + b" crc %08x\n" % crc32(head)
    _write(d + "/journal.log", data)
    s = Scenario(storage_dir=d)
    try:
        assert "Update firmware" in s.said()
        s.keys("A OK")
        assert "Update firmware" in s.said() and s.app.match.dealer is None
        assert _read(d + "/journal.log") == data
    finally:
        s.close()


def test_a_rolled_back_journal_is_reported_on_the_display():
    s = Scenario()
    try:
        s.keys("A OK")
        for _ in range(3):
            s.peg(1, 2)
        path = s.app.journal.path
        s.app.journal.close()
        data = _read(path)
        _write(path, data[: data.rindex(b"\n", 0, len(data) - 1) + 1])  # the last record gone
        s.reboot()
        assert "Journal rollback lost seq 5-5" in s.said()
        assert any("rolled back" in m for m in s.hal.logged)
        s.peg(0, 1)
        assert _seqs(s)[-1] == 6  # seq 5 (the lost peg) is not handed out again
    finally:
        s.close()


def test_new_match_warns_about_unsynced_games_and_keeps_them():
    # Before: OK at the guard rewrote the journal to the new set-up alone: the match was gone.
    s = Scenario()
    try:
        s.keys("A OK")
        s.peg(1, 10)
        _guard(s)
        assert "1 game not synced: OK to keep going" in s.said(), s.said()
        s.press("OK")
        assert s.app.match.front == [0, 0]
        assert _seqs(s) == [1, 2, 3, 4]  # the old match's set-up, dealer, peg, and the new set-up
        assert [e["t"] for e in s.journal()] == ["setup"]  # the board replays the new match only
        s.reboot()
        assert _seqs(s) == [1, 2, 3, 4] and s.app.match.front == [0, 0]
        s.app.journal.ack(4)  # the laptop stored them all
        _guard(s)
        assert "not synced" not in s.said() and "new match?" in s.said()
        s.press("OK")
        assert _seqs(s) == [5]  # synced matches go first
    finally:
        s.close()


def test_compaction_keeps_what_the_laptop_has_not_stored():
    s = Scenario()
    try:
        s.app.journal.max_bytes = 300  # compaction after a few events
        s.keys("A OK")
        for _ in range(12):
            s.peg(0, 1)
        assert s.app.journal.changes > 1  # compacted at least once
        assert _seqs(s) == list(range(1, 15))  # before: the effective events renumbered as new seqs
        s.app.journal.ack(10)
        s.peg(1, 1)
        s.app.book._compact()
        assert _seqs(s)[0] == 1  # the current match stays whole (its fold starts at seq 1)
    finally:
        s.close()


def test_the_journal_mark_survives_a_reboot_with_a_journal_of_the_first_version():
    d = scratch_dir()
    rec = b"1 %08x " % crc32(b'{"t":"setup"}', 1) + b'{"t":"setup"}\n'
    _write(d + "/journal.log", b"cribboard-journal 1 first 1\n" + rec)
    j = Journal(d + "/journal.log")
    report = j.open()
    assert report.ok and report.next_seq == 2
    assert _read(d + "/journal.log").startswith(b"cribboard-journal 2 ")
    j.close()
