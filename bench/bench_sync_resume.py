# Resumed-sync bench: `crib sync` with nothing new on a 60-game board, and a sync over a link cut every 2 s.
"""The board is sim/linkserver.py on the MicroPython unix port (the real board.link over the real
board.store.journal on a socket) holding a 60-game matchgen history (seed 1); the laptop is the `crib sync`
command itself, run as a process as a user runs it (its start-up, the sync, the replay of the games),
and the sync as the command runs it timed from inside that process (connect, sync, replay).

- nothing new: the whole history synced once (timed too), then `crib sync` again with nothing new,
  then again after one more game (the board's journal served with it): wall seconds of each command,
  on a SQLite file and on a throwaway PostgreSQL (tests/support/pgserver.py). Goal: nothing new < 1 s.
- cut link: the history holds the first two thirds of the board's events (a board that played on
  since its last sync); `crib sync` is run 8 times through a proxy that carries the board's bytes at
  the emulated Pico's sync rate (RATE) and cuts the connection CUT s after it opened. Each round: the
  events gained and whether that sync reached its end. Goal: a sync gets to the end.

    python -m bench.bench_sync_resume [--code DIR]   (DIR: another checkout's tree, e.g. main's, whose
                                                      crib and board firmware are measured instead)
"""

import os
import random
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

from boards import MICROPYTHON, ROOT, SERVER, free_port, server_env, write_journal

from sim.matchgen import history

GAMES = 60
RATE = 165_000  # bytes/s: the emulated Pico's records stream before it was sped up (docs/protocol.md)
CUT = 2.0  # seconds a connection lasts
ROUNDS = 8


class Board:
    """sim/linkserver.py serving one journal with `code`'s firmware, on a free port."""

    def __init__(self, journal, code):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [
                MICROPYTHON,
                "-X",
                "heapsize=4m",
                *SERVER,
                journal,
                str(self.port),
                "900",
            ],
            cwd=ROOT,
            env=server_env(os.path.join(code, "firmware")),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        line = self.proc.stdout.readline().decode()
        if not line.startswith("ready"):
            raise SystemExit("link server did not start: %r %r" % (line, self.proc.stderr.read()))
        self.url = "socket://127.0.0.1:%d" % self.port

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()


class CutProxy:
    """Carries a board's bytes at `rate` bytes/s to one laptop at a time, and cuts each connection
    `cut` s after it opened (both sockets closed: the cable pulled)."""

    def __init__(self, board_port, rate, cut):
        self.board_port, self.rate, self.cut = board_port, rate, cut
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.srv.getsockname()[1]
        self.stopped = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while not self.stopped:
            try:
                laptop, _ = self.srv.accept()
            except OSError:
                return
            board = socket.create_connection(("127.0.0.1", self.board_port))
            self._carry(laptop, board)
            laptop.close()
            board.close()

    def _carry(self, laptop, board):
        t0 = time.monotonic()
        sent = 0
        while True:
            now = time.monotonic()
            if now - t0 >= self.cut:
                return
            ready, _, _ = select.select([laptop, board], [], [], 0.01)
            for s in ready:
                want = 4096 if s is laptop else max(0, min(4096, int((now - t0) * self.rate) - sent))
                if s is board and not want:
                    continue
                try:
                    data = s.recv(want)
                except OSError:
                    return
                if not data:
                    return
                (board if s is laptop else laptop).sendall(data)
                if s is board:
                    sent += len(data)

    def close(self):
        self.stopped = True
        self.srv.close()


def crib_sync(code, url, dbpath):
    """(exit status, wall s) of one `crib sync` command, run with `code`'s crib."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(os.path.join(code, d) for d in ("host_tools", "firmware"))
    t0 = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from crib.cli import main; sys.exit(main())",
            "sync",
            "--port",
            url,
        ]
        + ["--db", dbpath, "--timeout", "5"],
        env=env,
        capture_output=True,
        text=True,
    )
    return done.returncode, time.perf_counter() - t0, done.stdout + done.stderr


# What `crib sync` does, timed from inside (no interpreter start-up, imports or pyserial's close):
# connect, sync, and the replay the command runs after it (of the matches that changed, where `crib`
# has that; of every game before).
_TIMED = """
import inspect, sys, time
from crib.link import ports
from crib.store import db
from crib.link.client import LinkClient
from crib.history.replay import rebuild
from crib.history.sync import sync
t0 = time.perf_counter()
con = db.connect(sys.argv[2])
client = LinkClient(ports.open_port(sys.argv[1], 5.0), timeout=5.0)
client.connect()
rep = sync(client, con)
if "since" in inspect.signature(rebuild).parameters:
    rebuild(con, rep.board, rep.changed)
