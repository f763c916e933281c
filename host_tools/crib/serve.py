# `crib serve`: the room's live scoreboard in a browser (each board's pegs, the night's standings); read-only.
import asyncio
import html
import json
import os

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, JSONResponse, StreamingResponse
from starlette.routing import Route

from crib import club, clubdb, db, replay

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scoreboard.html")


class Room:
    """What the page shows, read from the history database; a board is replayed again only when it changed."""

    def __init__(self, db_path):
        self.db_path = db_path
        self._boards = {}  # board -> (events held, its live state)

    def snapshot(self):
        con = db.connect(self.db_path, readonly=True)
        try:
            boards = [self._board(con, b) for b in db.boards(con)]
            night = self._night(con)
        finally:
            con.close()
        seated = {}
        if night:
            for t in night["tables"]:
                seated[t["board"]] = t
        for b in boards:
            b["table"] = seated.get(b["board"])
        return {"boards": boards, "night": night}

    def _board(self, con, board):
        held = db.count_events(con, board)
        cached = self._boards.get(board)
        if cached is None or cached[0] != held:
            _games, _orphans, m = replay.replay_board(board, list(db.events(con, board)))
            cached = (held, _state(board, m))
            self._boards[board] = cached
        return cached[1]

    def _night(self, con):
        n = clubdb.night(con)
        if n is None:
            return None
        try:
            _n, found, problems = clubdb.results(con, n["id"])
        except club.ClubError as e:
            return {"name": n["name"], "error": str(e), "standings": [], "tables": []}
        rows = club.standings(found, n["scoring"])
        played = {(r["round"], r["board"]) for r in found}
        rounds = clubdb.schedule(con, n["id"])
        # Each board's table now: the first round on it whose game is not finished yet.
        tables = []
        for board in {t[0] for tables in rounds for t in tables}:
            for k, tbl in enumerate(rounds, 1):
                match = [t for t in tbl if t[0] == board]
                if match and (k, board) not in played:
                    tables.append({"board": board, "round": k, "players": list(match[0][1:])})
                    break
        pots = club.side_pots(clubdb.pot_hands(con, n["id"]))
        return {
            "pots": [{k: p[k] for k in ("player", "points", "cards", "why", "round", "kind")} for p in pots],
            "name": n["name"],
            "id": n["id"],
            "games": n["games"],
            "standings": rows,
            "notes": problems,
            "tables": tables,
            "results": [dict(r, players=list(r["players"]), scores=list(r["scores"])) for r in found],
        }


def _state(board, m):
    if m is None:
        return {"board": board, "names": [], "front": [], "back": [], "target": 121}
    return {
        "board": board,
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


def _scorecards_page(room):
    snap = room.snapshot()
    night = snap["night"]
    if not night:
        return "<p>No club night yet: the director starts one with <code>crib club night</code>.</p>"
    scoring = {}
    con = db.connect(room.db_path, readonly=True)
    try:
        scoring = clubdb.night(con, night["id"])["scoring"]
    finally:
        con.close()
    results = [dict(r, players=tuple(r["players"])) for r in night["results"]]
    out = ["<h1>%s: scorecards</h1>" % html.escape(night["name"])]
    for row in night["standings"]:
        player = row["player"]
        out.append(
            '<section class="card"><h2>%s <small>place %d, %d points, spread %+d</small></h2>'
            % (html.escape(str(player)), row["place"], row["points"], row["spread"])
        )
        out.append(
            "<table><tr><th>game</th><th>board</th><th>opponent</th><th>W/L</th><th>score</th>"
            "<th>spread</th><th>points</th><th>total</th><th>total spread</th></tr>"
        )
        for c in club.scorecard(player, results, scoring):
            out.append(
                "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%d-%d%s</td><td>%+d</td><td>%d</td>"
                "<td>%d</td><td>%+d</td></tr>"
                % (
                    c["round"],
                    html.escape(str(c["board"])[-6:]),
                    html.escape(str(c["opponent"])),
                    c["result"],
                    c["score"],
                    c["against"],
                    " " + c["skunk"] if c["skunk"] else "",
                    c["spread"],
                    c["points"],
                    c["total"],
                    c["total_spread"],
                )
            )
        out.append("</table></section>")
    return "\n".join(out)


def build(db_path, poll=0.5):
    """The Starlette app: the page, a JSON snapshot, server-sent updates and the printable scorecards."""
    room = Room(db_path)

    async def page(_request):
        with open(PAGE, encoding="utf-8") as f:
            return HTMLResponse(f.read())

    async def snapshot(_request):
        return JSONResponse(await run_in_threadpool(room.snapshot))

    async def stream(request):
        async def updates():
            last = None
            while not await request.is_disconnected():
                text = json.dumps(await run_in_threadpool(room.snapshot))
                if text != last:
                    last = text
                    yield "data: %s\n\n" % text
                await asyncio.sleep(poll)

        return StreamingResponse(
            updates(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )

    async def scorecards(_request):
        body = await run_in_threadpool(_scorecards_page, room)
        return HTMLResponse(SCORECARD_HEAD + body + "</body></html>")

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/room", snapshot),
            Route("/api/stream", stream),
            Route("/scorecards", scorecards),
        ]
    )


SCORECARD_HEAD = """<!doctype html><html><head><meta charset="utf-8"><title>Scorecards</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: system-ui, sans-serif; margin: 1em; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1em; }
th, td { border: 1px solid #888; padding: 0.2em 0.5em; text-align: right; }
th:nth-child(3), td:nth-child(3) { text-align: left; }
h2 small { font-weight: normal; color: #555; }
@media print { .card { page-break-after: always; } body { margin: 0; } }
</style></head><body>
"""


def serve(db_path, host="127.0.0.1", port=8121, poll=0.5):
    """Run the scoreboard until Ctrl-C (uvicorn, one process: a room of boards is a small load)."""
    import uvicorn

    uvicorn.run(build(db_path, poll), host=host, port=port, log_level="warning")
