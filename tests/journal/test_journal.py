# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The flash journal on a plain folder: record format, replay, torn and corrupt records, compaction, versions.
import os

from board.store.journal import Journal, JournalError
from check import message, raises
from cribbage.crctable import crc32 as table_crc32
from cribbage.journal import crc32

EVENTS = ['{"t":"cut","side":0}', '{"t":"peg","side":1,"pts":2}', '{"t":"peg","side":0,"pts":31}']


def _tmpdir():
    try:
        import tempfile

        return tempfile.mkdtemp(prefix="cribjournal-")
    except ImportError:  # MicroPython: no tempfile, but the unix port's os has urandom and mkdir
        import binascii

        d = "/tmp/cribjournal-" + binascii.hexlify(os.urandom(6)).decode()
        os.mkdir(d)
        return d


def _remove_tree(d):
    for name in os.listdir(d):
        try:
            os.remove(d + "/" + name)
        except OSError:  # the journal's seq mark folder
            _remove_tree(d + "/" + name)
    os.rmdir(d)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class _Tmp:
    """A fresh folder with a journal path in it; removed again by done()."""

    def __init__(self):
        self.dir = _tmpdir()
        self.path = self.dir + "/journal.log"

    def journal(self, events=(), **kw):
        j = Journal(self.path, **kw)
        j.open()
        for e in events:
            j.append(e)
        return j

    def replay(self):
        got = []
        j = Journal(self.path)
        report = j.open(got.append)
        j.close()
        return got, report

    def done(self):
        _remove_tree(self.dir)


def test_crc32_table_agrees_with_binascii_and_zlib_check_value():
    assert crc32(b"123456789") == 0xCBF43926 == table_crc32(b"123456789")
    for data, start in ((b"", 0), (b"a", 7), (EVENTS[2].encode(), 123456), (bytes(range(256)), 0xFFFFFFFF)):
        assert crc32(data, start) == table_crc32(data, start)


def test_new_journal_appends_and_replays_in_order():
    t = _Tmp()
    try:
        j = Journal(t.path)
        report = j.open()
        assert report.ok and report.kept == 0 and report.next_seq == 1 and "new journal" in report.notes
        assert [j.append(e) for e in EVENTS] == [1, 2, 3]
        j.close()
        got, report = t.replay()
        assert got == EVENTS
        assert report.ok and report.kept == 3 and report.first_seq == 1 and report.next_seq == 4
        assert report.notes == []
    finally:
        t.done()


def test_file_format_is_header_then_seq_crc_payload_lines():
    t = _Tmp()
    try:
        t.journal(EVENTS[:2]).close()
        lines = _read(t.path).split(b"\n")
        head = b"cribboard-journal 2 first 1 fold 1"
        assert lines[0] == head + b" crc %08x" % table_crc32(head)
        seq, crc, payload = lines[2].split(b" ", 2)
        assert seq == b"2" and payload == EVENTS[1].encode()
        assert int(crc, 16) == table_crc32(payload, 2) and len(crc) == 8
        assert lines[3] == b""  # every record ends with a newline
        # the seq mark: highest seq given out, acknowledged, the file's size (and no note: none was given)
        assert os.listdir(t.path + ".seq") == ["2.0.%d" % os.stat(t.path)[6]]
    finally:
        t.done()


def test_utf8_payload_round_trips():
    t = _Tmp()
    try:
        t.journal(['{"names":["Zoë","Łukasz"]}']).close()
        assert t.replay()[0] == ['{"names":["Zoë","Łukasz"]}']
    finally:
        t.done()


def test_torn_last_record_at_every_byte_is_dropped_and_reported():
    t = _Tmp()
    try:
        t.journal(EVENTS).close()
        whole = _read(t.path)
        last_start = whole.rindex(b"\n", 0, len(whole) - 1) + 1
        for cut in range(last_start + 1, len(whole)):
            _write(t.path, whole[:cut])
            if _exists(t.path + ".bad"):
                os.remove(t.path + ".bad")
            got, report = t.replay()
            assert got == EVENTS[:2], cut
            assert report.dropped == 1 and report.dropped_bytes == cut - last_start
            assert report.bad_seq == 3 and report.reason == "torn last record"
            assert report.next_seq == 4  # seq 3 was given out (the mark says so): never again
            assert _read(t.path) == whole[:last_start]  # the journal is back to its good prefix
            assert _read(t.path + ".bad").endswith(whole[last_start:cut] + b"\n")
    finally:
        t.done()


def test_a_torn_append_leaves_its_seq_unused():
    # The power goes while the record is written: the mark, written after it, still says 2.
    t = _Tmp()
    try:
        j = t.journal(EVENTS[:2])
        j.close()
        with open(t.path, "ab") as f:
            f.write(b"3 1234")
        got, report = t.replay()
        assert got == EVENTS[:2] and report.dropped == 1 and report.next_seq == 3 and not report.lost
    finally:
        t.done()


