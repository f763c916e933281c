"""`crib serve --tables` and `crib table new`: a table made on a running server, its code printed to share."""

import os
import subprocess
import sys
import time

import httpx
from boards import ROOT, free_port

from crib.store import db

CRIB = [sys.executable, "-c", "from crib.cli import main; main()"]


def crib(*args, timeout=60):
    return subprocess.run(CRIB + list(args), cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_crib_table_new_prints_a_code_the_server_knows_and_fills_a_seat(tmp_path):
    history = str(tmp_path / "history.sqlite3")
    db.connect(history).close()
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    server = subprocess.Popen(
        CRIB + ["serve", "--db", history, "--port", str(port), "--tables", str(tmp_path / "tables.sqlite3")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(200):
            try:
                httpx.get(url + "/api/tables/2222222222")
                break
            except httpx.TransportError:
                time.sleep(0.05)
        out = crib("table", "new", "--server", url, "--fill", "top")
        assert out.returncode == 0, out.stderr
        code, page = out.stdout.splitlines()
        assert len(code) == 10 and page == "page: %s/table/%s" % (url, code)
        table = httpx.get("%s/api/tables/%s" % (url, code)).json()
        assert table["seats"].count("Board (top)") == 1 and table["seats"].count(None) == 1
        assert table["proof"]["secret_commit"] and table["phase"] == "shares"
        bad = crib("table", "new", "--server", url, "--fill", "grandmaster")
        assert bad.returncode != 0 and "--fill is one of beginner, expected, top" in bad.stdout + bad.stderr
        _forms(url, tmp_path)
    finally:
        server.terminate()
        server.wait(10)
    gone = crib("table", "new", "--server", url)
    assert gone.returncode != 0 and "cannot reach %s" % url in gone.stdout + gone.stderr


def _forms(url, tmp_path):
    """Three-handed and 2 v 2 tables from the command line, the opponent in every seat asked for; and a
    board's `crib play` refusing such a table before it takes a seat (the board plays two-player only)."""
    for form, fills, seats in (("three", ["top", "top"], 3), ("four", ["beginner", "expected", "top"], 4)):
        out = crib(
            "table", "new", "--server", url, "--form", form, *[a for f in fills for a in ("--fill", f)]
        )
        assert out.returncode == 0, out.stderr
        code = out.stdout.splitlines()[0]
        table = httpx.get("%s/api/tables/%s" % (url, code)).json()
        assert table["form"] == form and len(table["seats"]) == seats and table["seats"].count(None) == 1
        bots = [name for name in table["seats"] if name]
        assert bots == (
            ["Board (top)", "Board 2 (top)"]
            if form == "three"
            else ["Board (beginner)", "Board (expected)", "Board (top)"]
        )
        env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
        play = subprocess.run(
            CRIB + ["play", code, "--server", url, "--name", "Ann", "--port", "socket://127.0.0.1:9"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
        said = " ".join((play.stdout + play.stderr).split())
        assert play.returncode != 0 and "a board plays only the two-player game at a table" in said, said
        assert httpx.get("%s/api/tables/%s" % (url, code)).json()["seats"].count(None) == 1  # none taken
    too_many = crib(
        "table", "new", "--server", url, "--form", "three", "--fill", "top", "--fill", "top", "--fill", "top"
    )
    assert (
        too_many.returncode != 0
        and "a three table has 3 seats: fill 2 at most" in too_many.stdout + too_many.stderr
    )
    bad = crib("table", "new", "--server", url, "--form", "five")
    assert bad.returncode != 0 and "--form is one of six, three, four" in bad.stdout + bad.stderr


def test_serve_refuses_half_a_tls_set_up(tmp_path):
    history = str(tmp_path / "history.sqlite3")
    db.connect(history).close()
    out = crib("serve", "--db", history, "--tls-cert", str(tmp_path / "cert.pem"))
    assert out.returncode != 0 and "both --tls-cert and --tls-key" in out.stdout + out.stderr
