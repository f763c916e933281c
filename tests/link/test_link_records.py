# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The records stream (op `records`): the journal's lines as stored, whole lines a chunk, then the reply.
import json

from linkfakes import matches

from board.link import Link, pump
from board.link.pages import PAGE_BYTES


def make(n_events):
    """A journal of n_events over matches and its link."""
    j, m = matches(n_events)
    return Link(j, m, board_id="e6614104032f122b", firmware="0.1.0", form="six"), j, m


def stored(j):
    """The journal file's record lines (bytes, newline included), header left out."""
    with open(j.path, "rb") as f:
        data = f.read()
    return [line + b"\n" for line in data.split(b"\n")[1:] if line]


def drain(link, req):
    """(the chunks a stream sent, its reply) for one records request."""
    assert link.handle(json.dumps(req)) == []  # no reply yet: it follows the records
    chunks = []
    while True:
        data = link.more()
        assert data is not None, "a stream ends with its reply"
        data = bytes(data)
        if data.startswith(b"{"):
            assert link.more() is None
            return chunks, json.loads(data)
        chunks.append(data)


def test_records_are_the_journal_lines_as_stored_in_whole_line_chunks():
    link, j, m = make(200)
    chunks, reply = drain(link, {"id": 5, "op": "records", "from": 0})
    assert b"".join(chunks) == b"".join(stored(j))  # byte for byte: nothing decoded or encoded
    assert len(chunks) > 5
    for c in chunks:
        assert c.endswith(b"\n") and len(c) <= PAGE_BYTES + 128
    assert reply == {"id": 5, "ok": True, "records": 200, "next": 201, "end": 201, "first": 1, "more": False}


def test_records_from_a_seq_in_the_middle_start_exactly_there():
    link, j, m = make(200)
    for start in (2, 33, 77, 199, 200):  # before, on and after the journal's seq marks (every 32nd)
        chunks, reply = drain(link, {"id": 1, "op": "records", "from": start})
        lines = b"".join(chunks).split(b"\n")[:-1]
        assert [int(x.split(b" ")[0]) for x in lines] == list(range(start, 201))
        assert reply["records"] == 201 - start and reply["next"] == 201 and reply["more"] is False
    chunks, reply = drain(link, {"id": 2, "op": "records", "from": 500})
    assert chunks == [] and reply["records"] == 0 and reply["next"] == 500 and reply["more"] is False
    assert ask_error(link, {"id": 3, "op": "records", "from": -1}) == "range"
    assert ask_error(link, {"id": 4, "op": "records", "from": True}) == "type"


def test_records_to_a_seq_stop_before_it_and_say_where():
    link, j, m = make(200)
    for start, to in ((1, 2), (1, 100), (40, 41), (77, 150), (150, 201), (1, 500)):
        chunks, reply = drain(link, {"id": 1, "op": "records", "from": start, "to": to})
        lines = b"".join(chunks).split(b"\n")[:-1]
        upto = min(to, 201)
        assert [int(x.split(b" ")[0]) for x in lines] == list(range(start, upto)), (start, to)
        assert b"".join(chunks) == b"".join(stored(j)[start - 1 : upto - 1])  # as stored, whole lines
        assert reply["records"] == upto - start and reply["next"] == upto
        assert reply["more"] is (upto < 201)
    chunks, reply = drain(link, {"id": 2, "op": "records", "from": 50, "to": 50})
    assert chunks == [] and reply["records"] == 0 and reply["next"] == 50 and reply["more"] is True
    assert ask_error(link, {"id": 3, "op": "records", "from": 1, "to": -1}) == "range"
    assert ask_error(link, {"id": 4, "op": "records", "from": 1, "to": "9"}) == "type"


def ask_error(link, req):
    out = link.handle(json.dumps(req))
    assert len(out) == 1 and link.more() is None
    r = json.loads(out[0])
    assert r["ok"] is False
    return r["code"]


def test_a_journal_written_anew_mid_stream_ends_it_where_to_ask_again():
    link, j, m = make(200)
    assert link.handle(json.dumps({"id": 7, "op": "records", "from": 1})) == []
    first = bytes(link.more())
    last = int(first[: first.rfind(b"\n")].rsplit(b"\n", 1)[-1].split(b" ")[0])
    j.rewrite(150, ['{"t":"note"}'])  # a new match: the file is replaced
    reply = json.loads(bytes(link.more()))
    assert link.more() is None
    assert reply["records"] == first.count(b"\n") and reply["next"] == last + 1 and reply["more"] is True


def test_a_new_request_or_a_new_host_ends_the_stream():
    link, j, m = make(100)
    assert link.handle(json.dumps({"id": 1, "op": "records", "from": 1})) == []
    link.more()
    assert link.handle(json.dumps({"id": 2, "op": "records", "from": 50})) == []
    ended = [json.loads(x) for x in link.pushes()]  # the first one's reply: more, from where it stopped
    assert [r["id"] for r in ended] == [1] and ended[0]["more"] is True
    chunks, reply = drain(link, {"id": 3, "op": "records", "from": 90})
    assert reply["records"] == 11
    assert [json.loads(x)["id"] for x in link.pushes()] == [2]  # every request gets its one reply
    assert link.handle(json.dumps({"id": 4, "op": "records", "from": 1})) == []
    link.disconnect()  # the host went: its stream and its reply with it
    assert link.more() is None and link.pushes() == []


class _Port:
    """A HAL link whose outbox keeps what it was given until `take()`: size says what waits."""

    def __init__(self, lines):
        self.lines = lines
        self.session = 0
        self.sent = []
        self.size = 0
        self.takes = False  # True: the host takes each write at once

    def read_line(self):
        return self.lines.pop(0) if self.lines else None

    def write(self, data):
        self.sent.append(bytes(data))
        if not self.takes:
            self.size += len(data)


class _Controller:
    def offer_link(self, *args):
        pass

    def withdraw_link(self, now):
        pass


def test_pump_hands_on_a_chunk_only_once_the_last_has_gone():
    link, j, m = make(900)
    port = _Port([json.dumps({"id": 1, "op": "records", "from": 1}).encode()])
    pump(port, link, _Controller(), 0, 0)
    assert len(port.sent) == 1  # the port still holds it: the buffer is not written over
    pump(port, link, _Controller(), 0, 5)
    assert len(port.sent) == 1
    port.size = 0  # the host took it all, and from now on takes each chunk at once
    port.takes = True
    passes = 0
    while not port.sent[-1].startswith(b"{"):
        pump(port, link, _Controller(), 0, 10)
        passes += 1
    assert b"".join(port.sent[:-1]) == b"".join(stored(j))
    assert 1 < passes < (len(port.sent) - 1) / 2  # several chunks a pass while the host keeps up
