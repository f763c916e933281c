# `crib club` as a director types it: board ids checked, names printed as text, nothing from a typo.
from rich.console import Console
from test_crib_untrusted import BOARD, clean, history
from typer.testing import CliRunner

from crib.cli import app, common

runner = CliRunner()
common.console = Console(width=200)


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


def test_names_with_control_characters_are_refused_and_an_older_nights_are_printed_as_text(tmp_path):
    path, con = history(tmp_path, ["Ann", "Bob"])
    night = ["club", "night", "Tue", "--games", "1", "--board", BOARD, "--db", path]
    r = clean(runner.invoke(app, night + ["--player", "Ann\x1b[2J", "--player", "Bob"]))
    assert r.exit_code == 1 and "Ann\\x1b[2J: a name takes no control characters" in r.said
    assert "\x1b" not in r.output and _nights(con) == 0
    r = clean(runner.invoke(app, night + ["--player", "Ann", "--player", "Bob"]))
    assert r.exit_code == 0
    with con:  # a night an older crib registered, its names as the director typed them
        con.execute("UPDATE club_nights SET name='Tue\x1b]0;pwned\x07'")
        con.execute("UPDATE club_tables SET a='Ann\x1b[31m', b='Bob\r'")
    for args in (["schedule"], ["standings"], ["scorecard", "Ann\x1b[31m"], ["season"], ["pots"]):
        r = clean(runner.invoke(app, ["club", *args, "--db", path]))
        assert r.exit_code == 0, (args, r.output)
        assert "\x1b" not in r.output and "\r" not in r.output and "\x07" not in r.output, args
    r = clean(runner.invoke(app, ["club", "schedule", "--db", path]))
    assert "Ann\\x1b[31m" in r.said and "Bob\\x0d" in r.said
    r = clean(runner.invoke(app, ["club", "standings", "--db", path]))
    assert "Tue\\x1b]0;pwned\\x07: standings" in r.said


def test_serve_with_a_history_that_is_not_there_says_so_in_its_own_words(tmp_path):
    missing = str(tmp_path / "nowhere" / "history.db")
    r = clean(runner.invoke(app, ["serve", "--db", missing, "--port", "1"]))
    assert r.exit_code == 1 and r.said.startswith("crib: no history at "), r.said
    assert "crib club" not in r.said and "scoreboard:" not in r.output
    assert not (tmp_path / "nowhere").exists()
