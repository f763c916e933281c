# Serve bench: `crib serve` holding a room of open pages, and a slow-header attack, on 127.0.0.1 only.
"""Usage: python -m bench.bench_serve [--tree DIR] [--pages N] [--slow N]

A club night of 8 boards (16 players, 3 games each, every game played) in a SQLite history; the
server is a `crib serve` process (the code of --tree, default this checkout, so the same bench runs
on an older tree for a before/after).

1. N page clients (default 500) hold the page's stream (/api/stream) open; meanwhile /api/room is
   asked a few times: its latency median and worst, and the server's RSS before, during (the most
   seen) and after the pages close; then the same pages open and close once more (RSS after).
2. The slow-socket attack: the server under a 256-file limit (its first room already made), N
   sockets (default 250) that send half a request and hold; normal /api/room requests meanwhile
   (each given 5 s at most), and what the server's log wrote.

Every loop is bounded in count and time; every socket is on 127.0.0.1.
"""

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from crib import club
from crib.history import replay
from crib.store import clubdb, db
from sim.matchgen import MatchPlayer

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HOST = "127.0.0.1"
BOARDS = 8
PLAYERS = ["P%02d" % i for i in range(1, 2 * BOARDS + 1)]
GOAL_ROOM_S = 0.2  # /api/room with the pages open
GOAL_ATTACK_S = 0.5  # a normal request during the slow-socket attack
FILE_LIMIT = 256


def make_room(path, seed=5):
    """A played club night: each board one 3-game match, the seats as the night's rotation has them."""
    con = db.connect(path)
    boards = ["%016x" % (0xB0A2D000 + i) for i in range(BOARDS)]
    clubdb.open_night(con, "Bench night", PLAYERS, boards, games=3, now=0)
    rounds = club.rotation(PLAYERS, 3)
    rng = random.Random(seed)
    for i, board in enumerate(boards):
        db.note_board(con, {"board": board, "firmware": "bench", "protocol": 1})
        a, b = rounds[0][i]
        p = MatchPlayer(rng, (a, b), games=3)
        p.play(max_games=3)
        db.add_events(con, board, [{"seq": k + 1, "event": e} for k, e in enumerate(p.events)])
        replay.rebuild(con, board)
    n = db.count_events(con)
    con.close()
    return n


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


SERVE = "crib.web.serve"  # the module whose serve() the bench runs, in the tree measured


def start_server(tree, path, port, log, file_limit=None):
    paths = [os.path.join(tree, "host_tools"), os.path.join(tree, "firmware")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))

    def limit():
        if file_limit:
            resource.setrlimit(resource.RLIMIT_NOFILE, (file_limit, file_limit))

    code = "import sys; from %s import serve; serve(sys.argv[1], port=int(sys.argv[2]))" % SERVE
    argv = [sys.executable, "-c", code, path, str(port)]
    proc = subprocess.Popen(argv, env=env, cwd=tree, stderr=log, stdout=log, preexec_fn=limit)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.flush()
            log.seek(0)
            tail = log.read()[-2000:].decode(errors="replace")  # the log is a temporary file: said here
            raise SystemExit("the server exited (%s); its log ends:\n%s" % (proc.returncode, tail))
        try:
            get(port, "/", timeout=2)
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not answer within 30 s")


def get(port, path, timeout):
    """One HTTP/1.1 GET on a new connection; -> (seconds, status, body bytes). Raises OSError on a timeout."""
    t0 = time.perf_counter()
    with socket.create_connection((HOST, port), timeout=timeout) as s:
        s.sendall(("GET %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n" % path).encode())
        chunks = []
        while True:
            part = s.recv(65536)
            if not part:
                break
            chunks.append(part)
    raw = b"".join(chunks)
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return time.perf_counter() - t0, status, body


def room_latency(port, n, timeout):
    """n sequential /api/room requests: their seconds (a timeout or refusal counts as the timeout)."""
    out, failed = [], 0
    for _ in range(n):
        try:
            secs, status, _ = get(port, "/api/room", timeout)
            if status != 200:
                failed += 1
            out.append(secs)
        except OSError:
            failed += 1
            out.append(timeout)
    return out, failed


