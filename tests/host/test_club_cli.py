# `crib club` as a director types it: board ids checked, names printed as text, nothing from a typo.
from rich.console import Console
from test_crib_untrusted import BOARD, clean, history
from typer.testing import CliRunner

from crib import clubcli
from crib.cli import app

runner = CliRunner()
clubcli.console = Console(width=200)


def _nights(con):
    return con.execute("SELECT count(*) FROM club_nights").fetchone()[0]


def test_a_board_id_is_checked_and_a_board_never_seen_is_said(tmp_path):
    path, con = history(tmp_path, ["Ann", "Bob"])
    night = ["club", "night", "Tue", "--player", "Ann", "--player", "Bob", "--games", "1", "--db", path]
    for typo in ("board-1", "e661 4104", "", "x" * 300):
        r = clean(runner.invoke(app, night + ["--board", typo]))
        assert r.exit_code == 1 and "is not a board id" in r.said and "crib link hello" in r.said, typo
        assert len(r.output) < 400
    assert _nights(con) == 0  # a refused night registers nothing
    r = clean(runner.invoke(app, night + ["--board", BOARD.upper()]))
    assert r.exit_code == 0 and BOARD in r.output and "never synced" not in r.said
    typo = BOARD[:-1] + "c"
    r = clean(runner.invoke(app, night + ["--board", typo]))
    assert r.exit_code == 0 and "note: board %s has never synced into this history" % typo in r.said
    assert _nights(con) == 2
