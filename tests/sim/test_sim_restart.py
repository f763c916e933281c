# The sim's flash is a littlefs image in its data folder: quitting is a power cut, and the next run
# boots from the journal it left, as the board does.
import os

from test_sim_match import run_sim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return str(path)


def test_quit_mid_game_then_restart_keeps_the_journal(tmp_path):
    data = tmp_path / "data"
    first = write(
        tmp_path / "first.script",
        "\n".join(
            [
                "cards 4H TD",  # the cut: red (player 1) cuts the 4, deals
                "key OK",
                "key OK",  # no starter keyed: peg on the holes
                "key OK",
                "tap blue 9",
                "key OK",  # blue's hand: 9
                "tap red 14",
                "key OK",  # red's hand: 14
                "+500 quit",  # power cut: no end-of-script checks, nothing saved on the way out
                "expect score 1 1",  # never reached
            ]
        )
        + "\n",
    )
    r = run_sim(data, "--script", first, "--fresh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "quit (power cut)" in r.stdout
    assert "expectations" not in r.stdout
    assert os.path.getsize(data / "flash.img") == 352 * 4096

    second = write(tmp_path / "second.script", "+300 wait 0\nexpect score 14 9\n")
    r = run_sim(data, "--script", second)  # no --fresh: the same flash
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "journal: 4 records replayed" in out, out  # set-up, cut and the two hands
    assert "final: red 14  blue 9" in out, out
    assert "expectations: 1 checked, 0 failed" in out, out

    # --fresh erases the flash: a new board.
    r = run_sim(data, "--script", second, "--fresh")
    assert "final: red 0  blue 0" in r.stdout, r.stdout
    assert r.returncode == 1
    assert "EXPECT FAILED: score 0 0, expected 14 9" in r.stdout


def test_a_bad_script_line_is_named_before_anything_runs(tmp_path):
    bad = write(tmp_path / "bad.script", "key OK\ntap purple 3\n")
    r = run_sim(tmp_path / "data", "--script", bad, "--fresh")
    assert r.returncode != 0
    assert "bad.script:2: no side 'purple'" in r.stdout + r.stderr
