# CRC-32 (the zip/zlib one) for journal records: binascii.crc32 when the port has it, a table otherwise.
#
# MicroPython's py/mpconfig.h turns binascii.crc32 on at the "extra features" ROM level, which the
# rp2 and unix ports use; a custom build may leave it out, so the table below keeps the journal
# readable there too (slower, same numbers: tests/both/test_journal.py checks they agree).
try:
    from binascii import crc32 as _native
except ImportError:  # pragma: no cover - CPython and the stock ports have it
    _native = None

_POLY = 0xEDB88320
_table = None


def _make_table():
    from array import array

    t = array("I", range(256))  # [array rule]
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        t[n] = c
    return t


def table_crc32(data, value=0):
    """CRC-32 of data (bytes, bytearray or memoryview) continuing from value, in pure Python."""
    global _table
    if _table is None:
        _table = _make_table()
    t = _table
    c = value ^ 0xFFFFFFFF
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data, value=0):
    """CRC-32 of data continuing from value, as zlib.crc32 and binascii.crc32 compute it."""
    return table_crc32(data, value)


if _native is not None:
    # binascii.crc32 itself, no call around it: the boot replay checks every record (it returns
    # the CRC unsigned on MicroPython and CPython 3 alike).
    crc32 = _native  # noqa: F811