else:
    rebuild(con, rep.board)
print(time.perf_counter() - t0)
"""


def timed_sync(code, url, dbpath):
    """Seconds of one sync as timed from inside (_TIMED), run with `code`'s crib."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(os.path.join(code, d) for d in ("host_tools", "firmware"))
    done = subprocess.run(
        [sys.executable, "-c", _TIMED, url, dbpath], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit("the timed sync failed: %s" % (done.stdout + done.stderr))
    return float(done.stdout.split()[-1])


def count(dbpath):
    from crib.store import db

    con = db.connect(dbpath)
    try:
        return db.count_events(con)
    finally:
        con.close()


def nothing_new(code, tmp, events, dbpath):
    """Wall s of the `crib sync` command: the whole sync, a sync with nothing new, a sync after one
    more game; then a sync with nothing new timed from inside."""
    whole = write_journal(os.path.join(tmp, "whole.log"), events)
    one_more = write_journal(os.path.join(tmp, "more.log"), events + history(random.Random(2), 1))
    out = []
    with Board(whole, code) as b:
        for _ in range(2):
            rc, wall, text = crib_sync(code, b.url, dbpath)
            if rc:
                raise SystemExit("crib sync failed (%d): %s" % (rc, text))
            out.append(wall)
    with Board(one_more, code) as b:
        rc, wall, text = crib_sync(code, b.url, dbpath)
        if rc:
            raise SystemExit("crib sync failed (%d): %s" % (rc, text))
        out.append(wall)
        out.append(timed_sync(code, b.url, dbpath))
    return out


def cut_link(code, tmp, events, dbpath):
    """[(events gained, finished)] of ROUNDS syncs through the cut link, from two thirds held."""
    held = write_journal(os.path.join(tmp, "held.log"), events[: len(events) * 2 // 3])
    whole = write_journal(os.path.join(tmp, "whole.log"), events)
    with Board(held, code) as b:
        rc, _wall, text = crib_sync(code, b.url, dbpath)
        if rc:
            raise SystemExit("crib sync failed (%d): %s" % (rc, text))
    rounds = []
    with Board(whole, code) as b:
        proxy = CutProxy(b.port, RATE, CUT)
        try:
            for _ in range(ROUNDS):
                before = count(dbpath)
                rc, _wall, _text = crib_sync(code, proxy.url, dbpath)
                rounds.append((count(dbpath) - before, rc == 0))
        finally:
            proxy.close()
    return rounds


def main(argv):
    code = ROOT
    if argv[:1] == ["--code"]:
        code = os.path.abspath(argv[1])
    import pgserver

    events = history(random.Random(1), GAMES)
    tmp = tempfile.mkdtemp(prefix="bench-resume-")
    lines = [
        "resumed-sync bench: %d-game board (%d events), crib from %s" % (GAMES, len(events), code),
    ]
    targets = [("SQLite", lambda n: os.path.join(tmp, n + ".sqlite3"))]
    try:
        pg = pgserver.Server()
        targets.append(("PostgreSQL", lambda n: pg.database(n)))
    except pgserver.Missing as e:
        pg = None
        lines.append("  PostgreSQL not measured: %s" % e)
    try:
        for name, target in targets:
            whole, again, more, inside = nothing_new(code, tmp, events, target("nothing_new"))
            lines.append(
                "  %-10s crib sync: whole history %.2f s; one more game %.2f s; nothing new %.2f s, of which"
                " the sync itself %.2f s (goal < 1 s: %s)"
                % (name, whole, more, again, inside, "MET" if inside < 1 else "MISSED")
            )
            rounds = cut_link(code, tmp, events, target("cut_link"))
            got = sum(n for n, _ in rounds)
            ends = [i + 1 for i, (_, done) in enumerate(rounds) if done]
            lines.append(
                "  %-10s link cut every %.0f s at %d KB/s, %d rounds from %d of %d events held:"
                " gained %s = %d; %s"
                % (
                    name,
                    CUT,
                    RATE // 1000,
                    ROUNDS,
                    len(events) * 2 // 3,
                    len(events),
                    "/".join(str(n) for n, _ in rounds),
                    got,
                    ("reached the end in round %d (goal: MET)" % ends[0])
                    if ends
                    else "never reached the end (goal: MISSED)",
                )
            )
    finally:
        if pg is not None:
            pg.stop()
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1:])
