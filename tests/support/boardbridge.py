# A bridge (crib.tables.bridge.Bridge) stepped in-process: its HTTP on the server's seats, its link on a
# board app's fake USB port, and the board's player keying on the board's keys; no threads, no sockets.
"""Each side is real (crib.tables.service over SQLite, the whole board app of tests/support/scenario.py
with its link's bytes); only the wires are not. Seated(...).step() is one look of the bridge's loop: the
board's pushes taken, the seat's view read again, Bridge.step, then the player's keys when it is to key."""

from scenario import Scenario
from tableplay import BoardLink

from crib.link.client import Refused
from crib.tables import bridge
from crib.tables.service import TableError
from cribbage import solo
from cribbage.cards import format_card, pip

READ_MS = 1600  # a laptop's proposal is taken after 1.5 s
PAUSE = 1000  # the board's count


class Link(BoardLink):
    """The link client's calls the bridge makes (crib.link.client.LinkClient), on a Scenario's fake port:
    tableplay's BoardLink, its refusals raised and its pushes kept to be taken."""

    def __init__(self, s):
        super().__init__(s)
        self.pushes = []  # pushes heard and not yet taken
        self.hello = None

    def connected(self):
        """Say hello, as LinkClient.connect does: its answer (the board's id) kept in `hello`."""
        self.hello = self.request("hello")
        return self

    def heard(self):
        out = []
        for msg in super().heard():
            (self.pushes if "push" in msg else out).append(msg)
        return out

    def request(self, op, **args):
        msg = self.send(op, **args)
        if msg.get("ok") is False:
            raise Refused(msg.get("code"), msg.get("error") or msg.get("message"))
        return msg

    def state(self):
        return self.request("state")

    def subscribe(self, start=None, state=False):
        args = {"state": state}
        if start is not None:
            args["from"] = start
        return self.request("subscribe", **args)

    def next_push(self, timeout=0):
        self.heard()
        return self.pushes.pop(0) if self.pushes else None

    def close(self):
        pass


class Http:
    """The server's seat API as crib play's HTTP client answers it, on crib.tables.service in-process."""

    def __init__(self, tables, code):
        self.tables, self.code, self.token = tables, code, None

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except TableError as e:
            raise bridge.Refusal(e.status, str(e)) from None

    def table(self):
        return self._call(self.tables.public, self.code)

    def join(self, name):
        return self._call(self.tables.join, self.code, name)

    def view(self, after):
        return self._call(self.tables.view, self.code, self.token)

    def move(self, seq, move):
        return self._call(self.tables.move, self.code, self.token, seq, move)

    def record(self):
        return self._call(self.tables.record, self.code)


def _key(s, c):
    t = format_card(c)
    s.keys(t[0] + " " + t[1])


def player(s, pending=None):
    """The board's player's keys, when it is to key: OK to a laptop's proposal (`pending`, the state's)
    once read, the board's counts waited for, the throw (the first two of the six), a lay (the first
    that fits); -> True when it keyed or waited."""
    if pending is not None:
        s.wait(READ_MS)
        s.press("OK")
        return True
    m = s.app.match
    if "solo" not in m.setup or m.match_over or m.game_over:
        return False
    if solo.due(m):
        if s.app.controller.message:
            s.press("OK")
        else:
            s.wait(PAUSE)
        return True
    phase = m.phase()
    d = solo.dealt(m)
    if phase == "starter" and d is not None and not solo.thrown(m)[0]:
        six = list(d[0][0])
        _key(s, six[0])
        _key(s, six[1])
        s.press("OK")
        return True
    if phase == "play" and m.play_seats[m.play.turn] == 0:
        fits = [c for c in solo.held(m, 0) or () if m.play.count + pip(c) <= 31]
        if fits:
            _key(s, fits[0])
            return True
    return False


class Seated:
    """A board (its own Scenario and flash) at a table through its own Bridge, stepped by hand."""

    def __init__(self, tables, code, name, folder, share=None, uid=None, s=None):
        """`uid` the board's chip id (its seat file's key in `folder`); `s` a Scenario of a board already
        running (a restarted bridge's: a new link on it)."""
        if s is None:
            s = Scenario()
            if uid is not None:
                s.hal.uid = uid
            s.app.start_link()
            s.wait(100)
        self.s = s
        self.http = Http(tables, code)
        self.link = Link(self.s)
        self.link.at = len(self.s.hal.link.sent)  # (what an earlier link heard is not this one's)
        self.said = []

        def seat_for(board, holds):
            return bridge.open_seat(folder, "http://in-process", code, board, holds)

        self.b = bridge.Bridge(code, self.http, self.link.connected, seat_for, name, self.said.append)
        self.b.begin()
        if share is not None:  # the same deal every time: the shares too
            self.b.state.save(share=share)
        self.pending = None

    def step(self, check=None):
        """One look of the bridge's loop (check() after its step, if given), then the player's keys; -> True
        when anything moved."""
        b = self.b
        came = b._pushes(0)
        b._got(self.http.view(None))
        moved = b.step()
        if check is not None:
            check()
        self.pending = self.link.state().get("pending")
        keyed = player(self.s, self.pending)
        return bool(came or moved or keyed)

    def close(self):
        self.s.close()
