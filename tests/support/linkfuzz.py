# Generators of bad request lines for the link fuzz tests: each one is wrong by construction.
import json

OPS = ("hello", "state", "events", "subscribe", "unsubscribe", "settings", "propose", "pending", "cancel")
# For each op, arguments of a wrong type or range (one is enough to make the request an error).
WRONG_ARGS = {
    "events": [
        ("from", "7"),
        ("from", -1),
        ("from", True),
        ("from", 1.5),
        ("limit", 0),
        ("limit", 65),
        ("limit", None),
        ("limit", [1]),
    ],
    "subscribe": [("from", "x"), ("from", -3), ("state", 1), ("state", "yes"), ("from", False)],
    "settings": [
        ("set", [1]),
        ("set", "brightness=5"),
        ("set", {}),
        ("set", {"brightness": 1e999}),
        ("set", {"nope": 1}),
        ("set", {"brightness": "bright"}),
    ],
    "propose": [
        ("event", "fix"),
        ("event", {"s": 0}),
        ("event", {"t": 5}),
        ("event", None),
        ("note", 3),
        ("note", "x" * 41),
    ],
    "cancel": [("pending", "1"), ("pending", 999), ("pending", None)],
}
NEEDS = {"propose": "event", "cancel": "pending"}
JUNK_VALUES = [None, True, False, 0, -1, 2**40, 1.5, "", "x", [], {}, [1, [2]], {"a": {"b": None}}]


def valid_requests(rng):
    rid = rng.randrange(1, 10**6)
    return [
        {"id": rid, "op": "hello"},
        {"id": rid, "op": "state"},
        {"id": rid, "op": "events", "from": rng.randrange(0, 50), "limit": rng.randrange(1, 65)},
        {"id": "s%d" % rid, "op": "settings"},
        {"id": rid, "op": "subscribe", "from": 3, "state": True},
    ]


def _noise(rng, n):
    """Random bytes without a newline that surely hold a control or non-ASCII byte."""
    data = bytearray(rng.getrandbits(8) for _ in range(n))
    for i, b in enumerate(data):
        if b == 10:
            data[i] = 0
    data[rng.randrange(n)] = rng.choice([0, 1, 3, 4, 27, 127, 128, 255, 0xC3])
    return bytes(data)


# Requests that would change the board if they were read: a setting and a proposal.
CHANGES = (
    b'{"id":7,"op":"settings","set":{"brightness":16}}',
    b'{"id":7,"op":"settings","set":{"muggins":true}}',
    b'{"id":7,"op":"propose","event":{"t":"fix","s":1,"n":29},"note":"x"}',
    b'{"id":7,"op":"propose","event":{"t":"undo"}}',
)


def _lax(rng):
    """A request MicroPython's json.loads reads but that is not JSON (issue 9, item 7)."""
    while True:
        line = _lax_try(rng)
        try:
            json.loads(line)
        except ValueError:
            return line  # CPython's strict reader refuses it: surely not JSON


def _lax_try(rng):
    line = rng.choice(CHANGES)
    how = rng.randrange(7)
    if how == 0:  # leading zeros: 01, 016
        return line.replace(b":16", b":016").replace(b":7,", b":07,").replace(b":29", b":029")
    if how == 1:  # a trailing comma in an object
        i = line.rindex(b"}", 0, len(line) - 1) if line.count(b"}") > 1 else len(line) - 1
        return line[:i] + b"," + line[i:]
    if how == 2:  # a comma or colon left out
        sep = rng.choice([b",", b":"])
        i = rng.choice([k for k in range(len(line)) if line[k : k + 1] == sep])
        return line[:i] + b" " + line[i + 1 :]
    if how == 3:  # a bad escape: "\x" reads as "x"
        return line.replace(b'"op"', b'"o\\p"').replace(b"\\\\", b"\\")
    if how == 4:  # a value left out, or a number cut to "1."
        return rng.choice(
            [
                line.replace(b'"note":"x"', b'"note":'),
                line.replace(b":16", b":16.").replace(b":29", b":29.").replace(b":7,", b":7.,"),
            ]
        )
    if how == 5:  # a key that is not a string
        return b"{1:2," + line[1:]
    return line + rng.choice([b"}", b" {}", b",", b"]"])  # more after the object


