# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Journal.open reads records 512 bytes at a time (journal.replay): the same outcome as line by line.
import os

from test_journal import _read, _remove_tree, _tmpdir, _write

from board.store import journal as J
from cribbage.journal import record


def _line_by_line(f, expected, fold, pos, apply, marks, kept):
    return expected, pos, kept, "", 0  # replay taking nothing: open() reads every record itself


def _open(path, refuse=None):
    """(payloads applied, report, marks, size, file bytes, .bad bytes) after Journal(path).open()."""
    got = []

    def apply(text):
        if refuse is not None and refuse in text:
            raise ValueError("no " + refuse)
        got.append(text)

    j = J.Journal(path)
    report = j.open(apply)
    j.close()
    try:
        bad = _read(path + ".bad")
    except OSError:
        bad = None
    return got, str(report), list(j._marks), j.size, _read(path), bad


def _both(data, refuse=None):
    """The outcome of opening a journal file holding data, read in blocks and line by line: equal."""
    d = _tmpdir()
    try:
        path = d + "/journal.log"
        _write(path, data)
        fast = _open(path, refuse)
        _remove_tree(d)  # the .bad file and the seq mark too: the second read starts as the first
        os.mkdir(d)
        _write(path, data)
        saved = J.replay
        J.replay = _line_by_line
        try:
            slow = _open(path, refuse)
        finally:
            J.replay = saved
        assert fast == slow, (fast, slow)
        return fast
    finally:
        _remove_tree(d)


def _journal(payloads, first=1):
    out = J._header(first)
    for k, p in enumerate(payloads):
        out += record(first + k, p.encode())
    return out


# Payloads of every length from 10 to 300 bytes: records end at every offset of a 512-byte read.
PAYLOADS = ['{"t":"peg","why":"%s"}' % ("x" * (n % 290)) for n in range(0, 290, 7)] + ["Zo\u00eb \u0141ukasz"]


def test_good_journal_reads_alike_across_block_edges():
    data = _journal(PAYLOADS, first=40)
    got, report, marks, size, _, bad = _both(data)
    assert got == PAYLOADS and size == len(data) and bad is None
    assert len(marks) == 2 * ((len(PAYLOADS) + 31) // 32) and "next seq %d" % (40 + len(PAYLOADS)) in report


def test_blocks_take_a_whole_good_journal():
    # Not a matter of outcome (line by line would get there too) but of speed: every record of a
    # good journal is taken 512 bytes at a time, the ones across block edges too.
    d = _tmpdir()
    try:
        path = d + "/journal.log"
        data = _journal(PAYLOADS, first=7)
        _write(path, data)
        got = []
        marks = []
        with open(path, "rb") as f:
            _, first, fold, pos = J._read_header(f)
            f.seek(pos)
            got_back = J.replay(f, first, fold, pos, got.append, marks, 0)
            assert got_back == (7 + len(PAYLOADS), len(data), len(PAYLOADS), "", 0)
        assert got == PAYLOADS and marks == [7, pos, 39, marks[3]]
    finally:
        _remove_tree(d)


def test_a_line_longer_than_the_block_then_more():
    payloads = PAYLOADS[:5] + ['{"t":"x","pad":"%s"}' % ("y" * 700)] + PAYLOADS[5:20]
    got, _, _, size, _, _ = _both(_journal(payloads))
    assert got == payloads and size == len(_journal(payloads))


def test_spoilt_records_anywhere_read_alike():
    data = _journal(PAYLOADS[:30])
    n = 0
    # Every 37th byte changed, the file cut short, a record in capitals (not as written: set aside),
    # bad UTF-8.
    for i in range(len(J._header(1)), len(data), 37):
        for b in (0x30, 0x0A, 0x20, data[i] ^ 0x40):
            _both(data[:i] + bytes((b,)) + data[i + 1 :])
            n += 1
    for cut in (len(data) - 1, len(data) - 5, 600, 513, 512, 511):
        _both(data[:cut])
        n += 1
    lines = data.split(b"\n")
    sp = lines[7].find(b" ")
    lines[7] = lines[7][: sp + 1] + lines[7][sp + 1 : sp + 9].upper() + lines[7][sp + 9 :]
    got = _both(b"\n".join(lines))[0]
    assert got == PAYLOADS[:6] + PAYLOADS[7:30]
    bad = J._header(1) + record(1, b"ok") + record(2, b"\xff\xfe") + record(3, b"after")
    got, report, _, _, _, _ = _both(bad)
    assert got == ["ok", "after"] and "not UTF-8" in report
    assert n > 40


def test_a_refused_record_is_set_aside_alone_alike():
    got, report, _, _, _, bad = _both(_journal(PAYLOADS[:30]), refuse="x" * 100)
    assert got == [p for p in PAYLOADS[:30] if "x" * 100 not in p] and len(got) < 30
    assert "refused: no" in report and bad is not None
