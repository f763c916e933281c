"""A finished table's game kept in a laptop's history: under both names, scored as the table scored it, the
deal's proof kept and checked again later; a record or a history changed after is caught."""

import json
import random
import subprocess
import sys

import httpx
import pytest
import tableserve
from boards import ROOT
from tableseats import Seat, play_out

from crib.store import db
from crib.tables import record
from crib.tables.service import Rejected, Tables

CRIB = [sys.executable, "-c", "from crib.cli import main; main()"]


@pytest.fixture
def played(tmp_path):
    """A whole game between Ann and Zoë, and the server's record of it."""
    tables = Tables(str(tmp_path / "club.sqlite3"), burst=10_000)
    code = tables.new()
    rng = random.Random(21)
    a, b = Seat(tables, code, "Ann", rng), Seat(tables, code, "Zoë Ångström-Smith", rng)
    with pytest.raises(Rejected, match="not over"):
        tables.record(code)
    end = play_out(a, b)
    return tables.record(code), end, a, b


def test_a_table_game_is_kept_under_both_names_scored_as_the_table_scored_it(played, history_db):
    got, end, a, b = played
    con = db.connect(history_db)
    game, checked = record.save(con, got, "http://club", seat=a.seat, share=a.share, views=a.views)
    names = ["Ann", "Zoe Angstrom"]  # the board's names: ASCII, twelve at most
    assert game["names"] == [names[a.seat], names[b.seat]] and game["board"] == "table-" + got["code"]
    assert game["final"] == end["scores"] and game["winner"] == end["winner"] and game["over"]
    for side in (0, 1):
        assert (
            sum(s["points"] for s in db.scores(con, game["id"]) if s["side"] == side) == end["scores"][side]
        )
    assert checked > 100  # the seat's own cards of every deal and both seats' shows
    assert record.verify(con, got["code"]) == checked
    again, _ = record.save(con, got, "http://club", seat=a.seat, share=a.share, views=a.views)
    assert again["id"] == game["id"] and len(db.games(con)) == 1  # kept twice, stored once
    row = con.execute("SELECT names, seat, server FROM remote_games").fetchone()
    assert json.loads(row[0])[b.seat] == "Zoë Ångström-Smith" and row[1] == a.seat and row[2] == "http://club"


def test_a_record_changed_after_the_game_does_not_check(played, tmp_path):
    got, _end, a, b = played

    def changed(fn):
        forged = json.loads(json.dumps(got))
        fn(forged)
        return forged

    def swap_lay(r):  # a lay changed to another card of the same rank: every score can stay the same
        k = next(k for k, (_s, m) in enumerate(r["moves"]) if m["t"] == "lay")
        r["moves"][k][1]["card"] ^= 1

    cases = [
        (changed(lambda r: r["proof"].update(secret="00" * 32)), "secret_commit"),
        (changed(lambda r: r.update(scores=[121, 0])), "make"),
        (changed(lambda r: r["moves"].pop()), "do not end the game"),
        (changed(swap_lay), "not one the game takes|seed"),
        (changed(lambda r: r["proof"]["shares"].reverse()), "seed|share"),
    ]
    seen = record.seen_of(a.views)
    for forged, said in cases:
        with pytest.raises(record.RecordError, match=said):
            record.check(forged, a.seat, a.share, seen)
    with pytest.raises(record.RecordError, match="share is not the one it sent"):
        record.check(got, a.seat, "ab" * 32, seen)
    # a server that deals again after the game, with its own new secret, commitments and all
    other = Tables(str(tmp_path / "other.sqlite3"), burst=10_000)
    code = other.new(secret="11" * 32)
    rng = random.Random(21)
    x, y = Seat(other, code, "Ann", rng), Seat(other, code, "Zoë Ångström-Smith", rng)
    x.share, y.share = a.share, b.share
    play_out(x, y)
    redealt = dict(other.record(code), code=got["code"])
    record.check(redealt)  # in itself a sound record ...
    with pytest.raises(record.RecordError, match="secret_commit is not the one the table showed"):
        record.check(redealt, a.seat, a.share, seen)  # ... but not the one Ann's seat was shown first
    # kept in a history, then changed there
    con = db.connect(str(tmp_path / "history.sqlite3"))
    record.save(con, got, "http://club", seat=a.seat, share=a.share, views=a.views)
    # the kept starter changed to another card (the table's random deal may have turned up any card)
    seq, kept = next((q, e) for q, e in con.execute("SELECT seq, event FROM events") if '"starter"' in e)
    starter = json.loads(kept)
    starter["c"] = (starter["c"] + 1) % 52
    with con:
        con.execute("UPDATE events SET event=$1 WHERE seq=$2", (json.dumps(starter), seq))
    with pytest.raises(record.RecordError, match="history's events"):
        record.verify(con, got["code"])
    with con:
        con.execute("UPDATE remote_games SET record=$1", (json.dumps(cases[0][0]),))
    with pytest.raises(record.RecordError, match="secret_commit"):
        record.verify(con, got["code"])
    with pytest.raises(record.RecordError, match="no table game"):
        record.verify(con, "2222222222")


