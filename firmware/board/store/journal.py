# Append-only journal of event lines on flash: seq + CRC per record, replay at boot, set-asides, a seq mark.
"""The board's event log on flash (docs/design.md, rule 3: the event log is the truth). The file format,
the seq mark and what open() does with a damaged file are in docs/journal.md.

API (board firmware)::

    from board.store.journal import Journal, JournalError

    j = Journal("/journal.log")      # touches nothing yet
    report = j.open(apply)           # at boot: apply(payload) for each good record, in seq order
    report = j.open(apply, skip, start)    # from a state() whose bytes are still the file's first
    seq = j.append(line)             # the record is on flash when this returns
    j.ack(seq)                       # a laptop has stored every record up to seq (kept on flash)
    j.note = fn                      # fn() -> the text the seq mark's name ends with (the app's pegs)
    j.remember()                     # the seq mark written again when its name would change
    j.rewrite(keep_from, [line])     # keep records >= keep_from, then append lines (a new match)
    j.compact(lines, first_seq)      # replace the records by lines (tests and tools)
    for seq, line in j.records(n): ...   # records with seq >= n (USB sync)
    skip = j.state()                 # what open() needs to take the file's bytes so far as read
    j.close()

open(apply) never raises for what it finds on flash (a bug in apply, a MemoryError and I/O errors
do propagate): a record it cannot read or apply refuses (ValueError) is set aside, byte for byte,
into the .bad file and the journal goes on with every other intact record; a damaged header has the
whole file copied to .old (.old2, ...) before the records it can still read are kept; a journal of
newer firmware is left as it is and the journal stays locked (append and rewrite refuse: update the
firmware). report.problem() is the two display lines that say what went wrong, None when nothing did.

Seqs are never handed out twice: after each append the seq mark (a small file in a folder of its
own, so littlefs keeps it in another metadata pair than the journal's) records the highest seq
given, and open() continues after max(journal, mark); a mark above the journal's end is reported as
a rollback. The mark also keeps the seq the laptop acknowledged (ack()), the file's size, and what
note() says (the app: the pegs as drawn, which start.py lights from the name alone at the next boot,
board/render/firstlight.py). A mark of the older firmware's <seq>.<acked> is read as well.
"""

import os

from board import _drop
from cribbage import const
from cribbage.journal import crc32, number, parse, payload_of, record

VERSION = 2
MAGIC = b"cribboard-journal"
DEFAULT_MAX_BYTES = 64 * 1024  # ~1400 records of ~46 bytes: a few matches
_MAX_RECORD = const(1100)  # a longer line is no record this firmware wrote (a link line is <= 1024)
_MARK_EVERY = const(32)  # (seq, offset) of every 32nd record: records(seq) seeks near its seq
_READ = const(512)  # bytes read at a time at boot: a few records (~46 bytes each)
_HEAD = const(96)  # a header is read in one bounded read (v2's is ~60 bytes)

# MicroPython's os has no fsync: there file.flush() itself syncs (littlefs, and VfsPosix on unix).
_fsync = getattr(os, "fsync", None)


class JournalError(Exception):
    """The journal cannot be used as asked; the message says why. Nothing was changed."""


class JournalVersionError(JournalError):
    """The journal was written by newer firmware (it is left untouched)."""


