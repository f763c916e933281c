# Tables bench: remote tables played by scripted seats over real HTTP on 127.0.0.1, one or two servers.
"""Usage: python -m bench.bench_tables [--tables N] [--lays N] [--pg] [--tree DIR]

1. One table, two seats on one `crib serve --tables` process: the time from a lay's POST to the other
   seat's long poll answering with it (the other page drawing it), median and worst of --lays lays
   (default 200, over as many games as it takes).
   With --pg the two seats are on two servers: the other seat's poll is woken by PostgreSQL's NOTIFY.
2. --tables tables (default 200) played at once to the end, two scripted seats each, on one server;
   with --pg, on two servers sharing one throwaway PostgreSQL database, seat 0 on the first and seat 1
   on the second. Every move's answer time (median, worst), the wall time, and the check that nothing was
   lost or doubled: each table's stored moves are exactly the moves its seats were answered for, and both
   seats verify the revealed deal against every card they were shown.

Every loop is bounded in count and time; every socket is on 127.0.0.1.
"""

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
import urllib.parse

import tableseats
from tableserve import start, stop

from crib.tables import fairdeal, store

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEADLINE_S = 900
LAY_GOAL_S = 0.300


class Http:
    """One seat's keep-alive HTTP/1.1 connection, its requests one at a time as a page makes them. (An
    httpx pool spent four times the server's CPU under a few hundred seats: the bench measured its
    client.)"""

    def __init__(self, url, source=None):
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 80
        self.source = None if source is None else (source, 0)
        self.reader = self.writer = None

    async def request(self, method, path, headers=None, body=None):
        """(status, the JSON answer); ConnectionError when the server closed the connection."""
        data = b"" if body is None else json.dumps(body).encode()
        head = "%s %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Length: %d\r\n" % (
            method,
            path,
            self.host,
            self.port,
            len(data),
        )
        if body is not None:
            head += "Content-Type: application/json\r\n"
        for k, v in (headers or {}).items():
            head += "%s: %s\r\n" % (k, v)
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, local_addr=self.source
            )
        assert self.reader is not None
        self.writer.write(head.encode() + b"\r\n" + data)
        await self.writer.drain()
        line = await self.reader.readline()
        if not line:
            raise ConnectionError("closed")
        status, length, close = int(line.split()[1]), 0, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            key, _, value = line.decode("latin-1").partition(":")
            key = key.strip().lower()
            if key == "content-length":
                length = int(value)
            elif key == "connection" and "close" in value.lower():
                close = True
        raw = await self.reader.readexactly(length)
        if close:
            self.close()
        return status, json.loads(raw) if raw else None

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def player_address(k):
    """The k-th player's own loopback address (all of 127/8 is this machine's on Linux): the server limits
    what one address may do without a seat, and 400 players are 400 homes, not one."""
    return "127.%d.%d.%d" % (1 + k // 62500, k // 250 % 250, 1 + k % 250)


class Seat:
    def __init__(self, url, code, name, rng, source=None):
        self.http, self.code, self.name, self.rng = Http(url, source), code, name, rng
        self.share = fairdeal.new_share()
        self.auth = {}
        self.views, self.answers, self.sent, self.limited, self.resent = [], [], 0, 0, 0
        self.read_limited = 0

    async def sit(self):
        got = await self.ok("POST", "/api/tables/%s/join" % self.code, {"name": self.name})
        self.seat, self.auth = got["seat"], {"Authorization": "Bearer " + got["token"]}

    async def ok(self, method, path, body=None):
        status, got = await self.ask(method, path, body)
        if status != 200:
            raise SystemExit("%s %s: %d %s" % (method, path, status, got))
        return got

    async def view(self, after=None):
        q = "" if after is None else "?after=%d" % after
        for _ in range(400):
            status, v = await self.ask("GET", "/api/tables/%s/seat%s" % (self.code, q))
            if status != 429:
                break
            self.read_limited += 1  # the seat's read limit: wait, as a client is told to
            await asyncio.sleep(0.25)
        if status != 200:
            raise SystemExit("a view refused: %d %s" % (status, v))
        self.views.append(v)
        return v

    async def ask(self, method, path, body=None):
        """A request, sent again as it was when the connection drops (a move's seq makes that safe)."""
        for _ in range(20):
            try:
                return await asyncio.wait_for(self.http.request(method, path, self.auth, body), 60)
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
                self.http.close()
                self.resent += 1
                await asyncio.sleep(0.05)
        raise SystemExit("the server stopped answering")

    def choose(self, v):
        return tableseats.choose(v, self.share, self.rng)

    async def send(self, v, move):
        for _ in range(400):
            t0 = time.perf_counter()
            status, got = await self.ask(
                "POST", "/api/tables/%s/moves" % self.code, {"seq": v["seq"] + 1, "move": move}
            )
            if status != 429:
                break
            self.limited += 1  # the seat's flood limit: wait, as a client is told to
            await asyncio.sleep(0.25)
        self.answers.append(time.perf_counter() - t0)
        if status != 200:
            raise SystemExit("a move refused: %d %s" % (status, got))
        self.sent += 1
        self.views.append(got["view"])
        return got["view"], t0

    async def play(self, on_lay=None):
        v = await self.view()
        while v["phase"] != "over":
            if self.seat in v["awaited"]:
                move = self.choose(v)
                v, t0 = await self.send(v, move)
                if on_lay and move["t"] == "lay":
                    on_lay(self.seat, move["card"], t0)
            else:
                v = await self.view(v["n"])
        return v


async def new_table(url):
    status, got = await Http(url).request("POST", "/api/tables", body={})
    if status != 200:
        raise SystemExit("no new table: %d %s" % (status, got))
    return got["code"]


async def lay_latency(urls, lays):
    """A lay's POST on one seat to the other seat's long poll (waiting already) answering with it; the
    seats on the first and the last of `urls`."""
    seen = []
    games = 0
    while len(seen) < lays and games < 100:
        games += 1
        code = await new_table(urls[0])
        rng = random.Random(games)
        seats = [
            Seat(urls[0], code, "Ann", rng, player_address(2 * games)),
            Seat(urls[-1], code, "Bob", rng, player_address(2 * games + 1)),
        ]
        for s in seats:
            await s.sit()
        views = [await s.view() for s in seats]
        while views[0]["phase"] != "over":
            k = next(i for i in (0, 1) if seats[i].seat in views[i]["awaited"])
            me, other = seats[k], seats[1 - k]
            move = me.choose(views[k])
            poll = asyncio.ensure_future(other.view(views[1 - k]["n"]))
            await asyncio.sleep(0.002)  # the other seat's poll is waiting at the server
            views[k], t0 = await me.send(views[k], move)
            views[1 - k] = await poll
            if move["t"] == "lay":
                seen.append(time.perf_counter() - t0)
            while views[1 - k]["n"] < views[k]["n"]:
                views[1 - k] = await other.view(views[1 - k]["n"])
    return seen[:lays]


async def many(urls, n_tables, path):
    seats = []
    try:
        # made in the database itself: a server makes a few tables a second at most, for anyone
        from crib.tables.service import Tables

        maker = Tables(path)
        codes = [maker.new() for _ in range(n_tables)]
        maker.con.close()
        pairs = []
        for k, code in enumerate(codes):
            rng = random.Random(k)
            a = Seat(urls[0], code, "A%d" % k, rng, player_address(2 * k))
            b = Seat(urls[-1], code, "B%d" % k, rng, player_address(2 * k + 1))
            seats += [a, b]
            await a.sit()
            await b.sit()
            pairs.append((code, a, b))
        t0 = time.perf_counter()
        ends = await asyncio.wait_for(
            asyncio.gather(*(s.play() for _c, a, b in pairs for s in (a, b))), DEADLINE_S
        )
        wall = time.perf_counter() - t0
    finally:
        for s in seats:
            s.http.close()
    return pairs, ends, wall


def check(pairs, ends, tables_path):
    con = store.connect(tables_path)
    bad = 0
    for k, (code, a, b) in enumerate(pairs):
        stored = store.moves(con, code)
        end = ends[2 * k]
        ok = len(stored) == a.sent + b.sent == end["n"]
        ok = ok and sum(s == a.seat for _n, s, _q, _m in stored) == a.sent
        ok = ok and all(
            fairdeal.verify(end["proof"], s.seat, s.share, fairdeal.collect(s.views)) for s in (a, b)
        )
        bad += not ok
    con.close()
    return bad


def ms(xs):
    return "median %.1f ms, worst %.1f ms" % (1000 * statistics.median(xs), 1000 * max(xs))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--lays", type=int, default=200)
    ap.add_argument("--pg", action="store_true", help="two servers on one throwaway PostgreSQL database")
    ap.add_argument("--tree", default=_ROOT)
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="bench-tables-")
    history = os.path.join(tmp, "history.sqlite3")
    from crib.store import db

    db.connect(history).close()
    procs = []
    pg = None
    try:
        if args.pg:
            import pgserver

            pg = pgserver.Server()
            path = pg.database("bench_tables")
        else:
            path = os.path.join(tmp, "tables.sqlite3")
        for _ in range(2 if args.pg else 1):
            procs.append(start(history, path, args.tree))
        urls = [u for _p, u in procs]
        where = "two servers on one PostgreSQL, the seats split" if args.pg else "one server, SQLite"
        seen = asyncio.run(lay_latency(urls, args.lays))
        print(
            "a lay drawn on the other seat (its POST to the waiting poll's answer), %d lays, %s: %s"
            % (len(seen), where, ms(seen))
        )
        if max(seen) > LAY_GOAL_S:
            print("GOAL MISSED: a lay drawn later than %d ms" % (1000 * LAY_GOAL_S))
        pairs, ends, wall = asyncio.run(many(urls, args.tables, path))
        answers = [t for _c, a, b in pairs for s in (a, b) for t in s.answers]
        moves = sum(a.sent + b.sent for _c, a, b in pairs)
        bad = check(pairs, ends, path)
        print(
            "%d tables at once (%s): %d moves in %.1f s (%.0f moves/s); a move's answer %s"
            % (args.tables, where, moves, wall, moves / wall, ms(answers))
        )
        limited = sum(a.limited + b.limited for _c, a, b in pairs)
        resent = sum(a.resent + b.resent for _c, a, b in pairs)
        print("moves refused by the seats' flood limit, sent again after a wait: %d" % limited)
        read_limited = sum(a.read_limited + b.read_limited for _c, a, b in pairs)
        print("views refused by the seats' read limit, asked again after a wait: %d" % read_limited)
        print("requests sent again after a dropped connection: %d" % resent)
        print(
            "tables with a move lost or doubled, or a deal that does not verify: %d of %d"
            % (bad, args.tables)
        )
        if bad:
            print("GOAL MISSED: %d tables" % bad)
    finally:
        for p, _u in procs:
            stop(p)
        if pg is not None:
            pg.stop()


if __name__ == "__main__":
    main()
