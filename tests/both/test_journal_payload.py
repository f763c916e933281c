# The boot replay's record check (journal._payload) answers as the full one (_check) for every line.
from board import journal as J


def _lines():
    # Records as append() writes them, then spoilt one byte or one field at a time.
    for seq, payload in ((1, b'{"t":"deal"}'), (77, '{"names":["Zo\u00eb"]}'.encode()), (123456, b"x")):
        line = J._record(seq, payload)
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


def test_fast_check_agrees_with_the_full_one():
    n = 0
    for seq, line in _lines():
        for expected in (seq, seq + 1, seq - 1):
            fast = J._payload(line, expected)
            full = J._check(line)
            took = not isinstance(full, str) and full[0] == expected
            assert (fast == full[1]) if took else (fast is None), (line, expected, fast, full)
            n += 1
    assert n > 900


def test_fast_check_takes_a_good_record():
    line = J._record(42, b'{"t":"go","p":1}')
    assert J._payload(line, 42) == b'{"t":"go","p":1}'
    assert J._payload(line, 43) is None and J._check(line) == (42, b'{"t":"go","p":1}')
