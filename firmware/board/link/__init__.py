# The USB link (docs/protocol.md): Link, the protocol (a request line in, reply lines out; pure, no I/O),
# and pump() beside it, which moves the lines between the HAL's port and Link each save pass; pages.py
# reads the journal for it.
import json

from board import jsonscan
from board.link.pages import _Cursor, _item, records
from cribbage import const
from hal.lines import MAX_LINE  # bytes of one request line, without its newline: the line reader's limit

PROTOCOL = 1
MAX_ID = 32  # characters of a string request id
PAGE_DEFAULT = 32  # events a page when the host does not say
PAGE_MAX = 64  # events a page at most, if they fit in PAGE_BYTES
LINES = 8  # request lines answered a pass, at most: a sync moves on, the pass stays short
_CHUNKS = const(16)  # chunks of a records stream written a pass, at most (each PAGE_BYTES + a record)
PUSH_BATCH = 8  # events pushed per pushes() call, so a backlog never stalls the board
NOTE_MAX = 40  # characters of a proposal's note (one display row or two)

_SEP = (",", ":")
_EVENT_PUSH = b'{"push":"event",'  # how appended() starts an event push (the outbox's others: verdicts)
_SPLICE = "@events@"  # placeholder replaced by the spliced event lines in an events reply
# The protocol's ops, declared once: each is answered by Link._op_<op> (docs/protocol.md, a section
# an op). tests/link/test_link_declared.py fails when Link's methods and this tuple part; handle()
# looks an op up only once it is here (a name a host sends is never interned).
_OPS = (
    "hello",
    "state",
    "events",
    "subscribe",
    "unsubscribe",
    "settings",
    "propose",
    "pending",
    "cancel",
    "ack",
    "aside",
    "records",
    "table",
)


class LinkError(Exception):
    """A request the link refuses: (code, message). Raised before anything is changed."""


def _is_int(x):
    # bool is not an int here: on CPython it subclasses int, on MicroPython it does not.
    return isinstance(x, int) and not isinstance(x, bool)


def _is_plain(x, depth=0):
    """JSON-safe scalars, lists and dicts of them, finite numbers only (inf would not dump as JSON)."""
    if x is None or isinstance(x, (bool, str)) or _is_int(x):
        return True
    if isinstance(x, float):
        return x == x and x not in (float("inf"), float("-inf"))
    if depth > 4:
        return False
    if isinstance(x, list):
        return all(_is_plain(v, depth + 1) for v in x)
    if isinstance(x, dict):
        return all(isinstance(k, str) and _is_plain(x[k], depth + 1) for k in x)
    return False


def _line_error(line):
    """Why a raw request line cannot be read (code, message), or None. Requests are ASCII JSON,
    checked byte by byte (the HAL hands the line on as bytes, never decoded)."""
    if len(line) > MAX_LINE:
        return ("too-long", "line over %d bytes" % MAX_LINE)
    for o in line:
        if isinstance(o, str):
            o = ord(o)
        if o > 126:
            return ("encoding", "not ASCII: use JSON \\u escapes")
        if o < 32 and o != 9:
            return ("control", "control character 0x%02x in line" % o)
    return None


def _blank(line):
    for o in line:
        if isinstance(o, str):
            o = ord(o)
        if o not in (32, 9, 13):
            return False
    return True


def dump(obj):
    """One compact reply/push line, newline included, as bytes for the serial stream."""
    return (json.dumps(obj, separators=_SEP) + "\n").encode()


def _field(req, name, kind, default=None, required=False):
    if name not in req:
        if required:
            raise LinkError("args", "missing '%s'" % name)
        return default
    v = req[name]
    if kind == "int":
        ok = _is_int(v)
    elif kind == "bool":
        ok = isinstance(v, bool)
    elif kind == "str":
        ok = isinstance(v, str)
    elif kind == "dict":
        ok = isinstance(v, dict)
    else:
        ok = True
    if not ok:
        raise LinkError("type", "'%s' must be %s" % (name, kind))
    return v


