# Helpers for host tests and benches: a journal file of played matches, served by MicroPython on a socket.
import random
import select
import socket
import subprocess
import threading

import simbuild

from board.store.journal import Journal
from cribbage.events import to_line
from sim.matchgen import history
from tools import unixport

ROOT = unixport.ROOT
MICROPYTHON = unixport.MICROPYTHON
SERVER = ["-m", "sim.linkserver"]  # run in ROOT, the firmware on its path (server_env)


def server_env(firmware=unixport.FIRMWARE):
    """The environment of sim/linkserver.py serving with this firmware folder."""
    return unixport.env(firmware)


def write_journal(path, events):
    """A board journal file holding `events` (dicts) from seq 1, written in one go."""
    j = Journal(path, max_bytes=1 << 30)
    j.open()
    j.compact([to_line(e) for e in events], 1)
    j.close()
    return path


def played(n_games, seed=1):
    return history(random.Random(seed), n_games)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class LinkServer:
    """sim/linkserver.py under MicroPython: the real link code serving a journal on a socket."""

    def __init__(self, journal_path, seconds=300):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [MICROPYTHON, "-X", "heapsize=4m", *SERVER, journal_path, str(self.port), str(seconds)],
            cwd=ROOT,
            env=server_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        line = self.proc.stdout.readline().decode() if ready else ""
        if not line.startswith("ready"):
            self.stop()
            raise RuntimeError("link server did not start: %r %r" % (line, self.proc.stderr.read()))
        self.next_seq = int(line.split()[2])
        self.url = "socket://127.0.0.1:%d" % self.port

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for f in (self.proc.stdout, self.proc.stderr):
            if f:
                f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class Sim:
    """The real firmware in the simulator (sim/launch.py's launcher, as `make sim`, built into this test
    process's own folder: simbuild), headless, its link on a socket."""

    def __init__(self, data_dir, port=None, script=None, fresh=False, heap="1m", extra=()):
        self.port = port or free_port()
        self.url = "socket://127.0.0.1:%d" % self.port
        args = ["--heap", heap, "--headless", "--data", data_dir, "--link", str(self.port)]
        if script:
            args += ["--script", script]
        if fresh:
            args.append("--fresh")
        cmd = simbuild.command(*args, *extra)
        self.log = []
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        # A thread drains the sim's output (a full pipe would stall the sim) and signals once the
        # link's socket listens: the sim logs its address then. Waiting on that is not a sleep.
        self._up = threading.Event()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        self._up.wait(120)
        if not self._up.is_set() or not self.running() and not any("link: socket://" in x for x in self.log):
            self.kill()
            raise RuntimeError("sim's link did not come up: %s" % "".join(self.log))

    def _drain(self):
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace")
            self.log.append(line)
            if "link: socket://" in line:
                self._up.set()
        self._up.set()

    def running(self):
        return self.proc.poll() is None

    def wait(self):
        """Wait for the sim to end by itself (its script done); returns everything it printed."""
        self.proc.wait()
        self._reader.join()
        return "".join(self.log)

    def kill(self):
        if self.running():
            self.proc.kill()
        self.proc.wait()
        self._reader.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