class Report:
    """What open() found and did."""

    def __init__(self):
        self.kept = 0  # records replayed
        self.first_seq = 1
        self.next_seq = 1  # the seq the next append() gets
        self.dropped = 0  # records set aside (a torn last line counts as one)
        self.dropped_bytes = 0
        self.bad_seq = None  # the seq due where the first bad record was met
        self.reason = ""  # why the first one was set aside
        self.tail_valid = 0  # set-aside records whose checksum still holds (the laptop can read them)
        self.set_aside = None  # the file they were copied to
        self.damaged = None  # type: str | None  # the copy of a journal whose header could not be read
        self.locked = None  # type: str | None  # why the journal is not used, for the log
        self.unreadable = False  # it is locked because the flash failed at boot (else: newer firmware)
        self.lost = None  # type: tuple | None  # (first, last) seqs given out (the mark) the journal lacks
        self.notes = []  # anything else done: a new journal, an unfinished compaction removed

    @property
    def ok(self):
        return not (self.dropped or self.damaged or self.locked or self.lost)

    def problem(self):
        """Two display lines (16 characters at most) saying what went wrong, or None."""
        if self.unreadable:
            return "Flash error:", "journal not read"
        if self.locked:
            return "Update firmware:", "journal is newer"
        if self.lost:
            return "Journal rollback", "lost seq %d-%d" % self.lost
        if self.damaged:
            return "Journal damaged", "kept, see log"
        if self.dropped:
            return "Journal: %d bad" % self.dropped, "set aside, kept"
        return None

    def __str__(self):
        text = "journal: %d records replayed, next seq %d" % (self.kept, self.next_seq)
        if self.locked:
            text += "; NOT USED: " + self.locked
        if self.damaged:
            text += "; header damaged: the whole file kept as " + self.damaged
        if self.dropped:
            text += "; set aside %d records (%d bytes, %d with a valid checksum) from seq %d: %s -> %s" % (
                self.dropped,
                self.dropped_bytes,
                self.tail_valid,
                self.bad_seq,
                self.reason,
                self.set_aside,
            )
        if self.lost:
            text += "; seqs %d..%d were given out but are not in the journal (rolled back?)" % self.lost
        for note in self.notes:
            text += "; " + note
        return text


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError as e:
        if e.args[0] == 2:  # ENOENT
            return False
        raise  # EIO is no answer: taken for "no journal", a new one was written over the old


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
    if len(data) > _MAX_RECORD - 20:
        raise JournalError("journal payload too long: %d bytes" % len(data))
    return data


def _header(first_seq, fold=None):
    h = MAGIC + b" %d first %d fold %d" % (VERSION, first_seq, first_seq if fold is None else fold)
    return h + b" crc %08x\n" % crc32(h)


def _read_header(f):
    """-> (version, first, fold, header length); the version (an int) of a journal of newer firmware,
    whose header checksum holds; else why it is not a header this firmware can use (a str)."""
    head = f.read(_HEAD)
    nl = head.find(b"\n")
    if nl < 0 or not head.startswith(MAGIC + b" "):
        return "no journal header"
    line = head[:nl]
    words = line.split(b" ")
    version = number(words[1])
    if version == 1 and len(words) == 4 and words[2] == b"first" and number(words[3]) > 0:
        return 1, number(words[3]), number(words[3]), nl + 1  # the first format: no fold, no checksum
    if version < 2 or len(words) < 4 or words[-2] != b"crc" or number(words[-1], 16) != crc32(line[:-13]):
        return "damaged journal header"
    if version > VERSION:
        return version
    first = number(words[3]) if len(words) == 8 and words[2] == b"first" and words[4] == b"fold" else -1
    fold = number(words[5]) if first > 0 else -1
    if fold < first:
        return "damaged journal header"
    return version, first, fold, nl + 1


def replay(f, expected, fold, pos, apply, marks, kept):
    """Replay the records from byte pos (where f is) while each is exactly the record `expected`
    (the seq after the last one kept) and apply takes it, reading _READ bytes at a time; a record
    any other line is left for salvage.rest(). -> (expected, pos, kept, why, end): where it stopped; why: the
    reason apply gave for refusing the record from pos to end (f is then past it), else "".

    The boot replay's bulk: each line is taken by cribbage.journal's payload_of, which makes the
    head the record must start with and compares it (a few calls in C, no int parsing); readline
    would read a byte at a time and make a bytes object of every line.
    """
    buf = bytearray(_READ)
    mv = memoryview(buf)
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
        text = payload_of(buf, start, nl, expected)
        if text is None:
            break
        try:
            text = str(text, "utf-8")
        except ValueError:
            break
        if apply is not None and expected >= fold:
            try:
                apply(text)
            except ValueError as e:
                return expected, base + start, kept, "refused: %s" % e, base + nl + 1
        if kept % _MARK_EVERY == 0:
            marks.append(expected)
            marks.append(base + start)
        kept += 1
        expected += 1
        start = nl + 1
    return expected, base + start, kept, "", 0