async def _page(port, stop, got, opened):
    """One open page: its stream held until `stop`; counts the room updates it receives."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 30)
    except (OSError, asyncio.TimeoutError):
        return
    opened[0] += 1
    writer.write(b"GET /api/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
    seen = False
    try:
        while not stop.is_set():
            try:
                line = await asyncio.wait_for(reader.readline(), 0.5)
            except asyncio.TimeoutError:
                continue
            if not line:
                break
            if line.startswith(b"data: ") and not seen:
                seen = True
                got[0] += 1
    except OSError:
        pass
    finally:
        writer.close()


async def _hold_pages(port, pages, hold_s, server_pid, samples):
    stop = asyncio.Event()
    got, opened = [0], [0]
    tasks = [asyncio.create_task(_page(port, stop, got, opened)) for _ in range(pages)]
    peak = 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < hold_s:
        await asyncio.sleep(0.5)
        peak = max(peak, rss_kb(server_pid))
    lat, failed = await asyncio.to_thread(room_latency, port, samples, 60.0)
    peak = max(peak, rss_kb(server_pid))
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    return {"opened": opened[0], "got": got[0], "latency": lat, "failed": failed, "rss_during": peak}


def bench_pages(tree, path, pages, hold_s=10.0, samples=5):
    port = _free_port()
    with tempfile.NamedTemporaryFile("w+b", suffix=".log") as log:
        proc = start_server(tree, path, port, log)
        try:
            get(port, "/api/room", 30)
            time.sleep(1)
            idle, _ = room_latency(port, samples, 30.0)
            before = rss_kb(proc.pid)
            r = asyncio.run(_hold_pages(port, pages, hold_s, proc.pid, samples))
            time.sleep(5)
            after = rss_kb(proc.pid)
            # The same pages open and close again: memory kept from the first round is reused, not added to.
            again = asyncio.run(_hold_pages(port, pages, hold_s / 2, proc.pid, 1))
            time.sleep(5)
            r.update(rss_before=before, rss_after=after, idle=idle, rss_again=rss_kb(proc.pid))
            r["latency"] += again["latency"]
        finally:
            proc.kill()
            proc.wait(10)
    return r


def bench_attack(tree, path, slow, hold_s=15.0):
    port = _free_port()
    with tempfile.NamedTemporaryFile("w+b", suffix=".log") as log:
        proc = start_server(tree, path, port, log, file_limit=FILE_LIMIT)
        socks = []
        try:
            get(port, "/api/room", 30)  # the first room is made before the attack, as in a room already open
            for _ in range(slow):
                try:
                    s = socket.create_connection((HOST, port), timeout=2)
                    s.sendall(b"GET /api/room HTTP/1.1\r\nHost: slow\r\n")  # and never the blank line
                    socks.append(s)
                except OSError:
                    break
            lat, failed = [], 0
            t0 = time.monotonic()
            while time.monotonic() - t0 < hold_s:
                got, bad = room_latency(port, 1, 5.0)
                lat += got
                failed += bad
                time.sleep(0.5)
            log.flush()
            size = os.path.getsize(log.name)
            log.seek(0)
            lines = sum(1 for _ in log)
        finally:
            for s in socks:
                s.close()
            proc.kill()
            proc.wait(10)
    return {"held": len(socks), "latency": lat, "failed": failed, "log_bytes": size, "log_lines": lines}


def _free_port():
    s = socket.socket()
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _ms(xs):
    return "median %.0f ms, worst %.0f ms" % (1000 * statistics.median(xs), 1000 * max(xs))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=_ROOT, help="the checkout whose crib serve runs (default: this one)")
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--slow", type=int, default=250)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < a.pages + 100:  # the bench's own sockets: one a page
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, a.pages + 200), hard))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "room.sqlite3")
        events = make_room(path)
        print("room: %d boards, %d events, tree %s" % (BOARDS, events, a.tree))
        p = bench_pages(a.tree, path, a.pages)
        print("%d pages open (%d opened, %d got the room):" % (a.pages, p["opened"], p["got"]))
        print("  /api/room idle:       %s" % _ms(p["idle"]))
        miss = max(p["latency"]) >= GOAL_ROOM_S or p["failed"]
        print(
            "  /api/room with pages: %s, %d failed%s"
            % (_ms(p["latency"]), p["failed"], "  GOAL MISSED (under %.1f s)" % GOAL_ROOM_S if miss else "")
        )
        print(
            "  server RSS: before %.1f MB, during %.1f MB, after %.1f MB"
            % (p["rss_before"] / 1024, p["rss_during"] / 1024, p["rss_after"] / 1024)
        )
        print("  server RSS after the same pages open and close again: %.1f MB" % (p["rss_again"] / 1024))
        k = bench_attack(a.tree, path, a.slow)
        miss = (not k["latency"]) or max(k["latency"]) >= GOAL_ATTACK_S or k["failed"]
        print("slow-socket attack: %d half-open sockets held, file limit %d:" % (k["held"], FILE_LIMIT))
        print(
            "  normal /api/room: %d asked, %d failed, %s%s"
            % (
                len(k["latency"]),
                k["failed"],
                _ms(k["latency"]),
                "  GOAL MISSED (under %.1f s)" % GOAL_ATTACK_S if miss else "",
            )
        )
        print("  server log: %d lines, %d bytes in 15 s" % (k["log_lines"], k["log_bytes"]))
        if a.json:
            print(json.dumps({"pages": p, "attack": k}))


if __name__ == "__main__":
    main()
