# One board shared by several crib processes: a hub holds its port and serves every crib on a Unix socket.
"""A USB serial port has one reader, and the simulator drops its laptop when another connects, so
`crib watch`, `crib sync --follow` and `crib name` cannot each open the board. The first crib that
opens a board starts a hub (`python -m crib.link.share TARGET`, in a session of its own, as ssh's
ControlMaster with ControlPersist): the hub opens the port, speaks for every crib on the board, and
goes when the last of them has gone or the board has.

What the hub keeps apart and what it shares:
- requests: each gets the hub's own id on the board, and its reply goes back, with the crib's id,
  to that crib alone; a board's reply without an id (a line it could not read) goes to the crib
  whose request waited longest;
- a `records` stream: one at a time (a new one would end the last on the board); the stream's lines
  go to the crib that asked, the next crib's stream is asked for once the last one's reply is in. A
  crib waiting its turn hears `{"id": ID, "queued": N}` (N streams before its own) at once and again
  as the stream before it moves, so its timeout runs only while the board says nothing, and
  `"queued": 0` when its own is asked for;
- subscriptions: the board holds one, from the lowest seq any crib wants; each crib gets the event
  pushes from the seq it asked for on, each seq once, and state pushes only if it asked for them;
  proposal verdicts and other pushes go to every crib;
- blank lines (a crib resynchronising the line) stay in the hub: on the Pico a blank line counts as
  a new host, which would end every crib's subscription. The hub sends one when it opens the port.
- text that is no reply (the REPL's prompt, the board's prints) goes to every crib waiting for a
  reply, so each still tells a board at the `>>>` prompt from a slow one.

The socket and its lock live in the per-user runtime folder (runtime_dir(): 0700, the socket 0600).
A hub holds an flock on the lock file for its life, so a socket left by a hub that died is known by
the lock being free, and replaced. Clients of a hub that went (the board unplugged, the hub killed)
see the connection close, as with a board that went, and open it again (watch and follow do).
"""

import errno
import hashlib
import json
import os
import select
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

from crib.link import ports

MAX_REQUEST = 1024  # the board's longest request line (docs/protocol.md)
MAX_ID = 32
CLIENT_BEHIND = 32 << 20  # a crib this far behind in reading is dropped (a whole journal is a few MB)
FIRST_CLIENT_S = 10.0  # a hub that no crib reaches this long after it listens goes
LOG_MAX = 256 << 10  # a hub's log is started afresh past this
START_S = 15.0  # how long a crib waits for a hub to start (a Python start-up on a busy laptop)
QUEUED_S = 0.2  # a crib waiting its turn is told this often that the stream before it moves

try:
    import fcntl
except ImportError:  # Windows: no flock; each crib opens the board itself, as before
    fcntl = None


def available():
    """True where boards can be shared: Unix sockets and flock."""
    return fcntl is not None and hasattr(socket, "AF_UNIX")


def runtime_dir():
    """The per-user folder of the hubs' sockets: $XDG_RUNTIME_DIR/crib, else crib-USER in the temp
    folder; made 0700, and refused (PortError) when it is someone else's."""
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg:
        path = os.path.join(xdg, "crib")
    else:
        path = os.path.join(tempfile.gettempdir(), "crib-%d" % os.getuid())
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            raise ports.PortError(
                "%s is not a folder of yours: crib will not share a board through it" % path
            )
        if st.st_mode & 0o077:
            os.chmod(path, 0o700)
    except OSError as e:
        raise ports.PortError("cannot make crib's runtime folder %s: %s" % (path, e)) from e
    return path


def shareable(target):
    """True for the ports a hub serves: the simulator's socket and a serial device on this machine."""
    if not available():
        return False
    if target.startswith("socket://"):
        return True
    try:
        return stat.S_ISCHR(os.stat(target).st_mode)
    except OSError:
        return False


