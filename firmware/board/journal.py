# Append-only journal of event lines on the board's flash: seq + CRC per record, replay at boot, compaction.
"""The board's event log on flash (docs/design.md, rule 3: the event log is the truth).

API (board firmware)::

    from board.journal import Journal, JournalError, JournalVersionError

    j = Journal("/journal.log")      # touches nothing yet
    report = j.open(apply)           # at boot: apply(payload) for each good record, in order
    seq = j.append(line)             # the record is on flash when this returns
    if j.needs_compaction: ...       # the file passed max_bytes (and twice its last compacted size)
    j.compact(lines, first_seq)      # rewrite as temp file + rename (end of match, or too big)
    for seq, line in j.records(n): ...   # re-read records with seq >= n (USB sync)
    j.close()

open(apply) replays the file record by record (never the whole file in RAM): apply(payload) gets
each payload (a str, e.g. one event JSON line) in seq order. `open(lines.append)` collects them.
apply may raise ValueError (CribError is one) to refuse a record: that record and everything after
it are set aside exactly like a corrupt tail. Any other exception (a bug, MemoryError) propagates:
those are no reason to move events out of the game.
The seq of the k-th payload applied (k from 0) is report.first_seq + k.

open() returns a Report: kept, first_seq, next_seq, dropped, dropped_bytes, bad_seq, reason,
tail_valid, set_aside, notes; report.ok is True when nothing was dropped; str(report) says it all
in one line. A missing file is created (seq starts at 1); a leftover temp file of an interrupted
compaction is removed (the journal itself is still the old, whole one).
open() raises JournalVersionError for a journal written with another schema version and
JournalError for a file that is not a journal at all: it never guesses. The file is left alone;
set_aside() renames it out of the way (path + ".old", ".old2", ...) so open() can start afresh.

append(payload) takes a str without newlines and returns its seq. It writes one line and syncs
(MicroPython littlefs: file.flush() is lfs_file_sync, which commits the data and the new file size
atomically; on CPython os.fsync follows). Show an event as done only after append() returned. If
append raises (flash full, I/O error), the record is not confirmed and the journal closes itself:
call open(apply) again to rebuild the state from what is really on flash.

compact(payloads, first_seq=None) writes a new file holding only `payloads` (any iterable of str),
numbered from first_seq (default: the next seq, as for a snapshot event; pass the seq of the first
kept record when keeping the current match's events, so their seqs do not change). Seqs are never
reused: compaction is refused if the new file would end before the old one.

File format (schema version 1), text, one line each::

    cribboard-journal 1 first <seq of the first record>
    <seq> <crc32 as 8 hex digits> <payload>

The CRC-32 (zlib's) is of the payload's UTF-8 bytes, started from the seq as the initial value, so a
record moved to another seq fails its check. Seqs are consecutive; a gap or a repeat is corruption.
"""
import os

from board.crc import crc32

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just x
    const = int  # type: ignore

VERSION = 1
MAGIC = b"cribboard-journal"
DEFAULT_MAX_BYTES = 64 * 1024  # ~1400 records of ~46 bytes; the scripted three-game match is ~24 KB
# Byte offset of every 32nd record is kept, so records(seq) for the USB sync seeks near its seq
# instead of reading and checking the whole file (a 600-event file is ~0.25 s on the Pico).
_MARK_EVERY = const(32)
_COPY_CHUNK = const(512)
_READ = const(512)  # bytes read at a time at boot: a few records (~46 bytes each)

# MicroPython's os has no fsync: there file.flush() itself syncs (littlefs, and VfsPosix on unix).
_fsync = getattr(os, "fsync", None)


class JournalError(Exception):
    """The journal cannot be used as asked; the message says why. Nothing was changed."""


class JournalVersionError(JournalError):
    """The journal was written with a schema version this firmware does not read."""


