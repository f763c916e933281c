# What the link reads of the journal for a host: event pages (a cursor kept between them), the records stream.
import json

from cribbage.journal import seq_at

# Bytes of event lines a page holds at most: one reply is one string on the board's heap, and after a
# long evening a Pico's heap is fragmented, with no big block left; a page cut short says more and the
# laptop asks on.
PAGE_BYTES = 1024


class _Cursor:
    """An open journal.records() generator kept between pages, so a paged sync reads the file once.

    Without it every page would re-read the journal from its first record (quadratic in the
    journal's length: 26 s instead of under 2 s for a 100-game journal on the unix port). It is only
    resumed when the next page starts where it stopped and the journal was not compacted meanwhile
    (compaction renames a new file over the old one: first_seq changes or the size shrinks).
    """

    def __init__(self):
        self.gen = None
        self.next = -1
        self.first = -1
        self.size = -1

    def close(self):
        if self.gen is not None:
            self.gen.close()  # closes the journal file now, not at the next garbage collection
        self.gen = None

    def read(self, journal, start, limit):
        """Up to `limit` (seq, event line) from seq `start`; the lines are the journal's own payloads."""
        size = getattr(journal, "size", 0)
        first = getattr(journal, "changes", journal.first_seq)  # a new file since the last page?
        if self.gen is None or self.next != start or self.first != first or size < self.size:
            self.close()
            self.gen = journal.records(start)
            self.first = first
        out = []
        room = PAGE_BYTES
        try:
            for seq, line in self.gen:
                out.append((seq, line))
                room -= len(line)
                if len(out) >= limit or room <= 0:
                    break
        except Exception:
            self.close()
            raise
        if len(out) < limit and room > 0:
            self.close()  # at the end of the file: the next read opens it afresh and sees new records
        else:
            self.next = out[-1][0] + 1
            self.size = size
        return out


def records(journal, id, start, to=0):
    """A records request answered (op records): the journal file read from the record nearest `start`
    to the size it had at the request (or to the record before seq `to`), in chunks of whole lines cut
    out of one buffer (each yielded as a view of it, written out before the next is asked for), the
    records before `start` skipped, then the reply. A file written anew meanwhile (a new match, a
    compaction), a line longer than the buffer or send(True) (a new request) ends it early: the reply
    says where. A generator, not a class: nothing of it is on the heap at boot, where a small heap's
    match has none to spare. Per chunk it only finds line ends (C calls over the buffer): the
    seq of its last line is read once, at the end, from a copy of its first bytes, unless `to` asks for
    each."""
    first = journal.first_seq
    end = journal.next_seq
    if to >= end:
        to = 0  # the whole journal as it is: no seq to look for
    changes = getattr(journal, "changes", 0)
    size = journal.size
    buf = bytearray(PAGE_BYTES + 128)  # a record is at most 1100 bytes (journal.py); gone with the stream
    mv = memoryview(buf)
    count = 0
    last = start - 1  # the last seq sent (with `to`; else read at the end from seq_bytes)
    seq_bytes = bytearray(24)  # the first bytes of the last line sent: its seq and a space
    seq_n = 0
    with open(journal.path, "rb") as f:
        if journal.seek(f, start) < 0 or (to and to <= start):
            size = 0  # no header this firmware reads, or nothing asked for: nothing to send
        pos = f.tell()  # the file offset of buf[0]
        held = 0  # bytes at the front of buf already read: the last chunk's unfinished line
        stop = yield None  # primed by the link: from here a new request can end it
        while (
            not stop
            and pos + held < size
            and getattr(journal, "changes", 0) == changes
            and journal.size >= size
        ):
            n = held + (f.readinto(mv[held : min(len(buf), size - pos)]) or 0)
            cut = buf.rfind(b"\n", 0, n) + 1
            if cut <= 0:
                break  # a line longer than the buffer (no record this firmware wrote), or the end
            at = 0
            while start and at < cut:  # still before the first record asked for
                k = seq_at(buf, at, cut)
                if k < 0 or k >= start:
                    break  # found (or a line that is no record: sent, for the laptop to refuse)
                at = buf.find(b"\n", at, cut) + 1
            if at < cut:
                start = 0
                k = max(buf.rfind(b"\n", at, cut - 1) + 1, at)  # the last line's start
                if to:
                    last_seq = seq_at(buf, k, cut)
                    if last_seq >= to:  # the chunk reaches `to`: it ends before the first record past it
                        k = at
                        while k < cut and seq_at(buf, k, cut) < to:
                            k = buf.find(b"\n", k, cut) + 1
                        cut = k
                        size = 0  # the last chunk
                        if cut <= at:
                            break
                        k = max(buf.rfind(b"\n", at, cut - 1) + 1, at)
                        last_seq = seq_at(buf, k, cut)
                    last = max(last, last_seq)
                seq_n = min(24, cut - k)
                seq_bytes[:seq_n] = mv[k : k + seq_n]
                count += buf.count(b"\n", at, cut)
                stop = yield mv[at:cut]
            # the unfinished line to the front for the next read, unless it overlaps what it would copy
            held = n - cut
            if held and held <= cut:
                buf[:held] = mv[cut:n]
            elif held:
                f.seek(pos + cut)
                held = 0
            pos += cut
    if seq_n and not to:  # the seq of the last line sent
        last = max(last, seq_at(seq_bytes, 0, seq_n))
    from board.link import dump  # the package's, loaded before any stream starts

    yield dump(
        {
            "id": id,
            "ok": True,
            "records": count,
            "next": last + 1,
            "end": end,
            "first": first,
            "more": last + 1 < journal.next_seq,
        }
    )


def _item(seq, line):
    """One {"seq","event"} object as text, splicing the journal's JSON line in without re-parsing it."""
    if not (line.startswith("{") and line.endswith("}")):
        line = json.dumps(line)  # not an event object: sent as a string, which the laptop flags
    return '{"seq":%d,"event":%s}' % (seq, line)