def test_two_laptops_save_a_game_from_the_server_and_each_history_verifies_it(tmp_path):
    history = str(tmp_path / "server-history.sqlite3")
    db.connect(history).close()
    proc, url = tableserve.start(history, str(tmp_path / "tables.sqlite3"))
    try:
        made = subprocess.run(
            CRIB + ["table", "new", "--server", url, "--fill", "beginner"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        code = made.stdout.split()[0]
        early = subprocess.run(
            CRIB + ["table", "save", code, "--server", url], cwd=ROOT, capture_output=True, text=True
        )
        assert early.returncode != 0 and "not over" in early.stdout + early.stderr
        httpx.post(
            "%s/api/tables/%s/fill" % (url, code), json={"level": "top"}
        ).raise_for_status()  # plays it out
        for laptop in ("one", "two"):
            mine = str(tmp_path / ("%s.sqlite3" % laptop))
            out = subprocess.run(
                CRIB + ["table", "save", code, "--server", url, "--db", mine],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            assert out.returncode == 0, out.stdout + out.stderr
            assert "Board (beginner)" in out.stdout and "Board (top)" in out.stdout and "121" in out.stdout
            ok = subprocess.run(
                CRIB + ["table", "verify", code, "--db", mine], cwd=ROOT, capture_output=True, text=True
            )
            assert ok.returncode == 0 and "table %s checks" % code in ok.stdout, ok.stdout + ok.stderr
    finally:
        tableserve.stop(proc)


@pytest.mark.parametrize("form", ["three", "four"])
def test_a_three_handed_or_2v2_game_is_kept_under_every_name_and_checked_by_re_dealing(tmp_path, form):
    tables = Tables(str(tmp_path / "club.sqlite3"), burst=10_000)
    code = tables.new(form=form)
    rng = random.Random(8)
    names = ["Ann", "Zoë Ångström-Smith", "Cy", "Dee"][: 3 if form == "three" else 4]
    seats = [Seat(tables, code, name, rng) for name in names]
    end = play_out(*seats)
    got = tables.record(code)
    assert got["form"] == form and got["proof"]["form"] == form and len(got["proof"]["shares"]) == len(names)
    con = db.connect(str(tmp_path / "history.sqlite3"))
    a = seats[1]
    game, checked = record.save(con, got, "http://club", seat=a.seat, share=a.share, views=a.views)
    # the history's sides: each player, or in 2 v 2 each pair of partners (the board's twelve letters)
    sides = ["Ann", "Zoe Angstrom", "Cy"] if form == "three" else ["Ann&Cy", "Zoe Angstrom"]
    assert game["form"] == form and game["names"] == sides
    assert game["final"] == end["scores"] and game["winner"] == end["winner"] and game["over"]
    for side in range(len(sides)):
        pegged = sum(s["points"] for s in db.scores(con, game["id"]) if s["side"] == side)
        assert min(121, pegged) == end["scores"][side]
    assert json.loads(con.execute("SELECT names FROM remote_games").fetchone()[0]) == names  # every name
    assert checked > 100 and record.verify(con, code) == checked
    # re-dealt from the proof: a lay changed, a share dropped or the form denied is caught
    for change, said in (
        (lambda r: r["moves"][-1][1].update(card=(r["moves"][-1][1]["card"] + 1) % 52), "not one|make|end"),
        (lambda r: r["proof"]["shares"].pop(), "seed|shares"),
        (lambda r: (r.pop("form"), r["proof"].pop("form")), "not one the game takes|seed|shares"),
    ):
        forged = json.loads(json.dumps(got))
        change(forged)
        with pytest.raises(record.RecordError, match=said):
            record.check(forged, a.seat, a.share, record.seen_of(a.views))
