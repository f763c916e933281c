# The duel's players: the opponent at a level in process, or an external program on the line protocol.
import os
import selectors
import shlex
import subprocess
import time

from cribbage import opponent
from cribbage.cards import format_cards, parse_card
from cribbage.errors import CribError

PROTOCOL = 1


class BotError(Exception):
    """A player broke the protocol (late, wrong, silent or gone): it loses the game, said why."""


class LevelPlayer:
    """The project's opponent (cribbage/opponent.py) at `level`."""

    def __init__(self, level):
        if level not in opponent.LEVELS:
            raise ValueError("unknown level %r: one of %s" % (level, " ".join(opponent.LEVELS)))
        self.level = level
        self.name = "level:" + level

    def new_game(self, seat, target):
        self.target = target

    def discard(self, hand, dealer, my_score, their_score):
        return opponent.discard(self.level, hand, dealer, my_score, their_score, self.target)

    def lay(self, view):
        return opponent.lay(
            self.level,
            view.hand_left,
            view.current,
            view.count,
            view.played_all,
            view.seen,
            view.my_score,
            view.their_score,
            self.target,
        )

    def tell(self, line):
        pass

    def close(self):
        pass


class ProgramPlayer:
    """An external program speaking docs/bots.md's protocol on stdin/stdout, one answer per
    `timeout` seconds. After a broken game it is restarted for the next (a late answer must not
    land in the next game)."""

    def __init__(self, command, timeout=5.0):
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("an empty bot command")
        self.name = command
        self.timeout = timeout
        self.proc = None
        self._buf = b""

    # ---- the process ----

    def _start(self):
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
            )
        except OSError as e:
            self.proc = None
            raise BotError("could not start %s: %s" % (self.argv[0], e.strerror or e)) from None
        self._buf = b""
        self._send("protocol %d" % PROTOCOL)

    def close(self):
        p = self.proc
        self.proc = None
        if p is None:
            return
        try:
            if p.poll() is None:
                try:
                    p.stdin.write(b"quit\n")
                    p.stdin.flush()
                except OSError:
                    pass
                try:
                    p.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        finally:
            for f in (p.stdin, p.stdout):
                try:
                    f.close()
                except OSError:
                    pass

    def broken(self):
        # after a failure: kill at once, a new process for the next game
        p = self.proc
        if p is not None and p.poll() is None:
            p.kill()
        self.close()

    def _send(self, line):
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise BotError("stopped reading its input (%s)" % self._exit_text()) from None

    def _exit_text(self):
        rc = self.proc.poll() if self.proc else None
        return "still running" if rc is None else "exit status %d" % rc

    def _answer(self, what):
        # one line within the timeout; comment lines (#) and blank lines are skipped
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                while b"\n" in self._buf:
                    line, self._buf = self._buf.split(b"\n", 1)
                    text = line.decode("utf-8", "replace").strip()
                    if text and not text.startswith("#"):
                        return text
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise BotError("no answer to %s within %.1f s" % (what, self.timeout))
                chunk = os.read(fd, 4096)
                if not chunk:
                    try:
                        self.proc.wait(timeout=0.5)
                    except subprocess.TimeoutExpired:
                        pass
                    raise BotError("ended without answering %s (%s)" % (what, self._exit_text()))
                self._buf += chunk
                if len(self._buf) > 4096 and b"\n" not in self._buf:
                    raise BotError("an answer to %s longer than 4096 bytes" % what)

    # ---- the game ----

    def new_game(self, seat, target):
        if self.proc is None or self.proc.poll() is not None:
            self.close()
            self._start()
        self._send("newgame %d %d" % (seat, target))

    def tell(self, line):
        self._send(line)

    def discard(self, hand, dealer, my_score, their_score):
        self._send("deal %d %d %d %s" % (1 if dealer else 0, my_score, their_score, format_cards(hand)))
        words = self._answer("deal").split()
        if not words or words[0] != "discard":
            raise BotError("answered the deal with %r, not 'discard C C'" % " ".join(words)[:60])
        try:
            return [parse_card(w) for w in words[1:]]
        except CribError as e:
            raise BotError("discard: %s" % e) from None

    def lay(self, view):
        self._send(
            "turn %d %d %d %s"
            % (view.count, view.my_score, view.their_score, format_cards(view.current) or "-")
        )
        words = self._answer("turn").split()
        if words == ["go"]:
            return None
        if len(words) != 2 or words[0] != "lay":
            raise BotError("answered its turn with %r, not 'lay C' or 'go'" % " ".join(words)[:60])
        try:
            return parse_card(words[1])
        except CribError as e:
            raise BotError("lay: %s" % e) from None


def make_player(spec, timeout=5.0):
    """'level:NAME' -> LevelPlayer; anything else is a command line -> ProgramPlayer."""
    if spec.startswith("level:"):
        return LevelPlayer(spec[len("level:") :])
    return ProgramPlayer(spec, timeout)
