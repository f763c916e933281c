# `crib export -o FILE` replaces FILE only with a whole export: one that fails leaves the last one.
import json
import os

from test_crib_untrusted import clean, history
from typer.testing import CliRunner

from crib.cli import app
from crib.history import export

runner = CliRunner()


def test_an_export_interrupted_half_way_leaves_the_previous_file(tmp_path, monkeypatch):
    path, _con = history(tmp_path, ["Ann", "Bob"])
    out = str(tmp_path / "games.csv")
    r = clean(runner.invoke(app, ["export", "--csv", "--db", path, "-o", out]))
    assert r.exit_code == 0 and "wrote 6 rows" in r.said
    with open(out, "rb") as f:
        good = f.read()
    os.chmod(out, 0o640)
    real, rows = export.item_text, []

    def ctrl_c_on_the_fourth_row(*args):
        rows.append(args)
        if len(rows) == 4:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(export, "item_text", ctrl_c_on_the_fourth_row)
    r = clean(runner.invoke(app, ["export", "--csv", "--db", path, "-o", out]))
    with open(out, "rb") as f:
        assert f.read() == good
    assert r.exit_code == 130 and "interrupted: %s is left as it was" % out in r.said
    assert sorted(os.listdir(tmp_path)) == ["games.csv", "h.sqlite3", "h.sqlite3-shm", "h.sqlite3-wal"]
    monkeypatch.setattr(export, "item_text", real)
    r = clean(runner.invoke(app, ["export", "--json", "--db", path, "-o", out]))
    with open(out) as f:
        assert r.exit_code == 0 and len(json.load(f)["games"]) == 1
    assert os.stat(out).st_mode & 0o777 == 0o640  # the file replaced keeps its mode
