# Regression: tests that start the simulator compiled it into the one shared build/sim (sim/launch.py's
# DEST), so two test processes at once raced: one rewrote or pruned .mpy files while the other's sim
# imported them. Each test process now builds into its own temporary folder (tests/support/simbuild.py).
import os
import subprocess
import sys

import simbuild

HERE = os.path.dirname(os.path.abspath(__file__))


def _main_py(cmd):
    return [a for a in cmd if a.endswith("main.py")][0]


def test_parallel_test_runs_do_not_share_build_sim():
    mine = _main_py(simbuild.command("--headless", "--link", "0"))
    assert os.path.dirname(mine) == simbuild.build_dir()
    assert not mine.startswith(os.path.join(simbuild.ROOT, "build") + os.sep)
    assert os.path.exists(mine)
    # Another test process (pytest in a second terminal) gets a folder of its own, gone when it ends.
    code = "import simbuild; print([a for a in simbuild.command('--headless') if a.endswith('main.py')][0])"
    r = subprocess.run(
        [sys.executable, "-c", code],
        cwd=HERE,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(simbuild.__file__), simbuild.ROOT])),
    )
    assert r.returncode == 0, r.stderr
    theirs = r.stdout.strip()
    assert theirs.endswith("main.py") and os.path.dirname(theirs) != os.path.dirname(mine)
    assert not os.path.exists(os.path.dirname(theirs))  # removed when that process ended


def test_the_launcher_still_scales_the_heap_and_names_the_board():
    cmd = simbuild.command("--heap", "200k", "--headless", "--link", "0", "--code", "ram")
    launcher = simbuild.launcher
    hal = launcher.SIM_HAL["ram"] - launcher.PICO_HAL["ram"]  # the sim's HAL beyond the Pico's, on top
    assert cmd[1:3] == ["-X", "heapsize=%d" % (int(200 * 1024 * launcher.HEAP_RATIO) + hal)]
    assert cmd[cmd.index("--hal") + 1] == str(hal)
    # hardware/board.json, copied beside main.py with the cache the board boots from (as deploy does)
    board = cmd[cmd.index("--board") + 1]
    assert board == os.path.join(simbuild.build_dir(), "board.json")
    with open(board, "rb") as f, open(os.path.join(simbuild.ROOT, "hardware", "board.json"), "rb") as g:
        assert f.read() == g.read()
    assert os.path.exists(os.path.join(simbuild.build_dir(), "board.cache"))


def test_code_in_rom_gets_the_same_heap_plus_the_image_it_holds_as_flash():
    launcher = simbuild.launcher
    cmd = simbuild.command("--heap", "200k", "--headless", "--link", "0")  # rom: the default
    boot = cmd.index(os.path.join(simbuild.ROOT, "sim", "boot.py"))
    image = cmd[boot + 1]
    size = os.path.getsize(image)
    asked = int(cmd[2].split("=")[1])
    flash = int((size + launcher.ROM_OVERHEAD) * launcher.GC_TABLES)
    hal = launcher.SIM_HAL["rom"] - launcher.PICO_HAL["rom"]
    assert asked == int(200 * 1024 * launcher.HEAP_RATIO) + hal + flash
    assert cmd[boot + 2].endswith("main.py") and cmd[cmd.index("--code") + 1] == "rom"
