# A game at a remote table synced from the board's journal like any game (crib sync): under both players'
# names, not as a game against the board, and the coach grades the player's discards from the six the
# table dealt.
import tableplay
from fakeport import FakePort
from linkfakes import journal
from rich.console import Console
from typer.testing import CliRunner

from board.link import Link
from crib.cli import app, common
from crib.history.replay import rebuild
from crib.history.stats import head_to_head, player_stats
from crib.history.sync import sync
from crib.link.client import LinkClient
from crib.store import db
from crib.tables import record
from cribbage.cards import format_cards
from cribbage.events import to_line
from cribbage.game import Match

runner = CliRunner()
common.console = Console(width=200)
common.err = Console(width=200, stderr=True)


CODE = "k7m2q9xw4r"  # a table's code; the board's seat 0 there has the tag db.table_tag(CODE, 0)


def _synced(tmp_path, seed=5):
    # A table match played through on a board journal (the table's moves as a bridge feeds them, the
    # player's keyed throw and lays, the board's own counts), then synced as crib sync does.
    j = journal()
    m = Match(tableplay.setup(tag=db.table_tag(CODE, 0), names=("Ann", "Bob")))
    j.append(to_line(m.setup))
    t = tableplay.Table(seed)
    done = tableplay.play(m, t, apply=lambda ev: _kept(j, m.apply(ev)))
    link = Link(j, None, board_id="ab12", firmware="t", form="six")
    path = str(tmp_path / "h.sqlite3")
    con = db.connect(path)
    sync(LinkClient(FakePort(link), timeout=0.5), con)
    rebuild(con, "ab12")
    return con, path, m, t, done


def _kept(j, ev):
    j.append(to_line(ev))
    return ev


def test_a_table_game_is_kept_under_both_names(tmp_path):
    con, path, m, _t, _done = _synced(tmp_path)
    games = db.games(con)
    assert len(games) == 1
    g = games[0]
    assert g["names"] == ["Ann", "Bob"]  # a game between players, not against the board
    assert g["solo"] == "table %d" % db.table_tag(CODE, 0)
    assert g["final"] == m.front and g["winner"] == m.winner and g["flagged"] == 0
    r = runner.invoke(app, ["games", "--db", path])
    assert r.exit_code == 0 and "Ann v Bob" in r.output and "the board" not in r.output, r.output
    h = head_to_head(con)
    assert [x["players"] for x in h] == [["Ann", "Bob"]]
    names = {s.name: s for s in player_stats(con)}
    assert sorted(names) == ["Ann", "Bob"] and names["Ann"].games == names["Bob"].games == 1


def test_the_coach_grades_each_table_discard_from_the_six_the_table_dealt(tmp_path):
    con, _path, m, t, done = _synced(tmp_path)
    games, _orphans, _last = rebuild(con, "ab12")
    g = games[0]
    shown = [ev for ev in done if ev["t"] == "show" and ev["k"] == "hand" and ev["s"] == 0]
    assert g.discards and len(g.discards) == len(shown)  # each deal that reached the player's show
    for d in g.discards:
        six = t.deal(m, d["deal"], 0 if d["dealer"] else 1)[0]  # the player's six, as the table dealt them
        assert d["dealt"] == format_cards(six)
        assert sorted((d["thrown"] + " " + d["kept"]).split()) == sorted(format_cards(six).split())
        assert sorted(d["thrown"].split()) == sorted(format_cards(six[:2]).split())  # places 0 and 1 thrown
        assert d["lost"] >= 0


def test_a_table_game_kept_from_its_record_too_is_one_game(tmp_path):
    # crib play keeps the table's game from its record (remote_games, with its proof); a crib sync of the
    # same board keeps its own copy: the views count it once, and another table's game stays.
    con, _path, _m, _t, _done = _synced(tmp_path)
    assert len(db.games(con)) == 1
    with con:
        con.execute(record.REMOTE)
        for code in ("other23456", CODE):
            con.execute(
                "INSERT INTO remote_games(board, code, server, names, seat, record, checked, stored) "
                "VALUES ($1, $2, 'http://127.0.0.1:8121', '[]', 0, '{}', 0, 0)",
                ("table-" + code, code),
            )
            if code != CODE:
                assert len(db.games(con)) == 1  # another table's record: this game stays
    assert db.games(con) == []  # its own record is kept: the board's copy is not counted again
    assert head_to_head(con) == [] and player_stats(con) == []