def test_after_a_torn_record_the_journal_continues_cleanly():
    t = _Tmp()
    try:
        t.journal(EVENTS).close()
        whole = _read(t.path)
        _write(t.path, whole[:-5])
        j = Journal(t.path)
        assert j.open().dropped == 1
        assert j.append("again") == 4
        j.close()
        got, report = t.replay()
        assert got == EVENTS[:2] + ["again"] and report.ok
    finally:
        t.done()


def test_bad_record_in_the_middle_is_set_aside_alone():
    # Issue 9 item 3: before, one flipped bit set aside every record after it (here 4 of 5).
    t = _Tmp()
    try:
        events = ["e%d" % i for i in range(1, 6)]
        t.journal(events).close()
        whole = _read(t.path)
        at = whole.index(b"e2")
        _write(t.path, whole[:at] + b"E" + whole[at + 1 :])  # one flipped byte in record 2
        got, report = t.replay()
        assert got == ["e1", "e3", "e4", "e5"]
        assert report.bad_seq == 2 and report.reason == "checksum mismatch"
        assert report.dropped == 1 and report.tail_valid == 0 and report.next_seq == 6
        bad = _read(t.path + ".bad").split(b"\n")
        assert bad[0].startswith(b"# set aside at open: from seq 2, 1 records")
        assert bad[1] == whole[whole.index(b"\n2 ") + 1 : whole.index(b"\n", at)].replace(b"e2", b"E2")
        assert bad[2] == b""
        assert "from seq 2" in str(report) and "checksum mismatch" in str(report)
        j = Journal(t.path)
        assert j.open().ok and j.append("e6") == 6  # set aside once; the gap at 2 stays a gap
        assert [s for s, _ in j.records()] == [1, 3, 4, 5, 6]
        j.close()
    finally:
        t.done()


def test_seq_repeat_and_jump_past_the_mark_are_set_aside():
    # A record with a valid checksum past the mark is set aside (no append jumps), yet its seq is
    # never given out again: the mark might be the one that went back.
    for wrong, why, nxt in ((2, "seq 2 where 3 or later was due", 3), (9, "seq 9 past the seq mark 2", 10)):
        t = _Tmp()
        try:
            t.journal(EVENTS[:2]).close()
            with open(t.path, "ab") as f:
                f.write(b"%d %08x x\n" % (wrong, table_crc32(b"x", wrong)))
            got, report = t.replay()
            assert got == EVENTS[:2]
            assert report.reason == why and report.tail_valid == 1 and report.next_seq == nxt
        finally:
            t.done()


def test_a_gap_the_mark_covers_is_kept():
    t = _Tmp()
    try:
        t.journal(EVENTS[:2]).close()
        mark = os.listdir(t.path + ".seq")[0]
        os.rename(t.path + ".seq/" + mark, t.path + ".seq/4.0")  # as the older firmware named it
        with open(t.path, "ab") as f:
            f.write(b"4 %08x x\n" % table_crc32(b"x", 4))
        got, report = t.replay()
        assert got == EVENTS[:2] + ["x"] and report.ok and report.next_seq == 5
    finally:
        t.done()


def test_garbage_lines_never_crash_the_replay():
    for junk in (b"\n", b"\xff\xff\xff\xff", b"3\n", b"3 zzzzzzzz x\n", b"3 1234 x\n", b" 3 00000000 x\n"):
        t = _Tmp()
        try:
            t.journal(EVENTS[:2]).close()
            with open(t.path, "ab") as f:
                f.write(junk)
            got, report = t.replay()
            assert got == EVENTS[:2] and report.dropped == 1 and report.bad_seq == 3, junk
        finally:
            t.done()


def _v(version, rest=b" first 1 fold 1"):
    head = b"cribboard-journal %d" % version + rest
    return head + b" crc %08x\n" % table_crc32(head)


def test_a_journal_of_newer_firmware_is_left_untouched_and_locks_the_journal():
    # Issue 9 item 2: a newer schema version raised JournalVersionError, and the board crashed.
    t = _Tmp()
    try:
        data = _v(3, b" whatever may come") + b"1 00000000 whatever\n"
        _write(t.path, data)
        j = Journal(t.path)
        report = j.open()
        assert report.locked and "version 3" in report.locked and "update the firmware" in report.locked
        assert report.problem() == ("Update firmware:", "journal is newer") and not report.ok
        e = raises(JournalError, j.append, "x")
        assert "update the firmware" in message(e)
        raises(JournalError, j.rewrite, 1, ["x"])
        assert _read(t.path) == data and not _exists(t.path + ".old")
    finally:
        t.done()


