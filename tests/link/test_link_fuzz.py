# Tens of thousands of bad lines into the link: no crash, no change of state, one error reply each.
import json
import random

from hypothesis import given
from hypothesis import strategies as st
from linefeed import LineFeed
from linkfakes import FakeSettings, journal, new_match, pegs
from linkfuzz import bad_line

from board.link import Link

N_LINES = 30000
N_SIM = 10000  # the whole app answers up to 8 lines per pass of its loop


def make_board():
    j = journal()
    m = new_match(j)
    pegs(j, m, 40)
    s = FakeSettings()
    link = Link(j, m, board_id="e6614104032f122b", firmware="0.1.0", form="six", settings=s)
    return link, j, m, s


def snapshot(link, j, m, s):
    return (
        json.dumps(link._op_state({})),
        j.next_seq,
        j.size,
        json.dumps(s.values),
        link.pending,
        link.subscribed,
    )


def test_thirty_thousand_bad_lines_each_get_an_error_and_change_nothing():
    link, j, m, s = make_board()
    before = snapshot(link, j, m, s)
    rng = random.Random(5)
    kinds = {}
    for i in range(N_LINES):
        kind, line = bad_line(rng)
        kinds[kind] = kinds.get(kind, 0) + 1
        out = link.handle(line)
        assert len(out) == 1, (kind, line)
        reply = json.loads(out[0])
        assert reply["ok"] is False and reply["error"] and reply["code"] != "internal", (kind, line, reply)
        if i % 5000 == 0:
            assert snapshot(link, j, m, s) == before
    assert snapshot(link, j, m, s) == before
    assert link.pushes() == []
    assert len(kinds) == 9 and min(kinds.values()) > 1000  # every family of bad line, often
    # and the board still answers
    assert json.loads(link.handle(b'{"id":1,"op":"hello"}')[0])["ok"] is True


def test_a_stream_of_noise_and_requests_in_random_chunks():
    """Bytes through the line reader as a serial port would deliver them: requests keep working."""
    link, j, m, s = make_board()
    before = snapshot(link, j, m, s)
    rng = random.Random(11)
    stream = bytearray()
    expected_ids = []
    bad = 0
    for i in range(3000):
        if i % 10 == 0:
            stream += b'{"id":%d,"op":"state"}\n' % i
            expected_ids.append(i)
        else:
            stream += bad_line(rng)[1] + b"\n"
            bad += 1
    reader = LineFeed()
    replies = []
    pos = 0
    while pos < len(stream):
        n = rng.randrange(1, 300)
        for line in reader.feed(stream[pos : pos + n]):
            replies.extend(json.loads(r) for r in link.handle(line))
        pos += n
    good = [r for r in replies if r["ok"]]
    assert [r["id"] for r in good] == expected_ids
    assert len(replies) - len(good) == bad
    assert snapshot(link, j, m, s) == before


@given(st.binary(max_size=1200))
def test_any_bytes_without_newline_get_one_reply(data):
    link, j, m, s = _board
    line = data.replace(b"\n", b" ")
    out = link.handle(line)
    if line.strip(b" \t\r") == b"":
        assert out == []
        return
    assert len(out) == 1
    reply = json.loads(out[0])
    assert reply["ok"] is False or reply["id"] is not None


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
        max_leaves=20,
    ),
    st.sampled_from(
        ["hello", "state", "events", "subscribe", "settings", "propose", "cancel", "pending", "nope"]
    ),
)
def test_any_json_arguments_never_crash_the_handler(value, op):
    link, j, m, s = _board
    req = {
        "id": 9,
        "op": op,
        "from": value,
        "limit": value,
        "set": value,
        "event": value,
        "pending": value,
        "state": value,
        "note": value,
    }
    out = link.handle(json.dumps(req))
    assert len(out) == 1
    reply = json.loads(out[0])
    # Python writes inf and nan as Infinity and NaN, which are not JSON; text beyond U+FFFF goes as
    # an escaped surrogate pair, which the board refuses (docs/protocol.md)
    try:
        text = json.dumps(req, allow_nan=False, ensure_ascii=False)
        not_json = any(ord(c) > 0xFFFF for c in text)
    except ValueError:
        not_json = True
    assert (
        reply["id"] == 9
        or reply["code"] in ("too-long", "encoding", "control")
        or (not_json and reply["code"] == "json")
    )
    assert reply.get("code") != "internal", reply
    link.pending = None


_board = make_board()


def _fire(url, lines, window=16, probe=b'{"id":"probe","op":"state"}'):
    """Send bad lines over a socket link, at most `window` unanswered at a time (as a host that waits
    for its replies does), then a probe; returns the replies (dicts), the probe's last."""
    import socket

    host, port = url[len("socket://") :].split(":")
    sock = socket.create_connection((host, int(port)), timeout=60)
    f = sock.makefile("rb")
    sock.sendall(b"\n")
    todo = list(lines) + [probe]
    sent = 0
    replies = []
    while True:
        while sent < len(todo) and sent - len(replies) < window:
            sock.sendall(todo[sent] + b"\n")
            sent += 1
        line = f.readline()
        assert line, "the board closed the link"
        r = json.loads(line)
        replies.append(r)
        if r.get("id") == "probe":
            break
    f.close()
    sock.close()
    return replies


def _bad_lines(n, seed):
    rng = random.Random(seed)
    return [bad_line(rng)[1] for _ in range(n)]


def test_bad_lines_into_the_link_on_micropython(tmp_path):
    """30,000 bad lines into the link code running on MicroPython: an error each, state unchanged."""
    from boards import LinkServer, played, write_journal

    journal = write_journal(str(tmp_path / "j.log"), played(3, seed=9))
    with LinkServer(journal) as server:
        before = _fire(server.url, [])[-1]
        lines = _bad_lines(N_LINES, 21)
        replies = _fire(server.url, lines)
        assert server.proc.poll() is None
    errors = replies[:-1]
    assert len(errors) == N_LINES
    assert all(r["ok"] is False and r["code"] != "internal" for r in errors)
    assert replies[-1] == before  # same state, same next seq, nothing pending


def test_bad_lines_into_the_simulator_while_it_runs(tmp_path):
    """The whole firmware in the sim takes a few thousand bad lines and keeps its game."""
    from boards import Sim
    from simmatch import flash_with_match

    data, m = flash_with_match(tmp_path)
    settings = b'{"id":"probe","op":"settings"}'
    with Sim(data) as sim:
        before = _fire(sim.url, [])[-1]
        settings_before = _fire(sim.url, [], probe=settings)[-1]
        replies = _fire(sim.url, _bad_lines(N_SIM, 22))
        settings_after = _fire(sim.url, [], probe=settings)[-1]
        assert sim.running()
    assert len(replies) == N_SIM + 1 and all(r["ok"] is False for r in replies[:-1])
    assert replies[-1] == before and before["next"] == len(m.events) + 1
    assert settings_after == settings_before  # not one setting changed (issue 9, item 7)