class Report:
    """What open() found and did."""

    def __init__(self):
        self.kept = 0  # records replayed
        self.first_seq = 1
        self.next_seq = 1  # the seq the next append() gets
        self.dropped = 0  # records set aside (a torn last line counts as one)
        self.dropped_bytes = 0
        self.bad_seq = None  # the seq that was due where the bad tail starts
        self.reason = ""  # why the tail was set aside
        self.tail_valid = 0  # records in the tail whose checksum still holds (readable on the laptop)
        self.set_aside = None  # the file the tail was copied to
        self.notes = []  # anything else done: a new journal, an unfinished compaction removed

    @property
    def ok(self):
        return self.dropped == 0

    def __str__(self):
        text = "journal: %d records replayed, next seq %d" % (self.kept, self.next_seq)
        if self.dropped:
            text += "; set aside %d records (%d bytes, %d with a valid checksum) from seq %d: %s -> %s" % (
                self.dropped,
                self.dropped_bytes,
                self.tail_valid,
                self.bad_seq,
                self.reason,
                self.set_aside,
            )
        for note in self.notes:
            text += "; " + note
        return text


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _sync(f):
    f.flush()
    if _fsync is not None:
        _fsync(f.fileno())


def _encode(payload):
    if not isinstance(payload, str):
        raise JournalError("journal payload must be str, not %s" % type(payload).__name__)
    data = payload.encode()
    if b"\n" in data or b"\r" in data:
        raise JournalError("journal payload must be one line: %r" % payload[:40])
    return data


def _record(seq, data):
    return b"%d %08x " % (seq, crc32(data, seq & 0xFFFFFFFF)) + data + b"\n"


def _header(first_seq):
    return MAGIC + b" %d first %d\n" % (VERSION, first_seq)


def _payload(line, expected):
    """The payload (bytes) of this line if it is, exactly as append() writes it, the record
    `expected`; else _check(line, expected): the payload after all, or why not (a str).

    The boot replay reads every record through here: the line is compared with the seq and
    checksum it must start with, made as _record makes them (a few calls in C, no int parsing, no
    try: MicroPython would put a frame with a try on the heap at every call).
    """
    sp = line.find(b" ")
    if sp > 0 and line[-1] == 10:
        payload = line[sp + 10 : -1]
        crc = crc32(payload, expected & 0xFFFFFFFF)
        if line.startswith(b"%d %08x " % (expected, crc)):
            return payload
    return _check(line, expected)


def _replay(f, first, pos, apply, marks):
    """Replay the records from byte pos (where f is) while each is exactly as append() writes it and
    apply takes it, reading the file _READ bytes at a time. -> (next seq, pos, line, why): where it
    stopped; line and why: the record apply refused (f is after it), else None and "": what is
    left (the end, or a line any other way, even a good one) is for open() to read line by line.

    The boot replay's bulk: readline reads a byte at a time, and makes a bytes object of every line.
    """
    buf = bytearray(_READ)
    mv = memoryview(buf)
    expected = first
    base = pos  # the file offset of buf[0]
    start = 0  # the line now read starts at buf[start]
    n = f.readinto(buf) or 0
    while True:
        nl = buf.find(b"\n", start, n)
        if nl < 0:
            if start == 0:
                break  # a line longer than the buffer, or the end of the file
            rest = bytes(mv[start:n])  # the line's beginning goes first (a copy: they may overlap)
            buf[0 : len(rest)] = rest
            base += start
            start = 0
            n = len(rest) + (f.readinto(mv[len(rest) :]) or 0)
            continue
        # _payload's check, on the buffer
        sp = buf.find(b" ", start, nl)
        if sp <= start:
            break
        payload = mv[sp + 10 : nl]
        crc = crc32(payload, expected & 0xFFFFFFFF)
        if not buf.startswith(b"%d %08x " % (expected, crc), start):
            break
        try:
            text = str(payload, "utf-8")
        except ValueError:
            break
        if apply is not None:
            try:
                apply(text)
            except ValueError as e:
                f.seek(base + nl + 1)
                return expected, base + start, bytes(mv[start : nl + 1]), "refused: %s" % e
        if (expected - first) % _MARK_EVERY == 0:
            marks.append(base + start)
        expected += 1
        start = nl + 1
    return expected, base + start, None, ""


def _check(line, expected):
    """The payload (bytes) of this line if it is the record `expected`; else why not (a str)."""
    n = len(line)
    if line[n - 1] != 10:
        return "torn last record"  # only the last line of a file can lack its newline
    sp1 = line.find(b" ")
    sp2 = sp1 + 9
    if sp1 < 1 or sp2 >= n or line[sp2] != 32:
        return "unreadable record"
    try:
        seq = int(line[:sp1])
        crc = int(line[sp1 + 1 : sp2], 16)
    except ValueError:
        return "unreadable record"
    payload = line[sp2 + 1 : n - 1]
    if crc32(payload, seq & 0xFFFFFFFF) != crc:
        return "checksum mismatch"
    if seq != expected:
        return "seq %d where %d was due" % (seq, expected)
    return payload


