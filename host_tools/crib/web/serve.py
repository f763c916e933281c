# `crib serve`: the room's live scoreboard in a browser (each board's pegs, the night's standings); read-only.
import asyncio
import gc
import json
import logging
import os
import time

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from crib import club
from crib.history import replay
from crib.store import clubdb, db
from crib.web import httpgate

HERE = os.path.dirname(os.path.abspath(__file__))
# The pages (templates/): every value put in one is escaped, whatever a board or a director wrote.
TEMPLATES = Jinja2Templates(
    env=jinja2.Environment(
        loader=jinja2.PackageLoader("crib.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
)
# The page's own files: nothing else is served from the folder.
ASSETS = {
    "/scoreboard.js": "text/javascript",
    "/scoreboard.css": "text/css",
    "/scorecards.css": "text/css",
    "/table.js": "text/javascript",
    "/table.css": "text/css",
    "/contrast.js": "text/javascript",
    "/contrast.css": "text/css",
}
# The page runs only its own files: no inline script, no other site, never inside another site's frame.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}
SAID = 6  # the last pegs a board's card carries in words: a page says those newer than it has heard
KEEPALIVE_S = 15.0  # a stream with no news says so this often, so a page knows the server is there
log = logging.getLogger("crib.serve")


class Room:
    """What the page shows, read from the history database; a board is replayed again only when it changed."""

    def __init__(self, db_path):
        self.db_path = db_path
        self._boards = {}  # board -> (events held, its live state, its last pegs)

    def _open(self):
        return db.connect(self.db_path, readonly=True)

    def mark(self):
        """A cheap fingerprint of everything the snapshot reads: equal marks, equal snapshots."""
        con = self._open()
        try:
            return db.mark(con) + (clubdb.mark(con),)
        finally:
            con.close()

    def snapshot(self):
        """The whole room: every board's live state and the night (tables, standings, notes, pots)."""
        con = self._open()
        try:
            boards = [self._board(con, b) for b in db.boards(con)]
            night = self._night(con, boards)
        finally:
            con.close()
        return {"boards": boards, "night": night}

    def _board(self, con, board):
        held = db.count_events(con, board)
        cached = self._boards.get(board)
        if cached is None or cached[0] != held:
            events = list(db.events(con, board))
            played, _orphans, m = replay.replay_board(board, events)
            state = _state(board, m, played[-1].first_seq if played else None)
            pegs = _pegs(played)
            state["said"] = _said(pegs)
            cached = (held, state, pegs)
            self._boards[board] = cached
        return dict(cached[1], table=None)

    def _night(self, con, boards):
        n = clubdb.night(con)
        if n is None:
            return None
        rounds = clubdb.schedule(con, n["id"])
        try:
            _n, found, problems = clubdb.results(con, n["id"])
            rows = clubdb.standings_rows(n, rounds, found)
        except club.ClubError as e:
            return {"name": n["name"], "id": n["id"], "error": str(e), "standings": [], "notes": []}
        for b in boards:
            t = b["table"] = _table_of(b, rounds, found)
            seated = t["players"] if t else []
            if t and not seated and b.get("game_over"):
                # A game just finished whose result is not stored yet (a sync stores the events, then
                # the games: two commits): its scores are the next table's, as while it was played.
                seated = _next_table(b, rounds, found)[1]
            if seated:  # the game's scores said with the names of the night's players
                b["said"] = _said(self._boards[b["board"]][2], b["first_seq"], seated)
        pots = club.side_pots(clubdb.pot_hands(con, n["id"]))
        return {
            "pots": [{k: p[k] for k in ("player", "points", "cards", "why", "round", "kind")} for p in pots],
            "name": n["name"],
            "id": n["id"],
            "games": n["games"],
            "scoring": n["scoring"],
            "standings": rows,
            "notes": problems,
            "results": [dict(r, players=list(r["players"]), scores=list(r["scores"])) for r in found],
        }


def _table_of(b, rounds, found):
    """The night's table a board's card shows, or None: the table whose result is the game on the board,
    else (a game under way) the first table on the board with no result yet.

    `players` are in the board's seat order (a game the board names the other way round is turned)."""
    tab = next((k for tables in rounds for k, t in enumerate(tables, 1) if t[0] == b["board"]), None)
    if tab is None:
        return None
    for r in found:
        if r["board"] == b["board"] and r.get("first_seq") == b["first_seq"]:
            seats = list(r["players"][::-1] if r["turned"] else r["players"])
            scores = list(r["scores"][::-1] if r["turned"] else r["scores"])
            return {"tab": tab, "round": r["round"], "players": seats, "result": scores}
    if b.get("game_over"):
        return {"tab": tab, "round": None, "players": [], "result": None}  # not (yet) a result of the night
    k, seats = _next_table(b, rounds, found)
    return {"tab": tab, "round": k, "players": seats, "result": None}


def _next_table(b, rounds, found):
    """(round, players in the board's seat order) of the first table on the board with no result yet, or
    (None, [])."""
    played = {r["round"] for r in found if r["board"] == b["board"]}
    for k, tables in enumerate(rounds, 1):
        for board, p1, p2 in tables:
            if board == b["board"] and k not in played:
                return k, [p2, p1] if list(b["names"]) == [p2, p1] else [p1, p2]
    return None, []


def _pegs(games):
    """The board's last pegs in force (SAID at most, oldest first): (seq, the game's first seq, side, the
    board's name for the side, why, points, the show's items or ())."""
    pegs = []
    for g in reversed(games):
        for seq, _deal, side, why, points, _front, _cards, items in reversed(g.scores):
            name = g.names[side % len(g.names)] if g.names else "player %d" % (side + 1)
            try:
                shown = json.loads(items) if why in ("hand", "crib", "play") else ()
            except ValueError:
                shown = ()
            pegs.append((seq, g.first_seq, side, name, why, points, shown))
            if len(pegs) == SAID:
                return pegs[::-1]
    return pegs[::-1]


def _said(pegs, first_seq=None, seated=()):
    """The pegs in players' words with the player's name, each with its seq so the page says each one
    once (crib.speech's wording, a show itemised). A peg of the game `first_seq` takes the name of the
    night's player `seated` in its seat, the name the room knows them by; any other the board's name."""
    from crib.speech import scored_words
    from crib.untrusted import plain

    said = []
    for seq, game, side, name, why, points, shown in pegs:
        if game == first_seq and side < len(seated) and seated[side]:
            name = seated[side]
        said.append({"seq": seq, "text": scored_words(plain(name, 30), points, why, shown)})
    return said


def _state(board, m, first_seq=None):
    if m is None:
        return {"board": board, "names": [], "front": [], "back": [], "target": 121, "first_seq": None}
    return {
        "board": board,
        "first_seq": first_seq,  # the game on the board now, as the history's games know it
        "names": list(m.names),
        "front": list(m.front),
        "back": list(m.back),
        "target": m.target,
        "dealer": m.dealer_side if m.deal_no else None,
        "game": m.game_no,
        "deal": m.deal_no,
        "match_points": list(m.match_points),
        "game_over": bool(m.game_over),
        "winner": m.winner,
        "match_over": bool(m.match_over),
    }


class Hub:
    """One snapshot of the room for every client: the history is looked at once a poll at most (a cheap
    mark), and the snapshot made again only when the mark changed, however many pages ask."""

    def __init__(self, room, poll):
        self.room = room
        self.poll = poll
        self.version = 0
        self.body = b""  # the snapshot as JSON, sent as it is to every client
        self.event = b""  # the same as one server-sent event
        self.snap = None
        self.subscribers = 0
        self._mark = None
        self._checked = None
        self._lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._ticker = None

    async def current(self):
        """The snapshot, made again first if the history changed since the last look (a poll ago or more)."""
        if self._checked is None or time.monotonic() - self._checked >= self.poll:
            async with self._lock:
                if self._checked is None or time.monotonic() - self._checked >= self.poll:
                    changed = await run_in_threadpool(self._refresh)
                    self._checked = time.monotonic()
                    if changed:
                        self.version += 1
                        self._changed.set()
                        self._changed = asyncio.Event()
        return self

    def _refresh(self):
        try:
            mark = self.room.mark()
            if mark == self._mark and self.snap is not None:
                return False
            snap = self.room.snapshot()
        except Exception as e:  # the history went away or is locked: keep the last room, say why
            log.warning("cannot read the history: %s", e)
            mark = None
            snap = dict(self.snap or {"boards": [], "night": None}, error="cannot read the history: %s" % e)
            if snap == self.snap:
                return False
        text = json.dumps(snap)
        self.snap, self._mark = snap, mark
        self.body = text.encode()
        self.event = ("data: %s\n\n" % text).encode()
        return True

    async def updates(self):
        """The snapshot now, then each new one: one server-sent event each (a keep-alive comment between)."""
        self.subscribers += 1
        if self._ticker is None:
            self._ticker = asyncio.ensure_future(self._tick())
        try:
            await self.current()
            seen = self.version
            yield self.event
            while True:
                changed = self._changed
                try:
                    await asyncio.wait_for(changed.wait(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    yield b": still here\n\n"
                    continue
                if self.version != seen:
                    seen = self.version
                    yield self.event
        finally:
            self.subscribers -= 1

    async def _tick(self):
        """While a page follows the stream: look at the history once a poll (one look for all of them)."""
        try:
            while self.subscribers > 0:
                await self.current()
                await asyncio.sleep(self.poll)
        finally:
            self._ticker = None
        # A closed page leaves reference cycles (its cancelled task, the frames of its exception): with
        # the last one gone, collect them now, so the memory goes back while the room is quiet.
        gc.collect()


def _scorecards(snap):
    """What the scorecards page shows: the night, and a card a player in standings order with their games."""
    night = snap["night"]
    error = night and night.get("error")
    if not night or error:
        return {"night": night, "error": error, "cards": []}
    results = [dict(r, players=tuple(r["players"])) for r in night["results"]]
    cards = [
        dict(row, lines=club.scorecard(row["player"], results, night["scoring"]))
        for row in night["standings"]
    ]
    return {"night": night, "error": None, "cards": cards}


class Secured:
    """ASGI middleware: every response carries the page's security headers."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_secured(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for k, v in SECURITY_HEADERS.items():
                    headers[k] = v
            await send(message)

        await self.app(scope, receive, send_secured)


def build(db_path, poll=0.5, tables=None):
    """The app: the page and its files, a JSON snapshot, server-sent updates and the printable scorecards;
    with `tables` (the path of the tables' database, or a crib.tables.service.Tables), the remote tables."""
    room = Room(db_path)
    hub = None  # made on the server's own event loop, at the first request

    def the_hub():
        nonlocal hub
        if hub is None:
            hub = Hub(room, poll)
            app.state.hub = hub
        return hub

    def read(name):
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            return f.read()

    files = {path: (read(path[1:]).encode(), kind) for path, kind in ASSETS.items()}

    async def page(request):
        return TEMPLATES.TemplateResponse(request, "scoreboard.html")

    async def asset(request):
        body, kind = files[request.url.path]
        return Response(body, media_type=kind)

    async def snapshot(_request):
        h = await the_hub().current()
        return Response(h.body, media_type="application/json")

    async def stream(_request):
        return StreamingResponse(
            the_hub().updates(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )

    async def scorecards(request):
        h = await the_hub().current()
        return TEMPLATES.TemplateResponse(request, "scorecards.html", _scorecards(h.snap))

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/room", snapshot),
            Route("/api/stream", stream),
            Route("/scorecards", scorecards),
        ]
        + [Route(path, asset) for path in ASSETS]
        + _tables_routes(tables),
        middleware=[Middleware(Secured)],
    )
    app.state.room = room
    app.state.hub = None
    return app


def _tables_routes(tables):
    if tables is None:
        return []
    from crib.tables.service import Tables
    from crib.web import tablesweb

    if isinstance(tables, str):
        tables = Tables(tables)
    return tablesweb.routes(tables, TEMPLATES)


def config(db_path, host="127.0.0.1", port=8121, poll=0.5, gate=None, tables=None, tls=None):
    """The uvicorn set-up of the scoreboard: its connections kept to a gate, its log kept short."""
    import uvicorn

    gate = gate or httpgate.Gate()
    return uvicorn.Config(
        build(db_path, poll, tables),
        host=host,
        port=port,
        http=gate.protocol(),
        loop="asyncio",
        log_config=httpgate.log_config(),
        log_level="warning",
        timeout_keep_alive=5,
        backlog=httpgate.BACKLOG,
        ssl_certfile=tls[0] if tls else None,
        ssl_keyfile=tls[1] if tls else None,
    )


def serve(db_path, host="127.0.0.1", port=8121, poll=0.5, tables=None, tls=None):
    """Run the scoreboard until Ctrl-C (uvicorn, one process: one snapshot serves the whole room)."""
    import uvicorn

    uvicorn.Server(config(db_path, host, port, poll, tables=tables, tls=tls)).run()
