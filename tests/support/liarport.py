# A "board" that answers crib's requests with whatever a test scripts: lies, floods, junk, a REPL in a pty.
import json
import os
import select


class LiarPort:
    """Looks like an open pyserial port; each request line is answered by `answer(request)`.

    `answer` returns the bytes to send back (any number of lines, pushes, junk), so a test can be
    a board that says anything. Requests are kept in `asked`.
    """

    def __init__(self, answer, streams=False):
        self.answer = answer
        self.streams = streams  # False: a board before the records stream, which answers `op` to it
        self.out = bytearray()
        self.timeout = 1.0
        self.asked = []
        self._half = b""

    def write(self, data):
        self._half += data
        while b"\n" in self._half:
            line, self._half = self._half.split(b"\n", 1)
            if not line.strip():
                continue
            req = json.loads(line)
            self.asked.append(req)
            if req.get("op") == "records" and not self.streams:
                self.out += refuse(req, "op", "unknown op 'records'")
                continue
            self.out += self.answer(req)
        return len(data)

    def flush(self):
        pass

    @property
    def in_waiting(self):
        return len(self.out)

    def read(self, n=1):
        data = bytes(self.out[:n])
        del self.out[:n]
        return data

    def close(self):
        pass


def reply(req, **fields):
    """One reply line to `req`, fields as given."""
    obj = {"id": req["id"], "ok": True}
    obj.update(fields)
    return json.dumps(obj).encode() + b"\n"


def refuse(req, code, error):
    return json.dumps({"id": req["id"], "ok": False, "code": code, "error": error}).encode() + b"\n"


def hello(req, board="e6614104032f122b", first=1, nxt=100):
    return reply(
        req,
        protocol=1,
        firmware="0.1.0",
        board=board,
        form="six-card",
        max_line=1024,
        page_max=64,
        first=first,
        next=nxt,
    )


class PtyPort:
    """The laptop's end of a pseudo-terminal whose other end runs a real program (MicroPython's REPL)."""

    def __init__(self, fd):
        self.fd = fd
        self.timeout = 1.0

    def write(self, data):
        os.write(self.fd, data)
        return len(data)

    def flush(self):
        pass

    @property
    def in_waiting(self):
        ready, _, _ = select.select([self.fd], [], [], 0)
        return 4096 if ready else 0

    def read(self, n=1):
        ready, _, _ = select.select([self.fd], [], [], self.timeout)
        return os.read(self.fd, n) if ready else b""

    def close(self):
        os.close(self.fd)
