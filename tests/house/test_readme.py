# The README's command blocks, run in the order it gives them on a fresh copy of the repo (no .venv, no
# build, no history): what a newcomer types must work as typed. Each ```sh line runs in the copy with a
# shell, as a user would paste it; HOW below says which commands cannot run as typed here, how each is
# run instead and why. Nothing is skipped: a command the README gains runs as typed and must exit 0.
import contextlib
import fcntl
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import termios
import time
import urllib.request

from crib.link import ports
from crib.link.client import LinkClient

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
CSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")

# command as the README gives it (its comment dropped) -> (how it is run here, why)
HOW = {
    "make sim": (
        "terminal",
        "interactive: in a 139x27 pseudo-terminal until the board has booted (its journal line), then "
        "Ctrl-C, which the README says quits",
    ),
    "make test": (
        "dry run",
        "this test is part of make test, which would run it again: `make -n test` must plan the whole "
        "suite. The blocks after it must work without the developer tools it installs",
    ),
    'make sim ARGS="--script sim/demo.script --realtime"': (
        "terminal",
        "the board drawn in real time: in a 139x27 pseudo-terminal, to the script's end",
    ),
    ".venv/bin/crib ports": ("boards", "needs boards: two simulated ones run beside it (see BOARDS)"),
    ".venv/bin/crib sync": (
        "port",
        "with two simulators running, auto asks which (and other test runs on this machine may run "
        "simulators too): --port names the first of ours",
    ),
    ".venv/bin/crib watch": (
        "terminal, port",
        "interactive: in a pseudo-terminal on our first board (--port) until it shows the board's "
        "match, then Ctrl-C",
    ),
    ".venv/bin/crib serve --host 0.0.0.0": (
        "server",
        "runs until stopped: on a free --port (8121 may be taken on this machine) until its page "
        "answers 200, then Ctrl-C",
    ),
    "make deploy": (
        "no board",
        "needs a Pico (make test-device deploys to the emulated one): with none attached it must say so "
        "and how to put MicroPython on a new one; a Pico plugged into this machine is never written to "
        "(PORT names a device that is not there)",
    ),
}
NO_BOARD = "/dev/readme-doctest-no-such-board"
# How a command stopped with Ctrl-C may end: 0, or as the shell reports an interrupt (by SIGINT, 130).
STOPPED = (0, -signal.SIGINT, 128 + signal.SIGINT)
# Words of the README that stand for what only the reader knows: the club's server, the boards' ids.
PLACEHOLDERS = ("postgresql://club@server/crib", "ID1", "ID2")
# BOARDS: before the first command that needs a board, board 1's flash plays sim/match3.script (three
# games, so `crib show 3` and `crib plot 3` have their game), then boards 1 and 2 run headless with their
# links on free ports among the simulator's (7373-7472, where crib ports looks), as `make sim` does.


def sh_blocks(text):
    """The commands of the ```sh blocks, in order: [(line number, command without its comment)]."""
    out, inside = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            inside = line.strip() == "```sh" if not inside else False
            continue
        if inside and line.strip():
            out.append((n, _code(line)))
    return out


def _code(line):
    """The line up to its comment: the first # outside quotes that starts a word, as the shell reads it."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].strip()
    return line.strip()


def fresh_copy(dest):
    """The repo's files as a clone has them (tracked, and new ones not ignored), without .venv or build."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        src = os.path.join(ROOT, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))
    return dest


