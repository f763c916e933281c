# Scripts play on a flash of their own, and two simulators never share one. Pins down: after a game
# played by hand, the README's `make sim ARGS="--script sim/demo.script"` replayed over sim-data/
# (its expectations failed, the match script rewrote the journal: the game was gone), and a second
# `make sim` on the same flash ran too (both wrote it; the only sign a "port 7373 not available" log).
import os
import subprocess
import sys

import pytest
import simbuild

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
launcher = simbuild.launcher


def _value(cmd, name):
    return cmd[cmd.index(name) + 1] if name in cmd else None


def test_a_script_gets_a_fresh_flash_of_its_own_unless_told(monkeypatch, tmp_path):
    monkeypatch.setattr(launcher, "SCRIPT_DATA", str(tmp_path / "scripts"))
    cmd = simbuild.command("--script", "sim/demo.script", "--headless")
    assert _value(cmd, "--data") == str(tmp_path / "scripts" / "demo") and "--fresh" in cmd
    told = simbuild.command("--script", "sim/demo.script", "--headless", "--data", "mine")
    assert _value(told, "--data") == "mine" and "--fresh" not in told
    assert "--data" not in simbuild.command("--headless")  # by hand: the user's own sim-data


def test_the_demo_after_a_game_by_hand_leaves_that_game(monkeypatch, tmp_path):
    # A game "by hand": a script told to play on the user's sim-data (as keys typed would).
    home = tmp_path / "home"
    home.mkdir()
    game = os.path.join(ROOT, "sim", "demo.script")
    by_hand = simbuild.command("--headless", "--script", game, "--data", str(home / "sim-data"))
    r = subprocess.run(by_hand, cwd=str(home), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    image = home / "sim-data" / "flash.img"
    before = image.read_bytes()
    # The README's demo, run from the same folder, told nothing about where to play.
    monkeypatch.setattr(launcher, "SCRIPT_DATA", str(tmp_path / "scripts"))
    demo = simbuild.command("--headless", "--script", game)
    r = subprocess.run(demo, cwd=str(home), capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and "0 failed" in out, out[-2000:]
    assert image.read_bytes() == before  # the game by hand is still there, untouched
    assert (tmp_path / "scripts" / "demo" / "flash.img").exists()
    # And again: a fresh flash each time, so the demo's expectations hold every run.
    r = subprocess.run(demo, cwd=str(home), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "0 failed" in r.stdout + r.stderr


def test_a_second_simulator_on_one_flash_is_refused(tmp_path):
    data = str(tmp_path / "sim-data")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from sim import launch; launch.lock_flash(%r); print('held', flush=True); "
            "sys.stdin.read()" % data,
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(SystemExit) as e:
            launcher.lock_flash(data)
        said = str(e.value)
        assert "another simulator (pid %d)" % holder.pid in said and "--data" in said
    finally:
        holder.stdin.close()
        holder.wait(30)
    fd = launcher.lock_flash(data)  # gone with its process: free again
    os.close(fd)
