# Read commands write nothing: a read-only PostgreSQL role reads the room, and a missing, emptied or
# mistyped SQLite history is an error naming it, never a new empty history served as live.
import json
import os
import sqlite3

import pytest
from rich.console import Console
from test_crib_untrusted import BOARD, clean, history
from test_serve_room import _get, _stop, _thread_server
from typer.testing import CliRunner

from crib.cli import app, common
from crib.history.replay import rebuild
from crib.store import clubdb, db
from crib.web.serve import Room, build
from cribbage import events

runner = CliRunner()
common.console = Console(width=200)
common.err = Console(width=200, stderr=True)
READS = (["games"], ["stats"], ["show", "1"], ["export", "--csv"], ["club", "standings"], ["club", "season"])


def _joined(r):
    """The words of a run's output with no spaces: a path a narrow console broke is whole again."""
    return "".join(r.output.split())


def _played(con):
    evs = [
        events.setup(names=["Ann", "Bob"]),
        events.dealer(0),
        events.starter("5D"),
        events.peg(1, 2, "play"),
    ]
    db.note_board(con, {"board": BOARD, "protocol": 1})
    db.add_events(con, BOARD, [{"seq": i + 1, "event": e} for i, e in enumerate(evs)])
    rebuild(con, BOARD)


@pytest.fixture
def reader(pg_server):
    """(owner's URL, a read-only role's URL) of a history with a game and a club night in it."""
    url = pg_server.database("crib_readers")
    con = db.connect(url)
    _played(con)
    clubdb.open_night(con, "Tue", ["Ann", "Bob"], [BOARD], games=1, now=0)
    with con:
        con.execute("CREATE ROLE reader LOGIN")
        con.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
    con.close()
    yield url, url.replace("postgresql://crib@", "postgresql://reader@")
    import psycopg

    with psycopg.connect(pg_server.url, autocommit=True) as raw:
        raw.execute("DROP DATABASE crib_readers WITH (FORCE)")
        raw.execute("DROP ROLE reader")


def test_a_read_only_role_reads_every_view_and_the_room(reader):
    owner, url = reader
    for args in READS:
        r = clean(runner.invoke(app, args + ["--db", url]))
        assert r.exit_code == 0, (args, r.output)
    r = clean(runner.invoke(app, ["club", "standings", "--db", url]))
    assert "Tue: standings" in r.said and "Ann" in r.said
    server, thread, port = _thread_server(build(url))  # the page as a phone gets it, over HTTP
    try:
        status, _headers, body = _get(port, "/api/room")
        assert status == 200, body
        room = json.loads(body)
        assert room["night"]["name"] == "Tue" and [b["board"] for b in room["boards"]] == [BOARD]
        assert room["boards"][0]["front"] == [0, 2] and "error" not in room
        assert _get(port, "/scorecards")[0] == 200
    finally:
        _stop(server, thread)
    # and a writer with that role is told so in one line, nothing written
    r = clean(
        runner.invoke(
            app, ["club", "night", "Wed", "--player", "A", "--player", "B", "--board", BOARD, "--db", url]
        )
    )
    assert r.exit_code == 4 and "permission denied for schema public" in r.said and "LINE" not in r.said
    con = db.connect(owner, readonly=True)
    assert [n[0] for n in con.execute("SELECT name FROM club_nights")] == ["Tue"]
    con.close()


def test_a_mistyped_db_is_an_error_that_names_it_and_makes_nothing(tmp_path):
    typo = str(tmp_path / "hsitory" / "crib.sqlite3")
    for args in READS:
        r = clean(runner.invoke(app, args + ["--db", typo]))
        assert r.exit_code in (1, 4) and "nohistoryat%syet" % typo in _joined(r), (args, r.output)
    with pytest.raises(db.DbError, match="no history at"):
        Room(typo).snapshot()
    assert os.listdir(tmp_path) == []  # no folder, no file


def test_an_empty_file_is_not_taken_for_a_new_history(tmp_path):
    empty = tmp_path / "crib.sqlite3"
    empty.write_bytes(b"")
    for args in READS:
        r = clean(runner.invoke(app, args + ["--db", str(empty)]))
        assert r.exit_code in (1, 4) and "%sisempty" % empty in _joined(r), (args, r.output)
    assert empty.read_bytes() == b""


def test_a_history_deleted_or_emptied_under_the_page_is_said_not_made_again(tmp_path):
    path, con = history(tmp_path, ["Ann", "Bob"])
    con.close()
    room = Room(path)
    assert [b["names"] for b in room.snapshot()["boards"]] == [["Ann", "Bob"]]
    with open(path, "r+b") as f:
        f.truncate(0)
    with pytest.raises(db.DbError, match="is empty"):
        room.snapshot()
    assert os.path.getsize(path) == 0
    for f in os.listdir(tmp_path):
        os.remove(tmp_path / f)
    with pytest.raises(db.DbError, match="no history at"):
        room.snapshot()
    assert os.listdir(tmp_path) == []


def test_a_reader_writes_not_a_byte(tmp_path):
    path, con = history(tmp_path, ["Ann", "Bob"])  # no club night: a reader must not add its tables
    con.close()
    before = _schema(path), (tmp_path / "h.sqlite3").read_bytes()
    for args in READS:
        r = clean(runner.invoke(app, args + ["--db", path]))
        assert r.exit_code == 0 or "no club night yet" in r.said, (args, r.output)
    Room(path).snapshot()
    assert (_schema(path), (tmp_path / "h.sqlite3").read_bytes()) == before


def _schema(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        con.close()
