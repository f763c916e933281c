# `make deploy` without a board: the build for each chip, the changed-files plan, the dry run, and
# the hashing script the board runs (run here on the unix port against a folder laid out like one).
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import deploy  # noqa: E402

import build  # noqa: E402


def test_plan_copies_new_and_changed_deletes_only_our_stale_files():
    local = {"main.py": "a", "board/app.mpy": "b", "cribbage/cards.mpy": "c", "board.json": "d"}
    device = {
        "main.py": "a",  # same: stays
        "board/app.mpy": "old",  # changed
        "board/gone.mpy": "x",  # a module we no longer ship: stale
        "hal/sim.mpy": "y",  # the simulator never belongs on the board
        "lib/ssd1306.mpy": "z",  # the driver mip installed: not ours to delete
        "data/journal.log": "j",  # the game: never touched
        "boot.py": "k",  # the user's own file: not ours
    }
    copy, delete = deploy.plan(local, device)
    assert copy == ["board.json", "board/app.mpy", "cribbage/cards.mpy"]
    assert delete == ["board/gone.mpy", "hal/sim.mpy"]
    assert deploy.plan(local, dict(local)) == ([], [])


def test_build_for_each_chip_marks_native_code_with_its_arch(tmp_path):
    for march, arch in (("armv6m", 4), ("armv7emsp", 7)):
        files = dict(build.compile_tree(str(tmp_path / march), march=march, exclude=build.SIM_ONLY))
        assert "main.py" in files and "hal/rp2.mpy" in files and "board/app.mpy" in files
        assert not any(p.startswith("hal/sim") or p == "hal/term.mpy" for p in files)
        # The LED packer is viper: native code for the chip. Bytecode-only modules carry no arch.
        assert build.mpy_arch(files["hal/ws2812.mpy"]) == arch
        assert build.mpy_arch(files["cribbage/cards.mpy"]) == 0
        with open(files["main.py"], "rb") as f, open(os.path.join(ROOT, "firmware", "main.py"), "rb") as g:
            assert f.read() == g.read()  # main.py goes as source


def run_dry(manifest):
    cmd = [sys.executable, os.path.join(ROOT, "tools", "deploy.py"), "--dry-run", "--march", "armv6m",
           "--manifest", str(manifest)]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_dry_run_lists_everything_first_then_only_what_changed(tmp_path):
    manifest = tmp_path / "manifest.json"
    out = run_dry(manifest)
    _, files = deploy.local_files("armv6m")
    assert "%d of %d files to copy" % (len(files), len(files)) in out
    assert "  copy   main.py" in out and "  copy   board.json" in out and "ssd1306 to install" in out
    # As if the last deploy sent everything, then one module and the board file changed since.
    sent = {p: deploy.sha256(f) for p, f in files.items()}
    sent["cribbage/play.mpy"] = "0" * 64
    sent["board.json"] = "1" * 64
    sent["board/retired.mpy"] = "2" * 64
    sent[deploy.DRIVER] = "3" * 64
    manifest.write_text(json.dumps(sent))
    out = run_dry(manifest)
    assert "2 of %d files to copy, 1 to delete" % len(files) in out, out
    lines = [line.strip() for line in out.splitlines()[1:]]
    assert lines == ["copy   board.json", "copy   cribbage/play.mpy", "delete board/retired.mpy"], out


def test_the_boards_hashing_script_on_the_unix_port(tmp_path):
    board = tmp_path / "board"
    for rel, data in (("main.py", b"print(1)\n"), ("board.json", b"{}"), ("board/app.mpy", b"M\x06"),
                      ("hal/rp2.mpy", b"M\x06\x13"), ("lib/ssd1306.mpy", b"drv"), ("data/journal.log", b"j"),
                      ("boot.py", b"# mine")):
        path = board / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    script = tmp_path / "hashes.py"
    script.write_text(deploy.device_script(str(board) + "/"))
    r = subprocess.run([os.path.join(build.BIN, "micropython"), str(script)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    want = {rel: hashlib.sha256((board / rel).read_bytes()).hexdigest()
            for rel in ("main.py", "board.json", "board/app.mpy", "hal/rp2.mpy", "lib/ssd1306.mpy")}
    assert got == want  # the journal and the user's own files are not looked at
