# The build warns when a board file's side colours fail the colour-vision check, and builds anyway.
import json
from pathlib import Path

from tools import build

BOARD = Path(__file__).parents[2] / "hardware" / "board.json"


def test_a_bad_board_file_is_warned_of_at_build_naming_the_pair(tmp_path, capsys):
    data = json.loads(BOARD.read_text())
    data["sides"]["colours"] = [[255, 0, 0], [0, 64, 255], [0, 255, 0]]
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(data))
    out = build.board_files(str(src), str(tmp_path / "out"))
    err = capsys.readouterr().err
    assert "warning: board file: red and green look alike with deuteranopia at brightness 64" in err
    assert Path(out).exists()


def test_the_reference_board_builds_without_a_warning(tmp_path, capsys):
    build.board_files(str(BOARD), str(tmp_path / "out"))
    assert "warning" not in capsys.readouterr().err
