# Opening the history: a new file made whole or not at all, laptops opening it at once, a kill mid-way.
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys

import pytest

from crib.store import db, schema

HOST_TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "host_tools")
TABLES = {"boards", "events", "games", "scores", "served_again", "quarantine"}


def _open(path, start, said):
    start.wait()
    try:
        db.connect(path).close()
        said.put("ok")
    except Exception as e:  # noqa: BLE001 (the test reports whatever an open said)
        said.put("%s: %s" % (type(e).__name__, e))


def _tables(path):
    con = sqlite3.connect(path)
    try:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return names, con.execute("PRAGMA user_version").fetchone()[0]
    finally:
        con.close()


def test_laptops_opening_a_new_history_at_once_all_get_it(tmp_path):
    fork = multiprocessing.get_context("fork")
    for attempt in range(20):
        path = str(tmp_path / ("h%d.sqlite3" % attempt))
        start, said = fork.Barrier(3), fork.Queue()
        procs = [fork.Process(target=_open, args=(path, start, said)) for _ in range(3)]
        for p in procs:
            p.start()
        answers = [said.get(timeout=60) for _ in procs]
        for p in procs:
            p.join()
        assert answers == ["ok"] * 3, (attempt, answers)
        assert _tables(path) == (TABLES, schema.VERSION)
        db.connect(path).close()


# A creation killed (SIGKILL) as SQLite starts its n-th statement, the process dying with no clean-up.
KILLED_AT = """
import os, signal, sqlite3, sys
from crib.store import db, sqlite
n = int(sys.argv[2])
real = sqlite.connect
def connect(path, readonly=False):
    con = real(path, readonly)
    seen = []
    def trace(sql):
        if sql.lstrip().upper().startswith("CREATE"):
            seen.append(sql)
            if len(seen) == n:
                os.kill(os.getpid(), signal.SIGKILL)
    con.set_trace_callback(trace)
    return con
sqlite.connect = connect
db.connect(sys.argv[1]).close()
"""


@pytest.mark.parametrize("n", range(1, 8))
def test_a_creation_killed_mid_way_is_finished_by_the_next_open(tmp_path, n):
    path = str(tmp_path / "h.sqlite3")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(HOST_TOOLS))
    r = subprocess.run([sys.executable, "-c", KILLED_AT, path, str(n)], env=env, capture_output=True)
    assert r.returncode == -signal.SIGKILL, r.stderr  # it died as the n-th table was being made
    db.connect(path).close()
    assert _tables(path) == (TABLES, schema.VERSION)


def test_a_history_an_older_crib_left_half_made_is_finished(tmp_path):
    path = str(tmp_path / "h.sqlite3")
    con = sqlite3.connect(path)
    con.execute(schema.STEPS["sqlite"][1][0])  # the boards table, committed alone, and no version
    con.commit()
    con.close()
    con = db.connect(path)
    assert db.boards(con) == []
    con.close()
    assert _tables(path) == (TABLES, schema.VERSION)