def test_a_journal_of_the_first_version_is_read_and_upgraded():
    t = _Tmp()
    try:
        data = b"cribboard-journal 1 first 5\n" + b"5 %08x a\n" % table_crc32(b"a", 5)
        _write(t.path, data)
        got, report = t.replay()
        assert got == ["a"] and report.ok and report.first_seq == 5 and report.next_seq == 6
        assert _read(t.path).startswith(_v(2, b" first 5 fold 5"))
    finally:
        t.done()


def test_a_damaged_header_keeps_the_file_and_every_record_it_can_read():
    # Issue 9 item 2: each of these raised at boot (a traceback on the board).
    m = b"cribboard-journal"
    good = _v(2, b" first 1 fold 1")
    records = b"".join(b"%d %08x e%d\n" % (i, table_crc32(b"e%d" % i, i), i) for i in range(1, 4))
    headers = [
        b"",
        b"hello\n",
        m,
        m + b" x first 1\n",
        m + b" 1\n",
        m + b" 1 first 0\n",
        m + b" 2 first 1\n",
        _v(2, b" first 0 fold 0"),
        good[:-3] + b"\n",
        good[:10],
    ]
    headers += [good[:i] + bytes([good[i] ^ 4]) + good[i + 1 :] for i in range(len(good) - 1)]  # flipped bits
    for head in headers:
        t = _Tmp()
        try:
            data = head + records
            _write(t.path, data)
            j = Journal(t.path)
            got = []
            report = j.open(got.append)
            if report.locked:  # a flip that makes version 2 a newer one, checksum and all: impossible
                raise AssertionError(head)
            assert report.damaged == t.path + ".old" and _read(t.path + ".old") == data, head
            whole = head == b"" or head.endswith(b"\n")
            want = ["e1", "e2", "e3"] if whole else ["e2", "e3"]  # no newline: e1 merged with it
            assert got == want, (head, got)
            assert report.problem() == ("Journal damaged", "kept, see log")
            assert j.append("e4") == 4
            j.close()
            got, report = t.replay()
            assert got == want + ["e4"] and report.ok
        finally:
            t.done()


def test_files_that_are_no_journal_at_all_boot_and_are_kept():
    for data in (b"", b"\xff" * 5000, b"\x00" * 5000, b"x" * 20000 + b"\n"):
        t = _Tmp()
        try:
            t.journal(EVENTS).close()  # the mark says 3 seqs were given out
            _write(t.path, data)
            j = Journal(t.path)
            report = j.open()
            assert report.damaged and _read(report.damaged) == data
            assert report.next_seq == 4 and report.problem() == ("Journal damaged", "kept, see log")
            j.close()
        finally:
            t.done()


def test_a_record_line_of_17_kb_is_set_aside_without_reading_it_whole():
    t = _Tmp()
    try:
        t.journal(EVENTS[:2]).close()
        with open(t.path, "ab") as f:
            f.write(b"3 00000000 " + b"x" * 18000 + b"\n")
        got, report = t.replay()
        assert got == EVENTS[:2] and report.reason == "record too long" and report.dropped_bytes == 18012
        assert _read(t.path + ".bad").endswith(b"x" * 18000 + b"\n")
    finally:
        t.done()


def test_append_refuses_multiline_and_non_text_payloads():
    t = _Tmp()
    try:
        j = t.journal(EVENTS[:1])
        for bad in ("a\nb", "a\rb", b"bytes", 5):
            raises(JournalError, j.append, bad)
        assert j.append("ok") == 2
        j.close()
        assert t.replay()[0] == EVENTS[:1] + ["ok"]
    finally:
        t.done()


def test_compaction_to_a_snapshot_continues_the_seqs():
    t = _Tmp()
    try:
        j = t.journal(EVENTS)
        j.compact(['{"t":"snapshot"}'])
        assert j.first_seq == 4 and j.next_seq == 5
        assert j.append("after") == 5
        j.close()
        got, report = t.replay()
        assert got == ['{"t":"snapshot"}', "after"] and report.first_seq == 4 and report.next_seq == 6
        assert not _exists(t.path + ".tmp")
    finally:
        t.done()


def test_compaction_keeping_the_last_events_keeps_their_seqs():
    t = _Tmp()
    try:
        j = t.journal(EVENTS)
        j.compact(EVENTS[1:], first_seq=2)
        j.close()
        assert list(Journal(t.path).records()) == [(2, EVENTS[1]), (3, EVENTS[2])]
        j = Journal(t.path)
        j.open()
        j.compact([])  # end of match: nothing kept
        assert j.append("next match") == 4
        j.close()
        assert list(Journal(t.path).records()) == [(4, "next match")]
    finally:
        t.done()


