"""The tables a server hosts: codes, seats and their tokens, moves applied once each, floods refused."""

import hashlib
import hmac
import secrets
import threading
import time

from crib.tables import fairdeal, store
from crib.tables.game import Refused, Table, check_form

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read aloud or typed on a phone
CODE_LEN = 10  # 31**10, about 2**49: not found by guessing at any rate the server takes
NAME_MAX = 24
BURST = 20  # moves a seat may send at once, refused ones included ...
PER_S = 4.0  # ... and then this many a second
# A seat's reads (its view, each long poll) at once, and then a second: a long poll answers once a move
# and a table moves at most 2 * PER_S a second, so a seat that plays never meets this; a client that
# floods its seat's view is refused without a table read.
READ_BURST = 60
READ_PER_S = 10.0
# What one address may read without a seat's token (a table's public view, a finished table's record:
# crib serve's routes limit it): a page looks at a table it is about to join, a guessed code costs.
LOOK_BURST = 60
LOOK_PER_S = 10.0
RETRIES = 8


class TableError(Exception):
    """A request the tables refuse: `status` is the HTTP status that says it."""

    status = 400


class NotFound(TableError):
    status = 404


class Forbidden(TableError):
    status = 403


class TooMany(TableError):
    status = 429


class Rejected(TableError):
    """A move the game does not take (a card not held, out of turn, a seq used for another move)."""

    status = 409


def token_hash(token):
    return hashlib.sha256(("seat|%s" % token).encode()).hexdigest()


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))


def clean_name(name):
    """A seat's name: printable text, 1..NAME_MAX characters after trimming (escaped where shown)."""
    if not isinstance(name, str):
        raise TableError("a name is text")
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise TableError("a name is 1 to %d printable characters" % NAME_MAX)
    return name


class Bucket:
    """A token bucket: `burst` at once, `rate` a second after."""

    def __init__(self, burst, rate, clock):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.left = float(burst)
        self.at = clock()

    def take(self):
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.at) * self.rate)
        self.at = now
        if self.left < 1:
            return False
        self.left -= 1
        return True


class _Cached:
    """One table as this process last read it: the fold, the moves applied and each seat's moves by seq."""

    def __init__(self, secret, form):
        self.table = Table(secret, form=form)
        self.n = 0
        self.by_seq = [{} for _ in range(self.table.seats)]  # seat -> {seq: move}
        self.seats = {}


