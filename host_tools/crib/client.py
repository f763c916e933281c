# The laptop's side of the link (docs/protocol.md): requests with ids, replies matched, pushes queued.
import json
import select
import time

MAX_REPLY = 1 << 20  # a reply line longer than this is not from a cribboard


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
        self.pushes = []  # pushes read while waiting for a reply, oldest first
        self.received = 0  # bytes read from the board
        self.hello = None

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
                line, self._buf = self._buf[:i], self._buf[i + 1:]
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
            line = self._read_line(deadline)
            if line is None:
                return None
            if not line.startswith(b"{"):
                continue  # REPL or log text sharing the port
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                return obj

    # -- requests -------------------------------------------------------------------------------

    def request(self, op, timeout=None, **args):
        """Send one request and return its reply dict; Refused on {"ok": false}."""
        rid = self._next_id
        self._next_id += 1
        req = {"id": rid, "op": op}
        req.update(args)
        self._send(req)
        deadline = self._clock() + (self.timeout if timeout is None else timeout)
        while True:
            obj = self._read_object(deadline)
            if obj is None:
                raise LinkError("no answer to '%s' within %.1f s: is the board running its firmware?"
                                % (op, self.timeout if timeout is None else timeout))
            if "push" in obj:
                self.pushes.append(obj)
                continue
            if obj.get("id") != rid:
                continue  # a late reply to an earlier request that timed out
            if obj.get("ok") is True:
                return obj
            raise Refused(obj.get("code", "?"), obj.get("error", "no reason given"))

    def connect(self):
        """Resynchronise the line (a blank line ends any half line) and say hello."""
        self._send_raw(b"\n")
        self.hello = self.request("hello")
        if self.hello.get("protocol") != 1:
            raise LinkError("board speaks protocol %r, this crib speaks 1: update one of them"
                            % self.hello.get("protocol"))
        return self.hello

    def _send_raw(self, data):
        try:
            self.port.write(data)
        except Exception as e:
            raise LinkError("the board went away while writing: %s" % e) from e

    def state(self):
        return self.request("state")

    def events(self, start, limit=64):
        return self.request("events", **{"from": start, "limit": limit})

    def iter_pages(self, start, limit=64):
        """Pages of events from seq `start` until the board has no more: yields each reply."""
        while True:
            page = self.events(start, limit)
            yield page
            if not page["events"] or not page.get("more"):
                return
            start = page["next"]

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
