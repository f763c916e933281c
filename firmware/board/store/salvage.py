# What a journal's open() does with what it cannot replay: records set aside, a damaged header's file kept.
"""The rare half of board/store/journal.py, loaded only when open() meets a record replay() does not take
(a torn or damaged line, a gap in the seqs, a record the match refuses), a header it cannot read, or an
older format to upgrade; and when the link pages through the set-aside files. What it keeps and where
is in docs/journal.md."""

import os

from board.store import journal
from cribbage import const
from cribbage.journal import parse

_MAX_RECORD = const(1100)  # journal.py's: a longer line is no record this firmware wrote
_MARK_EVERY = const(32)  # journal.py's: (seq, offset) of every 32nd record
_COPY_CHUNK = const(512)


def rest(j, f, stop, fold, size, apply, out, mark, report):
    """Go on from where replay() stopped (stop: what it returned), a line at a time: each good record
    is replayed, each other line added to out (byte ranges), and replay() takes over again after it.
    -> (the seq after the last one kept, the highest seq seen with a valid checksum, records kept,
    the file's end), as journal.py's _apply."""
    expected, pos, kept, why, end = stop
    high = expected - 1
    marks = j._marks
    buf = None  # for a line too long to read whole: made when needed
    while True:
        seq = -1
        if not why:
            if pos >= size:
                break
            if buf is None:
                buf = bytearray(_COPY_CHUNK)
            line, end = _line(f, pos, buf)
            if line is None:
                why = "record too long"
            elif line[-1:] != b"\n":
                why = "torn last record"  # only the last line of a file can lack its newline
            else:
                got, text, why = parse(line)
            if not why:
                seq = got
                if seq < expected:
                    why = "seq %d where %d or later was due" % (seq, expected)
                elif seq > expected and seq > mark + 1 > 1:
                    why = "seq %d past the seq mark %d" % (seq, mark)  # a jump no append made
                else:
                    if apply is not None and seq >= fold:
                        try:
                            apply(text)
                        except ValueError as e:
                            why = "refused: %s" % e
                    if not why:
                        if kept % _MARK_EVERY == 0:
                            marks.append(seq)
                            marks.append(pos)
                        kept += 1
                        expected = seq + 1
        else:
            seq = expected  # refused by apply in replay(): a record with a valid checksum
        if seq > high:
            high = seq
        if why:
            if not report.dropped:
                report.bad_seq = expected
                report.reason = why
            report.dropped += 1
            report.dropped_bytes += end - pos
            if seq >= 0:
                report.tail_valid += 1
            if out and out[-1] == pos:  # adjacent bad lines are one range
                out[-1] = end
            else:
                out.append(pos)
                out.append(end)
        pos = end
        f.seek(pos)
        expected, pos, kept, why, end = journal.replay(f, expected, fold, pos, apply, marks, kept)
    return expected, max(high, expected - 1), kept, pos


def restore(j, why, mark, report):
    """A header journal j's firmware cannot read: the whole file is copied to .old (byte for byte), and
    the journal changes with every record in it whose checksum holds and whose seq follows the
    last one kept. Two passes (the first finds the first seq, for the header): boot time only."""
    k = 1
    while journal._exists(j.path + (".old" if k == 1 else ".old%d" % k)):
        k += 1
    old = j.path + (".old" if k == 1 else ".old%d" % k)
    buf = bytearray(_COPY_CHUNK)
    with open(j.path, "rb") as src:
        with open(old, "wb") as dst:
            _copy(src, dst, 1 << 30, buf)
            journal._sync(dst)
        first = _load(src, buf, None)
        first = first if first > 0 else mark + 1
        with open(j.temp_path, "wb") as tmp:
            tmp.write(journal._header(first))
            n = _load(src, buf, tmp)
            journal._sync(tmp)
    os.rename(j.temp_path, j.path)
    report.damaged = old
    report.notes.append("%s: %d records with a valid checksum kept" % (why, n))