class Tables:
    """Every table of one club database. Several processes may share the database: each move is stored
    under the table's next n, and a process that loses the race for it reads the table again."""

    def __init__(
        self,
        path,
        clock=time.monotonic,
        burst=BURST,
        rate=PER_S,
        bots=None,
        reads=(READ_BURST, READ_PER_S),
        looks=(LOOK_BURST, LOOK_PER_S),
    ):
        self.con = store.connect(path)
        self.url = path if store.shared(self.con) else None  # where a listener hears other servers' moves
        self.origin = self.con.origin = secrets.token_hex(6)  # this server's name in its notifications
        self.clock = clock
        self.burst, self.rate = burst, rate
        self.lock = threading.Lock()
        self.cache = {}
        self.buckets = {}  # (code, seat) -> the seat's moves' Bucket
        self.reads, self.read_buckets = reads, {}  # (code, seat) -> the seat's reads' Bucket
        self.looks = looks  # an address's reads without a seat's token (the routes keep its buckets)
        self.bots = bots  # level -> (seat view, table) -> move; None: crib.tables.bots

    # ---- tables and seats ---------------------------------------------------------------------------

    def new(self, secret=None, form="six"):
        """A new table of `form` (six, three or four); its code. (`secret`: the server's part of the
        seed, given only to replay a game.)"""
        try:
            check_form(form)
        except Refused as e:
            raise TableError(str(e)) from None
        with self.lock:
            for _ in range(RETRIES):
                code = new_code()
                try:
                    store.add_table(self.con, code, secret or fairdeal.new_secret(), form=form)
                    return code
                except store.Conflict:
                    continue
        raise TableError("no free table code: try again")

    def join(self, code, name, seat=None):
        """Take a free seat (or `seat`) at `code` as `name`: (seat, token). The token is the seat's own:
        only its sha256 is stored, so it is shown once, here."""
        name = clean_name(name)
        token = secrets.token_urlsafe(24)
        with self.lock:
            self._seat(code, name, token_hash(token), None, seat)
            got = self._load(code)
            seat = next(s for s, v in got.seats.items() if v["token"] == token_hash(token))
        return seat, token

    def fill(self, code, level, seat=None):
        """The board's opponent at `level` takes a free seat (or `seat`): its seat."""
        from crib.tables import bots

        bots.check_level(level)
        with self.lock:
            got = self._load(code)
            # A second opponent of the same level at a three-handed or 2 v 2 table is told apart by a number.
            name = bots.name(level, 1 + sum(1 for v in got.seats.values() if v["level"] == level))
            seat = self._seat(code, name, token_hash(secrets.token_hex(16)), level, seat)
            self._run_bots(code)
        return seat

    def _seat(self, code, name, hashed, level, seat):
        got = self._load(code)
        seats = got.table.seats
        free = [s for s in range(seats) if s not in got.seats]
        if seat is not None:
            if isinstance(seat, bool) or seat not in range(seats):
                raise TableError("seat %r is not a seat 0..%d" % (seat, seats - 1))
            if seat not in free:
                raise Forbidden("seat %d is taken" % seat)
            free = [seat]
        for s in free:
            try:
                store.add_seat(self.con, code, s, hashed, name, level)
                self._seats(got, code)
                return s
            except store.Conflict:
                continue
        raise Forbidden("the table is full")

    def seat_of(self, code, token):
        """The seat `token` holds at `code`, or Forbidden."""
        with self.lock:
            got = self._load(code)
            return self._seat_of(got, token)

    def _seat_of(self, got, token):
        if isinstance(token, str) and token:
            hashed = token_hash(token)
            for s, v in got.seats.items():
                if v["level"] is None and hmac.compare_digest(v["token"], hashed):
                    return s
        raise Forbidden("not a seat's token at this table")

    # ---- reading -----------------------------------------------------------------------------------

    def _load(self, code):
        """The table as stored now: the cached fold caught up with the moves stored since."""
        got = self.cache.get(code)
        if got is None:
            row = store.table(self.con, code)
            if row is None:
                raise NotFound("no table %r" % (code,))
            got = _Cached(row[0], row[2])
            self.cache[code] = got
        if len(got.seats) < got.table.seats:  # a seat taken through another server
            self._seats(got, code)
        for n, seat, seq, move in store.moves(self.con, code, got.n):
            got.table.apply(seat, move)  # stored moves were checked when they were made
            got.by_seq[seat][seq] = move
            got.n = n
        return got

    def _seats(self, got, code):
        got.seats = store.seats(self.con, code)
        got.table.names = [got.seats[s]["name"] if s in got.seats else "" for s in range(got.table.seats)]

    def view(self, code, token):
        """What the seat holding `token` may see now."""
        with self.lock:
            got = self._load(code)
            seat = self._seat_of(got, token)
            return self._view(got, seat)

    def read(self, code, token):
        """Count one read by the seat holding `token` (a request for its view or a long poll, however
        long it waits); TooMany past its limit. -> the seat."""
        with self.lock:
            seat = self._seat_of(self._load(code), token)
            bucket = self.read_buckets.get((code, seat))
            if bucket is None:
                bucket = self.read_buckets[(code, seat)] = Bucket(self.reads[0], self.reads[1], self.clock)
            if not bucket.take():
                raise TooMany("too many reads from seat %d: wait a moment" % seat)
            return seat

    def _view(self, got, seat):
        v = got.table.view(seat)
        v["seq"] = len(got.by_seq[seat])  # the seat's last move: its next is seq + 1
        v["n"] = got.n
        v["waiting_for"] = [got.table.names[s] or "seat %d" % s for s in got.table.awaited() if s != seat]
        v["seats"] = [
            {"name": got.seats[s]["name"], "level": got.seats[s]["level"]} if s in got.seats else None
            for s in range(got.table.seats)
        ]
        return v

    def public(self, code):
        """What anyone with the code sees: the seats, the scores, the phase and the commitments."""
        with self.lock:
            got = self._load(code)
            t = got.table
            return {
                "form": t.form,
                "seats": [got.seats[s]["name"] if s in got.seats else None for s in range(t.seats)],
                "phase": t.phase,
                "scores": list(t.scores),
                "dealer": t.dealer,
                "deal": t.deal_no,
                "winner": t.winner,
                "proof": t.proof(),
                "n": got.n,
            }

    def mark(self, code):
        """The table's count of moves stored (a cheap look for a stream: a new move, a new mark)."""
        with self.lock:
            return store.last_n(self.con, code), len(store.seats(self.con, code))

    # ---- moves -------------------------------------------------------------------------------------

    def move(self, code, token, seq, move):
        """Apply the seat's move number `seq` once: {"replayed": bool, "view"}. A seq already applied
        with the same move is answered again (a retry after a lost answer), with another move refused."""
        with self.lock:
            got = self._load(code)
            seat = self._seat_of(got, token)
            bucket = self.buckets.get((code, seat))
            if bucket is None:
                bucket = self.buckets[(code, seat)] = Bucket(self.burst, self.rate, self.clock)
            if not bucket.take():
                raise TooMany("too many moves from seat %d: wait a moment" % seat)
            replayed = self._move(code, got, seat, seq, move)
            if not replayed:
                self._run_bots(code)
            return {"replayed": replayed, "view": self._view(self._load(code), seat)}

    def _move(self, code, got, seat, seq, move):
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise Rejected("seq is the seat's move number, 1, 2, ...")
        for _ in range(RETRIES):
            done = got.by_seq[seat]
            if seq in done:
                if done[seq] == move:
                    return True
                raise Rejected("move %d of seat %d was another move: %s" % (seq, seat, _said(done[seq])))
            if seq != len(done) + 1:
                raise Rejected("seat %d's next move is number %d, not %d" % (seat, len(done) + 1, seq))
            if got.table.phase == "over":
                raise Rejected("the game is over")
            # The fold checks the whole move before it changes anything: a refused move leaves it as it
            # was. A move it took that is then not stored (another server stored this n first) leaves a
            # fold ahead of the database: it is dropped, and the table read again.
            try:
                got.table.apply(seat, move)
            except Refused as e:
                raise Rejected(str(e)) from None
            try:
                store.add_move(self.con, code, got.n + 1, seat, seq, move)
            except BaseException as e:
                self.cache.pop(code, None)
                got = self._load(code)
                if isinstance(e, store.Conflict):
                    continue
                raise
            got.n += 1
            got.by_seq[seat][seq] = move
            return False
        raise TableError("the table is busy: send the move again")

    def _run_bots(self, code):
        from crib.tables import bots

        for _ in range(200):
            got = self._load(code)
            t = got.table
            turn = [s for s in t.awaited() if s in got.seats and got.seats[s]["level"]]
            if not turn:
                return
            seat = turn[0]
            chosen = (self.bots or bots.choose)(got.seats[seat]["level"], t, seat)
            self._move(code, got, seat, len(got.by_seq[seat]) + 1, chosen)

    def record(self, code):
        """A finished table's whole record (its moves in order, the names, the scores and the proof),
        for a laptop's history: nothing in it is hidden once the game is over, and refused before."""
        with self.lock:
            got = self._load(code)
            t = got.table
            if t.phase != "over":
                raise Rejected("the game at %s is not over: its record is given when it ends" % code)
            return {
                "code": code,
                "form": t.form,
                "names": list(t.names),
                "moves": [[seat, move] for _n, seat, _q, move in store.moves(self.con, code)],
                "scores": list(t.scores),
                "winner": t.winner,
                "proof": t.proof(),
            }

    def proof(self, code):
        with self.lock:
            return self._load(code).table.proof()


def _said(move):
    kind = move.get("t")
    if kind == "lay":
        return "lay %s" % move.get("card")
    if kind == "discard":
        return "discard %s" % " ".join(str(c) for c in move.get("cards", []))
    return kind or "?"
