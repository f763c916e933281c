# `crib club standings` and the scoreboard page list the same night the same way: every player of the
# night, those with no finished game yet last with no place.
import json
import random

from rich.console import Console
from typer.testing import CliRunner

from crib.cli import app, common
from crib.history import replay
from crib.store import clubdb, db
from crib.web.serve import Room
from sim.matchgen import MatchPlayer

runner = CliRunner()
BOARD = "c1ab000000000001"


def _night_of_three(path, opened=0, synced=None):
    """Three players on one board (a bye each round); game 1 played and synced, games 2 and 3 not begun.
    Returns (the two who played, the one with the bye)."""
    con = db.connect(path)
    clubdb.open_night(con, "Tuesday", ["Ann", "Bob", "Cy"], [BOARD], games=3, now=opened)
    _board, a, b = clubdb.schedule(con, 1)[0][0]
    db.note_board(con, {"board": BOARD})
    p = MatchPlayer(random.Random(5), (a, b), games=1)
    p.play(max_games=1)
    db.add_events(con, BOARD, [{"seq": k + 1, "event": e} for k, e in enumerate(p.events)], now=synced)
    replay.rebuild(con, BOARD)
    con.close()
    bye = ({"Ann", "Bob", "Cy"} - {a, b}).pop()
    return (a, b), bye


def test_a_player_with_no_finished_game_is_listed_last_with_no_place_as_the_page_lists_them(
    tmp_path, monkeypatch
):
    path = str(tmp_path / "night.sqlite3")
    played, bye = _night_of_three(path)
    monkeypatch.setattr(common, "console", Console(width=200))

    r = runner.invoke(app, ["club", "standings", "--json", "--db", path])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)["standings"]
    assert {row["player"] for row in rows[:2]} == set(played)
    assert [row["place"] for row in rows[:2]] == [1, 2]
    assert rows[2] == {
        "player": bye,
        "place": None,
        "games": 0,
        "won": 0,
        "lost": 0,
        "skunks": 0,
        "skunked": 0,
        "points": 0,
        "spread": 0,
    }
    # The page's room holds the very same rows.
    assert Room(path).snapshot()["night"]["standings"] == rows

    r = runner.invoke(app, ["club", "standings", "--db", path])
    assert r.exit_code == 0, r.output
    table = [
        [cell.strip() for cell in line.strip("│ ").split("│")]
        for line in r.output.splitlines()
        if line.count("│") > 2 and "place" not in line
    ]
    assert [(cells[0], cells[1]) for cells in table] == [
        ("1", rows[0]["player"]),
        ("2", rows[1]["player"]),
        ("-", bye),
    ]
    assert table[2][2:] == ["0", "0", "0", "0", "+0", "0", "0"]

    # A night the player finished no game in is not one of their season's nights.
    r = runner.invoke(app, ["club", "season", "--json", "--db", path])
    assert r.exit_code == 0, r.output
    assert sorted(row["player"] for row in json.loads(r.output)) == sorted(played)


def test_a_game_synced_seconds_after_the_night_opened_is_the_nights_on_both(history_db):
    # A night's opening time is kept to the second and more (a single-precision column would round a
    # time of today by up to a minute, and drop the night's first games).
    played, _bye = _night_of_three(history_db, opened=1754000070.0, synced=1754000075.0)
    con = db.connect(history_db, readonly=True)
    n, found, _problems = clubdb.results(con)
    assert n["opened"] == 1754000070.0
    assert [set(r["players"]) for r in found] == [set(played)]
    con.close()


def test_a_club_table_an_older_crib_made_on_postgresql_keeps_the_next_nights_time(pg_server):
    url = pg_server.database("crib_old_club")
    con = db.connect(url)
    con.execute(  # as an older crib made it
        "CREATE TABLE club_nights (id INTEGER PRIMARY KEY, name TEXT NOT NULL, opened REAL NOT NULL, "
        "games INTEGER NOT NULL, scoring TEXT NOT NULL)"
    )
    con.close()
    played, _bye = _night_of_three(url, opened=1754000070.0, synced=1754000075.0)
    con = db.connect(url, readonly=True)
    n, found, _problems = clubdb.results(con)
    assert n["opened"] == 1754000070.0 and [set(r["players"]) for r in found] == [set(played)]
    con.close()
