# The laptop's side of the link (docs/protocol.md): requests with ids, replies matched, pushes queued.
import json
import select
import time

from crib.untrusted import BadBoard, board_id
from cribbage.journal import parse

MAX_REPLY = 1 << 20  # a reply line longer than this is not from a cribboard
MAX_PUSHES = 1024  # pushes kept while waiting for replies: a board flooding pushes loses the oldest
AT_PROMPT = (
    "the board is at the MicroPython prompt (>>>), not running its firmware (after `mpremote exec` "
    "or Ctrl-C it stays there): run `mpremote reset`, or unplug it and plug it in again"
)
WAIT_SAY = 1.0  # a sync waiting this long behind another crib's says so (on_wait)


class LinkError(Exception):
    """The link failed: no answer in time, the board went away, or a reply made no sense."""


class Refused(LinkError):
    """The board answered with {"ok": false}: code and message from the board."""

    def __init__(self, code, message):
        super().__init__("board refused: %s (%s)" % (message, code))
        self.code = code
        self.message = message


class LinkClient:
    """Talks to one board over an open pyserial port (serial or socket://).

    Lines that are not JSON objects (the REPL banner, prints from the board) are skipped, so the
    client works on the port the REPL shares.
    """

    def __init__(self, port, timeout=2.0, clock=time.monotonic):
        self.port = port
        self.timeout = timeout
        self._clock = clock
        self._buf = b""
        self._next_id = 1
        self.pushes = []  # pushes read while waiting for a reply, oldest first (at most MAX_PUSHES)
        self.dropped = 0  # pushes dropped because MAX_PUSHES were waiting
        self.prompt = False  # a MicroPython REPL prompt or echo was seen since the last request
        self.received = 0  # bytes read from the board
        self.hello = None
        self.on_wait = None  # on_wait(text): told once a records stream has waited long at the hub
        self._queued_since = None

    def close(self):
        self.port.close()

    # -- lines ----------------------------------------------------------------------------------

    def _send(self, obj):
        data = json.dumps(obj, separators=(",", ":")).encode("ascii") + b"\n"
        try:
            self.port.write(data)
            self.port.flush()
        except Exception as e:
            raise LinkError("the board went away while writing: %s" % e) from e

    def _read_line(self, deadline):
        """The next line (bytes without newline), or None at the deadline."""
        while True:
            i = self._buf.find(b"\n")
            if i >= 0:
                line, self._buf = self._buf[:i], self._buf[i + 1 :]
                return line.rstrip(b"\r")
            if len(self._buf) > MAX_REPLY:
                raise LinkError("a reply line over %d bytes: is this a cribboard?" % MAX_REPLY)
            left = deadline - self._clock()
            if left <= 0:
                return None
            try:
                chunk = self._chunk(min(left, 0.5))
            except LinkError:
                raise
            except Exception as e:
                raise LinkError("the board went away: %s" % e) from e
            if chunk:
                self.received += len(chunk)
                self._buf += chunk

    def _chunk(self, timeout):
        """What has arrived (at least a byte, or b"" after `timeout` s)."""
        sock = getattr(self.port, "_socket", None)
        if sock is not None:
            # pyserial's socket:// reports in_waiting as 0 or 1, which would read a byte per call:
            # read the socket itself (the simulator's link) in whole chunks.
            ready, _, _ = select.select([sock], [], [], timeout)
            if not ready:
                return b""
            data = sock.recv(65536)
            if not data:
                raise LinkError("the board closed the connection")
            return data
        self.port.timeout = timeout
        waiting = self.port.in_waiting
        return self.port.read(max(1, min(waiting, 65536)))

    def _read_object(self, deadline):
        while True:
            if self._clock() > deadline:
                return None  # however fast lines arrive, a caller's deadline holds
            line = self._read_line(deadline)
            if line is None:
                return None
            if not line.startswith(b"{"):
                # REPL or log text sharing the port; the REPL's prompt means no firmware is running.
                if line.startswith(b">>>") or line.startswith(b"raw REPL"):
                    self.prompt = True
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                if line.startswith(b"{'"):
                    self.prompt = True  # the REPL printing our request back as a Python dict
                continue
            if isinstance(obj, dict):
                if "op" in obj:
                    self.prompt = True  # our own request echoed: a REPL (no reply ever has an op)
                    continue
                return obj

    def _keep_push(self, obj):
        if len(self.pushes) >= MAX_PUSHES:
            self.pushes.pop(0)
            self.dropped += 1
        self.pushes.append(obj)

    # -- requests -------------------------------------------------------------------------------

    def request(self, op, timeout=None, **args):
        """Send one request and return its reply dict; Refused on {"ok": false}."""
        rid = self._next_id
        self._next_id += 1
        req = {"id": rid, "op": op}
        req.update(args)
        self._send(req)
        deadline = self._clock() + (self.timeout if timeout is None else timeout)
        self.prompt = False
        while True:
            obj = self._read_object(deadline)  # a board streaming pushes or junk cannot hold it past deadline
            if obj is None:
                if self.prompt:
                    raise LinkError(AT_PROMPT)
                raise LinkError(
                    "no answer to '%s' within %.1f s: is the board running its firmware?"
                    % (op, self.timeout if timeout is None else timeout)
                )
            if "push" in obj:
                self._keep_push(obj)
                continue
            if obj.get("id") != rid:
                continue  # a late reply to an earlier request that timed out
            if obj.get("ok") is True:
                return obj
            if self.prompt:
                raise LinkError(AT_PROMPT)
            raise Refused(_word(obj.get("code", "?")), _word(obj.get("error", "no reason given")))

    def connect(self):
        """Resynchronise the line (a blank line ends any half line) and say hello."""
        self._send_raw(b"\n")
        # The board has no clock: the hello tells it the time, and it stamps the games it starts.
        hello = self.request("hello", now=int(time.time()))
        if hello.get("protocol") != 1:
            raise LinkError(
                "board speaks protocol %s, this crib speaks 1: update one of them"
                % _word(hello.get("protocol"))
            )
        try:
            board_id(hello.get("board"))
        except BadBoard as e:
            raise LinkError(str(e)) from e
        for key in ("first", "next"):
            if not _count(hello.get(key, 0)):
                raise LinkError(
                    "the board's '%s' is %s, not a sequence number: is this a cribboard?"
                    % (key, _word(hello.get(key)))
                )
        self.hello = hello
        return hello

    def _send_raw(self, data):
        try:
            self.port.write(data)
        except Exception as e:
            raise LinkError("the board went away while writing: %s" % e) from e

    def state(self):
        return self.request("state")

    def events(self, start, limit=64):
        return self.request("events", **{"from": start, "limit": limit})

    def iter_pages(self, start, limit=64, stop=None):
        """Pages of events from seq `start` until the board has no more: yields each reply.

        Nothing the board says is taken on trust: each page is checked against the board's own
        `end` (check_page), and paging stops at `stop` (default: the `end` of the first page), so
        a board whose `next` does not advance or whose `more` never ends cannot keep a sync going.
        """
        while True:
            page = self.events(start, limit)
            check_page(page, start, limit)
            if stop is None:
                stop = page["end"]
            yield page
            if not page["events"] or not page.get("more") or page["next"] >= stop:
                return
            start = page["next"]

    def iter_records(self, start, stop, batch=64, to=None):
        """The board's records from seq `start` in one `records` stream (docs/protocol.md): yields
        pages as iter_pages does ({"events", "next", "end", "first", "more"}), one every `batch`
        records and the last with the board's reply; Refused (code `op`) from a board without it.

        Each line is checked as the board's journal stored it (its CRC over the payload and seq,
        seqs rising, the payload one JSON object); records at or past `stop` (hello's next) are left
        for the next sync. `to`: the board is asked to stop before that seq (a board that does not
        know `to` sends on to its end: those records are read and left out). The board's reply must
        count the records sent: a line lost on the way (REPL text written into it) stops the sync.
        What came whole and checked before a failure (the link cut, a line that does not check out)
        is yielded as a last page before the LinkError: every record stored as soon as it is known."""
        rid = self._next_id
        self._next_id += 1
        req = {"id": rid, "op": "records", "from": start}
        keep = stop
        if to is not None:
            req["to"] = to
            keep = min(stop, to)
        self._send(req)
        self.prompt = False
        got = []
        try:
            yield from self._records(rid, start, stop, keep, batch, got)
        except LinkError:
            if got:  # the checked records before the failure: stored, then the error
                yield {"events": got, "next": got[-1]["seq"] + 1, "end": keep, "first": start, "more": True}
            raise

    def _records(self, rid, start, stop, keep, batch, got):
        """iter_records' reading: pages of `got` (the caller's list, so a failure can hand on what
        was in it) as they fill, then the last page from the reply; the records below `keep` kept."""
        last = start - 1
        count = 0
        deadline = self._clock() + self.timeout
        while True:
            line = self._read_line(deadline)
            if line is None:
                if self.prompt:
                    raise LinkError(AT_PROMPT)
                raise LinkError(
                    "no records or answer within %.1f s: is the board running its firmware?" % self.timeout
                )
            if line[:1].isdigit():
                seq, event = parse_record(line)
                if seq <= last:
                    raise LinkError("the board sent seq %d after %d: seqs must rise: stopped" % (seq, last))
                count += 1
                if count > stop - start + BOARD_SLACK:
                    raise LinkError(
                        "the board sent more records than it announced (%d from %d): stopped" % (count, start)
                    )
                last = seq
                deadline = self._clock() + self.timeout  # a record is progress; noise is not
                if seq < keep:
                    got.append({"seq": seq, "event": event})
                if len(got) >= batch:
                    page = {"events": list(got), "next": seq + 1, "end": keep, "first": start, "more": True}
                    del got[:]
                    yield page
                continue
            obj = self._object(line)
            if obj is None:
                continue
            if "push" in obj:
                self._keep_push(obj)
                continue
            if obj.get("id") != rid:
                continue
            if self._queued(obj):
                deadline = self._clock() + self.timeout  # the board is there, busy with another crib's
                continue
            if obj.get("ok") is not True:
                raise Refused(_word(obj.get("code", "?")), _word(obj.get("error", "no reason given")))
            end, nxt, first = obj.get("end"), obj.get("next"), obj.get("first", start)
            if not (_count(end) and _count(nxt) and _count(first)) or obj.get("records") != count:
                raise LinkError(
                    "the board's records reply does not match what came (%d records; it says %s, next %s, "
                    "end %s): a line was lost on the way: run crib sync again"
                    % (count, _word(obj.get("records"), 20), _word(nxt, 20), _word(end, 20))
                )
            if nxt != (last + 1 if count else nxt) or nxt < start or (count and last >= end):
                raise LinkError(
                    "the board's records reply says next %d after seq %d (from %d, end %d): stopped"
                    % (nxt, last, start, end)
                )
            more = bool(obj.get("more"))
            page = {"events": list(got), "next": nxt, "end": end, "first": first, "more": more}
            del got[:]
            yield page
            return

    def _queued(self, obj):
        """True for a hub's word that this crib's records stream waits its turn behind another crib's
        (`queued`: how many are before it, 0 once it is asked for; docs/protocol.md); on_wait hears
        it once the wait is long."""
        n = obj.get("queued")
        if "ok" in obj or not _count(n):
            return False
        now = self._clock()
        if not n:
            self._queued_since = None
        elif self._queued_since is None:
            self._queued_since = now
        elif now - self._queued_since >= WAIT_SAY and self.on_wait is not None:
            self._queued_since = float("inf")  # said once a wait
            self.on_wait("waiting for another crib's sync of this board to finish")
        return True

    def _object(self, line):
        """The JSON object a line holds, or None (REPL or log text; the prompt noted)."""
        if not line.startswith(b"{"):
            if line.startswith(b">>>") or line.startswith(b"raw REPL"):
                self.prompt = True
            return None
        try:
            obj = json.loads(line)
        except ValueError:
            if line.startswith(b"{'"):
                self.prompt = True
            return None
        if not isinstance(obj, dict):
            return None
        if "op" in obj:
            self.prompt = True  # our own request echoed: a REPL
            return None
        return obj

    def subscribe(self, start=None, state=False):
        args = {"state": state}
        if start is not None:
            args["from"] = start
        return self.request("subscribe", **args)

    def next_push(self, timeout=1.0):
        """The next push, or None if none arrived within `timeout` seconds."""
        if self.pushes:
            return self.pushes.pop(0)
        deadline = self._clock() + timeout
        while True:
            obj = self._read_object(deadline)
            if obj is None:
                return None
            if "push" in obj:
                return obj


