# The emulated Pico (../shared/rp2emu) from Python: start it, control it, deploy once, make littlefs images.
"""Used by `make test-device` (tests/device/) and `make bench-device` (bench/device.py).

    reason = emupico.missing()             # None, or why the emulator cannot run here (no rp2emu, Node 18+)
    with emupico.Pico(work, load_fs=img) as pico:
        pico.wait_runner("first lit LED frame")   # the runner's own messages, with device times
        pico.ctl("press 3 4")                     # a control-port command -> its answer line
        pico.url                                  # socket://127.0.0.1:PORT for crib, mpremote, deploy
    img = emupico.deploy(work)             # the firmware deployed with tools/deploy.py, as a littlefs image
    emupico.with_journal(img, out, lines)  # a copy of img holding /data/journal.log of those event lines

Ports are picked free by the OS, or from EMU_PORTS=LO-HI (a shared machine's range); every file goes
under the work folder given (keep it in build/).
"""

import json
import os
import re
import shutil
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RP2EMU = os.path.normpath(os.path.join(ROOT, "..", "shared", "rp2emu"))
BIN = os.path.join(ROOT, ".venv", "bin")
MICROPYTHON = os.path.join(BIN, "micropython")
BOARD_JSON = os.path.join(ROOT, "hardware", "board.json")
JOURNAL = "data/journal.log"  # hal.rp2.STORAGE + board.app.JOURNAL, relative to the littlefs root
FIRST_LIT = re.compile(r"first lit LED frame on the wire, ([0-9.]+) ms after chip reset")
CLOCK_FIX = "file://" + os.path.join(ROOT, "tools", "emupico_clock.mjs")
STAMP = re.compile(r"^\[rp2emu ([0-9.]+) ms\] ")


def until(fn, what, timeout=120):
    """fn()'s first true answer, polled in wall time (device time runs at the emulator's pace);
    TimeoutError naming what was waited for after timeout s."""
    deadline = time.monotonic() + timeout
    while True:
        got = fn()
        if got:
            return got
        if time.monotonic() > deadline:
            raise TimeoutError("no %s within %d s" % (what, timeout))
        time.sleep(0.05)


def missing():
    """Why the emulated Pico cannot run on this machine, or None when it can."""
    if not os.path.isfile(os.path.join(RP2EMU, "run-pico")):
        return "no emulated Pico: %s/run-pico not found (it lives beside the project in ../shared)" % RP2EMU
    node = shutil.which("node")
    if node is None:
        return "no Node.js: the emulated Pico needs node 18 or newer on PATH"
    out = subprocess.run([node, "-p", "process.versions.node"], capture_output=True, text=True)
    try:
        major = int(out.stdout.strip().split(".")[0])
    except ValueError:
        return "node did not say its version: %r" % (out.stdout + out.stderr)
    if major < 18:
        return "node %s is too old: the emulated Pico needs Node.js 18 or newer" % out.stdout.strip()
    if not os.access(MICROPYTHON, os.X_OK):
        return "no %s: run make venv first" % MICROPYTHON
    return None


_handed = set()  # ports given out by this process: the emulator binds them only later


def free_port():
    """A free TCP port: from EMU_PORTS ("LO-HI", this user's range on a shared machine) when set."""
    lo, _, hi = os.environ.get("EMU_PORTS", "0-0").partition("-")
    wanted = [p for p in range(int(lo), int(hi or lo) + 1) if p not in _handed] if int(lo) else [0]
    for port in wanted:
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
            port = s.getsockname()[1]
        except OSError:
            continue
        finally:
            s.close()
        if int(lo):
            _handed.add(port)
        return port
    raise RuntimeError("no free port left in EMU_PORTS=%s" % os.environ["EMU_PORTS"])


def board_sensor_on():
    """The chain bits that read present from the start: the board file's spare inputs tied to ground."""
    with open(BOARD_JSON) as f:
        raw = json.load(f)
    sensors = raw["sensors"]
    low = sensors.get("active_low", True)
    fixed = sensors.get("fixed", [])
    bits = [
        f[0] if isinstance(f, list) else f["bit"]
        for f in fixed
        if (f[1] if isinstance(f, list) else f["level"]) == (0 if low else 1)
    ]
    return bits or [126, 254, 382]


