# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# hal/lines.py, the HALs' line reader (both interpreters). Regression (link flood): LineBuffer queued
# every line that had arrived and read_line() drained all input at once, so a 600 KB burst filled the
# board's heap; now it reads only until one line is whole and leaves the rest in the stream.
import json

from linkfakes import FakeSettings, journal, new_match

from board.link import MAX_LINE, Link
from hal.lines import LineBuffer


class Stream:
    """A serial stream with `data` waiting; readinto gives what fits, as a socket's recv does."""

    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.taken = 0

    def readinto(self, buf):
        n = min(len(buf), len(self.data))
        buf[:n] = self.data[:n]
        self.data = self.data[n:]
        self.taken += n
        return n


class Flood:
    """`count` lines of `size` bytes made as they are read, so the test itself holds none of them."""

    def __init__(self, count, size):
        self.count = count
        self.size = size
        self.sent = 0
        self.taken = 0
        self._pos = size + 1  # bytes of the current line already given

    def line(self, i):
        head = '{"id":%d,"op":"hello","pad":"' % i
        return (head + "p" * (self.size - len(head) - 2) + '"}\n').encode()

    def readinto(self, buf):
        n = 0
        while n < len(buf):
            if self._pos > self.size:
                if self.sent == self.count:
                    break
                self.sent += 1
                self._cur = self.line(self.sent)
                self._pos = 0
            k = min(len(buf) - n, self.size + 1 - self._pos)
            buf[n : n + k] = self._cur[self._pos : self._pos + k]
            n += k
            self._pos += k
        self.taken += n
        return n


CHUNKS = (256, 7, 1)  # the sim's socket, an odd size, the Pico's stdin (read a byte at a time)


def test_link_flood_reads_one_line_and_leaves_the_rest_in_the_stream():
    for chunk in CHUNKS:
        flood = Flood(3000, 200)  # 603 KB waiting at once
        lines = LineBuffer(chunk=chunk)
        assert json.loads(lines.read_line(flood.readinto))["id"] == 1
        assert flood.taken < 201 + chunk  # the line and at most one chunk read ahead, not 600 KB
        j = journal()
        link = Link(j, new_match(j), board_id="ab", firmware="t", form="six", settings=FakeSettings())
        ids = [1]
        while True:
            line = lines.read_line(flood.readinto)
            if line is None:
                break
            ahead = flood.taken - 201 * len(ids) - 201
            assert ahead < chunk, ahead  # never more than one chunk ahead of the lines handed on
            reply = json.loads(link.handle(line)[0])
            assert reply["ok"], reply
            ids.append(reply["id"])
        assert ids == list(range(1, 3001))


def test_a_line_over_the_limit_is_dropped_to_its_newline_and_answered_once():
    long_line = b'{"id":1,"op":"hello","pad":"' + b"x" * 5000 + b'"}'
    for chunk in CHUNKS:
        s = Stream(long_line + b'\n{"id":2,"op":"hello"}\n')
        lines = LineBuffer(chunk=chunk)
        passes = 1
        cut = lines.read_line(s.readinto)
        while cut is None:
            passes += 1
            cut = lines.read_line(s.readinto)
        assert passes == (len(long_line) + 1 + lines.budget - 1) // lines.budget  # 5 KB: a few calls
        assert len(cut) == MAX_LINE + 1
        assert lines.read_line(s.readinto) == b'{"id":2,"op":"hello"}'
        assert lines.read_line(s.readinto) is None
        link = Link(journal(), None, board_id="ab")
        reply = json.loads(link.handle(cut)[0])
        assert reply["code"] == "too-long" and reply["id"] is None


def test_line_limits_exactly_at_1024_bytes_with_and_without_cr():
    ok = b"a" * MAX_LINE
    for chunk in CHUNKS:
        s = Stream(ok + b"\r\n" + ok + b"\n" + ok + b"b\n" + ok + b"b\r\n")
        lines = LineBuffer(chunk=chunk)
        assert lines.read_line(s.readinto) == ok
        assert lines.read_line(s.readinto) == ok
        assert len(lines.read_line(s.readinto)) == MAX_LINE + 1  # one over: too long for the link
        assert len(lines.read_line(s.readinto)) == MAX_LINE + 1  # the CR is not dropped from a cut line
        assert lines.read_line(s.readinto) is None


def test_an_endless_line_costs_each_call_a_bounded_read():
    for chunk in CHUNKS:
        s = Stream(b"z" * 20000)
        lines = LineBuffer(chunk=chunk)
        calls = 0
        while s.data:
            before = s.taken
            assert lines.read_line(s.readinto) is None
            assert s.taken - before <= lines.budget
            calls += 1
        assert calls >= 20000 // lines.budget
        s.data += b"tail\nnext\n"
        assert len(lines.read_line(s.readinto)) == MAX_LINE + 1  # the one answer for all of it
        assert lines.read_line(s.readinto) == b"next"


def test_half_lines_wait_lines_come_as_bytes_and_reset_forgets():
    for chunk in CHUNKS:
        s = Stream(b'{"op":')
        lines = LineBuffer(chunk=chunk)
        assert lines.read_line(s.readinto) is None
        s.data += b'"x"}\r\n\xff\xfe\x03\n'
        assert lines.read_line(s.readinto) == b'{"op":"x"}'
        noise = lines.read_line(s.readinto)
        assert noise == b"\xff\xfe\x03"  # bytes as they came, which the link refuses with an error
        assert json.loads(Link(journal(), None).handle(noise)[0])["code"] == "encoding"
        s.data += b"half of a line"
        assert lines.read_line(s.readinto) is None
        lines.reset()  # a new host: the old half line is gone
        s.data += b"new\n"
        assert lines.read_line(s.readinto) == b"new"


def test_a_stream_with_nothing_waiting_is_not_read_again():
    calls = []

    def nothing(buf):
        calls.append(len(buf))
        return 0

    assert LineBuffer().read_line(nothing) is None
    assert calls == [256]