def paths(target):
    """(socket, lock, log) of the hub of `target`; one hub a board, whichever name reaches it."""
    canonical = target if target.startswith("socket://") else os.path.realpath(target)
    key = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    base = os.path.join(runtime_dir(), "board-" + key)
    return base + ".sock", base + ".lock", base + ".log"


# -- the crib's side ----------------------------------------------------------------------------


class HubPort:
    """A pyserial-like port on a hub's socket: what LinkClient needs (write, flush, close, _socket)."""

    def __init__(self, sock, target, timeout):
        self._socket = sock
        self.target = target
        self.timeout = timeout
        self.is_open = True
        sock.settimeout(max(timeout, 5.0))  # a write never hangs on a hub that stopped reading

    def write(self, data):
        self._socket.sendall(data)
        return len(data)

    def flush(self):
        pass

    def close(self):
        if self.is_open:
            self.is_open = False
            self._socket.close()


_hubs = []  # the hubs this process started: reaped once they end (they outlive it otherwise)
_hubs_lock = threading.Lock()  # cribs side by side in one process (threads) reap and add to it


def open_port(spec, timeout=2.0):
    """A port on the board `spec` names (--port), shared with every other crib that has it open: a
    HubPort on its hub (started here if none runs), or the port itself where sharing is not
    possible (not a local board, or no Unix sockets). PortError says why the board cannot be had."""
    target = ports.resolve(spec)
    if not shareable(target):
        return ports.open_port(target, timeout)
    with _hubs_lock:  # two threads may find the same hub ended: one reaps it
        _hubs[:] = [p for p in _hubs if p.poll() is None]
    sock_path, lock_path, log_path = paths(target)
    deadline = time.monotonic() + START_S
    while True:
        sock = _dial(sock_path)
        if sock is not None:
            return HubPort(sock, target, timeout)
        if not _held(lock_path):
            _start_hub(target, timeout, log_path, deadline)
            continue
        if time.monotonic() > deadline:  # a hub holds the lock but does not listen: starting or stuck
            raise ports.PortError(
                "the crib sharing %s does not answer on %s (see %s): stop that crib and try again"
                % (target, sock_path, log_path)
            )
        time.sleep(0.05)


def connect(spec, timeout=2.0):
    """A LinkClient on the board `spec` names, connected (hello said, the board told the time).
    PortError when the board cannot be had, LinkError when it does not answer as a cribboard."""
    from crib.link.client import LinkClient, LinkError

    for attempt in range(3):
        port = open_port(spec, timeout)
        client = LinkClient(port, timeout=timeout)
        try:
            client.connect()
            return client
        except LinkError:
            client.close()
            # A hub closing as this crib reached it (its last crib had just gone) closes before any
            # answer: try again, a new hub is started. Anything else is the board's answer.
            if attempt == 2 or not isinstance(port, HubPort) or client.received:
                raise
    raise AssertionError("unreachable")


