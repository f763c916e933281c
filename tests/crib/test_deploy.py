# `make deploy` without a board: the build for each chip, the changed-files plan, the dry run, and
# the hashing script the board runs (run here on the unix port against a folder laid out like one).
import hashlib
import json
import os
import subprocess
import sys

import pytest

from tools import build, deploy, unixport

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_micropython(script, *path):
    """The unix port's stdout for a script file importing from these folders; the script must succeed."""
    cmd = [unixport.MICROPYTHON, str(script)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=unixport.env(*path))
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_plan_copies_new_and_changed_deletes_only_our_stale_files():
    local = {"main.py": "a", "board/app.mpy": "b", "cribbage/cards.mpy": "c", "board.json": "d"}
    device = {
        "main.py": "a",  # same: stays
        "board/app.mpy": "old",  # changed
        "board/gone.mpy": "x",  # a module we no longer ship: stale
        "hal/sim.mpy": "y",  # an old firmware's simulator module: it never belonged on the board
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
        files = dict(build.compile_tree(str(tmp_path / march), march=march))
        assert "main.py" in files and "hal/rp2.mpy" in files and "board/app.mpy" in files
        assert not any(p.startswith("sim/") for p in files)  # the simulator never ships
        # The LED packer is viper: native code for the chip. Bytecode-only modules carry no arch.
        assert build.mpy_arch(files["hal/ws2812.mpy"]) == arch
        assert build.mpy_arch(files["cribbage/cards.mpy"]) == 0
        with open(files["main.py"], "rb") as f, open(os.path.join(ROOT, "firmware", "main.py"), "rb") as g:
            assert f.read() == g.read()  # main.py goes as source


def run_dry(manifest, *more):
    """python -m tools.deploy --dry-run for the Pico's arch against a saved manifest: the finished process."""
    cmd = [
        sys.executable,
        "-m",
        "tools.deploy",
        "--dry-run",
        "--march",
        "armv6m",
        "--manifest",
        str(manifest),
        *more,
    ]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def test_dry_run_lists_everything_first_then_only_what_changed(tmp_path):
    manifest = tmp_path / "manifest.json"
    out = run_dry(manifest).stdout
    _, files = deploy.local_files("armv6m")
    # Everything, and the display driver compiled from the laptop tools' copy (no mip, no network).
    assert "%d of %d files to copy" % (len(files) + 1, len(files) + 1) in out
    assert "  copy   main.py" in out and "  copy   board.json" in out and "  copy   lib/ssd1306.mpy" in out
    # As if the last deploy sent everything, then one module and the board file changed since.
    sent = {p: deploy.sha256(f) for p, f in files.items()}
    sent["cribbage/play.mpy"] = "0" * 64
    sent["board.json"] = "1" * 64
    sent["board/retired.mpy"] = "2" * 64
    sent[deploy.DRIVER] = "3" * 64
    manifest.write_text(json.dumps(sent))
    out = run_dry(manifest).stdout
    assert "2 of %d files to copy, 1 to delete" % len(files) in out, out
    lines = [line.strip() for line in out.splitlines()[1:]]
    assert lines == ["copy   board.json", "copy   cribbage/play.mpy", "delete board/retired.mpy"], out


def test_the_boards_hashing_script_on_the_unix_port(tmp_path):
    board = tmp_path / "board"
    for rel, data in (
        ("main.py", b"print(1)\n"),
        ("board.json", b"{}"),
        ("board/app.mpy", b"M\x06"),
        ("hal/rp2.mpy", b"M\x06\x13"),
        ("lib/ssd1306.mpy", b"drv"),
        ("data/journal.log", b"j"),
        ("boot.py", b"# mine"),
    ):
        path = board / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    script = tmp_path / "hashes.py"
    script.write_text(deploy.device_script(str(board) + "/"))
    out = run_micropython(script)
    got = json.loads(out.strip().splitlines()[-1])
    want = {
        rel: hashlib.sha256((board / rel).read_bytes()).hexdigest()
        for rel in ("main.py", "board.json", "board/app.mpy", "hal/rp2.mpy", "lib/ssd1306.mpy")
    }
    assert got == want  # the journal and the user's own files are not looked at


def _run_rom_script(tmp_path, image_size, partition=None):
    """deploy's ROM query on the unix port, with vfs faked as a board with that partition (or none)."""
    fake = ""
    if partition is not None:
        fake = (
            "import sys\nclass _Vfs:\n    @staticmethod\n    def rom_ioctl(op, *args):\n"
            "        return 1 if op == 1 else memoryview(bytearray(%r))\nsys.modules['vfs'] = _Vfs\n"
            % (partition,)
        )
    script = tmp_path / "rom.py"
    script.write_text(fake + deploy.rom_script(image_size))
    out = run_micropython(script)
    return json.loads(out.strip().splitlines()[-1])


def test_the_boards_rom_query_on_the_unix_port(tmp_path):
    image = b"\xd2\xcd\x31" + bytes(range(200))
    assert _run_rom_script(tmp_path, len(image)) == {"size": 0, "hash": None, "frozen": False}  # no ROM
    got = _run_rom_script(tmp_path, len(image), image + b"\xff" * 300)  # a partition holding that image
    assert got == {"size": len(image) + 300, "hash": hashlib.sha256(image).hexdigest(), "frozen": False}
    assert _run_rom_script(tmp_path, len(image), image[:100])["hash"] is None  # too small for the image


def test_a_board_with_a_rom_partition_gets_one_image_and_no_mpy_on_littlefs(tmp_path):
    dest, files = deploy.local_files("armv6m")
    image, image_hash, littlefs = deploy.rom_split(dest, files)
    assert sorted(littlefs) == ["board.cache", "board.json", "main.py"]
    with open(image, "rb") as f:
        assert f.read(3) == b"\xd2\xcd\x31"
    # The last deploy put the modules on littlefs; this one (the board now has a ROM partition) sends
    # the image and deletes those copies and their bundle, which would otherwise shadow it.
    manifest = tmp_path / "manifest.json"
    sent = {p: deploy.sha256(f) for p, f in files.items()}
    sent[deploy.DRIVER] = "3" * 64  # the driver went too, and stays
    manifest.write_text(json.dumps(sent))
    r = run_dry(manifest, "--code", "rom")
    assert "modules in ROM" in r.stdout and "to send" in r.stdout, r.stdout
    deleted = [line.split()[1] for line in r.stdout.splitlines() if line.strip().startswith("delete")]
    assert sorted(deleted) == sorted(p for p in files if p.endswith(".mpy") or p == "app.bundle"), r.stdout
    assert "copy" not in r.stdout.split("\n", 1)[1], r.stdout  # main.py and the board files are unchanged


def test_the_frozen_build_manifest_lists_every_board_module_and_no_sim_one():
    frozen = []
    calls = {}

    def package(path, files=None, base_path=".", opt=None):
        # As MicroPython's manifestfile: every .py under the folder, its sub-packages' too.
        folder = os.path.join(ROOT, "firmware", path)
        names = files
        if names is None:
            names = []
            for where, dirs, found in os.walk(folder):
                dirs[:] = [d for d in dirs if d != "__pycache__"]
                rel = os.path.relpath(where, folder).replace(os.sep, "/")
                names += [n if rel == "." else rel + "/" + n for n in found if n.endswith(".py")]
        frozen.extend(path + "/" + n for n in names)

    def module(path, base_path=".", opt=None):
        frozen.append(path)

    api = {
        "metadata": lambda **kw: calls.setdefault("metadata", kw),
        "package": package,
        "module": module,
        "include": lambda path: calls.setdefault("include", path),
        "require": lambda name: calls.setdefault("require", name),
    }
    with open(os.path.join(ROOT, "firmware", "manifest.py")) as f:
        exec(f.read(), api)
    assert sorted(frozen) == sorted(build.sources())  # what `make deploy` compiles
    assert calls["require"] == "ssd1306" and calls["include"] == "$(PORT_DIR)/boards/manifest.py"


def _no_mpremote(*args, **kw):
    raise AssertionError("mpremote was called with no board attached: %r" % (args,))


def test_no_board_attached_says_so_and_how_to_flash_a_new_pico(monkeypatch):
    # `make deploy` with no board said `mpremote: no device found`; nothing said MicroPython must be
    # on the Pico first.
    monkeypatch.setattr(deploy, "pico_ports", lambda: [])
    monkeypatch.setattr(deploy, "bootsel_drives", lambda: [])
    monkeypatch.setattr(deploy, "mpremote", _no_mpremote)
    with pytest.raises(SystemExit) as e:
        deploy.main([])
    said = str(e.value)
    assert "no board attached" in said and "BOOTSEL" in said and "docs/pico.md" in said
    with pytest.raises(SystemExit) as e:
        deploy.main(["--port", "/dev/ttyACM97"])
    assert "no board at /dev/ttyACM97" in str(e.value)
    monkeypatch.setattr(deploy, "bootsel_drives", lambda: ["/media/ann/RPI-RP2"])
    with pytest.raises(SystemExit) as e:
        deploy.main([])
    assert "BOOTSEL mode" in str(e.value) and ".uf2" in str(e.value)
    assert os.path.exists(os.path.join(ROOT, "docs", "pico.md"))


def test_a_dry_run_says_no_board_is_there(tmp_path):
    r = run_dry(tmp_path / "manifest.json")
    if not deploy.pico_ports():  # (a developer's machine may have a Pico plugged in)
        assert "dry run: no board attached" in r.stderr, r.stderr


def test_deploy_copies_the_driver_and_never_uses_mip(monkeypatch, tmp_path):
    calls = []

    def fake(port, *args, capture=False):
        calls.append(args)
        if capture is None:
            return subprocess.CompletedProcess(args, 0, "", "")
        if not capture:
            return 0
        script = args[1]
        if "_mpy" in script:
            return "4\n"  # armv6m
        if "rom_ioctl" in script:
            return json.dumps({"size": 0, "hash": None, "frozen": False}) + "\n"
        return "{}\n"  # a board with none of our files

    monkeypatch.setattr(deploy, "find_board", lambda port: "/dev/ttyACM0")
    monkeypatch.setattr(deploy, "mpremote", fake)
    assert deploy.main(["--manifest", str(tmp_path / "m.json"), "--no-reset"]) == 0
    flat = [a for c in calls for a in c]
    assert "mip" not in flat
    assert ":lib/ssd1306.mpy" in flat
    src = flat[flat.index(":lib/ssd1306.mpy") - 1]
    with open(src, "rb") as f:
        assert f.read(2) == b"M\x06"  # compiled by mpy-cross for the board
    assert json.loads((tmp_path / "m.json").read_text())[deploy.DRIVER] == deploy.sha256(src)


def test_the_driver_deploy_ships_draws_text_on_micropython(tmp_path):
    # The driver compiled as deploy compiles it, run on the unix port against a fake I2C bus: the
    # calls the Pico HAL makes (SSD1306_I2C(w, h, i2c, addr=), text, fill, show) reach the bus.
    assert deploy.driver_source() is not None, "make crib (the deploy group: micropython-ssd1306py)"
    lib = deploy.driver_file(str(tmp_path))
    script = tmp_path / "t.py"
    script.write_text(
        "class Bus:\n"
        "    def __init__(self): self.writes = []\n"
        "    def writeto(self, addr, buf): self.writes.append((addr, bytes(buf)))\n"
        "import ssd1306\n"
        "bus = Bus()\n"
        "d = ssd1306.SSD1306_I2C(128, 64, bus, addr=60)\n"
        "n = len(bus.writes)\n"
        "d.fill(0)\nd.text('P1', 0, 0, 1)\nd.show()\n"
        "frame = bus.writes[-1][1]\n"
        "print(n, len(frame), frame[0], sum(1 for b in frame[1:] if b), set(a for a, _ in bus.writes))\n"
    )
    out = run_micropython(script, os.path.dirname(lib))
    inits, size, lead, lit, addrs = out.split(None, 4)
    assert int(inits) > 20  # the display set up, command by command
    assert int(size) == 1 + 128 * 64 // 8 and int(lead) == 0x40  # one data transfer of the frame
    assert int(lit) > 4 and addrs.strip() == "{60}"  # 'P1' drawn, all to the display's address


def test_deploy_takes_another_board_file(tmp_path):
    """make deploy --board FILE: that board definition goes to the board as board.json (issue 10 item 7)."""
    with open(deploy.BOARD, "rb") as f:
        data = f.read()
    mine = tmp_path / "my-board.json"
    mine.write_bytes(data + b"\n\n")  # the same board, other bytes: told apart by its hash
    cmd = [
        sys.executable,
        "-m",
        "tools.deploy",
        "--dry-run",
        "--march",
        "armv6m",
        "--manifest",
        str(tmp_path / "manifest.json"),
        "--board",
        str(mine),
    ]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    _, files = deploy.local_files("armv6m", str(mine))
    with open(files["board.json"], "rb") as f:
        assert f.read() == data + b"\n\n"
    missing = subprocess.run(
        cmd[:-1] + [str(tmp_path / "none.json")], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert missing.returncode != 0 and "no such file" in missing.stderr
    deploy.local_files("armv6m")  # the build folder holds hardware/board.json again


def test_deploy_ships_every_module_in_one_bundle_codefs_serves_byte_for_byte(tmp_path):
    """The code bundle (issue 15: imports from one file, not three littlefs lookups a module) holds each
    compiled module the board gets, as compiled; main.py and codefs itself stay out (they load first)."""
    import codefs

    dest, files = deploy.local_files("armv6m")
    bundle = files["app.bundle"]
    fs = codefs.CodeFS(bundle)
    try:
        served = {e[0] for e in fs.ilistdir("/")}
        assert "start.mpy" in served and "board" in served and "main.py" not in served
        assert "codefs.mpy" not in served
        for rel, path in files.items():
            if rel.endswith(".mpy") and rel != "codefs.mpy":
                with open(path, "rb") as f:
                    assert fs.open("/" + rel, "rb").read() == f.read(), rel
    finally:
        fs.umount()
    assert "app.bundle" in deploy.OWNED_FILES and "codefs.mpy" in deploy.OWNED_FILES
    # a board with the modules in ROM or frozen gets no bundle: it would load them into the heap again
    _image, _hash, rest = deploy.rom_split(str(tmp_path), files)
    assert "app.bundle" not in rest


def test_the_rom_image_carries_the_display_driver_where_the_board_imports_from(tmp_path):
    # With the modules in ROM the driver went to lib/ on littlefs, and a Pico loaded its code into the
    # heap (about 1.9 KB of this port's): it is in the image now, at /rom, as a frozen build has it.
    dest, files = deploy.local_files("armv6m")
    image, _hash, littlefs = deploy.rom_split(dest, files)
    assert deploy.DRIVER not in littlefs
    script = tmp_path / "t.py"
    script.write_text(
        "import vfs\n"
        "f = open(%r, 'rb')\nflash = bytearray(f.read())\nf.close()\n"
        % image
        + "vfs.mount(vfs.VfsRom(flash), '/rom')\n"
        "import os\nprint(sorted(n for n in os.listdir('/rom') if n.endswith('.mpy')))\n"
        "import ssd1306\nprint(ssd1306.__file__, hasattr(ssd1306, 'SSD1306_I2C'))\n"
    )
    out = run_micropython(script, "/rom")  # the board's path: the image, mounted by the script
    top, where = out.strip().splitlines()
    assert "ssd1306.mpy" in top and "start.mpy" in top
    assert where == "/rom/ssd1306.mpy True"


def _traceback_line(tmp_path, monkeypatch, *argv):
    """The line a deployed module's traceback names (cards.parse_card refusing an empty card, on the
    unix port), compiled as `make deploy` compiles for the board with these options."""
    monkeypatch.setattr(build, "ROOT", str(tmp_path))  # the build folder under tmp_path
    o = deploy.parse(list(argv))
    dest, files = deploy.local_files(build.host_march(), o["board"], o["opt"])
    assert "cribbage/cards.mpy" in files
    code = "from cribbage import cards\ncards.parse_card('')\n"
    r = subprocess.run(
        [unixport.MICROPYTHON, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=unixport.env(dest),
    )
    out = r.stdout + r.stderr  # the unix port prints an uncaught traceback on stdout
    assert "CardError: bad card '': empty" in out, out
    return [ln for ln in out.splitlines() if 'File "cribbage.cards"' in ln][0]


def test_deploy_compiles_with_O3_and_lines_keeps_the_line_numbers(tmp_path, monkeypatch):
    # -O3 drops the bytecode's line-number tables (heap on a stock Pico): every frame says line 1;
    # --lines compiles without it, and the traceback names the raise (firmware/cribbage/cards.py).
    with open(os.path.join(ROOT, "firmware", "cribbage", "cards.py")) as f:
        where = [n for n, ln in enumerate(f, 1) if "bad card '': empty" in ln][0]
    assert _traceback_line(tmp_path / "o3", monkeypatch).endswith("line 1, in parse_card")
    assert _traceback_line(tmp_path / "lines", monkeypatch, "--lines").endswith(
        "line %d, in parse_card" % where
    )


def test_the_copy_step_asks_mpremote_for_no_hash_and_no_echo_and_prints_only_the_plan(
    monkeypatch, tmp_path, capsys
):
    # `make deploy` filled the console with mpremote's `cp` echo a file and, from its hash check of each
    # destination, a stat of files not on the board yet (printed as OSError ENOENT tracebacks by some
    # mpremote versions). The plan has compared the hashes already: the copy is forced and quiet.
    seen = {}

    def fake(port, *args, capture=False):
        if capture is None:
            seen["copy"] = args
            out = "".join("cp %s\n" % a for a in args if a.startswith(":"))  # what mpremote would echo
            return subprocess.CompletedProcess(args, 0, out, "Traceback (most recent call last):\n")
        if not capture:
            return 0
        if "_mpy" in args[1]:
            return "4\n"
        if "rom_ioctl" in args[1]:
            return json.dumps({"size": 0, "hash": None, "frozen": False}) + "\n"
        return json.dumps({"board/old.mpy": "x"}) + "\n"

    monkeypatch.setattr(deploy, "find_board", lambda port: "/dev/ttyACM0")
    monkeypatch.setattr(deploy, "mpremote", fake)
    assert deploy.main(["--manifest", str(tmp_path / "m.json"), "--no-reset"]) == 0
    chain = " ".join(seen["copy"]).split(" + ")
    cps = [c for c in chain if c.startswith("fs cp")]
    rms = [c for c in chain if c.startswith("fs rm")]
    assert cps and all(c.startswith("fs cp --force --no-verbose ") for c in cps), cps
    assert rms == ["fs rm --no-verbose :board/old.mpy"], rms
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0].startswith("deploy for armv6m, modules on littlefs") and lines[-1].startswith(
        "deployed: "
    )
    assert all(x.startswith(("  copy   ", "  delete ", "copying ")) for x in lines[1:-1]), lines
    assert "Traceback" not in out.out + out.err and "cp " not in out.out


def test_a_failed_copy_says_what_mpremote_said_and_how_to_resume(monkeypatch, tmp_path):
    def fake(port, *args, capture=False):
        if capture is None:
            return subprocess.CompletedProcess(
                args, 1, "", "mpremote: Error with transport:\nOSError: [Errno 28] ENOSPC\n"
            )
        if "_mpy" in args[1]:
            return "4\n"
        if "rom_ioctl" in args[1]:
            return json.dumps({"size": 0, "hash": None, "frozen": False}) + "\n"
        return "{}\n"

    monkeypatch.setattr(deploy, "find_board", lambda port: "/dev/ttyACM0")
    monkeypatch.setattr(deploy, "mpremote", fake)
    with pytest.raises(SystemExit) as e:
        deploy.main(["--manifest", str(tmp_path / "m.json"), "--no-reset"])
    assert str(e.value) == (
        "mpremote failed while copying (OSError: [Errno 28] ENOSPC): run make deploy again (it resumes)"
    )
    assert not (tmp_path / "m.json").exists()  # nothing recorded as sent