def _read_header(f, path):
    line = f.readline()
    words = line.split()
    if not line.endswith(b"\n") or len(words) < 2 or words[0] != MAGIC:
        raise JournalError("%s is not a cribboard journal (header %r)" % (path, line[:40]))
    try:
        version = int(words[1])
    except ValueError:
        raise JournalError("%s has an unreadable schema version %r" % (path, words[1]))
    if version != VERSION:
        raise JournalVersionError(
            "%s has journal schema version %d; this firmware reads version %d only" % (path, version, VERSION)
        )
    if len(words) != 4 or words[2] != b"first":
        raise JournalError("%s has a damaged header %r" % (path, line[:40]))
    try:
        first = int(words[3])
    except ValueError:
        raise JournalError("%s has a damaged header %r" % (path, line[:40]))
    return first, len(line)


class Journal:
    def __init__(self, path, max_bytes=DEFAULT_MAX_BYTES):
        self.path = path
        self.temp_path = path + ".tmp"
        self.bad_path = path + ".bad"
        self.max_bytes = max_bytes
        self.first_seq = 1
        self.next_seq = 1
        self.size = 0  # bytes in the file
        self._f = None
        self._marks = []  # byte offset of records first_seq, first_seq + _MARK_EVERY, ...
        self._compacted = 0  # size of the file the last compact() wrote

    @property
    def needs_compaction(self):
        # Twice the size the last compaction left, too: when what the caller keeps is itself past
        # max_bytes (a very long match), compacting again at every event would only wear the flash.
        return self.size > self.max_bytes and self.size > 2 * self._compacted

    def open(self, apply=None):
        """Replay the journal into apply(payload) and make it ready to append; returns a Report."""
        self.close()
        report = Report()
        marks = self._marks = []
        if _exists(self.temp_path):
            # A compaction was cut before its rename: the journal is still the whole old one.
            os.remove(self.temp_path)
            report.notes.append("removed an unfinished compaction")
        if not _exists(self.path):
            self._write_temp(1, (), [])
            os.rename(self.temp_path, self.path)
            report.notes.append("new journal")
        with open(self.path, "rb") as f:
            first, pos = _read_header(f, self.path)
            expected, pos, line, why = _replay(f, first, pos, apply, marks)
            if line is not None:  # apply refused a record
                self._measure_tail(f, line, expected, why, report)
            else:
                f.seek(pos)  # anything _replay left is read line by line, and its fate said
            while line is None:
                line = f.readline()
                if not line:
                    break
                why = _payload(line, expected)
                if not isinstance(why, str):
                    # Decoded and applied here, not in a function: this frame is made once, and
                    # a function with a try would have its frame made on the heap at every record.
                    try:
                        text = why.decode()
                    except ValueError:
                        why = "payload is not UTF-8"
                    else:
                        why = ""
                        if apply is not None:
                            try:
                                apply(text)
                            except ValueError as e:
                                why = "refused: %s" % e
                if why:
                    self._measure_tail(f, line, expected, why, report)
                    break
                if (expected - first) % _MARK_EVERY == 0:
                    marks.append(pos)
                pos += len(line)
                expected += 1
                line = None
        if report.dropped:
            self._set_tail_aside(pos, report)
        report.kept = expected - first
        report.first_seq = self.first_seq = first
        report.next_seq = self.next_seq = expected
        self.size = pos
        self._open_for_append()
        return report

    def _measure_tail(self, f, line, expected, why, report):
        report.bad_seq = expected
        report.reason = why
        while line:
            report.dropped += 1
            report.dropped_bytes += len(line)
            sp = line.find(b" ")
            try:
                seq = int(line[:sp])
            except ValueError:
                seq = -1
            if seq >= 0 and not isinstance(_check(line, seq), str):
                report.tail_valid += 1
            line = f.readline()

    def _set_tail_aside(self, good_end, report):
        # The bad tail is copied to the .bad file and the journal rewritten to its good prefix, so that
        # (1) nothing is destroyed: a record after one bad one may still be sound and the laptop can
        # read it from .bad; (2) new records follow the good prefix directly: left in place, the bad
        # tail would hide every later append at the next boot. MicroPython files cannot be truncated,
        # so the prefix goes through a temp file and an atomic rename; a power cut before the rename
        # leaves the old file, and the next boot does the same again (the .bad file then holds the
        # tail twice, each copy after its own note line).
        buf = bytearray(_COPY_CHUNK)
        with open(self.path, "rb") as src:
            src.seek(good_end)
            with open(self.bad_path, "ab") as bad:
                note = "# set aside at open: from seq %d, %d records, %d bytes: %s\n" % (
                    report.bad_seq,
                    report.dropped,
                    report.dropped_bytes,
                    report.reason,
                )
                bad.write(note.encode())
                last = _copy(src, bad, report.dropped_bytes, buf)
                if last != 10:
                    bad.write(b"\n")
                _sync(bad)
            src.seek(0)
            with open(self.temp_path, "wb") as tmp:
                _copy(src, tmp, good_end, buf)
                _sync(tmp)
        os.rename(self.temp_path, self.path)
        report.set_aside = self.bad_path

    def append(self, payload):
        """Write one record and sync it to flash; returns its seq."""
        data = _encode(payload)
        f = self._f
        if f is None:
            raise JournalError("journal is not open (open() it; after a failed write, open() it again)")
        seq = self.next_seq
        rec = _record(seq, data)
        if (seq - self.first_seq) % _MARK_EVERY == 0:
            self._marks.append(self.size)
        try:
            f.write(rec)
            _sync(f)
        except BaseException:
            # Not confirmed, and the file's end is unknown now: only open() may decide what is on flash.
            self._f = None
            try:
                f.close()
            except Exception:
                pass
            raise
        self.next_seq = seq + 1
        self.size += len(rec)
        return seq

    def compact(self, payloads, first_seq=None):
        """Replace the journal by `payloads` numbered from first_seq: temp file, then rename."""
        first = self.next_seq if first_seq is None else first_seq
        if first < 1:
            raise JournalError("first seq must be 1 or more, not %d" % first)
        self.close()
        marks = []
        try:
            n, size = self._write_temp(first, payloads, marks)
            if first + n < self.next_seq:
                raise JournalError(
                    "compaction would end at seq %d, before the journal's %d: seqs are never reused"
                    % (first + n - 1, self.next_seq - 1)
                )
        except BaseException:
            try:
                os.remove(self.temp_path)
            except OSError:
                pass
            self._open_for_append()
            raise
        os.rename(self.temp_path, self.path)
        self.first_seq = first
        self.next_seq = first + n
        self.size = self._compacted = size
        self._marks = marks
        self._open_for_append()

    def _write_temp(self, first, payloads, marks):
        n = 0
        with open(self.temp_path, "wb") as f:
            size = f.write(_header(first))
            for payload in payloads:
                if n % _MARK_EVERY == 0:
                    marks.append(size)
                size += f.write(_record(first + n, _encode(payload)))
                n += 1
            _sync(f)
        return n, size

    def records(self, from_seq=0):
        """Yield (seq, payload) of the records with seq >= from_seq, reading the file afresh."""
        with open(self.path, "rb") as f:
            seq = _read_header(f, self.path)[0]
            marks = self._marks
            if marks and seq == self.first_seq and from_seq > seq:
                k = min((from_seq - seq) // _MARK_EVERY, len(marks) - 1)
                f.seek(marks[k])
                seq += k * _MARK_EVERY
            while True:
                line = f.readline()
                if not line:
                    return
                payload = _payload(line, seq)
                if isinstance(payload, str):
                    return
                if seq >= from_seq:
                    yield seq, payload.decode()
                seq += 1

    def set_aside(self):
        """Rename a journal that open() refused out of the way; returns the new name."""
        self.close()
        n = 1
        while True:
            name = self.path + (".old" if n == 1 else ".old%d" % n)
            if not _exists(name):
                break
            n += 1
        os.rename(self.path, name)
        return name

    def _open_for_append(self):
        # Kept open between appends: one lfs file handle, no path lookup per event.
        self._f = open(self.path, "ab")  # noqa: SIM115

    def close(self):
        f = self._f
        self._f = None
        if f is not None:
            f.close()


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
