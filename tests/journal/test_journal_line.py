# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The journal's record line (cribbage.journal), the one format the board writes and the board and crib read.
from cribbage.journal import crc32, parse, payload_of, record, seq_at


def test_a_record_line_is_seq_crc_payload_as_docs_journal_md_says():
    # The bytes on flash (and on the link): pinned, so no change to the format goes unseen.
    assert record(2, b'{"t":"deal"}') == b'2 8aaaff29 {"t":"deal"}\n'
    line = record(123456, '{"names":["Zo\u00eb"]}'.encode())
    assert line == b'123456 83676292 {"names":["Zo\xc3\xab"]}\n'
    assert line[7:15] == b"%08x" % crc32('{"names":["Zo\u00eb"]}'.encode(), 123456)


def test_parse_reads_what_record_writes_with_or_without_its_newline():
    line = record(42, b'{"t":"go","p":1}')
    assert parse(line) == (42, '{"t":"go","p":1}', "") == parse(line[:-1])
    assert parse(record(7, b"")) == (7, "", "")
    assert parse(record(77, '{"names":["Zo\u00eb"]}'.encode())) == (77, '{"names":["Zo\u00eb"]}', "")


def test_parse_says_why_a_line_is_no_record_and_keeps_a_readable_seq():
    line = record(42, b'{"t":"go","p":1}')
    sp = line.find(b" ")
    spoilt = (
        (line[:-3] + b"X}\n", 42, "checksum mismatch"),  # the payload changed
        (record(43, b'{"t":"go","p":1}').replace(b"43", b"42", 1), 42, "checksum mismatch"),  # moved
        (line[:sp] + line[sp : sp + 9].upper() + line[sp + 9 :], 42, "unreadable record"),
        (line[: sp + 9] + line[sp + 10 :], 42, "unreadable record"),  # no space before the payload
        (line[:sp] + b" zzzzzzzz" + line[sp + 9 :], 42, "unreadable record"),
        (b"0" + line, -1, "unreadable record"),  # a seq is written without a leading zero
        (b"+" + line, -1, "unreadable record"),
        (b"0 00000000 {}\n", -1, "unreadable record"),  # seqs start at 1
        (b"# set aside at open: from seq 3, 1 records\n", -1, "unreadable record"),
        (b"\n", -1, "unreadable record"),
        (b"", -1, "unreadable record"),
        (b"12345678901 00000000 {}", -1, "unreadable record"),
        (record(3, b"\xff\xfe"), 3, "payload is not UTF-8"),
    )
    for bad, seq, why in spoilt:
        assert parse(bad) == (seq, None, why), (bad, parse(bad))


def test_seq_at_reads_the_seq_a_line_starts_with():
    buf = bytearray(record(9, b"{}") + record(10, b"{}") + b"x 00000000 {}\n" + b"012 00000000 {}\n")
    starts = [0] + [i + 1 for i in range(len(buf) - 1) if buf[i] == 10]
    assert [seq_at(buf, at, len(buf)) for at in starts] == [9, 10, -1, -1]
    assert seq_at(buf, 0, 1) == -1  # the space after the seq is past the end given


def _lines():
    # Records as append() writes them, then spoilt one byte or one field at a time.
    for seq, data in ((1, b'{"t":"deal"}'), (77, '{"names":["Zo\u00eb"]}'.encode()), (123456, b"x")):
        line = record(seq, data)
        yield seq, line
        sp = line.find(b" ")
        crc = line[sp + 1 : sp + 9]
        yield seq, line[:-1]  # torn: no newline
        yield seq, line[:sp] + b" " + crc.upper() + line[sp + 9 :]  # the same CRC in capitals
        yield seq, b"0" + line  # the same seq with a leading zero
        yield seq, b"+" + line
        yield seq, line[:sp] + b"  " + line[sp + 1 :]
        yield seq, line[: sp + 9] + line[sp + 10 :]  # no space before the payload
        yield seq, line[:sp] + line[sp + 9 :]  # no CRC
        yield seq, b"\n"
        yield seq, b" \n"
        for i in range(len(line)):
            for b in (0x20, 0x30, 0x61, line[i] ^ 1):
                yield seq, line[:i] + bytes((b,)) + line[i + 1 :]


def test_the_boot_replays_fast_check_agrees_with_parse():
    # payload_of (the boot replay's test, no number parsed) takes a whole line exactly when parse reads
    # it as a good record with the seq it expects.
    n = 0
    for seq, line in _lines():
        for expected in (seq, seq + 1, seq - 1):
            fast = payload_of(line, 0, len(line) - 1, expected) if line else None
            got, text, why = parse(line)
            took = not why and got == expected and line[-1:] == b"\n"
            assert (bytes(fast) == text.encode()) if took else (fast is None), (
                line,
                expected,
                fast,
                got,
                why,
            )
            n += 1
    assert n > 900


def test_the_fast_check_reads_a_line_in_a_buffer_of_several():
    buf = bytearray(b"junk\n" + record(42, b'{"t":"go","p":1}') + record(43, b"{}"))
    at = buf.find(b"\n") + 1
    nl = buf.find(b"\n", at)
    assert bytes(payload_of(buf, at, nl, 42)) == b'{"t":"go","p":1}'
    assert payload_of(buf, at, nl, 43) is None and payload_of(buf, 0, at - 1, 42) is None
    assert bytes(payload_of(buf, nl + 1, len(buf) - 1, 43)) == b"{}"


def test_a_port_without_binascii_crc32_writes_and_reads_the_same_lines_by_the_table():
    import sys

    import cribbage.journal

    class _NoCrc:  # binascii as a MicroPython built without crc32 has it
        pass

    saved = sys.modules["cribbage.journal"], sys.modules.get("binascii")
    sys.modules["binascii"] = _NoCrc()
    del sys.modules["cribbage.journal"]
    try:
        import cribbage.journal as table
        from cribbage import crctable

        assert table.crc32 is crctable.crc32
        line = table.record(123456, '{"names":["Zo\u00eb"]}'.encode())
    finally:
        import cribbage

        sys.modules["cribbage.journal"] = cribbage.journal = saved[0]  # the package's name for it too
        if saved[1] is None:
            del sys.modules["binascii"]
        else:
            sys.modules["binascii"] = saved[1]
    assert line == b'123456 83676292 {"names":["Zo\xc3\xab"]}\n' == record(123456, line[16:-1])
    assert parse(line) == (123456, '{"names":["Zo\u00eb"]}', "")