def set_aside(j, out, first, fold, start, end, report):
    """Copy the byte ranges in out to the .bad file and rewrite the journal without them (a new
    header: the current version). -> the new file's size. Nothing is destroyed: a power cut
    before the rename leaves the old file, and the next boot does it again (the .bad file then
    holds those lines twice, each copy after its own note line)."""
    buf = bytearray(_COPY_CHUNK)
    with open(j.path, "rb") as src:
        if out:
            with open(j.bad_path, "ab") as dst:
                dst.write(
                    b"# set aside at open: from seq %d, %d records, %d bytes: %s\n"
                    % (report.bad_seq, report.dropped, report.dropped_bytes, report.reason.encode())
                )
                for i in range(0, len(out), 2):
                    src.seek(out[i])
                    if _copy(src, dst, out[i + 1] - out[i], buf) != 10:
                        dst.write(b"\n")
                journal._sync(dst)
            report.set_aside = j.bad_path
        head = journal._header(first, fold)
        with open(j.temp_path, "wb") as tmp:
            size = tmp.write(head)
            pos = start
            for i in range(0, len(out) + 2, 2):
                stop = out[i] if i < len(out) else end
                src.seek(pos)
                _copy(src, tmp, stop - pos, buf)
                size += stop - pos
                if i < len(out):
                    pos = out[i + 1]
            journal._sync(tmp)
    os.rename(j.temp_path, j.path)
    # The marks' offsets move with what was taken out before them.
    marks = j._marks
    for k in range(1, len(marks), 2):
        gone = start - len(head)
        for i in range(0, len(out), 2):
            if out[i] < marks[k]:
                gone += out[i + 1] - out[i]
        marks[k] -= gone
    return size


def aside(j, name=None, at=0, n=384):
    """Without a name: [(path, size)] of the files that hold what open() set aside: the .bad
    file (records) and the .old copies (whole journals whose header could not be read). With
    the path of one of them: up to n of its bytes from byte at (the link pages through them)."""
    out = []
    for i in range(17):
        path = j.bad_path if i == 0 else j.path + (".old" if i == 1 else ".old%d" % i)
        try:
            out.append((path, os.stat(path)[6]))
        except OSError:
            if i:
                break
        if path == name:
            with open(path, "rb") as f:
                f.seek(at)
                return f.read(n)
    if name is not None:
        raise journal.JournalError("no set-aside file %s" % name)
    return out


def _line(f, pos, buf):
    """(the line starting at byte pos, its end): a line over _MAX_RECORD comes back as None, its end
    found a block at a time, so a 64 KB line costs no 64 KB of heap."""
    f.seek(pos)
    line = f.read(_MAX_RECORD + 1)
    nl = line.find(b"\n")
    if nl >= 0:
        return line[: nl + 1], pos + nl + 1
    if len(line) <= _MAX_RECORD:
        return line, pos + len(line)  # the end of the file, without a newline
    end = pos + len(line)
    while True:
        n = f.readinto(buf)
        if not n:
            return None, end
        nl = buf.find(b"\n", 0, n)
        if nl >= 0:
            return None, end + nl + 1
        end += n


def _copy(src, dst, count, buf):
    """Copy count bytes from src to dst through buf; returns the last byte copied (or -1)."""
    mv = memoryview(buf)
    last = -1
    while count > 0:
        n = src.readinto(mv[: min(count, len(buf))])
        if not n:
            break
        dst.write(mv[:n])
        last = buf[n - 1]
        count -= n
    return last


def _load(src, buf, out):
    """Scan a damaged file from byte 0 for records whose checksum holds and whose seq follows the
    last one taken; write them to out. -> the first seq taken (out None), else how many."""
    pos = 0
    last = 0
    n = 0
    while True:
        line, end = _line(src, pos, buf)
        if line == b"":
            break
        if line is not None and line[-1:] == b"\n":
            got, _, why = parse(line)
            if not why and got > last:
                if out is None:
                    return got
                out.write(line)
                last = got
                n += 1
        pos = end
    return -1 if out is None else n
