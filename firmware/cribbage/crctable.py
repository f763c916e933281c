# CRC-32 (the zip/zlib one) from a table, for a MicroPython built without binascii.crc32 (cribbage.journal).
"""Slower than binascii's, the same numbers (tests/journal/test_journal.py checks they agree): a custom
build without it still reads and writes its journal. Not loaded on the stock ports, which have it."""

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


def crc32(data, value=0):
    """CRC-32 of data (bytes, bytearray or memoryview) continuing from value, as zlib.crc32 and
    binascii.crc32 compute it."""
    global _table
    if _table is None:
        _table = _make_table()
    t = _table
    c = value ^ 0xFFFFFFFF
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
