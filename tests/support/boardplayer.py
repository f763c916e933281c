# A simulated board at a remote table, its player's keys typed by the test: the sim drawn (not headless),
# its keyboard a pipe (sim/keys.py: "5h" is the 5 then the H key, Enter is OK), its link on a socket; the
# player follows the board through its own crib on the board's hub (crib.link.share), as a second crib.
import select
import subprocess
import threading
import time

import simbuild
from boards import ROOT, free_port

from crib.link import ports, share
from cribbage.cards import format_card, pip


class DrawnSim:
    """`python -m sim --fast --data DIR --link PORT`, drawn into a pipe, keys typed into its stdin; with
    `drawn` (a simscreen.DrawnBoard) the drawing is fed to it as it comes, each piece with its time."""

    def __init__(self, data_dir, port=None, drawn=None):
        self.drawn = drawn
        self.port = port or free_port()
        self.url = "socket://127.0.0.1:%d" % self.port
        cmd = simbuild.command("--heap", "1m", "--fast", "--data", data_dir, "--link", str(self.port))
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        self.out = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + 120
        while not ports.listening(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("the sim's link did not come up: %r" % b"".join(self.out)[-2000:])
            time.sleep(0.05)

    def _drain(self):
        stdout = self.proc.stdout
        assert stdout is not None
        while True:
            ready, _, _ = select.select([stdout], [], [], 1)
            if ready:
                data = stdout.read1(65536)  # pyright: ignore[reportAttributeAccessIssue]
                if not data:
                    return
                if self.drawn is not None:
                    self.drawn.feed(data, time.monotonic())
                self.out.append(data[-256:])
                del self.out[:-64]

    def type(self, text):
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(text.encode())
        stdin.flush()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._reader.join(5)


def typed(card):
    """The keys of a card on the sim's keyboard: its rank then its suit ("TH" -> "th")."""
    return format_card(card).lower()


class Player:
    """The board's player: OK at the table's new match, the first two of the six to the crib, the first
    card that fits laid; everything else (the counts, the other seat's moves) the board and the bridge do."""

    def __init__(self, sim, timeout=5.0):
        self.sim = sim
        self.timeout = timeout
        self.c = share.connect(sim.url, timeout)
        self.start = self.c.state()["next"]
        self.c.subscribe(self.start)
        self.six = None
        self.hands = 0  # the player's sixes followed: the board's deal when all are in
        self.keyed = 0
        self.pending_seen = None

    def reconnect(self, sim):
        """The board back (a new sim on the same flash and port): followed again from the start."""
        try:
            self.c.close()
        except Exception:
            pass
        self.sim = sim
        self.c = share.connect(sim.url, self.timeout)
        self.six, self.hands = None, 0
        self.c.subscribe(self.start)

    def close(self):
        self.c.close()

    def _follow(self):
        while True:
            push = self.c.next_push(0)
            if push is None:
                return
            ev = push.get("event") or {}
            if push.get("push") == "event" and ev.get("t") == "hand" and ev.get("p") == 0:
                self.six = list(ev["cards"])
                self.hands += 1

    def step(self):
        """Key what the player is to key now; -> the board's state."""
        got = self.c.state()
        self._follow()
        st = got["state"] or {}
        if got.get("pending") is not None:
            now = time.monotonic()
            if self.pending_seen is None:
                self.pending_seen = now
            elif now - self.pending_seen > 0.5:  # (the sim's clock runs fast: its 1.5 s read is past)
                self.sim.type("\r")
                self.pending_seen = None
                self.keyed += 1
            return st
        t = st.get("table")
        if not t or st.get("match_over") or self.six is None or not t["hand"] or self.hands != t["deal"]:
            return st  # (a six the board has and its event not yet here: not keyed from the last deal's)
        if st.get("phase") == "starter" and not t["thrown"]:
            self.sim.type(typed(self.six[0]) + typed(self.six[1]) + "\r")
            self.keyed += 1
            self._until(lambda s: s["table"]["thrown"])
        elif st.get("phase") == "play" and st.get("play") and st["play"]["turn"] == 0:
            mine = [c for p, c in t["acts"] if p == 0]
            held = [c for c in self.six[2:] if c not in mine]
            count = st["play"]["count"]
            fits = [c for c in held if count + pip(c) <= 31]
            if fits:
                n = len(t["acts"])
                self.sim.type(typed(fits[0]))
                self.keyed += 1
                self._until(lambda s: len(s["table"]["acts"]) > n)
        return st

    def _until(self, done, seconds=10):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            st = self.c.state()["state"] or {}
            if st.get("table") and done(st):
                return
            time.sleep(0.05)
        raise AssertionError("the board did not take the player's keys: %r" % (st.get("table"),))


class Watcher:
    """Each event the board journals, with the wall-clock time its push reached this process (a crib of its
    own on the board's hub, in a thread): two boards' watchers time a lay from one to the other."""

    def __init__(self, sim, timeout=5.0):
        self.c = share.connect(sim.url, timeout)
        self.c.subscribe(self.c.state()["next"])
        self.heard = []  # (time.monotonic(), seq, event)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                push = self.c.next_push(0.2)
            except Exception:
                return  # the board gone
            if push is not None and push.get("push") == "event":
                self.heard.append((time.monotonic(), push["seq"], push["event"]))

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self.c.close()


def lay_latencies(a, b):
    """Seconds from each lay journaled on board a (its player's) to the same card journaled on board b (as
    the other seat's), and the other way round."""
    out = []
    for mine, theirs in ((a, b), (b, a)):
        sent, told = {}, {}  # card -> the times it was laid, in order (a card comes back deal after deal)
        for t, _seq, ev in mine.heard:
            if ev.get("t") == "lay" and ev.get("p") == 0:
                sent.setdefault(ev["c"], []).append(t)
        for t, _seq, ev in theirs.heard:
            if ev.get("t") == "lay" and ev.get("p") == 1:
                told.setdefault(ev["c"], []).append(t)
        for c, times in sent.items():
            out += [t1 - t0 for t0, t1 in zip(times, told.get(c, []), strict=False)]
    return out