def clean_env(home):
    """A newcomer's shell: no active venv or outer make, crib's history in a folder of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CRIB_DB", "PYTHONPATH")}
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(k, None)
    venv = os.path.join(ROOT, ".venv")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(venv))
    env["XDG_DATA_HOME"] = os.path.join(home, "data")  # crib's default history (db.default_path)
    return env


def run(cmd, cwd, env, timeout=900):
    r = subprocess.run(cmd, shell=True, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def in_terminal(cmd, cwd, env, until=None, timeout=180, cols=139, rows=27):
    """cmd in a pseudo-terminal of cols x rows: Ctrl-C once `until` is on the screen (None: run to its
    end). -> (exit status, the screen's text without escape codes, whether Ctrl-C was sent)."""
    import pty

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def controlling_terminal():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    p = subprocess.Popen(
        cmd,
        shell=True,
        cwd=cwd,
        env=dict(env, TERM="xterm-256color", COLORTERM="truecolor"),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        preexec_fn=controlling_terminal,
    )
    os.close(slave)
    raw, sent, end = b"", False, time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the terminal's other side closed: the command ended
                    chunk = b""
                if not chunk:
                    break
                raw += chunk
            if until and not sent and until in CSI.sub(" ", raw.decode(errors="replace")):
                os.write(master, b"\x03")
                sent = True
        else:
            os.killpg(p.pid, signal.SIGKILL)
            raise AssertionError("%s: still running after %d s:\n%s" % (cmd, timeout, raw[-3000:]))
        return p.wait(timeout=60), CSI.sub(" ", raw.decode(errors="replace")), sent
    finally:
        os.close(master)
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def sim_port():
    """A free port among the simulator's links (ports.SIM_PORTS), where `crib ports` looks."""
    for port in ports.SIM_PORTS[1:]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free simulator port in %s" % (ports.SIM_PORTS,))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Board:
    """A simulated board beside the README's commands: `make sim` headless on its flash and link."""

    def __init__(self, copy, env, data):
        self.port = sim_port()
        self.url = "socket://127.0.0.1:%d" % self.port
        args = "--headless --data %s --link %d" % (data, self.port)
        self.proc = subprocess.Popen(
            ["make", "sim", "ARGS=" + args],
            cwd=copy,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        said = b""
        end = time.monotonic() + 120
        while b"link: socket://" not in said and time.monotonic() < end and self.proc.poll() is None:
            ready, _, _ = select.select([self.proc.stdout], [], [], 1)
            if ready:
                said += os.read(self.proc.stdout.fileno(), 65536)
        assert b"link: socket://" in said, said.decode(errors="replace")
        client = LinkClient(ports.open_port(self.url, 5), timeout=5)
        try:
            self.id = client.connect()["board"]
        finally:
            client.close()

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc.stdout.close()


def test_every_command_of_the_readme_works_in_the_order_it_gives_them(tmp_path, pg_server):
    with open(README) as f:
        commands = sh_blocks(f.read())
    assert len(commands) > 20, commands
    copy = fresh_copy(str(tmp_path / "cribboard"))
    env = clean_env(str(tmp_path / "home"))
    values = {"postgresql://club@server/crib": pg_server.database("crib_readme")}
    boards = []
    log = []  # (README line, what ran, how): printed when a command fails
    try:
        for n, typed in commands:
            how, _why = HOW.get(typed, ("as typed", ""))
            cmd = typed
            for word in PLACEHOLDERS:
                if word in cmd:
                    assert word in values, "line %d: %s before it is known" % (n, word)
                    cmd = cmd.replace(word, values[word])
            if how in ("boards", "port", "terminal, port") and not boards:
                boards = _boards(copy, env)
                values["ID1"], values["ID2"] = boards[0].id, boards[1].id
            if "port" in how:
                cmd += " --port " + boards[0].url
            if how == "server":
                cmd += " --port %d" % free_port()
            if how == "no board":
                cmd += " PORT=" + NO_BOARD
            where = "README line %d: %s\n  ran (%s): %s" % (n, typed, how, cmd)
            if cmd.startswith("export "):  # the shell's own: what every later command sees
                name, _, value = cmd[len("export ") :].partition("=")
                env[name] = value
                log.append(where)
                continue
            start = time.monotonic()
            _run_one(cmd, how, copy, env, where)
            log.append(where + "  (%.1f s)" % (time.monotonic() - start))
    finally:
        for b in boards:
            b.stop()
        print("\n".join(log))
    given = {c for _n, c in commands}
    assert set(HOW) <= given, "HOW names commands the README no longer has: %s" % (set(HOW) - given)


def _boards(copy, env):
    rc, out = run(
        'make sim ARGS="--headless --script sim/match3.script --data build/readme-board1"', copy, env
    )
    assert rc == 0 and "expectations: " in out and " 0 failed" in out, out[-3000:]
    return [Board(copy, env, "build/readme-board1"), Board(copy, env, "build/readme-board2")]


def _run_one(cmd, how, copy, env, where):
    if how == "dry run":
        rc, out = run(cmd.replace("make ", "make -n ", 1), copy, env)
        assert rc == 0 and "pytest" in out and "mp_runner.py" in out and "ruff" in out and "pyright" in out, (
            where + "\n" + out[-3000:]
        )
        return
    if how == "terminal":
        until = "journal:" if "--script" not in cmd else None
        rc, out, sent = in_terminal(cmd, copy, env, until)
        assert until is None or sent, where + "\n" + out[-3000:]
        assert (rc in STOPPED if sent else rc == 0) and "Traceback" not in out, where + "\n" + out[-3000:]
        if until is None:
            assert "expectations: " in out and " 0 failed" in out, where + "\n" + out[-3000:]
        return
    if how == "terminal, port":
        rc, out, sent = in_terminal(cmd, copy, env, until="match over", timeout=120)
        assert sent and rc in STOPPED and "Traceback" not in out, where + "\n" + out[-3000:]
        return
    if how == "server":
        _serve(cmd, copy, env, where)
        return
    if how == "no board":
        rc, out = run(cmd, copy, env)
        assert rc != 0 and "no board at " + NO_BOARD in out, where + "\n" + out[-3000:]
        assert "docs/pico.md" in out and "Traceback" not in out, where + "\n" + out[-3000:]
        return
    rc, out = run(cmd, copy, env)
    assert rc == 0, where + "\n" + out[-3000:]
    assert "Traceback" not in out, where + "\n" + out[-3000:]
    _check(cmd, out, copy, where)


def _check(cmd, out, copy, where):
    """What each command must have done, beyond exiting 0."""
    said = where + "\n" + out[-3000:]
    if cmd.startswith("make crib"):
        # the install says nothing but failures: no setuptools deprecation or notice (pip's own notes on
        # this machine's index configuration aside)
        assert "deprecated" not in out and "BuildBackendWarning" not in out, said
        assert os.access(os.path.join(copy, ".venv", "bin", "crib"), os.X_OK), said
    if cmd == ".venv/bin/crib score 5H 5C 5S JD --starter 5D":
        assert re.search(r"\b29\b", out), said
    if cmd.startswith(".venv/bin/crib games"):
        assert len(re.findall(r"^\s*\d+\s+\d{4}-\d\d-\d\d ", out, re.M)) == 3, said
    if cmd.startswith(".venv/bin/crib plot 3 -o game3.png"):
        with open(os.path.join(copy, "game3.png"), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", said
    if cmd.startswith(".venv/bin/crib export --csv"):
        assert out.count("\n") > 100, said
    if cmd.startswith(".venv/bin/crib club night"):
        assert "night 1: Tuesday" in out, said
    if cmd.startswith(".venv/bin/crib club standings"):
        assert "Tuesday: standings" in out, said


def _serve(cmd, copy, env, where):
    port = int(cmd.rsplit(" ", 1)[1])
    p = subprocess.Popen(
        cmd,
        shell=True,
        cwd=copy,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    status, end = None, time.monotonic() + 120
    try:
        while status != 200 and time.monotonic() < end and p.poll() is None:
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=5) as r,
            ):
                status = r.status
            if status != 200:
                time.sleep(0.5)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGINT)
        try:
            out = p.communicate(timeout=30)[0].decode(errors="replace")
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out = p.communicate()[0].decode(errors="replace")
    assert status == 200, where + "\n" + out[-3000:]
    assert p.returncode in STOPPED and "Traceback" not in out, where + "\n" + out[-3000:]
