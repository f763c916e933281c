# crib sync over the records stream: a board's record lines are checked as its journal stored them
# (CRC, rising seqs, one JSON object each, the count in its reply), so a lying or garbled stream stops
# the sync with a clear error and stores nothing it could not check (each fails on the old code).
import json
import zlib

import pytest
from liarport import LiarPort, hello, reply

from crib.history.sync import sync
from crib.link.client import LinkClient, LinkError
from crib.store import db

PEG = b'{"t":"peg","s":0,"n":1,"why":"manual"}'


def rec(seq, payload=PEG, crc=None):
    """One journal record line as board/store/journal.py writes it: seq, CRC-32 (from the seq), payload."""
    c = zlib.crc32(payload, seq) if crc is None else crc
    return b"%d %08x %s\n" % (seq, c, payload)


def board(lines, count=None, nxt=None, end=100, more=False):
    """A board that streams `lines` for a records request, then its reply (count/next as given)."""

    def answer(req):
        if req["op"] == "hello":
            return hello(req, nxt=end)
        if req["op"] == "records":
            n = sum(1 for x in lines if x[:1].isdigit()) if count is None else count
            last = max(req["from"], 1) + n
            return b"".join(lines) + reply(
                req, records=n, next=last if nxt is None else nxt, end=end, first=1, more=more
            )
        return reply(req)

    return LiarPort(answer, streams=True)


def run(tmp_path, port):
    con = db.connect(str(tmp_path / "h.sqlite3"))
    try:
        return sync(LinkClient(port, timeout=0.2), con), con
    except LinkError as e:
        return e, con


def test_an_honest_stream_with_repl_noise_between_lines_is_stored_whole(tmp_path):
    lines = [rec(s) for s in range(1, 100)]
    lines.insert(40, b"MicroPython v1.28.0 on 2026-01-01; Raspberry Pi Pico\r\n")  # the console's words
    rep, con = run(tmp_path, board(lines))
    assert rep.added == 99 and db.count_events(con) == 99
    assert [r[0] for r in con.execute("SELECT seq FROM events ORDER BY seq")] == list(range(1, 100))


@pytest.mark.parametrize(
    "lines, count, nxt, said, good",
    [
        ([rec(s) for s in range(1, 50)] + [rec(50, crc=0x1234)], None, None, "does not hold", 50),
        (
            [rec(s) for s in range(1, 50)] + [rec(50, PEG.replace(b"1", b"2"), zlib.crc32(PEG, 50))],
            None,
            None,
            "checksum",
            50,
        ),
        ([rec(s) for s in range(1, 40)] + [rec(39)], None, None, "seqs must rise", 40),
        ([rec(s) for s in range(1, 30)] + [rec(30, b'"a string"')], None, None, "not an event object", 30),
        ([rec(s) for s in range(1, 30)] + [b"30 zz " + PEG + b"\n"], None, None, "no journal record", 30),
        ([rec(s) for s in range(1, 100)], 100, None, "a line was lost", 100),  # the reply counts one more
        ([rec(s) for s in range(1, 100)], None, 150, "says next 150", 100),  # next past what it sent
        ([rec(s) for s in range(1, 6000)], None, None, "more records than it announced", 100),
    ],
)
def test_a_stream_that_does_not_check_out_stops_the_sync(tmp_path, lines, count, nxt, said, good):
    got, con = run(tmp_path, board(lines, count=count, nxt=nxt))
    assert isinstance(got, LinkError) and said in str(got), got
    # The records before the one that failed, each checked, are stored as they came (none past the
    # hello's end, 100); never a seq the board did not send with its CRC, nor the line that failed.
    assert [r[0] for r in con.execute("SELECT seq FROM events ORDER BY seq")] == list(range(1, good))


def test_an_older_board_is_synced_page_by_page(tmp_path):
    def answer(req):
        if req["op"] == "hello":
            return hello(req, nxt=6)
        if req["op"] == "events":
            evs = [{"seq": s, "event": json.loads(PEG)} for s in range(max(req["from"], 1), 6)]
            return reply(req, events=evs, next=6, end=6, first=1, more=False)
        return reply(req)

    port = LiarPort(answer)  # answers `op` to records, as a board before it does
    rep, con = run(tmp_path, port)
    assert rep.added == 5
    assert [r["op"] for r in port.asked[:3]] == ["hello", "records", "events"]