def _dial(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
    except OSError:
        s.close()
        return None
    return s


def _held(lock_path):
    """True while a hub holds the lock of this board (it is starting, serving or closing)."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # releases the lock if this took it
    return False


def _start_hub(target, timeout, log_path, deadline):
    """Start the hub of `target` and wait until it listens (or another crib's hub won the lock).
    PortError with the hub's words when it cannot open the board."""
    try:
        grown = os.path.getsize(log_path) > LOG_MAX
    except OSError:
        grown = False
    with open(log_path, "wb" if grown else "ab") as log:  # a few lines a hub: kept, but not for ever
        proc = subprocess.Popen(
            [sys.executable, "-m", "crib.link.share", target, str(timeout)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
            start_new_session=True,  # a Ctrl-C in the crib that started it must not stop the others' board
            close_fds=True,
        )
    with _hubs_lock:
        _hubs.append(proc)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.1, deadline - time.monotonic()))
        line = proc.stdout.readline().decode("utf-8", "replace").strip() if ready else ""
    finally:
        proc.stdout.close()
    if line in ("ready", "taken"):
        return
    if line.startswith("error "):
        raise ports.PortError(line[6:])
    raise ports.PortError("crib's hub for %s did not start (see %s)" % (target, log_path))


# -- the hub ------------------------------------------------------------------------------------


class BoardGone(Exception):
    """The board's port closed or failed."""


class Client:
    """One crib on the hub: its socket, what it has sent and not ended, what waits to go to it, and
    its subscription (expected: the next event seq it gets; None until the board's reply)."""

    def __init__(self, sock):
        self.sock = sock
        self.inbuf = bytearray()
        self.out = bytearray()
        self.alive = True
        self.sub = False
        self.sub_state = False
        self.expected = None
        self.asked = None  # the `from` of its subscribe waiting for the board's reply


class Hub:
    """The board's one host on behalf of every crib connected to the listening socket."""

    def __init__(self, board, listener, log=None):
        self.board = board
        self.listener = listener
        self.log = log or (lambda text: None)
        self.clients = []
        self.waiting = {}  # hub id -> (client or None, the client's id, op): requests not answered
        self.next_id = 1
        self.stream = None  # hub id of the records request being answered
        self.queued = []  # records requests (hub id, request) waiting for the stream to end
        self.told_queued = 0.0  # when the waiting cribs last heard that the stream before theirs moves
        self.board_sub = False
        self.pos = None  # the next seq the board pushes to the hub's subscription
        self.buf = b""
        self.served = 0

    # -- the loop ---------------------------------------------------------------------------------

    def run(self):
        """Serve until the board goes or the last crib has (None), or BoardGone."""
        board_sock = getattr(self.board, "_socket", None)
        board_fd = board_sock if board_sock is not None else self.board.fileno()
        if board_sock is None:
            self.board.timeout = 0  # reads take what has arrived
        listening_since = time.monotonic()
        self._write_board(b"\n")  # ends a half line an earlier program left
        while True:
            if not self.clients and (self.served or time.monotonic() - listening_since > FIRST_CLIENT_S):
                return
            socks = [c.sock for c in self.clients]
            r, _w, _ = select.select(
                [self.listener, board_fd] + socks, [c.sock for c in self.clients if c.out], [], 1.0
            )
            if board_fd in r:
                self._read_board(board_sock)
            if self.listener in r:
                self._accept()
            for c in list(self.clients):
                if c.sock in r and c.alive:
                    self._read_client(c)
            for c in list(self.clients):  # what the board and the hub said this turn, a send a crib
                if c.out and c.alive:
                    self._flush(c)

    def _read_board(self, sock):
        try:
            if sock is not None:
                data = sock.recv(65536)
            else:
                data = self.board.read(max(1, self.board.in_waiting))
        except Exception as e:
            raise BoardGone(str(e)) from e
        if not data:
            if sock is not None:
                raise BoardGone("the board closed the connection")
            return
        buf = self.buf + data
        lines = buf.split(b"\n")
        self.buf = lines.pop()
        for line in lines:
            self._from_board(line[:-1] if line.endswith(b"\r") else line)

    def _write_board(self, data):
        try:
            self.board.write(data)
            self.board.flush()
        except Exception as e:
            raise BoardGone("writing: %s" % e) from e

    def _accept(self):
        try:
            sock, _ = self.listener.accept()
        except OSError:
            return
        sock.setblocking(False)
        self.clients.append(Client(sock))
        self.served += 1

    def _read_client(self, c):
        try:
            data = c.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._gone(c)
            return
        c.inbuf += data
        while c.alive:
            i = c.inbuf.find(b"\n")
            if i < 0:
                if len(c.inbuf) > 4 * MAX_REQUEST:  # no crib sends that: not one of ours
                    self._gone(c)
                return
            line = bytes(c.inbuf[:i]).rstrip(b"\r")
            del c.inbuf[: i + 1]
            self._request(c, line)

    def _send(self, c, line):
        if not c.alive:
            return
        c.out += line
        c.out += b"\n"
        if len(c.out) > CLIENT_BEHIND:
            self.log("a crib that does not read dropped")
            self._gone(c)

    def _flush(self, c):
        try:
            n = c.sock.send(c.out)
        except BlockingIOError:
            return
        except OSError:
            self._gone(c)
            return
        del c.out[:n]

    def _gone(self, c):
        if not c.alive:
            return
        c.alive = False
        self.clients.remove(c)
        c.sock.close()
        self.queued = [(hid, req) for hid, req in self.queued if self.waiting[hid][0] is not c]
        if c.sub and self.board_sub and not any(x.sub for x in self.clients):
            self._ask(None, None, {"op": "unsubscribe"})

    # -- requests ---------------------------------------------------------------------------------

    def _answer(self, c, rid, code, error):
        self._send(c, _dump({"id": rid, "ok": False, "code": code, "error": error}))

    def _request(self, c, line):
        if not line.strip():
            return  # a crib's resync: the board had the hub's
        if len(line) > MAX_REQUEST:
            return self._answer(c, None, "too-long", "request over %d bytes" % MAX_REQUEST)
        try:
            req = json.loads(line)
        except ValueError:
            req = None
        if not isinstance(req, dict):
            return self._answer(c, None, "json", "not a JSON object")
        rid = req.get("id")
        if not (_count(rid) or isinstance(rid, str) and len(rid) <= MAX_ID):
            return self._answer(
                c, None, "id", "'id' must be an int or a string of up to %d characters" % MAX_ID
            )
        op = req.get("op")
        if op == "subscribe":
            start = req.get("from")
            if start is None or _count(start):
                # Its pushes start at the board's reply: those before it are the last subscription's,
                # and the board pushes again from `from` after it.
                c.sub, c.sub_state, c.expected, c.asked = True, req.get("state") is True, None, start
                if self.board_sub and self.pos is not None:
                    req["from"] = self.pos if start is None else min(start, self.pos)
                req["state"] = any(x.sub_state for x in self.clients if x.sub)
        elif op == "unsubscribe":
            c.sub = False
            if any(x.sub for x in self.clients):
                return self._send(c, _dump({"id": rid, "ok": True}))
        self._ask(c, rid, req)

    def _ask(self, c, rid, req):
        hid = self.next_id
        self.next_id += 1
        req["id"] = hid
        if c is not None and len(_dump(req)) > MAX_REQUEST:  # as the hub writes it (escapes, its id)
            return self._answer(c, rid, "too-long", "request over %d bytes" % MAX_REQUEST)
        self.waiting[hid] = (c, rid, req.get("op"))
        if req.get("op") == "records":
            if self.stream is not None:
                self.queued.append((hid, req))
                self._send(c, _dump({"id": rid, "queued": len(self.queued)}))
                return
            self.stream = hid
        self._write_board(_dump(req) + b"\n")

    # -- what the board says ----------------------------------------------------------------------

    def _from_board(self, line):
        if self.stream is not None and line[:1].isdigit():
            c = self.waiting[self.stream][0]  # a record line of the stream
            if c is not None:
                self._send(c, line)
            if self.queued and time.monotonic() - self.told_queued >= QUEUED_S:
                self._tell_queued()
            return
        obj = None
        if line[:1] == b"{":
            try:
                obj = json.loads(line)
            except ValueError:
                pass
        if isinstance(obj, dict) and "op" not in obj:
            if "push" in obj:
                return self._push(obj, line)
            if "id" in obj:
                return self._reply(obj)
        for c in {entry[0] for entry in self.waiting.values()}:  # the REPL, the board's prints
            if c is not None:
                self._send(c, line)

    def _reply(self, obj):
        hid = obj["id"]
        entry = self.waiting.pop(hid, None) if _count(hid) else None
        if entry is None and hid is None:
            # A line the board could not read: the oldest request's (a records stream's reply has its id).
            hid = next((h for h in self.waiting if h != self.stream), None)
            entry = self.waiting.pop(hid) if hid is not None else None
        if entry is None:
            return  # a reply to a crib that went
        c, rid, op = entry
        ok = obj.get("ok") is True
        if op == "subscribe" and c is not None:
            if ok:
                self.board_sub = True
                self.pos = obj.get("from") if _count(obj.get("from")) else self.pos
                c.expected = c.asked if c.asked is not None else obj.get("next")
                obj["from"] = c.expected
            else:
                c.sub = False
        elif op == "unsubscribe" and ok and not any(x.sub for x in self.clients):
            self.board_sub = False
        elif op == "records" and hid == self.stream:
            self.stream = None
            while self.queued and self.stream is None:
                qid, req = self.queued.pop(0)
                self.stream = qid
                self._write_board(_dump(req) + b"\n")
                self._tell_queued(qid)
        if c is not None:
            obj["id"] = rid
            self._send(c, _dump(obj))

    def _tell_queued(self, started=None):
        """Tell each crib waiting for a records stream how many are before its own (0: the crib whose
        stream `started`): the board is there and busy, so none of them gives up on it."""
        self.told_queued = time.monotonic()
        order = [hid for hid, _req in self.queued]
        if started is not None:
            order.insert(0, started)
        for n, hid in enumerate(order, 0 if started is not None else 1):
            c, rid, _op = self.waiting[hid]
            self._send(c, _dump({"id": rid, "queued": n}))

    def _push(self, obj, line):
        kind = obj.get("push")
        if kind == "event":
            seq = obj.get("seq")
            if not _count(seq):
                return
            self.pos = seq + 1
            for c in self.clients:
                if c.sub and c.expected is not None and seq >= c.expected:
                    c.expected = seq + 1
                    self._send(c, line)
        elif kind == "state":
            for c in self.clients:
                if c.sub and c.sub_state:
                    self._send(c, line)
        else:  # a proposal's verdict, and whatever a newer board pushes: every crib hears it
            for c in self.clients:
                self._send(c, line)


def _count(v):
    return type(v) is int and v >= 0


def _dump(obj):
    return json.dumps(obj, separators=(",", ":")).encode("ascii")


def main(argv):
    """The hub: `python -m crib.link.share TARGET TIMEOUT`. Says `ready` (listening), `taken` (another
    hub holds the board) or `error MESSAGE` on its output, then serves until it is not needed."""
    target, timeout = argv[0], float(argv[1])

    def log(text):
        sys.stderr.write(
            "%s hub %d %s: %s\n" % (time.strftime("%Y-%m-%d %H:%M:%S"), os.getpid(), target, text)
        )
        sys.stderr.flush()

    try:
        sock_path, lock_path, _log = paths(target)
        lock = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except (ports.PortError, OSError) as e:
        print("error %s" % e, flush=True)
        return 0
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print("taken", flush=True)
        return 0
    try:
        board = ports.open_port(target, timeout)
    except ports.PortError as e:
        print("error %s" % e, flush=True)
        return 0
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        try:
            os.unlink(sock_path)  # a dead hub's: this one holds the lock, so no hub lives there
        except FileNotFoundError:
            pass
        old = os.umask(0o177)
        try:
            listener.bind(sock_path)  # 0600 from its first moment
        finally:
            os.umask(old)
        listener.listen(16)
        print("ready", flush=True)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # the crib that started it reads no more
        log("serving")
        try:
            Hub(board, listener, log).run()
            log("the last crib went")
        except BoardGone as e:
            log("the board went: %s" % e)
    except OSError as e:
        if e.errno not in (errno.EPIPE,):
            print("error cannot share %s: %s" % (target, e), flush=True)
    finally:
        try:
            os.unlink(sock_path)
        except OSError:
            pass
        listener.close()
        board.close()
        os.close(lock)  # only now may a new hub open the board
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
