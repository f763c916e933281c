# A club night on four simulated boards: scripted games played at once, four concurrent `crib sync`s into
# one database (SQLite, then PostgreSQL), and the night scored: standings and scorecards against a count
# made here.
import json
import os
import subprocess
import sys

import pytest
from boards import ROOT, Sim

from crib import club
from crib.link import ports
from crib.link.client import LinkClient
from crib.store import clubdb, db
from sim.keyscript import KeyedMatch

# Seeds picked so the night holds what a director must get right: skunks, players level on game points
# and wins but apart on spread, and 24 hands for the side pot.
SEEDS = (10, 11, 12, 13)
PLAYERS = list("ABCDEFGH")
CRIB = [sys.executable, "-c", "from crib.cli import main; main()"]


def _board_ids(sims):
    ids = []
    for sim in sims:
        client = LinkClient(ports.open_port(sim.url, 5), timeout=5)
        ids.append(client.connect()["board"])
        client.close()
    return ids


def _expected(matches):
    """The night counted by hand from the matches the scripts played: ACC points, spread, skunks."""
    rounds = club.rotation(PLAYERS, 3)
    rows = {p: {"points": 0, "won": 0, "spread": 0, "skunked": 0} for p in PLAYERS}
    lines = {p: [] for p in PLAYERS}
    for i, m in enumerate(matches):
        for k, (_winner, _out, _gains, _skunk, fronts) in enumerate(m.m.results):
            a, b = rounds[k][i]
            won, lost = (a, b) if fronts[0] > fronts[1] else (b, a)
            margin = 121 - min(fronts)
            skunked = min(fronts) <= 90
            rows[won]["points"] += 3 if skunked else 2
            rows[won]["won"] += 1
            rows[won]["spread"] += margin
            rows[lost]["spread"] -= margin
            rows[lost]["skunked"] += skunked
            lines[a].append((k + 1, b, fronts[0], fronts[1]))
            lines[b].append((k + 1, a, fronts[1], fronts[0]))
    return rows, lines


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The four boards' flashes after their scripted matches, played once for both databases."""
    folder = tmp_path_factory.mktemp("club")
    matches, sims = [], []
    try:
        for i, seed in enumerate(SEEDS):
            m = KeyedMatch(seed, games=3)
            m.play()
            matches.append(m)
            script = folder / ("board%d.script" % i)
            script.write_text("\n".join(m.lines + m.expectations()) + "\n")
            sims.append(Sim(str(folder / ("board%d" % i)), script=str(script), fresh=True))
        for sim in sims:  # the four boards play their games at the same time
            out = sim.wait()
            assert "expectations: 4 checked, 0 failed" in out, out[-2000:]
    finally:
        for sim in sims:
            sim.kill()
    return matches, [str(folder / ("board%d" % i)) for i in range(4)]


def test_a_club_night_on_four_boards_synced_at_once_is_scored_as_played(played, history_db):
    matches, flashes = played
    sims = []
    try:
        sims = [Sim(flash) for flash in flashes]
        boards = _board_ids(sims)
        assert len(set(boards)) == 4
        path = history_db  # a SQLite file, then a PostgreSQL database, as a club would have
        con = db.connect(path)
        night = clubdb.open_night(con, "Tuesday", PLAYERS, boards, games=3, now=0)
        env = dict(os.environ, CRIB_DB=path)
        syncs = [
            subprocess.Popen(
                CRIB + ["sync", "--port", s.url],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            for s in sims
        ]
        for p in syncs:
            out = p.communicate(timeout=300)[0].decode()
            assert p.returncode == 0, out
            assert "0 flagged" in out, out
    finally:
        for sim in sims:
            sim.kill()

    want, lines = _expected(matches)
    n, rows, problems = clubdb.standings(con, night)
    assert problems == []
    got = {r["player"]: r for r in rows}
    for p in PLAYERS:
        assert (got[p]["points"], got[p]["won"], got[p]["spread"], got[p]["skunked"]) == (
            want[p]["points"],
            want[p]["won"],
            want[p]["spread"],
            want[p]["skunked"],
        ), p
    order = sorted(PLAYERS, key=lambda p: (-want[p]["points"], -want[p]["won"], -want[p]["spread"]))
    assert [r["player"] for r in rows] == order
    assert any(r["skunked"] for r in rows)
    split = [
        (x["player"], y["player"])
        for x, y in zip(rows, rows[1:], strict=False)
        if (x["points"], x["won"]) == (y["points"], y["won"]) and x["spread"] > y["spread"]
    ]
    assert split, "the night should hold a tie on points and wins broken by spread"

    for p in PLAYERS:
        card = club.scorecard(p, clubdb.results(con, night)[1], n["scoring"])
        assert [(c["round"], c["opponent"], c["score"], c["against"]) for c in card] == sorted(lines[p])
        assert card[-1]["total"] == want[p]["points"] and card[-1]["total_spread"] == want[p]["spread"]

    pots = club.side_pots(clubdb.pot_hands(con, night))
    pegged_24 = sum(
        1
        for m in matches
        for e in m.events
        if e["t"] == "peg" and e["why"] in ("hand", "crib") and e["n"] == 24
    )
    assert pegged_24 and len(pots) == pegged_24

    # The director's command line reads the same night.
    out = subprocess.run(
        CRIB + ["club", "standings", "--json", "--db", path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert [r["player"] for r in json.loads(out)["standings"]] == order
    assert db.count_events(con) == sum(len(m.events) for m in matches)