class Pico:
    """One run of the emulator: USB serial on a TCP port, the control port, console and runner logs."""

    def __init__(
        self, work, name="pico", load_fs=None, app_dir=None, dump_fs=None, extra=(), timeout=900, oled=True
    ):
        os.makedirs(work, exist_ok=True)
        self.work = work
        self.port = free_port()
        self.ctl_port = free_port()
        self.url = "socket://127.0.0.1:%d" % self.port
        self.console = os.path.join(work, name + "-console.log")
        self.runner_log = os.path.join(work, name + "-runner.log")
        for p in (self.console, self.runner_log):
            if os.path.exists(p):
                os.remove(p)
        cmd = [os.path.join(RP2EMU, "run-pico")]
        if app_dir:
            cmd.append(app_dir)
        cmd += [
            "--tcp",
            str(self.port),
            "--ctl",
            str(self.ctl_port),
            "--hc165",
            "--quiet",
            "--stamp",
            "--sensor-on",
            ",".join(str(b) for b in board_sensor_on()),
            "--log",
            self.console,
            "--timeout",
            str(timeout),
        ]
        if oled:
            cmd.append("--oled")  # without it nothing answers on I2C: a board whose display is missing
        if load_fs:
            cmd += ["--load-fs", load_fs]
        if dump_fs:
            cmd += ["--dump-fs", dump_fs]
        cmd += list(extra)
        env = dict(os.environ, MICROPYTHON=MICROPYTHON)
        # the clock fix for the runner's hang when the core sleeps during an LED DMA (tools/emupico_clock.mjs)
        env["NODE_OPTIONS"] = (env.get("NODE_OPTIONS", "") + " --import " + CLOCK_FIX).strip()
        self._err = open(self.runner_log, "wb")  # noqa: SIM115 (held for the emulator's life, closed in close())
        # run-pico execs node: this pid is the emulator's own
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self._err, env=env)
        self._sock = None
        self._file = None
        deadline = time.monotonic() + 60
        while True:
            try:
                self._sock = socket.create_connection(("127.0.0.1", self.ctl_port), timeout=120)
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("the emulator did not start: %s" % self.runner_text()[-2000:])
                time.sleep(0.1)
        self._file = self._sock.makefile("rwb")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def ctl(self, cmd):
        """One control-port command -> its answer line (RuntimeError for an `error:` answer)."""
        self._file.write((cmd + "\n").encode())
        self._file.flush()
        raw = self._file.readline()
        line = raw.decode().rstrip("\n")
        if not raw or line.startswith("error:"):  # b"": the control port closed
            raise RuntimeError("ctl %r: %r" % (cmd, line))
        return line

    def ctl_json(self, cmd):
        return json.loads(self.ctl(cmd))

    def time_ms(self):
        return float(self.ctl("time"))

    def runner_text(self):
        self._err.flush()
        with open(self.runner_log, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def console_text(self):
        try:
            with open(self.console, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def wait_runner(self, pattern, timeout=300, after=0):
        """The first match of regex pattern in the runner's messages from character `after` on."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            text = self.runner_text()
            m = rx.search(text, after)
            if m:
                return m
            if self.proc.poll() is not None:
                raise RuntimeError(
                    "the emulator stopped (exit %s) before %r:\n%s"
                    % (self.proc.returncode, pattern, text[-3000:])
                )
            if time.monotonic() > deadline:
                raise RuntimeError("no %r within %d s:\n%s" % (pattern, timeout, text[-3000:]))
            time.sleep(0.1)

    def stamped(self, text, after=0, timeout=300):
        """Device ms at which the console printed a line containing text (from --stamp)."""
        m = self.wait_runner(r"\[rp2emu ([0-9.]+) ms\] [^\n]*" + re.escape(text), timeout, after)
        return float(m.group(1))

    def first_lit(self, after=0, timeout=300):
        """Device ms from the chip's reset to its first lit LED frame on the wire."""
        return float(self.wait_runner(FIRST_LIT.pattern, timeout, after).group(1))

    def mark(self):
        """A position in the runner's messages: wait for what comes after it."""
        return len(self.runner_text())

    def quit(self):
        try:
            self.ctl("quit")
        except (OSError, RuntimeError):
            pass
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            pass
        self.close()

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._err.close()


def driver_app(work):
    """A folder holding lib/ssd1306.mpy compiled from rp2emu's copy of micropython-lib's driver, to
    pre-place the display driver offline (what `make deploy` would fetch with mip)."""
    app = os.path.join(work, "app")
    os.makedirs(os.path.join(app, "lib"), exist_ok=True)
    out = os.path.join(app, "lib", "ssd1306.mpy")
    src = os.path.join(RP2EMU, "ssd1306.py")
    subprocess.run([os.path.join(BIN, "mpy-cross"), "-O3", "-s", "ssd1306.py", src, "-o", out], check=True)
    return app


def deploy(work, out=None, log=None):
    """Deploy the firmware with `python -m tools.deploy` (as `make deploy`) to a blank emulated Pico whose
    only file is the display driver, let it boot once, and keep its littlefs: -> the image's path."""
    out = out or os.path.join(work, "deployed.img")
    app = driver_app(work)
    with Pico(work, "deploy", app_dir=app, dump_fs=out) as pico:
        mark = pico.mark()
        done = subprocess.run(
            [os.path.join(BIN, "python"), "-m", "tools.deploy", "--port", pico.url],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if log is not None:
            log.write(done.stdout + done.stderr)
        if done.returncode:
            raise RuntimeError("deploy failed (exit %d):\n%s%s" % (done.returncode, done.stdout, done.stderr))
        pico.stamped("records replayed", mark)
        pico.first_lit(mark)
        pico.quit()
    return out


# Empties folders of a littlefs image in place (argv: the image, then each folder): lfsimg.py has no remove.
_EMPTY = """
import os, sys, vfs
with open(sys.argv[1], "rb") as f:
    data = bytearray(f.read())
class Ram:
    def readblocks(self, n, buf, off=0):
        buf[:] = data[n * 4096 + off : n * 4096 + off + len(buf)]
    def writeblocks(self, n, buf, off=0):
        data[n * 4096 + off : n * 4096 + off + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 6:
            data[arg * 4096 : arg * 4096 + 4096] = b"\\xff" * 4096
        return {4: len(data) // 4096, 5: 4096}.get(op, 0)
vfs.mount(vfs.VfsLfs2(Ram(), progsize=256), "/img")
for folder in sys.argv[2:]:
    try:
        names = os.listdir("/img/" + folder)
    except OSError:
        continue
    for name in names:
        os.remove("/img/" + folder + "/" + name)
vfs.umount("/img")
with open(sys.argv[1], "wb") as f:
    f.write(data)
"""


def with_files(image, out, files, emptied=()):
    """A copy of image with files ({board path: bytes}) written into its littlefs (lfsimg.py add), the
    folders in emptied (board paths) emptied first."""
    stage = out + ".d"
    shutil.rmtree(stage, ignore_errors=True)
    for path, data in files.items():
        full = os.path.join(stage, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    shutil.copyfile(image, out)
    if emptied:
        subprocess.run(
            [MICROPYTHON, "-X", "heapsize=16m", "-c", _EMPTY, out] + list(emptied),
            check=True,
            capture_output=True,
        )
    subprocess.run(
        [MICROPYTHON, "-X", "heapsize=16m", os.path.join(RP2EMU, "lfsimg.py"), "add", out, stage],
        check=True,
        capture_output=True,
    )
    shutil.rmtree(stage)
    return out


def journal_bytes(lines, work):
    """The bytes of a board journal holding these event lines from seq 1, written by the firmware's own
    board.store.journal (CPython runs it too)."""
    from board.store.journal import Journal

    path = os.path.join(work, "journal.tmp")
    if os.path.exists(path):
        os.remove(path)
    # and the seq mark a journal made here before: it would hold the seqs given out then (journal v2)
    shutil.rmtree(path + ".seq", ignore_errors=True)
    j = Journal(path, max_bytes=1 << 30)
    j.open()
    j.compact(list(lines), 1)
    j.close()
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    shutil.rmtree(path + ".seq", ignore_errors=True)
    return data


def checkpoint_bytes(lines, upto, work):
    """The boot checkpoint the firmware's board.store.commit writes (Commit.save, CPython runs it too) for a
    journal of the first `upto` of these event lines (the match's set-up first)."""
    from board.store.commit import Commit
    from board.store.journal import Journal

    folder = os.path.join(work, "checkpoint.d")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    path = os.path.join(folder, "journal.log")
    with open(path, "wb") as f:
        f.write(journal_bytes(lines[:upto], work))
    book = Commit(Journal(path, max_bytes=1 << 30), None, lambda text: None)
    book.boot(None)
    if book.count != upto or not book.save():
        raise RuntimeError("no checkpoint made of %d records (%d replayed)" % (upto, book.count))
    book.journal.close()
    with open(path + ".checkpoint", "rb") as f:
        data = f.read()
    shutil.rmtree(folder)
    return data


class _BootHal:
    """What the App's set-up asks of a HAL (board.app.App.__init__): storage, the ticks and the log."""

    def __init__(self, storage_dir):
        self.storage_dir = storage_dir

    def ticks_ms(self):
        return 0

    def log(self, text):
        pass


def seq_mark(data, work):
    """The name of the seq mark a board whose journal holds data (its bytes) has on flash: written by the
    firmware's own App (CPython runs it too) as it boots that journal, the note with the pegs included."""
    from board import app
    from board.boarddef import boardfile

    folder = os.path.join(work, "mark.d")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    with open(folder + app.JOURNAL, "wb") as f:
        f.write(data)
    running = app.App(_BootHal(folder), boardfile.load(BOARD_JSON))
    running.journal.close()
    names = os.listdir(folder + app.JOURNAL + ".seq")
    shutil.rmtree(folder)
    if len(names) != 1:
        raise RuntimeError("seq marks %r" % (names,))
    return names[0]


def with_journal(image, out, lines, work, checkpoint=0):
    """A copy of image holding a journal of these event lines and the seq mark the board writes for it
    (and with checkpoint > 0, the boot checkpoint the board would have written after that many of them)."""
    data = journal_bytes(lines, work)
    files = {JOURNAL: data, JOURNAL + ".seq/" + seq_mark(data, work): b""}
    if checkpoint:
        files[JOURNAL + ".checkpoint"] = checkpoint_bytes(lines, checkpoint, work)
    return with_files(image, out, files, [JOURNAL + ".seq"])


def mpremote(url, *args, timeout=300):
    """mpremote connect url args... -> CompletedProcess (text)."""
    return subprocess.run(
        [os.path.join(BIN, "mpremote"), "connect", url] + list(args),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
