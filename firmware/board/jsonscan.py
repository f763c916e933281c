# Strict JSON (RFC 8259) checked on the raw bytes before MicroPython's lax json.loads reads them.
#
# MicroPython's json reads `01`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `"\x"` and `{"a":}` without
# complaint: a link request or board file no other JSON reader accepts would change the board.
# error() is one pass over the bytes that allocates nothing (the nesting is the bits of one small
# int), so the link can afford it on every request line (docs/protocol.md, "Lines").


from cribbage import const

_DEEP = const(16)  # the most objects and arrays open at once (a request needs 4, the board file 5)


def error(data):
    """Why `data` (bytes-like) is not one strict JSON object, or None. Strings may hold UTF-8 but
    no \\u escape of a surrogate (MicroPython would keep half a character: not UTF-8)."""
    n = len(data)
    i = _run(data, b" \t\r\n", 0, n)
    if i >= n or data[i] != 123:
        return "not a JSON object"
    # The open containers as the bits of one int below a leading 1: bit 0 is the innermost, 1 for
    # an array; one shift opens or closes a level, and the top object's close leaves just the 1.
    nest = 2
    want = 1  # 1: a key or "}"; 2: a key; 3: a value; 4: a value or "]"; 5: "," or the closer
    i += 1
    while True:
        i = _run(data, b" \t\r\n", i, n)
        if i >= n:
            return "cut short"
        c = data[i]
        i += 1
        if want == 5 or (want == 1 and c == 125) or (want == 4 and c == 93):
            if c == 44 and want == 5:  # ","
                want = 3 if nest & 1 else 2
            elif c == (93 if nest & 1 else 125):
                nest >>= 1
                want = 5
                if nest == 1:  # the top object closed: only spaces may follow
                    return None if _run(data, b" \t\r\n", i, n) == n else "more after it at byte %d" % i
            else:
                return "',' or a closing bracket expected at byte %d" % (i - 1)
        elif want < 3:
            i = _string(data, i, n) if c == 34 else -1
            if i < 0:
                return "a string key expected"
            i = _run(data, b" \t\r\n", i, n)
            if i >= n or data[i] != 58:
                return "':' expected at byte %d" % i
            i += 1
            want = 3
        elif c == 123 or c == 91:
            nest = nest << 1 | (c == 91)
            if nest >> _DEEP >> 1:
                return "nested deeper than %d" % _DEEP
            want = 4 if c == 91 else 1
        else:
            i = _scalar(data, i - 1, n, c)
            if i < 0:
                return "a value expected at byte %d" % -(i + 1)
            want = 5


def _run(data, chars, i, n):
    """The index after the bytes from `chars` (spaces, digits) that start at i."""
    while i < n and data[i] in chars:
        i += 1
    return i


def _scalar(data, i, n, c):
    """The index after the string, number or literal at i; -(i + 1) when there is none."""
    if c == 34:
        j = _string(data, i + 1, n)
    elif c == 45 or 48 <= c <= 57:
        j = _number(data, i, n)
    else:
        j = _word(data, i, n, b"true" if c == 116 else b"false" if c == 102 else b"null" if c == 110 else b"")
    return j if j >= 0 else -(i + 1)


def _word(data, i, n, word):
    """The index after `word` (true, false, null) at i, or -1; compared in place, no slice."""
    k = len(word)
    if not k or i + k > n:
        return -1
    for j in range(k):
        if data[i + j] != word[j]:
            return -1
    return i + k


def _string(data, i, n):
    """The index after the closing quote of a string whose text starts at i, or -1."""
    while i < n:
        c = data[i]
        if c == 34:
            return i + 1
        if c == 92:  # an escape
            c = data[i + 1] if i + 1 < n else 0
            if c == 117:  # \uXXXX, not a surrogate: MicroPython would keep half a character
                if i + 6 > n:
                    return -1
                c = _hex4(data, i + 2)
                if c < 0 or 0xD800 <= c <= 0xDFFF:
                    return -1
                i += 6
            elif c and c in b'"\\/bfnrt':
                i += 2
            else:
                return -1
        elif c < 32:
            return -1
        elif c < 128:
            i += 1
        else:
            i = _utf8(data, i, n)
            if i < 0:
                return -1
    return -1


def _hex4(data, i):
    """The value of the 4 hex digits at i, or -1."""
    v = 0
    for k in range(i, i + 4):
        d = data[k] | 32  # lower case
        d = d - 48 if 48 <= d <= 57 else d - 87 if 97 <= d <= 102 else -1
        if d < 0:
            return -1
        v = v * 16 + d
    return v


def _utf8(data, i, n):
    """The index after the UTF-8 character at i, or -1 (overlong forms and surrogates are not UTF-8)."""
    c = data[i]
    k = 1 if 0xC2 <= c <= 0xDF else 2 if 0xE0 <= c <= 0xEF else 3 if 0xF0 <= c <= 0xF4 else 0
    if not k or i + k >= n:
        return -1
    # The second byte's range also shuts out overlong forms (after E0, F0), surrogates (ED) and
    # code points above U+10FFFF (F4).
    d = data[i + 1]
    if (c == 0xE0 and d < 0xA0) or (c == 0xED and d > 0x9F):
        return -1
    if (c == 0xF0 and d < 0x90) or (c == 0xF4 and d > 0x8F):
        return -1
    while k:
        if not 0x80 <= data[i + k] <= 0xBF:
            return -1
        k -= 1
    return i + 1 + (1 if c < 0xE0 else 2 if c < 0xF0 else 3)


def _number(data, i, n):
    """The index after the number at i (-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?), or -1."""
    if data[i] == 45:
        i += 1
    if i < n and data[i] == 48:
        i += 1
    elif i < n and 49 <= data[i] <= 57:
        i = _run(data, b"0123456789", i, n)
    else:
        return -1
    if i < n and data[i] == 46:
        j = _run(data, b"0123456789", i + 1, n)
        if j == i + 1:
            return -1
        i = j
    if i < n and data[i] in b"eE":
        i += 1
        if i < n and data[i] in b"+-":
            i += 1
        j = _run(data, b"0123456789", i, n)
        if j == i:
            return -1
        i = j
    return i
