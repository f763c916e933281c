"""`crib serve`'s tables: the JSON API a seat plays through, and the table's page for a phone or browser."""

import asyncio
import json
import time

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from crib.tables import service
from crib.tables.game import FORM_CHOICES
from crib.tables.service import TableError

BODY_MAX = 4096  # the largest move is a few dozen bytes
WAIT_S = 20.0  # a seat's long poll answers at the latest after this, changed or not
LOOK_S = 0.5  # on SQLite, how often a waiting poll looks at the file for another process's moves
NEW_BURST, NEW_PER_S = 30, 0.5  # tables made by one server: a burst, then this many a second
# What one client address may do without a seat's token (make a table, take or fill a seat): a burst,
# then one every 5 s, so one address flooding is refused while everyone else goes on.
DOOR_BURST, DOOR_PER_S = 12, 0.2
ADDRESSES_KEPT = 10_000  # buckets remembered: past it, addresses quiet long enough are forgotten first


class Refusal(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def _refused(status, message):
    return JSONResponse({"error": message}, status_code=status, headers={"Cache-Control": "no-store"})


def _ok(body):
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def _body(request):
    if int(request.headers.get("content-length") or 0) > BODY_MAX:
        raise Refusal(413, "a request body is %d bytes at most" % BODY_MAX)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > BODY_MAX:
            raise Refusal(413, "a request body is %d bytes at most" % BODY_MAX)
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        raise Refusal(400, "the body is not JSON") from None
    if not isinstance(body, dict):
        raise Refusal(400, "the body is a JSON object")
    return body


def _token(request):
    said = request.headers.get("authorization", "")
    if not said.startswith("Bearer "):
        raise Refusal(401, "a seat's request carries its token: Authorization: Bearer TOKEN")
    return said[len("Bearer ") :].strip()


def _code(request):
    code = request.path_params["code"]
    if len(code) != service.CODE_LEN or any(c not in service.CODE_ALPHABET for c in code):
        raise Refusal(404, "no table %r" % code[:40])
    return code


class PerAddress:
    """A token bucket per client address (as uvicorn gives it: behind a local reverse proxy, the
    address the proxy says in X-Forwarded-For)."""

    def __init__(self, burst, rate, refusal, clock=time.monotonic, kept=ADDRESSES_KEPT):
        self.burst, self.rate, self.clock, self.kept = burst, rate, clock, kept
        self.refusal = refusal  # what a refused request is told
        self.buckets = {}

    def take(self, request):
        address = request.client.host if request.client else "?"
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.kept:
                self._forget()
            bucket = self.buckets[address] = service.Bucket(self.burst, self.rate, self.clock)
        if not bucket.take():
            raise Refusal(429, self.refusal)

    def _forget(self):
        now = self.clock()
        for address, b in list(self.buckets.items()):
            if b.left + (now - b.at) * b.rate >= b.burst:  # full again: forgetting it changes nothing
                del self.buckets[address]
        while len(self.buckets) >= self.kept:  # all busy: the longest known goes first
            del self.buckets[next(iter(self.buckets))]


class Bell:
    """Rings a table's waiters when a move is stored there: by this server, or (heard through PostgreSQL's
    NOTIFY) by another. On SQLite no other server is heard: a waiter also looks every LOOK_S."""

    def __init__(self, tables):
        self.events = {}
        self.url, self.origin = tables.url, tables.origin
        self.look = None if self.url else LOOK_S
        self.listener = None

    def ring(self, code):
        """Ring `code`'s waiters; None rings every table's (a notification may have been missed)."""
        if code is None:
            events, self.events = list(self.events.values()), {}
        else:
            events = [self.events.pop(code)] if code in self.events else []
        for e in events:
            e.set()

    async def listen(self):
        """Hear other servers from now on (the first wait starts it, on the server's own loop)."""
        if self.url is not None:
            if self.listener is None:
                self.listener = asyncio.ensure_future(self._start())
            await self.listener

    async def _start(self):
        from crib.tables import fanout

        loop = asyncio.get_running_loop()
        listener = fanout.Listener(
            self.url, self.origin, lambda code: loop.call_soon_threadsafe(self.ring, code)
        )
        if not await run_in_threadpool(listener.start):
            self.look = LOOK_S  # no listener yet (the database is slow to answer): look meanwhile
        return listener

    def event(self, code):
        """The event the next move at `code` sets: taken before the table is read, so none is missed."""
        return self.events.setdefault(code, asyncio.Event())

    async def wait(self, event, timeout):
        if self.look is not None:
            timeout = min(timeout, self.look)
        try:
            await asyncio.wait_for(event.wait(), max(0.0, timeout))
        except asyncio.TimeoutError:
            pass


def routes(tables, templates):
    """The tables' routes on `tables` (a crib.tables.service.Tables)."""
    bell = Bell(tables)
    made = service.Bucket(NEW_BURST, NEW_PER_S, time.monotonic)
    door = PerAddress(DOOR_BURST, DOOR_PER_S, "too many tables and seats from one address: wait a moment")
    look = PerAddress(*tables.looks, "too many reads from one address: wait a moment")

    def handled(fn):
        async def endpoint(request):
            try:
                return await fn(request)
            except Refusal as e:
                return _refused(e.status, str(e))
            except TableError as e:
                return _refused(e.status, str(e))

        return endpoint

    @handled
    async def new(request):
        form = (await _body(request)).get("form", "six")  # six, three (three-handed) or four (2 v 2)
        if form not in FORM_CHOICES:
            raise Refusal(400, "no table form %r: one of %s" % (form, ", ".join(FORM_CHOICES)))
        door.take(request)
        if not made.take():
            raise Refusal(429, "too many new tables: wait a moment")
        code = await run_in_threadpool(tables.new, None, form)
        return _ok({"code": code, "page": "/table/%s" % code})

    @handled
    async def public(request):
        code = _code(request)
        look.take(request)
        return _ok(await run_in_threadpool(tables.public, code))

    @handled
    async def join(request):
        code, body = _code(request), await _body(request)
        door.take(request)
        seat, token = await run_in_threadpool(tables.join, code, body.get("name"), body.get("seat"))
        bell.ring(code)
        return _ok({"seat": seat, "token": token})

    @handled
    async def fill(request):
        code, body = _code(request), await _body(request)
        door.take(request)
        seat = await run_in_threadpool(tables.fill, code, body.get("level"), body.get("seat"))
        bell.ring(code)
        return _ok({"seat": seat})

    @handled
    async def seat(request):
        """The seat's view; with ?after=N, held until the table has moved past move N (a long poll)."""
        code, token = _code(request), _token(request)
        await run_in_threadpool(tables.read, code, token)  # the seat's read limit, once a request
        after = request.query_params.get("after")
        if after is None or not after.lstrip("-").isdigit():
            return _ok(await run_in_threadpool(tables.view, code, token))
        await bell.listen()
        deadline = time.monotonic() + WAIT_S
        seats = None
        while True:
            rung = bell.event(code)  # before the read: a move stored after it rings this event
            view = await run_in_threadpool(tables.view, code, token)
            seats = view["seats"] if seats is None else seats
            left = deadline - time.monotonic()
            if view["n"] != int(after) or view["seats"] != seats or left <= 0:
                return _ok(view)
            await bell.wait(rung, left)

    @handled
    async def move(request):
        code, token, body = _code(request), _token(request), await _body(request)
        got = await run_in_threadpool(tables.move, code, token, body.get("seq"), body.get("move"))
        bell.ring(code)
        return _ok(got)

    @handled
    async def record(request):
        code = _code(request)
        look.take(request)
        return _ok(await run_in_threadpool(tables.record, code))

    async def page(request):
        try:
            code = _code(request)
        except Refusal as e:
            return Response(str(e), status_code=404, media_type="text/plain")
        return templates.TemplateResponse(request, "table.html", {"code": code})

    async def new_page(request):  # the page's "new table": the game's form chosen, the table made
        return templates.TemplateResponse(request, "table.html", {"code": ""})

    return [
        Route("/api/tables", new, methods=["POST"]),
        Route("/api/tables/{code}", public),
        Route("/api/tables/{code}/join", join, methods=["POST"]),
        Route("/api/tables/{code}/fill", fill, methods=["POST"]),
        Route("/api/tables/{code}/seat", seat),
        Route("/api/tables/{code}/moves", move, methods=["POST"]),
        Route("/api/tables/{code}/record", record),
        Route("/table", new_page),
        Route("/table/{code}", page),
    ]
