# Board-file mutations for the sweeps (issue 9, item 10): the ways a hand-edited board.json goes wrong.
# Values of the wrong type, range or size for any field.
JUNK = (
    None,
    0,
    -1,
    1.5,
    -0.5,
    1e300,
    -1e300,
    "",
    "x",
    [],
    {},
    [1, 2],
    {"a": 1},
    True,
    False,
    2**31,
    -(2**31),
    2**70,
    "GP2",
    [None],
    [[1]],
    [1.5, 2],
    ["a"],
    "x" * 300,
)


class Rng:
    """A small xorshift generator: the same mutations on CPython and MicroPython."""

    def __init__(self, seed):
        self.s = seed or 1

    def below(self, n):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s % n

    def pick(self, seq):
        return seq[self.below(len(seq))]


def paths(d, at=()):
    """Every (container, key) path in the board dict, as tuples of keys and indices."""
    out = []
    items = d.items() if isinstance(d, dict) else enumerate(d)
    for k, v in items:
        out.append(at + (k,))
        if isinstance(v, (dict, list)):
            out.extend(paths(v, at + (k,)))
    return out


def _parent(raw, path):
    for k in path[:-1]:
        raw = raw[k]
    return raw


def mutate_dict(raw, rng):
    """Change one field of the parsed board dict (in place); returns what was done."""
    path = rng.pick(paths(raw))
    parent = _parent(raw, path)
    key = path[-1]
    how = rng.below(8)
    if how == 0 and isinstance(parent, dict):
        del parent[key]
        return "delete %r" % (path,)
    if how == 1:
        parent[key] = [0] * (2000 + rng.below(30000))  # a huge array
        return "huge list at %r" % (path,)
    if how == 2:
        deep = []
        for _ in range(50 + rng.below(200)):
            deep = [deep]
        parent[key] = deep
        return "deep nesting at %r" % (path,)
    if how == 3:
        parent[key] = float("inf") if rng.below(2) else float("-inf")
        return "infinity at %r" % (path,)
    if how == 4 and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
        parent[key] = parent[key] + rng.pick((1, -1, 100, -100, 1000, 0.5))
        return "nudge %r" % (path,)
    if how == 5 and isinstance(parent, list) and len(parent) > 1:
        parent.append(parent[0])
        return "one more entry in %r" % (path[:-1],)
    parent[key] = rng.pick(JUNK)
    return "junk at %r" % (path,)


def _numbers(text):
    """Start offsets of the numbers in JSON text (bytes)."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == 34:  # skip a string
            i += 1
            while i < n and text[i] != 34:
                i += 1
        elif (48 <= c <= 57 or c == 45) and text[i - 1] in b" [:,\n":
            out.append(i)
        i += 1
    return out


def write(path, parts):
    """Write mutate_text's parts: bytes, or (bytes, times) for the long runs (no 300 KB object)."""
    with open(path, "wb") as f:
        for part in parts:
            if isinstance(part, tuple):
                for _ in range(part[1]):
                    f.write(part[0])
            else:
                f.write(part)


def mutate_text(text, rng):
    """Change the bytes of board.json: returns (parts for write(), what was done)."""
    parts, what = _mutate_text(text, rng)
    return (parts if isinstance(parts, list) else [parts]), what


def _mutate_text(text, rng):
    how = rng.below(12)
    nums = _numbers(text)
    if how == 0:
        i = rng.pick(nums)
        return text[:i] + b"0" + text[i:], "leading zero"
    if how == 1:
        closers = [i for i in range(len(text)) if text[i] in b"]}" and text[i - 1] not in b"[{"]
        i = rng.pick(closers)
        return text[:i] + b"," + text[i:], "trailing comma"
    if how == 2:
        i = rng.pick(nums)
        new = rng.pick((b"1e400", b"-1e400", b"1e400,", b"NaN", b"Infinity"))
        return text[:i] + new + text[i:], "huge number"
    if how == 3:
        i = rng.below(len(text))
        return text[:i] + text[i + 1 :], "byte deleted"
    if how == 4:
        i = rng.below(len(text))
        return text[:i] + bytes([rng.below(256)]) + text[i:], "byte inserted"
    if how == 5:
        return text[: rng.below(len(text))], "truncated"
    if how == 6:
        i = text.index(b'"name": ') + 9
        return [text[:i], (b"x" * 1000, 300 + rng.below(10)), text[i:]], "300 KB string"
    if how == 7:
        d = 20 + rng.below(5)
        return _replace(text, rng.pick(nums), [(b"[" * 1000, d), (b"]" * 1000, d)]), "20,000-deep nesting"
    if how == 8:
        return _replace(text, rng.pick(nums), [b"[", (b"0," * 1000, 50 + rng.below(5)), b"0]"]), "huge array"
    if how == 9:
        i = text.index(b'"pins": ') + 8
        j = text.index(b"}", i) + 1
        return text[:i] + rng.pick((b"null", b"7", b"[1, 2]", b'"x"')) + text[j:], "pins of another type"
    if how == 10:
        i = text.index(b'"red"') + 1
        new = rng.pick((b"\xc0\xaf", b"\xe0\x80\xaf", b"\xff", b"\xed\xa0\x80"))
        return text[:i] + new + text[i:], "not UTF-8"
    new = rng.pick((b"1" * 400, b"-1" + b"0" * 400, b"1e308", b"-0", b"1e400", b"-1e400", b"0.0", b"2e9"))
    return _replace(text, rng.pick(nums), new), "number replaced"


def _replace(text, i, new):
    """The number at i replaced by `new` (bytes, or a list of parts)."""
    j = i
    while text[j] in b"0123456789.-eE+":
        j += 1
    if isinstance(new, list):
        return [text[:i]] + new + [text[j:]]
    return text[:i] + new + text[j:]


def sane(board):
    """A board that was accepted holds only finite numbers in its power and layout data."""

    def walk(v):
        if isinstance(v, float):
            assert v == v and -1e6 <= v <= 1e6, v
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(board.wiring.power)
    walk(board.layout)
    return True