def _overlong(rng):
    """A request with one ASCII byte spelt as an overlong (2, 3 or 4 byte) UTF-8 form, or an escaped
    surrogate, which MicroPython's decoders turn into the character or into bytes that are not UTF-8
    (issue 9, item 8)."""
    line = rng.choice(CHANGES)
    i = rng.randrange(len(line))
    c = line[i]
    form = rng.randrange(4)
    if form == 0:
        enc = bytes([0xC0 | c >> 6, 0x80 | c & 0x3F])
    elif form == 1:
        enc = bytes([0xE0, 0x80 | c >> 6, 0x80 | c & 0x3F])
    elif form == 2:
        enc = bytes([0xF0, 0x80, 0x80 | c >> 6, 0x80 | c & 0x3F])
    else:  # the proposals hold "x" and "undo"
        line = rng.choice(CHANGES[2:])
        return "json", line.replace(b'"x"', b'"\\ud800"').replace(b'"undo"', b'"\\udcff"')
    return "encoding", line[:i] + enc + line[i + 1 :]


def bad_line(rng):
    """(kind, line bytes without newline): one bad request."""
    kind = rng.randrange(14)
    if kind == 12:
        return "json", _lax(rng)
    if kind == 13:
        return _overlong(rng)
    if kind == 0:
        return "noise", _noise(rng, rng.randrange(1, 200))
    if kind == 1:  # a good request cut in half
        text = json.dumps(rng.choice(valid_requests(rng)))
        return "cut", text[: rng.randrange(1, len(text))].encode()
    if kind == 2:  # a control byte (Ctrl-C, Ctrl-A raw REPL, Ctrl-D, ESC) inside a good request
        text = json.dumps(rng.choice(valid_requests(rng))).encode()
        i = rng.randrange(len(text) + 1)
        return "control", text[:i] + bytes([rng.choice([1, 2, 3, 4, 5, 27, 0])]) + text[i:]
    if kind == 3:  # raw UTF-8 or Latin-1 bytes
        text = json.dumps({"id": 1, "op": "settings", "set": {"name": "x"}}).encode()
        return "encoding", text.replace(b'"x"', rng.choice([b'"\xc3\xa9"', b'"\xe9"', b'"\xf0\x9f\x83\x8f"']))
    if kind == 4:  # too long, otherwise valid
        pad = "p" * rng.randrange(1010, 3000)
        return "long", json.dumps({"id": 1, "op": "hello", "pad": pad}).encode()
    if kind == 5:  # an unknown op
        op = rng.choice(["", "HELLO", "reboot", "exec", "events ", "eval", "import os", "x" * 30])
        return "op", json.dumps({"id": 2, "op": op}).encode()
    if kind == 6:  # op missing or not a string
        req = {"id": 3}
        if rng.random() < 0.7:
            req["op"] = rng.choice([v for v in JUNK_VALUES if not isinstance(v, str)])
        return "op", json.dumps(req).encode()
    if kind == 7:  # a bad id
        rid = rng.choice([None, True, 1.5, [1], {"a": 1}, "i" * 33])
        req = {"op": rng.choice(OPS)}
        if rng.random() < 0.8:
            req["id"] = rid
        return "id", json.dumps(req).encode()
    if kind == 8:  # JSON that is not an object
        return "json", json.dumps(rng.choice(JUNK_VALUES[:12] + [[{"id": 1, "op": "hello"}]])).encode()
    if kind == 9:  # wrong argument types and ranges
        op = rng.choice(sorted(WRONG_ARGS))
        req = {"id": 4, "op": op}
        if op in NEEDS:
            req[NEEDS[op]] = {"t": "fix", "s": 0, "n": 1} if op == "propose" else 1
        name, value = rng.choice(WRONG_ARGS[op])
        req[name] = value
        return "args", json.dumps(req).encode()
    if kind == 10:  # a required argument missing
        op = rng.choice(sorted(NEEDS))
        return "args", json.dumps({"id": 5, "op": op}).encode()
    # text that only looks like JSON
    junk = rng.choice(
        [
            "{",
            "}",
            "{}}",
            "{'id':1,'op':'hello'}",
            "{id:1}",
            "hello",
            "NaN",
            '{"id":1,"op"}',
            "[" * 40,
            '{"id":1,"op":"hello"}}',
        ]
    )
    return "json", junk.encode()
