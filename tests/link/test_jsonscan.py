# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The strict JSON scanner (board/jsonscan.py) on the cases MicroPython's json.loads gets wrong.
import json

from board import jsonscan

DEEP = 16  # board/jsonscan.py _DEEP

GOOD = (
    b"{}",
    b' {"a":1} ',
    b'{"a":[1,2,{"b":null}],"c":true,"d":false,"e":-0.5e+10,"f":"x\\u00e9\\n\\"y"}',
    b'{"a":[]}',
    b'{"a":{}}',
    b'{"a":[[],[{}]]}',
    b'{"a":0}',
    b'{"a":-0}',
    b'{"a":1E5}',
    b'{"a":2e-3}',
    b'{"a":"\xc3\xa9"}',
    b'{"a":"\xf0\x9f\x83\x8f"}',
    b'{"a":"\xef\xbf\xbd\\/\\b\\f\\r\\t\\\\"}',
    b'\r\n{\t"a" : [ 1 , 2 ] }\n',
)
# Each is read by MicroPython's json.loads (most of them), but is not JSON.
BAD = (
    b"01",
    b"[1]",
    b'"a"',
    b'{"a":01}',
    b'{"a":016}',
    b'{"a":00}',
    b'{"a":-01}',
    b'{"a":[1,]}',
    b'{"a":1,}',
    b'{"a":[,1]}',
    b'{"a":1.}',
    b'{"a":1.e5}',
    b'{"a":.5}',
    b'{"a":+1}',
    b'{"a":-}',
    b'{"a":1e}',
    b'{"a":1e+}',
    b'{"a":[1 2]}',
    b'{"a" 1}',
    b'{"a":tru}',
    b'{"a":nulll}',
    b'{"a":"\\x"}',
    b'{"a":"\\u12"}',
    b'{"a":"\\u12G4"}',
    b"{'a':1}",
    b'{"a":Infinity}',
    b'{"a":NaN}',
    b"{1:2}",
    b'{"a":1} x',
    b'{"a":1}}',
    b'{"a":1}{}',
    b'{"a":"a\tb"}',
    b'{"a":"a\x01"}',
    b'{"a":}',
    b"{,}",
    b'{"a":[[]}',
    b'{"a":1',
    b'{"a',
    b"",
    b"   ",
    b"{",
    b'{"a":"\\ud800"}',
    b'{"a":"\\uDFFF"}',
    b'{"a":"\\ud83c\\udccf"}',
    b'{"a":"\xc0\xaf"}',
    b'{"a":"\xe0\x80\xaf"}',
    b'{"a":"\xf0\x80\x80\xaf"}',
    b'{"a":"\xed\xa0\x80"}',
    b'{"a":"\xf4\x90\x80\x80"}',
    b'{"a":"\xff"}',
    b'{"a":"\xc3"}',
    b'{"a":"\x80"}',
    b'{"a":"\xe2\x82"}',
)


def test_strict_json_objects_pass():
    for data in GOOD:
        assert jsonscan.error(data) is None, data
        assert isinstance(json.loads(data), dict)


def test_what_is_not_strict_json_is_named():
    for data in BAD:
        why = jsonscan.error(data)
        assert isinstance(why, str) and why, data
        assert jsonscan.error(bytearray(data)) == why and jsonscan.error(memoryview(data)) == why


def test_nesting_is_bounded():
    ok = b'{"a":' + b"[" * (DEEP - 1) + b"]" * (DEEP - 1) + b"}"
    assert jsonscan.error(ok) is None
    deep = b'{"a":' + b"[" * DEEP + b"]" * DEEP + b"}"
    assert "nested deeper" in jsonscan.error(deep)
    assert "nested deeper" in jsonscan.error(b'{"a":' + b"[" * 20000)  # no recursion, no memory