def test_compaction_that_would_reuse_seqs_or_has_a_bad_payload_changes_nothing():
    t = _Tmp()
    try:
        j = t.journal(EVENTS)
        before = _read(t.path)
        e = raises(JournalError, j.compact, ["a"], 1)
        assert "never reused" in message(e)
        raises(JournalError, j.compact, ["fine", "two\nlines"])
        raises(JournalError, j.compact, [], 0)
        assert _read(t.path) == before and not _exists(t.path + ".tmp")
        assert j.append("still works") == 4
        j.close()
    finally:
        t.done()


def test_needs_compaction_when_the_file_passes_max_bytes():
    t = _Tmp()
    try:
        j = t.journal(max_bytes=100)
        j.append("x" * 40)
        assert not j.needs_compaction
        j.append("x" * 40)
        assert j.needs_compaction and j.size == len(_read(t.path))
        j.compact([])
        assert not j.needs_compaction
        j.compact(["y" * 60, "y" * 60])  # what is kept is past max_bytes already: no compaction per event
        kept = j.size
        assert kept > 100 and not j.needs_compaction
        while j.size <= 2 * kept:
            assert not j.needs_compaction
            j.append("z" * 20)
        assert j.needs_compaction
        j.close()
    finally:
        t.done()


def test_leftover_temp_file_of_an_interrupted_compaction_is_removed():
    t = _Tmp()
    try:
        t.journal(EVENTS).close()
        _write(t.path + ".tmp", b"cribboard-journal 1 first 4\n4 000")
        got, report = t.replay()
        assert got == EVENTS and report.ok and report.notes == ["removed an unfinished compaction"]
        assert not _exists(t.path + ".tmp")
    finally:
        t.done()


def test_a_record_the_game_refuses_is_set_aside_like_corruption():
    t = _Tmp()
    try:
        t.journal(EVENTS).close()
        seen = []

        def apply(payload):
            if "31" in payload:
                raise ValueError("over 31")
            seen.append(payload)

        j = Journal(t.path)
        report = j.open(apply)
        j.close()
        assert seen == EVENTS[:2] and report.bad_seq == 3 and report.reason == "refused: over 31"
        assert report.dropped == 1 and report.tail_valid == 1
    finally:
        t.done()


def test_a_bug_in_apply_propagates_and_sets_nothing_aside():
    t = _Tmp()
    try:
        t.journal(EVENTS).close()
        before = _read(t.path)

        def apply(payload):
            raise RuntimeError("bug")

        raises(RuntimeError, Journal(t.path).open, apply)
        assert _read(t.path) == before and not _exists(t.path + ".bad")
    finally:
        t.done()


def test_records_from_a_seq():
    t = _Tmp()
    try:
        t.journal(EVENTS).close()
        j = Journal(t.path)
        assert list(j.records(2)) == [(2, EVENTS[1]), (3, EVENTS[2])]
        assert list(j.records(9)) == []
    finally:
        t.done()


def test_records_seek_near_their_seq_and_agree_with_a_full_read():
    t = _Tmp()
    try:
        lines = ["event %d" % i for i in range(1, 101)]
        j = t.journal(lines[:70])
        fresh = Journal(t.path)  # never opened: reads from the header
        for start in (0, 1, 31, 32, 33, 64, 65, 70, 71, 500):
            want = [(s, lines[s - 1]) for s in range(max(start, 1), 71)]
            assert list(j.records(start)) == want == list(fresh.records(start)), start
        j.compact(lines[40:], first_seq=41)  # keeps seqs 41..100 and their lines
        for start in (0, 41, 72, 73, 100, 101):
            want = [(s, lines[s - 1]) for s in range(max(start, 41), 101)]
            assert list(j.records(start)) == want, start
        for i in range(101, 140):
            j.append("event %d" % i)
        assert list(j.records(130)) == [(s, "event %d" % s) for s in range(130, 140)]
        j.close()
        j = Journal(t.path)
        j.open()
        assert list(j.records(105)) == [(s, "event %d" % s) for s in range(105, 140)]
        j.close()
    finally:
        t.done()


class _FailingFile:
    def write(self, data):
        raise OSError(28)  # ENOSPC

    def close(self):
        pass


def test_a_failed_append_closes_the_journal_until_it_is_opened_again():
    t = _Tmp()
    try:
        j = t.journal(EVENTS[:1])
        real = j._f
        j._f = _FailingFile()
        raises(OSError, j.append, "lost")
        real.close()
        e = raises(JournalError, j.append, "later")
        assert "open()" in message(e)
        got = []
        j.open(got.append)
        assert got == EVENTS[:1] and j.append("later") == 2
        j.close()
    finally:
        t.done()