BOARD_SLACK = 4096  # records a stream may bring beyond hello's next: events played during the sync


def parse_record(line):
    """(seq, event) of one journal record line as the board stores it (cribbage.journal), checked;
    LinkError when it is not one."""
    seq, text, why = parse(line)
    if why == "checksum mismatch":
        raise LinkError(
            "the board sent record %d with a checksum that does not hold: stopped (it is left on the board)"
            % seq
        )
    if why == "unreadable record":
        raise LinkError(
            "the board sent a line that is no journal record: %s: stopped"
            % _word(line[:60].decode("ascii", "replace"))
        )
    try:
        event = json.loads(text) if text is not None else None
    except ValueError:
        event = None
    if not isinstance(event, dict):
        raise LinkError("the board's record %d is not an event object: stopped" % seq)
    return seq, event


def _count(v):
    """A sequence number as a board sends it: a non-negative int (JSON true is not one)."""
    return type(v) is int and v >= 0


def _word(v, limit=80):
    """A board's word for a message: text as it is, anything else as JSON, cut to `limit` characters."""
    text = v if isinstance(v, str) else json.dumps(v)
    return text if len(text) <= limit else text[:limit] + "..."


def check_page(page, start, limit):
    """LinkError unless an `events` reply is one a board could send for `from` start, `limit` events:
    seqs rising from `start` and below the board's `end`, `next` past them and not past `end`."""
    end, nxt, events = page.get("end"), page.get("next"), page.get("events")
    if not _count(end) or not _count(nxt) or not isinstance(events, list):
        raise LinkError(
            "the board's events page has no sensible end, next or events (end %s, next %s): "
            "stopped" % (_word(end, 20), _word(nxt, 20))
        )
    if len(events) > limit:
        raise LinkError("the board sent %d events for a page of %d: stopped" % (len(events), limit))
    last = start - 1
    for item in events:
        seq = item.get("seq") if isinstance(item, dict) else None
        if not _count(seq) or not isinstance(item.get("event"), dict):
            raise LinkError("the board sent an event that is not {seq, event}: %s: stopped" % _word(item, 60))
        if seq <= last or seq >= end:
            raise LinkError(
                "the board sent seq %d after %d with its end at %d: seqs must rise below the "
                "end: stopped" % (seq, last, end)
            )
        last = seq
    if nxt > end or (events and nxt <= last) or (page.get("more") and nxt <= start):
        raise LinkError(
            "the board's next page starts at %d after seq %d (from %d, end %d): it does not "
            "advance: stopped" % (nxt, last, start, end)
        )