# The `state` reply's fields, declared once: each the Match's attribute of that name, or what the
# method of that name answers (phase, next_show); state_of adds `play` while the play runs and
# `last_items` after a show. Read without a default: a field the Match lacks is an error reply, never
# a null (tests/link/test_link_declared.py checks each against a real Match; docs/protocol.md lists them).
_STATE = (
    "form",
    "fmt",
    "players",
    "sides",
    "names",
    "target",
    "games",
    "to",
    "muggins",
    "dealer",
    "dealer_side",
    "deal_no",
    "game_no",
    "starter",
    "game_over",
    "winner",
    "match_over",
    "match_winner",
    "front",
    "back",
    "skunk",
    "match_points",
    "wins",
    "last_show",
    "muggins_due",
    "phase",
    "next_show",
)


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def state_of(match):
    """The derived state of the match as plain JSON data (the `state` reply and push)."""
    if match is None:
        return None
    s = {}
    for name in _STATE:
        v = getattr(match, name)
        s[name] = _plain(v() if callable(v) else v)
    play = match.play
    if play is not None:
        s["play"] = {
            "count": play.count,
            "current": _plain(play.current),
            "turn": play.turn,
            "over": play.over,
        }
    if "solo" in match.setup and match.setup["solo"][0] == "table":
        from cribbage import table  # (loaded with the table's match)

        s["table"] = table.state(match)
    if s["last_show"] is not None:
        try:
            s["last_items"] = _plain(match.show_items())
        except Exception:  # the itemiser is a display nicety: its failure must not lose the state
            s["last_items"] = None
    return s


