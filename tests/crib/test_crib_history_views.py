# What `crib games`, `crib stats`, `crib sync` and `crib club scorecard` print, read as a player reads it:
# games oldest first across boards, a match column in words, "-" for an average over nothing, a name
# not in the night refused with the close names.
import random

from boards import LinkServer, write_journal
from fakeport import FakePort
from linkfakes import journal
from rich.console import Console
from typer.testing import CliRunner

from board.link import Link
from crib.cli import app, common
from crib.history.replay import rebuild
from crib.history.sync import sync
from crib.link.client import LinkClient
from crib.store import clubdb, db
from cribbage.events import to_line
from sim.matchgen import history

runner = CliRunner()


def _wide(monkeypatch):
    # Wide consoles, so table rows and messages are not wrapped in the captured output.
    monkeypatch.setattr(common, "console", Console(width=200))
    monkeypatch.setattr(common, "err", Console(width=200, stderr=True))


def _sync(con, board_id, events):
    j = journal()
    for ev in events:
        j.append(to_line(ev))
    sync(LinkClient(FakePort(Link(j, None, board_id=board_id, firmware="t", form="six")), timeout=0.5), con)
    rebuild(con, board_id)


def _rows(output):
    """The table's rows: cells split on runs of two spaces, rows that start with a game id."""
    out = []
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip().split("  ") if c.strip()]
        if cells and cells[0].isdigit():
            out.append(cells)
    return out


def test_games_of_a_club_history_are_listed_as_played_with_the_board_and_match_in_words(
    tmp_path, monkeypatch
):
    _wide(monkeypatch)
    path = str(tmp_path / "club.sqlite3")
    con = db.connect(path)
    # A club night's boards sync as they finish: the board whose id sorts last syncs its game first.
    _sync(con, "ff01", history(random.Random(1), 1))
    _sync(con, "aa02", history(random.Random(2), 3))
    r = runner.invoke(app, ["games", "--db", path])
    assert r.exit_code == 0, r.output
    rows = _rows(r.output)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"], r.output
    assert [row[2] for row in rows] == ["ff01", "aa02", "aa02", "aa02"], r.output
    assert [row[-1] for row in rows] == ["1, game 1", "1, game 1", "1, game 2", "1, game 3"], r.output


def test_stats_say_dash_for_an_average_over_no_hand(tmp_path, monkeypatch):
    _wide(monkeypatch)
    path = str(tmp_path / "h.sqlite3")
    con = db.connect(path)
    events = history(random.Random(4), 1)
    first_deal = events[: next(i for i, e in enumerate(events) if e["t"] == "deal")]
    # One deal: Cy (side 0) is pone and counts 7, Ann deals and counts 6; neither has the other role yet.
    assert [(e["s"], e["k"], e["n"]) for e in first_deal if e["t"] == "show"][:2] == [
        (0, "hand", 7),
        (1, "hand", 6),
    ]
    _sync(con, "ab12", first_deal)
    r = runner.invoke(app, ["stats", "--db", path])
    assert r.exit_code == 0, r.output
    row = next(line for line in r.output.splitlines() if "as dealer / pone" in line)
    cells = [c.strip() for c in row.split("│")]
    header = next(line for line in r.output.splitlines() if "Ann" in line and "Cy" in line)
    assert header.index("Ann") < header.index("Cy"), header
    assert cells[-3:-1] == ["6.00 / -", "- / 7.00"], row
    margins = next(line for line in r.output.splitlines() if "margin won / lost by" in line)
    assert [c.strip() for c in margins.split("│")][-3:-1] == ["- / -", "- / -"], margins  # no game is over


def test_sync_says_one_game_replayed(tmp_path, monkeypatch):
    _wide(monkeypatch)
    journal_path = write_journal(str(tmp_path / "journal.log"), history(random.Random(5), 1))
    with LinkServer(journal_path) as server:
        r = runner.invoke(app, ["sync", "--port", server.url, "--db", str(tmp_path / "h.sqlite3")])
    assert r.exit_code == 0, r.output
    assert "1 game replayed with the core, 0 flagged" in r.output, r.output


def test_a_scorecard_for_a_name_not_in_the_night_names_the_close_ones_and_fails(tmp_path, monkeypatch):
    _wide(monkeypatch)
    path = str(tmp_path / "club.sqlite3")
    con = db.connect(path)
    clubdb.open_night(con, "Tuesday", ["Ann", "Bob", "Cy", "Di"], ["ab12", "cd34"], games=3, now=0)
    r = runner.invoke(app, ["club", "scorecard", "Anne", "--db", path])
    assert r.exit_code == 1, r.output
    assert "Anne is not in night 1 (Tuesday): did you mean Ann?" in r.output, r.output
    r = runner.invoke(app, ["club", "scorecard", "bob", "--db", path])
    assert r.exit_code == 1 and "did you mean Bob?" in r.output, r.output
    r = runner.invoke(app, ["club", "scorecard", "Zed", "--db", path])
    assert r.exit_code == 1 and "its players: Ann, Bob, Cy, Di" in r.output, r.output
    r = runner.invoke(app, ["club", "scorecard", "Ann", "--db", path])  # in the night, no game yet
    assert r.exit_code == 0 and "Tuesday: Ann" in r.output, r.output