class Journal:
    def __init__(self, path, max_bytes=DEFAULT_MAX_BYTES):
        self.path = path
        self.temp_path = path + ".tmp"
        self.bad_path = path + ".bad"
        self.max_bytes = max_bytes
        self.first_seq = 1
        self.next_seq = 1
        self.fold = 1  # records before this seq are kept for the laptop, not replayed (older matches)
        self.acked = 0  # a laptop has stored every record up to this seq
        self.locked = None  # type: str | None  # why append and rewrite refuse, for the log
        self.unreadable = False  # locked because the flash failed at boot (else: newer firmware's journal)
        self.size = 0  # bytes in the file
        self.changes = 0  # counts the files written anew (a reader of the old one must reopen)
        self.mark = 0  # the seq mark on flash: the highest seq given out
        self.note = None  # -> the text the mark's name ends with (".<n>..."), or None
        self._f = None
        self._out = None  # the seq mark's file name (journal.log.seq/<seq>.<acked>.<size><note>)
        self._marks = []  # seq, byte offset of every 32nd record
        self._compacted = 0  # size of the file the last compaction wrote
        self._count = 0  # records in the file
        self.last = 0  # the seq of its last record (the first seq - 1: none)

    @property
    def needs_compaction(self):
        # Twice the size the last compaction left, too: when what is kept is itself past max_bytes
        # (a very long match, events the laptop has not stored), compacting again at every event
        # would only wear the flash.
        return self.size > self.max_bytes and self.size > 2 * self._compacted

    def remember(self):  # the seq mark (named as a name the firmware has: [name budget])
        """Write the seq mark: the highest seq given out, the acknowledged seq, the file's size and the
        note in force; nothing when its name would not change."""
        # The mark is the name of an empty file in its own folder, renamed at each append: a rename
        # is one commit and needs no file object or cache on the heap, which an open file would hold
        # all game.
        seq = max(self.mark, self.next_seq - 1)
        note = self.note
        new = "%s.seq/%d.%d.%d%s" % (self.path, seq, self.acked, self.size, "" if note is None else note())
        if self._out is None:
            if not _exists(self.path + ".seq"):
                os.mkdir(self.path + ".seq")
            open(new, "wb").close()  # noqa: SIM115
        elif self._out != new:
            os.rename(self._out, new)
        self._out = new
        self.mark = seq

    def ready(self):
        """Room for the next mark (seq, offset) in the marks' list, made now: the app calls this at its
        calm points, so that an append never grows the list in the middle of a commit (docs/memory.md,
        "Take long-lived room at calm points"). A list keeps the room a slice deletion leaves."""
        marks = self._marks
        n = len(marks)
        marks.extend([0, 0])
        del marks[n:]

    def ack(self, seq):
        """A laptop has stored every record up to seq: kept on flash; returns the acknowledged seq."""
        if seq < 0 or seq >= self.next_seq:
            raise JournalError("ack %d: the journal has given out seqs up to %d" % (seq, self.next_seq - 1))
        if seq > self.acked:
            self.acked = seq
            self.remember()
        return self.acked

    # ---- open ---------------------------------------------------------------------------------

    def open(self, apply=None, skip=None, start=None):
        """Replay the journal into apply(payload) and make it ready to append; returns a Report.

        skip: a state() of this journal (a boot checkpoint keeps one). When the file's first bytes
        are still the ones it names (their CRC-32), start() is called and, when it returns True,
        only the records after them are read and replayed: start() has made what their replay
        would have. Otherwise every record is, as without it."""
        self.close()
        report = Report()
        self.locked = None
        self.unreadable = False
        try:
            if _exists(self.temp_path):
                # A rewrite was cut before its rename: the journal is still the whole old one.
                os.remove(self.temp_path)
                report.notes.append("removed an unfinished compaction")
            mark = self.acked = 0
            self._out = None
            try:
                for name in os.listdir(self.path + ".seq"):
                    words = name.split(".")  # <seq>.<acked>, and the size and note after (older: none)
                    if len(words) < 2 or not (words[0].isdigit() and words[1].isdigit()):
                        report.notes.append("seq mark unreadable: " + name)
                    elif self._out is None or int(words[0]) > mark:
                        if self._out is not None:
                            os.remove(self._out)  # two marks (a rename cut half way?): keep the higher
                        mark, self.acked = int(words[0]), int(words[1])
                        self._out = self.path + ".seq/" + name
                    else:
                        os.remove(self.path + ".seq/" + name)
            except OSError as e:
                if e.args[0] != 2:  # ENOENT: none yet (a new board, or a journal of the first version)
                    raise
            self.mark = mark
            if not _exists(self.path):
                self._write_temp(mark + 1, mark + 1, (), [])
                os.rename(self.temp_path, self.path)
                report.notes.append("new journal")
                if mark:
                    report.lost = (1, mark)  # the mark says a journal gave these out: it is gone
            out = []  # byte ranges set aside: start, end, start, end, ...
            for _ in range(2):  # once more after a salvage, which writes a good header
                with open(self.path, "rb") as f:  # one file object for header and records (heap at boot)
                    head = _read_header(f)
                    if isinstance(head, tuple):
                        version, first, fold, body = head
                        size = f.seek(0, 2)
                        self._marks = []
                        kept = 0
                        if skip and start and version == VERSION and 0 < skip[0] <= size:  # noqa: SIM102
                            if digest(f, skip[0]) == skip[1] and start():  # the bytes it names, folded
                                head = (version, skip[2] + 1, fold, skip[0])
                                self._marks = list(skip[4])
                                kept = skip[3]
                        got = self._apply(f, head, size, apply, out, mark, report, kept)
                        break
                if not isinstance(head, str) or report.damaged:  # newer (or damaged after a salvage: a bug)
                    report.next_seq = self.next_seq = mark + 1
                    why = "journal schema version %d" % head if isinstance(head, int) else head
                    self.locked = report.locked = "%s: %s: update the firmware" % (self.path, why)
                    return report
                from board.store import salvage  # a header it cannot read: salvage.py's work

                salvage.restore(self, head, mark, report)
            expected, high, kept, end = got
            if out or version != VERSION:
                from board.store import salvage

                end = salvage.set_aside(self, out, first, fold, body, end, report)
            report.kept = self._count = kept
            n = max(expected, high + 1, mark + 1)
            if mark > high and mark >= first and mark - high > report.dropped - report.tail_valid:
                report.lost = (high + 1, mark)
            report.first_seq = self.first_seq = first
            report.next_seq = self.next_seq = n
            self.last = expected - 1
            self.changes += 1
            self.fold = fold
            self.size = end
            if mark < n - 2:  # missing or unreadable (behind by one: a cut after a record; the next append)
                self.remember()
            self._open_for_append()
            return report
        except OSError as e:
            # The flash itself failed (EIO, a littlefs it cannot read: not what a record says). Nothing
            # more is read or written: the journal stays on flash as it is (for a laptop, or the next
            # boot), appends refuse, and the board says so and goes on.
            self.close()
            self.locked = report.locked = "%s: flash error %r: journal left as it is" % (self.path, e)
            self.unreadable = report.unreadable = True
            report.next_seq = self.next_seq = max(self.next_seq, self.mark + 1)
            return report
        finally:
            _drop("board.store.salvage")  # (its code, for a damaged journal, loaded for this alone)

    def _apply(self, f, data, size, apply, out, mark, report, kept):
        """Every record from data's byte on (after the header, or the part a checkpoint holds,
        whose `kept` records are in the seq marks already): good ones replayed, others added to out
        (byte ranges). -> (the seq after the last one kept, the highest seq seen with a valid
        checksum, records kept, the file's end). A file of good records is read by replay() alone;
        whatever it stops at before the end is salvage.py's."""
        _, expected, fold, pos = data  # the header's
        f.seek(pos)
        expected, pos, kept, why, end = replay(f, expected, fold, pos, apply, self._marks, kept)
        if not why and pos >= size:
            return expected, expected - 1, kept, pos
        from board.store import salvage  # loaded only now, for a file replay() cannot take whole

        return salvage.rest(self, f, (expected, pos, kept, why, end), fold, size, apply, out, mark, report)

    # ---- writing --------------------------------------------------------------------------------

    def append(self, payload):
        """Write one record and sync it to flash, then the seq mark; returns its seq."""
        data = _encode(payload)
        f = self._f
        if f is None:
            raise JournalError(self.locked or "journal is not open (open() it again after a failed write)")
        seq = self.next_seq
        rec = record(seq, data)
        try:
            f.write(rec)
            _sync(f)
            if self._count % _MARK_EVERY == 0:
                self._marks.append(seq)
                self._marks.append(self.size)
            self._count += 1
            self.next_seq = seq + 1
            self.last = seq
            self.size += len(rec)
            self.remember()  # the record is confirmed; a mark that lags by one is still safe
        except BaseException:
            # Not confirmed (or confirmed, its mark not written): only open() may decide what is on flash.
            self._f = None
            try:
                f.close()
            except Exception:
                pass
            raise
        return seq

    def compact(self, payloads, first_seq=None):
        """Replace the journal by `payloads` numbered from first_seq (default: the next seq)."""
        first = self.next_seq if first_seq is None else first_seq
        if first < 1:
            raise JournalError("first seq must be 1 or more, not %d" % first)
        if self.locked:
            raise JournalError(self.locked)
        self.close()
        marks = []
        try:
            n, size = self._write_temp(first, first, payloads, marks)
            if first + n < self.next_seq:
                raise JournalError(
                    "compaction would end at seq %d, before the journal's %d: seqs are never reused"
                    % (first + n - 1, self.next_seq - 1)
                )
        except BaseException:
            self._finish(None)
            raise
        self._finish(first, first, first + n, size, marks, n)

    def rewrite(self, start, payloads=()):
        """Keep the records with seq >= start (their seqs unchanged), then append payloads with the
        next seqs; with payloads, the first of them starts the fold (a new match's set-up)."""
        if self.locked:
            raise JournalError(self.locked)
        first = self.next_seq
        gen = self.records(start)
        for seq, _ in gen:
            first = seq
            break
        gen.close()  # its file now, not at the next garbage collection
        fold = self.next_seq if payloads else max(self.fold, first)
        self.close()
        marks = []
        try:
            with open(self.temp_path, "wb") as tmp:
                size = tmp.write(_header(first, fold))
                n = 0
                for seq, text in self.records(start):
                    if n % _MARK_EVERY == 0:
                        marks.append(seq)
                        marks.append(size)
                    size += tmp.write(record(seq, text.encode()))
                    n += 1
                k, size = _insert(tmp, self.next_seq, payloads, marks, size, n)
                _sync(tmp)
        except BaseException:
            self._finish(None)
            raise
        self._finish(first, fold, self.next_seq + k, size, marks, n + k)

    def _finish(self, first, fold=0, n=0, size=0, marks=(), count=0):
        """The temp file becomes the journal with these figures (first None: a failed rewrite, the
        temp file goes and the journal stays as it was)."""
        if first is None:
            try:
                os.remove(self.temp_path)
            except OSError:
                pass
            self._open_for_append()
            return
        os.rename(self.temp_path, self.path)
        self.changes += 1
        self.first_seq = first
        self.fold = fold
        self.next_seq = n
        self.last = n - 1
        self.size = self._compacted = size
        self._marks = list(marks)
        self._count = count
        self._open_for_append()
        self.remember()  # the seqs given out and the size: the mark names the file (first light)

    def _write_temp(self, first, fold, payloads, marks):
        with open(self.temp_path, "wb") as f:
            n, size = _insert(f, first, payloads, marks, f.write(_header(first, fold)), 0)
            _sync(f)
        return n, size

    # ---- reading --------------------------------------------------------------------------------

    def state(self):
        """[bytes, their CRC-32, the last record's seq, records, the seq marks]: the file as it is now,
        which open(apply, skip=this) takes as read while its first bytes are still these. Reads the
        whole file (a calm point's work: the app's boot checkpoint)."""
        with open(self.path, "rb") as f:
            return [self.size, digest(f, self.size), self.last, self._count, list(self._marks)]

    def records(self, from_seq=0):
        """Yield (seq, payload) of the records with seq >= from_seq, reading the file afresh."""
        with open(self.path, "rb") as f:
            seq = self.seek(f, from_seq)
            if seq < 0:
                return
            while True:
                line = f.readline()
                if not line:
                    return
                data = payload_of(line, 0, len(line) - 1, seq)
                if data is not None:
                    if seq >= from_seq:
                        yield seq, str(data, "utf-8")
                    seq += 1
                    continue
                got, text, _ = parse(line)  # a gap in the seqs (records set aside at open), or the end
                if text is None or got < seq or line[-1] != 10:
                    return
                if got >= from_seq:
                    yield got, text
                seq = got + 1

    def seek(self, f, from_seq):
        """Move f (this journal opened "rb") to the record nearest at or before from_seq that a seq
        mark knows; -> that record's seq (the first after the header without a mark), or -1 when the
        file has no header this firmware reads. The link streams the records from there as stored."""
        head = _read_header(f)
        if not isinstance(head, tuple):
            return -1
        f.seek(head[3])
        seq = head[1]
        marks = self._marks
        if marks and head[1] == self.first_seq and from_seq > seq:
            k = 0
            while k + 2 < len(marks) and marks[k + 2] <= from_seq:
                k += 2
            if marks[k] <= from_seq:
                seq = marks[k]
                f.seek(marks[k + 1])
        return seq

    def aside(self, name=None, at=0, n=384):
        """The set-aside files ([(path, size)]), or up to n bytes of the one named from byte at:
        salvage.aside, loaded for the call (the link pages through them, rarely)."""
        try:
            from board.store import salvage

            return salvage.aside(self, name, at, n)
        finally:
            _drop("board.store.salvage")  # (its code, for a damaged journal, loaded for this alone)

    def _open_for_append(self):
        # Kept open between appends: one lfs file handle, no path lookup per event.
        self._f = open(self.path, "ab")  # noqa: SIM115

    def close(self):
        f = self._f
        self._f = None
        if f is not None:
            f.close()


def digest(f, end):
    """The CRC-32 of f's first end bytes (-1 when the file is shorter): one C call per 512 bytes."""
    buf = bytearray(_READ)
    mv = memoryview(buf)
    f.seek(0)
    value = pos = 0
    while pos < end:
        n = f.readinto(mv[: min(_READ, end - pos)])
        if not n:
            return -1
        value = crc32(mv[:n], value)
        pos += n
    return value


def _insert(f, first, payloads, marks, size, count):
    """Write payloads as records numbered from first after count records; -> (how many, size)."""
    n = 0
    for payload in payloads:
        if (count + n) % _MARK_EVERY == 0:
            marks.append(first + n)
            marks.append(size)
        size += f.write(record(first + n, _encode(payload)))
        n += 1
    return n, size
