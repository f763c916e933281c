# The journal's record line "SEQ CRC PAYLOAD": written and read here alone, by the board and by crib.
"""A record line (docs/journal.md): the seq in decimal, a space, the CRC-32 of the payload's UTF-8
bytes started from the seq (a record moved to another seq fails its check) as 8 lowercase hex
digits, a space, the payload (one line: no newline or CR in it), then a newline. A line is read as a
record only when it is exactly what record() writes.

    from cribbage.journal import parse, record

    line = record(7, b'{"t":"deal"}')      # b'7 ... {"t":"deal"}\\n'
    seq, text, why = parse(line)           # 7, '{"t":"deal"}', ""  (the newline may be left off)
    data = payload_of(buf, at, nl, 7)      # the boot's test: buf[at : nl + 1] is exactly record 7
    seq = seq_at(buf, at, end)             # the seq the line at buf[at] starts with (the link's)

The board's journal (board/store/journal.py) keeps these lines in its file; `crib sync` checks each line
the board streams and each line it set aside. crc32 is the zip/zlib CRC-32, binascii's (MicroPython's
py/mpconfig.h turns it on at the "extra features" ROM level, which the rp2 and unix ports use); a
custom build without it gets cribbage/crctable.py's, loaded only then.
"""

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - CPython and the stock ports have it
    from cribbage.crctable import crc32


def number(data, base=10):
    """The number a field holds, written exactly as the board writes it (decimal, no sign or leading
    zero; base 16: 8 lowercase hex digits); else -1."""
    if not data or len(data) > 10:
        return -1
    try:
        n = int(data, base)
    except ValueError:
        return -1
    if (b"%08x" % n if base == 16 else b"%d" % n) != data:
        return -1
    return n


def record(seq, data):
    """The record line of data (a payload's UTF-8 bytes, one line) as seq, newline included."""
    return b"%d %08x " % (seq, crc32(data, seq & 0xFFFFFFFF)) + data + b"\n"


def payload_of(buf, at, end, seq):
    """The payload (bytes, a copy out of buf) when buf[at : end + 1] is exactly the record line of seq,
    its newline at end; else None. No number is parsed: the head record() writes for seq is made and
    compared (the boot replay's test of every record, over its read buffer)."""
    sp = buf.find(b" ", at, end)
    if sp <= at or buf[end] != 10:
        return None
    data = buf[sp + 10 : end]  # a copy: cheaper than a memoryview of buf and its slice
    sp = crc32(data, seq & 0xFFFFFFFF)  # [frame rule]: sp again, for 11 words
    return data if buf.startswith(b"%d %08x " % (seq, sp), at) else None


def parse(line):
    """(seq, payload, why) of one record line (bytes; its newline may be left off): why is "" and
    payload the text when the line is a record whose checksum holds; else why says what is wrong,
    payload is None, and seq is the line's first field when that reads as a seq (-1 when not)."""
    n = len(line)
    if n and line[n - 1] == 10:
        n -= 1
    sp = line.find(b" ", 0, n)
    seq = number(line[:sp]) if sp > 0 else -1
    why = "unreadable record"
    if seq > 0 and n >= sp + 10 and line[sp + 9] == 32 and number(line[sp + 1 : sp + 9], 16) >= 0:
        data = line[sp + 10 : n]
        why = "checksum mismatch"
        if line.startswith(record(seq, data)[: sp + 10]):
            try:
                return seq, data.decode(), ""
            except ValueError:
                why = "payload is not UTF-8"
    return seq if seq > 0 else -1, None, why


def seq_at(buf, at, end):
    """The seq of the record line that starts at buf[at] (the line's first field, before end), -1
    when it starts with none."""
    sp = buf.find(b" ", at, end)
    return number(bytes(buf[at:sp])) if sp > at else -1