class Link:
    """The board's side of the protocol.

    The board app owns the objects and keeps `link.match` current (a new match is a new object);
    `journal` reads events back by sequence number; `settings` is read and written through
    `settings` (board.settings.Settings) is read and changed all-or-nothing through its own checks.
    Nothing here changes the game: a laptop's change becomes `pending` until a key press on the board.
    """

    def __init__(
        self,
        journal,
        match=None,
        board_id="",
        firmware="",
        form="",
        settings=None,
        clock=None,
        controller=None,
    ):
        self.journal = journal
        self.controller = (
            controller  # the app's Controller: the `table` op applies the table's moves through it
        )
        self.clock = clock  # Commit.clock: a hello's time goes there (None: the board keeps no time)
        self.match = match
        # (the raw id hexed here, not by a helper: one interned name less, [name budget] docs/memory.md)
        self.board_id = board_id if isinstance(board_id, str) else bytes(board_id).hex()
        self.firmware = firmware
        self.form = form  # the game form when no match is running (the settings' next form)
        self.settings = settings  # board.settings.Settings: .values, .set(name, value, now)
        self.subscribed = False
        self._push_from = 0  # next journal seq to push to a subscriber
        self._push_state = False
        self._state_due = False
        self.pending = None  # {"pid", "event", "note"} while the board waits for OK or UNDO
        self._pid = 0
        self._outbox = []  # push lines waiting for pushes()
        self._now = 0
        self._cursor = _Cursor()  # for `events` pages
        self.stream = None  # the records request being answered (a records() generator), or None
        self._push_cursor = _Cursor()  # for a subscriber's backlog

    # -- requests -----------------------------------------------------------------------------

    def handle(self, line, now_ms=0):
        """Reply lines (bytes, each ending in a newline) for one request line (bytes or str, no newline).

        Never raises; a bad line gets one error reply and changes nothing. A blank line gets no reply
        (hosts send one to flush a half line left by an earlier connection).
        """
        rid = None
        self._now = now_ms
        try:
            if len(line) <= MAX_LINE and _blank(line):
                return []
            bad = _line_error(line)  # on the bytes: a decoded C0 AF would pass as "/"
            if bad:
                raise LinkError(bad[0], bad[1])
            if isinstance(line, str):
                line = line.encode()  # ASCII by now
            bad = jsonscan.error(line)  # MicroPython's json.loads would take 01, [1,], {"a" 1}...
            if bad:
                raise LinkError("json", "not strict JSON: " + bad)
            try:
                req = json.loads(line)
            except Exception:
                raise LinkError("json", "not a JSON object")
            rid = req.get("id")
            if not (_is_int(rid) or (isinstance(rid, str) and len(rid) <= MAX_ID)):
                rid = None
                raise LinkError("id", "'id' must be an int or a string of up to %d characters" % MAX_ID)
            op = req.get("op")
            if not isinstance(op, str):
                raise LinkError("op", "'op' must be a string")
            if op not in _OPS:
                raise LinkError("op", "unknown op '%s'" % op[:20])
            reply = getattr(self, "_op_" + op)(req)
            if reply is None:
                return []  # a records stream: its reply comes after the records (more())
            splice = None
            if isinstance(reply, tuple):
                reply, splice = reply
            reply["id"] = rid
            reply["ok"] = True
            if splice is None:
                return [dump(reply)]
            text = json.dumps(reply, separators=_SEP).replace('"' + _SPLICE + '"', splice, 1)
            return [(text + "\n").encode()]
        except LinkError as e:
            return [dump({"id": rid, "ok": False, "code": e.args[0], "error": e.args[1]})]
        except Exception as e:  # a bug must not stop the board: say so and carry on
            return [dump({"id": rid, "ok": False, "code": "internal", "error": "internal: %s" % e})]

    def _op_hello(self, req):
        # The board has no clock: a laptop's hello may say the time (Unix seconds); Commit keeps it
        # with this pass's ticks, and stamps the matches and games it starts from it.
        now = req.get("now")
        if _is_int(now) and now > 0 and self.clock is not None:
            self.clock[0] = now
            self.clock[1] = self._now
        form = getattr(self.match, "form", None) or self.form
        return {
            "protocol": PROTOCOL,
            "firmware": self.firmware,
            "board": self.board_id,
            "form": form,
            "max_line": MAX_LINE,
            "page_max": PAGE_MAX,
            "first": self.journal.first_seq,
            "next": self.journal.next_seq,
            "acked": getattr(self.journal, "acked", 0),
        }

    def _op_ack(self, req):
        # The laptop has committed every event up to seq: the journal may drop them (new match).
        seq = _field(req, "seq", "int", -1, True)
        end = self.journal.next_seq
        if seq < 0 or seq >= end:
            raise LinkError("range", "'seq' must be 0..%d" % (end - 1))
        return {"acked": self.journal.ack(seq)}

    def _op_aside(self, req):
        # What the journal set aside at boot (records, whole damaged files), byte for byte, in pages.
        # Files by their names alone (the board's folder is its own business); pages of 384 bytes.
        files = self.journal.aside()
        name = _field(req, "name", "str", None)
        if name is None:
            return {"aside": [{"name": path[path.rfind("/") + 1 :], "size": size} for path, size in files]}
        at = _field(req, "from", "int", 0)
        if at < 0:
            raise LinkError("range", "'from' must be >= 0")
        for path, size in files:
            if path[path.rfind("/") + 1 :] == name:
                data = self.journal.aside(path, at, 384)
                end = at + len(data)
                return {
                    "name": name,
                    "from": at,
                    "data": data.hex(),
                    "next": end,
                    "size": size,
                    "more": end < size,
                }
        raise LinkError("range", "no set-aside file '%s'" % name[:40])

    def _op_state(self, req):
        return {"state": state_of(self.match), "next": self.journal.next_seq, "pending": self.pending}

    def _op_events(self, req):
        start = _field(req, "from", "int", 0)
        limit = _field(req, "limit", "int", PAGE_DEFAULT)
        if start < 0:
            raise LinkError("range", "'from' must be >= 0")
        if limit < 1 or limit > PAGE_MAX:
            raise LinkError("range", "'limit' must be 1..%d" % PAGE_MAX)
        first = self.journal.first_seq
        end = self.journal.next_seq
        items = self._cursor.read(self.journal, max(start, first), limit)
        nxt = items[-1][0] + 1 if items else max(start, first)
        more = bool(items) and nxt < end
        reply = {"events": _SPLICE, "next": nxt, "end": end, "first": first, "more": more}
        return reply, "[" + ",".join([_item(seq, line) for seq, line in items]) + "]"

    def _op_records(self, req):
        # The journal's record lines as stored, streamed chunk by chunk (more()), then the reply: no
        # event decoded or encoded here, the laptop checks each line's CRC and parses it.
        start = _field(req, "from", "int", 0)
        to = _field(req, "to", "int", 0)
        if start < 0 or to < 0:
            raise LinkError("range", "'from' and 'to' must be >= 0")
        self._end_stream(True)  # one stream at a time: a new request ends the last, its reply first
        g = records(self.journal, req["id"], max(start, self.journal.first_seq), to)
        next(g)  # opened, at its first yield: a new request can end it from now on
        self.stream = g
        return None

    def _end_stream(self, reply):
        # The stream's generator told to stop (its reply, more: true, to the outbox) or just closed.
        g = self.stream
        if g is not None:
            self.stream = None
            if reply:
                try:
                    self._outbox.append(g.send(True))
                except StopIteration:
                    pass  # its reply had gone
            g.close()

    def more(self):
        """The next bytes of a records stream (whole record lines, a view of the stream's buffer: the
        caller hands them on before it calls again), its reply once the records are sent; None when
        no stream runs. A host is never waited for: the caller asks only when the last went out."""
        g = self.stream
        if g is None:
            return None
        try:
            return next(g)
        except StopIteration:
            self.stream = None
            return None

    def _op_subscribe(self, req):
        start = _field(req, "from", "int", None)
        want_state = _field(req, "state", "bool", False)
        end = self.journal.next_seq
        if start is None:
            start = end
        if start < 0:
            raise LinkError("range", "'from' must be >= 0")
        self.subscribed = True
        self._push_from = start
        self._push_state = want_state
        self._state_due = False
        return {"from": start, "next": end}

    def _op_unsubscribe(self, req):
        self.subscribed = False
        return {}

    def _op_settings(self, req):
        new = _field(req, "set", "dict", None)
        st = self.settings
        if new is not None:
            if st is None:
                raise LinkError("refused", "this board has no settings")
            if not new or not _is_plain(new):
                raise LinkError("type", "'set' must be a non-empty object of JSON values")
            old = dict(st.values)
            done = []
            try:
                for name in new:
                    st.set(name, new[name], self._now)  # refuses a bad value before changing it
                    done.append(name)
            except ValueError as e:
                for name in done:  # all or nothing: put back what this request already changed
                    st.set(name, old[name], self._now)
                raise LinkError("refused", str(e))
        return {"settings": dict(st.values) if st is not None else {}}

    def _op_propose(self, req):
        ev = _field(req, "event", "dict", required=True) or {}
        note = _field(req, "note", "str", "")
        if not isinstance(ev.get("t"), str) or not _is_plain(ev):
            raise LinkError("type", "'event' must be an event object with a string 't'")
        if len(note) > NOTE_MAX:
            raise LinkError("range", "'note' over %d characters" % NOTE_MAX)
        if self.pending is not None:
            pid = self.pending["pid"]
            raise LinkError("busy", "request %d is waiting for a key press on the board" % pid)
        m = self.match
        if m is None:
            raise LinkError("refused", "no match is running")
        try:
            ev = m.check(ev)  # the core's verdict now, so the board only shows changes it can make
        except ValueError as e:
            raise LinkError("refused", str(e))
        self._pid += 1
        self.pending = {"pid": self._pid, "event": ev, "note": note}
        return {"pending": self._pid}

    def _op_table(self, req):
        from board.link import table  # loaded with the first table request (docs/remote.md)

        return table.op(self, req)

    def _op_pending(self, req):
        return {"pending": self.pending}

    def _op_cancel(self, req):
        pid = _field(req, "pending", "int", required=True)
        if self.pending is None or self.pending["pid"] != pid:
            raise LinkError("range", "no pending request %d" % pid)
        self.pending = None
        return {"cancelled": pid}

    # -- the board app's side -------------------------------------------------------------------

    def resolve(self, applied, error=None, pid=None):
        """The board app's verdict on `pending`: applied after OK, or refused (UNDO / the core said no).

        The laptop hears it as {"push":"pending",...}; an applied event also arrives as a normal
        event push because the app journals it like any other. `pid`: the proposal the player
        answered; a verdict on one the laptop has since cancelled (and maybe replaced) is dropped,
        never passed on to the one waiting now.
        """
        p = self.pending
        if p is None or (pid is not None and p["pid"] != pid):
            return
        self.pending = None
        msg = {"push": "pending", "pid": p["pid"], "status": "applied" if applied else "refused"}
        if error:
            msg["error"] = str(error)
        self._outbox.append(dump(msg))

    def appended(self, seq, line):
        """The app journalled `line` as `seq`: a subscriber gets it without the journal being re-read."""
        if self.subscribed and seq == self._push_from:
            self._outbox.append(('{"push":"event",' + _item(seq, line)[1:] + "\n").encode())
            self._push_from = seq + 1
            self._state_due = True

    def pushes(self):
        """Lines to send now without a request: pending verdicts, then new events for a subscriber."""
        out = self._outbox
        if not out and not self.subscribed:
            return out  # nothing to say: no new list every pass
        self._outbox = []
        if self.subscribed:
            end = self.journal.next_seq
            if self._push_from < end:
                items = self._push_cursor.read(self.journal, self._push_from, PUSH_BATCH)
                for seq, line in items:
                    out.append(('{"push":"event",' + _item(seq, line)[1:] + "\n").encode())
                    self._push_from = seq + 1
                    self._state_due = True
                if not items:
                    self._push_from = end  # records the journal cannot read back: do not ask forever
            if self._push_state and self._state_due and self._push_from >= end:
                out.append(dump({"push": "state", "next": end, "state": state_of(self.match)}))
                self._state_due = False
        return out

    def disconnect(self):
        """The host came or went (the HAL's link.session changed): its subscription ends, with the
        event pushes queued for it; a pending proposal stays on the board's display, and its verdict
        still goes to whichever host is there when a player answers it."""
        self.subscribed = False
        self._push_state = False
        self._state_due = False
        self._outbox = [out for out in self._outbox if not out.startswith(_EVENT_PUSH)]
        self._cursor.close()
        self._push_cursor.close()
        self._end_stream(False)  # its reply was for the host that went


def pump(port, link, controller, host, now):
    """One save pass of the link's traffic: request lines in (LINES at most), replies and pushes out, and
    the laptop's proposal offered to the controller, or withdrawn once the laptop cancelled it.

    port: the HAL's link (read_line() -> a line or None, write(bytes), session: changes when a laptop
    comes or goes); host: the session seen last pass; -> the session seen now."""
    for _ in range(LINES):
        line = port.read_line()
        session = getattr(port, "session", 0)
        if session != host:
            # A laptop came or went while reading: the last one's subscription ends before the new
            # one's first line is answered (a pending proposal stays: protocol.md).
            host = session
            link.disconnect()
        if line is None:
            break
        for out in link.handle(line, now):
            port.write(out)
    for out in link.pushes():
        port.write(out)
    for _ in range(_CHUNKS):
        if getattr(port, "size", 0):
            break  # the last chunk has not all gone: its buffer is still the port's to send
        data = link.more()
        if data is None:
            break
        port.write(data)
    p = link.pending
    if p is not None:
        controller.offer_link(p["event"], p.get("note"), now, link.resolve, p["pid"])  # once nothing waits
    else:
        controller.withdraw_link(now)  # the laptop cancelled it
    return host
