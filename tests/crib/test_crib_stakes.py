# Issue 12's stakes ledger: per game and per point, skunk and double skunk multipliers, balances per pair.
import json
import random

from typer.testing import CliRunner

from crib.cli import app
from crib.history.replay import rebuild
from crib.store import db
from sim.matchgen import history

runner = CliRunner()


def test_ledger_against_the_games_worked_out_here(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB_STAKES", str(tmp_path / "stakes.json"))
    path = str(tmp_path / "h.sqlite3")
    con = db.connect(path)
    db.note_board(con, {"board": "ab12", "protocol": 1})
    evs = history(random.Random(8), 12, names=("Ann", "Bob", "Cy"))
    db.add_events(con, "ab12", [{"seq": i + 1, "event": e} for i, e in enumerate(evs)])
    games, _o, _m = rebuild(con, "ab12")
    r = runner.invoke(
        app,
        [
            "stakes",
            "--db",
            path,
            "--set",
            "per_game=1",
            "--set",
            "per_point=0.1",
            "--set",
            "skunk=2",
            "--set",
            "double=3",
            "--set",
            "unit=$",
        ],
    )
    assert r.exit_code == 0, r.output
    # what each pair owes, worked out from the replayed games' fronts and skunks
    owed = {}
    for g in games:
        if not g.over:
            continue
        w, lose = g.winner, 1 - g.winner
        mult = {"skunk": 2, "double": 3}.get(g.skunk[lose], 1)
        pay = (1 + 0.1 * (g.final[w] - g.final[lose])) * mult
        pair = tuple(sorted((g.names[w], g.names[lose])))
        owed[pair] = owed.get(pair, 0) + (pay if g.names[w] == pair[0] else -pay)
    text = " ".join(r.output.split())
    assert owed
    for (a, b), bal in owed.items():
        owes, to = (b, a) if bal >= 0 else (a, b)
        assert "%s owes %s $%.2f" % (owes, to, abs(bal)) in text
    with open(tmp_path / "stakes.json") as f:
        assert json.load(f)["per_point"] == 0.1  # kept on the laptop for the next time
    r = runner.invoke(app, ["stakes", "--db", path, "--set", "skunk=lots"])
    assert r.exit_code == 2 and "not a number" in r.output
    with open(tmp_path / "stakes.json") as f:
        assert json.load(f)["skunk"] == 2  # a bad setting changes nothing


def test_the_settings_sit_beside_a_file_history_and_in_the_laptops_folder_for_a_club_database(
    tmp_path, monkeypatch
):
    from crib.history import stakes

    monkeypatch.delenv("CRIB_STAKES", raising=False)
    monkeypatch.setattr(db, "default_path", lambda: str(tmp_path / "home" / "history.sqlite3"))
    assert stakes.settings_path(str(tmp_path / "club" / "h.db")) == str(tmp_path / "club" / "stakes.json")
    for url in ("postgresql://ann:pw@club.example/crib", "postgres://club/crib"):
        assert stakes.settings_path(url) == str(tmp_path / "home" / "stakes.json")
    assert stakes.settings_path() == str(tmp_path / "home" / "stakes.json")
