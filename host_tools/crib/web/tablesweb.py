"""`crib serve`'s tables: the JSON API a seat plays through, and the table's page for a phone or browser."""

import asyncio
import json
import time

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from crib.tables import service
from crib.tables.service import TableError

BODY_MAX = 4096  # the largest move is a few dozen bytes
WAIT_S = 20.0  # a seat's long poll answers at the latest after this, changed or not
LOOK_S = 0.5  # how often a waiting poll looks at the database for another server's moves
NEW_BURST, NEW_PER_S = 30, 0.5  # tables made by one server: a burst, then this many a second


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


class Bell:
    """Rings a table's waiters when this server stored a move there (another server's are looked for)."""

    def __init__(self):
        self.events = {}

    def ring(self, code):
        e = self.events.pop(code, None)
        if e is not None:
            e.set()

    async def wait(self, code, timeout):
        e = self.events.setdefault(code, asyncio.Event())
        try:
            await asyncio.wait_for(e.wait(), timeout)
        except asyncio.TimeoutError:
            pass


def routes(tables, templates):
    """The tables' routes on `tables` (a crib.tables.service.Tables)."""
    bell = Bell()
    made = service.Bucket(NEW_BURST, NEW_PER_S, time.monotonic)

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
        await _body(request)
        if not made.take():
            raise Refusal(429, "too many new tables: wait a moment")
        code = await run_in_threadpool(tables.new)
        return _ok({"code": code, "page": "/table/%s" % code})

    @handled
    async def public(request):
        return _ok(await run_in_threadpool(tables.public, _code(request)))

    @handled
    async def join(request):
        code, body = _code(request), await _body(request)
        seat, token = await run_in_threadpool(tables.join, code, body.get("name"), body.get("seat"))
        bell.ring(code)
        return _ok({"seat": seat, "token": token})

    @handled
    async def fill(request):
        code, body = _code(request), await _body(request)
        seat = await run_in_threadpool(tables.fill, code, body.get("level"), body.get("seat"))
        bell.ring(code)
        return _ok({"seat": seat})

    @handled
    async def seat(request):
        """The seat's view; with ?after=N, held until the table has moved past move N (a long poll)."""
        code, token = _code(request), _token(request)
        after = request.query_params.get("after")
        view = await run_in_threadpool(tables.view, code, token)
        if after is not None and after.lstrip("-").isdigit():
            deadline = time.monotonic() + WAIT_S
            seen = (view["n"], view["seats"])
            while seen == (int(after), view["seats"]) and time.monotonic() < deadline:
                await bell.wait(code, LOOK_S)
                view = await run_in_threadpool(tables.view, code, token)
                if (view["n"], view["seats"]) != seen:
                    break
        return _ok(view)

    @handled
    async def move(request):
        code, token, body = _code(request), _token(request), await _body(request)
        got = await run_in_threadpool(tables.move, code, token, body.get("seq"), body.get("move"))
        bell.ring(code)
        return _ok(got)

    async def page(request):
        try:
            code = _code(request)
        except Refusal as e:
            return Response(str(e), status_code=404, media_type="text/plain")
        return templates.TemplateResponse(request, "table.html", {"code": code})

    return [
        Route("/api/tables", new, methods=["POST"]),
        Route("/api/tables/{code}", public),
        Route("/api/tables/{code}/join", join, methods=["POST"]),
        Route("/api/tables/{code}/fill", fill, methods=["POST"]),
        Route("/api/tables/{code}/seat", seat),
        Route("/api/tables/{code}/moves", move, methods=["POST"]),
        Route("/table/{code}", page),
    ]
