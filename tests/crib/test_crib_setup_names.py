# A board's set-up names are held as a rename is (printable ASCII): a hostile board's escapes reach no
# export or terminal, and names an older crib stored are written as text.
import csv
import io

from test_crib_untrusted import BOARD, clean, history, stored_by_an_older_crib
from typer.testing import CliRunner

from crib.cli import app
from crib.history.replay import rebuild
from crib.store import db

runner = CliRunner()
HOSTILE = {"t": "setup", "v": 1, "form": "six", "fmt": "acc", "names": ["\x1b]0;pwned\x07", "Bob\x1b[2J"]}


def test_a_set_up_with_escapes_in_its_names_is_refused_and_flagged(tmp_path):
    path, con = history(tmp_path, ["Ann", "Bob"])
    db.add_events(con, BOARD, [{"seq": 10, "event": HOSTILE}, {"seq": 11, "event": {"t": "dealer", "s": 0}}])
    rebuild(con, BOARD)  # what crib sync does with what the board sent
    flagged = [g for g in db.games(con) if g["flagged"]]
    assert len(flagged) == 1 and "seq 10: the set-up is refused by the core" in flagged[0]["flag"]
    assert "ASCII signs only" in flagged[0]["flag"]
    r = clean(runner.invoke(app, ["export", "--csv", "--db", path]))
    assert r.exit_code == 0 and "\x1b" not in r.stdout and "\x07" not in r.stdout
    r = clean(runner.invoke(app, ["export", "--json", "--db", path]))
    assert r.exit_code == 0 and "\x1b" not in r.stdout  # the raw event is kept, JSON-escaped
    assert "\\u001b]0;pwned\\u0007" in r.stdout
    r = clean(runner.invoke(app, ["games", "--db", path]))
    assert r.exit_code == 0 and "\x1b" not in r.output and "P1 v P2" in r.output  # the core's names


def test_names_an_older_crib_stored_are_exported_as_text(tmp_path):
    path, con = history(tmp_path, ["Ann", "Bob"])
    stored_by_an_older_crib(con, ["=\x1b[31mAnn", "Bob\r\n"])
    r = clean(runner.invoke(app, ["export", "--csv", "--db", path]))
    names = {row["name"] for row in csv.DictReader(io.StringIO(r.stdout))}
    assert names == {"'=\\x1b[31mAnn", "Bob\\x0d\\x0a"}
