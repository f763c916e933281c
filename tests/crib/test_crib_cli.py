# The crib commands end to end against the link code running on MicroPython over a socket.
import csv
import io
import json
import random
import sqlite3
import struct

import pytest
from boards import LinkServer, played, write_journal
from rich.console import Console
from typer.testing import CliRunner

from crib.cli import app, common
from crib.store import db, schema
from sim.matchgen import MatchPlayer

runner = CliRunner()
# Wide consoles, so table cells and messages are not wrapped in the captured output.
common.console = Console(width=200)
common.err = Console(width=200, stderr=True)
N_GAMES = 12


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    events = played(N_GAMES, seed=3)
    journal = write_journal(str(d / "journal.log"), events)
    dbp = str(d / "h.sqlite3")
    with LinkServer(journal) as server:
        first = runner.invoke(app, ["sync", "--port", server.url, "--db", dbp])
        again = runner.invoke(app, ["sync", "--port", server.url, "--db", dbp])
    return {"dir": d, "db": dbp, "events": events, "first": first, "again": again}


def test_sync_stores_every_event_once_and_replays_every_game(history):
    assert history["first"].exit_code == 0, history["first"].output
    assert "%d new events" % len(history["events"]) in history["first"].output
    assert "0 flagged" in history["first"].output
    assert history["again"].exit_code == 0 and " 0 new events" in history["again"].output
    con = db.connect(history["db"])
    assert db.count_events(con) == len(history["events"])
    rows = con.execute("SELECT seq, event FROM events ORDER BY seq").fetchall()
    assert [json.loads(r[1]) for r in rows] == history["events"]
    games = db.games(con)
    assert len(games) == N_GAMES and all(g["over"] for g in games)


def test_replayed_scores_equal_the_boards(history):
    # play the same matches again with the generator's own Match: its results are what the board had
    rng = random.Random(3)
    finals = []
    left = N_GAMES
    from sim.matchgen import NAMES

    while left > 0:
        form = rng.choice(("six",))
        who = rng.sample(list(NAMES), 2)
        p = MatchPlayer(rng, who, form=form, games=3)
        p.play(max_games=min(left, 3))
        finals.extend(list(r[4]) for r in p.m.results)
        left -= len(p.m.results)
    con = db.connect(history["db"])
    assert [g["final"] for g in db.games(con)] == finals


def test_games_show_stats(history):
    r = runner.invoke(app, ["games", "--db", history["db"]])
    assert r.exit_code == 0 and r.output.count("\n") > N_GAMES
    r = runner.invoke(app, ["show", "1", "--db", history["db"]])
    assert r.exit_code == 0 and "Deal 1:" in r.output and " won " in r.output
    r = runner.invoke(app, ["show", "999", "--db", history["db"]])
    assert r.exit_code == 1 and "no game 999" in r.output
    r = runner.invoke(app, ["stats", "--db", history["db"]])
    assert r.exit_code == 0 and "hand avg" in r.output


def test_plot_writes_a_real_png(history):
    out = str(history["dir"] / "game1.png")
    r = runner.invoke(app, ["plot", "1", "--db", history["db"], "-o", out])
    assert r.exit_code == 0, r.output
    with open(out, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (800, 450)
    assert len(data) > 20000  # lines, text and legend, not an empty canvas


def test_export_csv_and_json(history):
    r = runner.invoke(app, ["export", "--csv", "--db", history["db"]])
    assert r.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(r.output)))
    con = db.connect(history["db"])
    assert len(rows) == con.execute("SELECT count(*) FROM scores").fetchone()[0]
    assert {"game", "name", "kind", "points", "front"} <= set(rows[0])
    out = str(history["dir"] / "all.json")
    r = runner.invoke(app, ["export", "--json", "--db", history["db"], "-o", out])
    assert r.exit_code == 0
    with open(out) as f:
        data = json.load(f)
    assert data["schema"] == schema.VERSION and len(data["games"]) == N_GAMES
    assert sum(len(g["events"]) for g in data["games"]) >= len(history["events"]) - 40
    # No format: by the file's extension, else CSV (issue 12); both at once is an error.
    r = runner.invoke(app, ["export", "--db", history["db"]])
    assert r.exit_code == 0 and r.output.startswith("game,board,match_no")
    r = runner.invoke(app, ["export", "--db", history["db"], "-o", str(history["dir"] / "b.json")])
    with open(history["dir"] / "b.json") as f:
        assert r.exit_code == 0 and len(json.load(f)["games"]) == N_GAMES
    r = runner.invoke(app, ["export", "--csv", "--json", "--db", history["db"]])
    assert r.exit_code == 1 and "not both" in r.output


def test_clear_messages_when_the_board_is_absent_or_the_db_is_foreign(tmp_path):
    r = runner.invoke(app, ["sync", "--port", "socket://127.0.0.1:1", "--db", str(tmp_path / "x.db")])
    assert r.exit_code == 2 and "crib sim" in r.output
    r = runner.invoke(app, ["sync", "--port", "/dev/ttyACM77", "--db", str(tmp_path / "x.db")])
    assert r.exit_code == 2 and "does not exist" in r.output
    foreign = str(tmp_path / "f.db")
    c = sqlite3.connect(foreign)
    c.execute("CREATE TABLE t (x)")
    c.commit()
    c.close()
    r = runner.invoke(app, ["games", "--db", foreign])
    assert r.exit_code == 4 and "not a crib database" in r.output


def test_link_commands(history):
    journal = str(history["dir"] / "journal.log")
    with LinkServer(journal) as server:
        r = runner.invoke(app, ["link", "hello", "--port", server.url])
        assert r.exit_code == 0 and '"protocol": 1' in r.output
        r = runner.invoke(app, ["link", "events", "--from", "5", "--limit", "3", "--port", server.url])
        lines = [json.loads(x) for x in r.output.splitlines()]
        assert [x["seq"] for x in lines] == list(range(5, len(history["events"]) + 1))
        r = runner.invoke(app, ["link", "state", "--port", server.url])
        assert r.exit_code == 0 and '"state"' in r.output
