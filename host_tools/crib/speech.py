# Counts said aloud: the words players use for a show or a peg, spoken by the platform's speech engine.
import queue
import re
import shutil
import subprocess
import sys
import threading

from cribbage.show import _WORDS, Item, Show

NUMBERS = _WORDS.split()

# A zero hand is "nineteen" at the table: no hand can score 19, so it is the players' word for nothing.
ZERO_HAND = "nineteen"


def number(n):
    """A count in words, as far as the core's list goes (29), else digits the engine reads."""
    return NUMBERS[n] if 0 < n < len(NUMBERS) else str(n)


def show_words(show, name=None):
    """A show's count as a player says it: "fifteen two, fifteen four, and a pair is six"."""
    said = show.spoken() if show.items else ZERO_HAND
    return "%s: %s" % (name, said) if name else said


# Peg reasons (cribbage.events.WHYS) as said; the play's own items are not in a peg, only its points.
_PEG = {
    "hand": "%s for the hand",
    "crib": "%s for the crib",
    "play": "%s",
    "heels": "%s for his heels",
    "muggins": "muggins, %s",
    "penalty": "penalty, %s",
    "manual": "%s",
}


def peg_words(name, n, why):
    """A peg as said at the table: "Alice: two for his heels", "Bob: one for the go", "thirty-one for two"."""
    if why == "go":
        said = "thirty-one for two" if n == 2 else "one for the go" if n == 1 else number(n) + " for the go"
    elif why == "hand" and n == 0:
        said = ZERO_HAND
    else:
        said = _PEG.get(why, "%s") % (number(n) if n else "nothing")
    return "%s: %s" % (name, said) if name else said


def scored_words(name, n, why, items=()):
    """A score the history holds as said at the table: a hand or crib with its count itemised ("Ann:
    fifteen two, fifteen four, and a pair is six for the hand"), anything else as peg_words says it.

    `items` are the show's [(kind, points, cards)] as the replay keeps them (cribbage.show's items), or a
    lay's [(reason, points)]."""
    if why == "play" and items:
        try:
            return play_words(name, [(str(r), int(p)) for r, p in items], n)
        except (TypeError, ValueError):  # reasons that make no sense: the points alone
            return peg_words(name, n, why)
    if why in ("hand", "crib") and n and items:
        try:
            show = Show([], None, why == "crib", False, [Item(k, p, list(c)) for k, p, c in items])
            said = "%s for the %s" % (show.spoken(), why)
        except (TypeError, ValueError, KeyError, IndexError):  # items that make no sense: the points alone
            return peg_words(name, n, why)
        return "%s: %s" % (name, said) if name else said
    return peg_words(name, n, why)


# The play's reasons (cribbage.play.reasons_for_lay) counted aloud as players do, the running total said
# after the first: "fifteen two", "a pair is two", "fifteen two, and a pair is four".
_PLAY_FIRST = {"fifteen": "fifteen two", "thirty-one": "thirty-one for two"}


def play_words(name, reasons, n):
    """A lay's points as said at the table, from its reasons [(reason, points)] (the core's: with or
    without "last card") and the points pegged, the rest the last card's: "Ann: fifteen two, and a
    pair is four", "Ann: a run of three is three, and one for last"."""
    parts = []
    total = 0
    for why, pts in reasons:
        if why in ("last card", "go", "pegged"):
            continue  # the lone points after the count's own: said as the rest, below
        total += pts
        said = None if parts else _PLAY_FIRST.get(why)
        if said is None:
            why = re.sub(r"\d+", lambda d: number(int(d.group())), why)  # "run of 3": "run of three"
            said = "%s%s is %s" % ("" if why in _PLAY_FIRST else "a ", why, number(total))
        parts.append(("and " if parts else "") + said)
    if n > total:
        parts.append(("and " if parts else "") + ("one for last" if n - total == 1 else number(n - total)))
    said = ", ".join(parts) if parts else number(n)
    return "%s: %s" % (name, said) if name else said


def find_engine(which=shutil.which, platform=sys.platform):
    """The command line (before the text) of the speech engine this machine has, or None."""
    for exe in ("espeak-ng", "espeak"):
        path = which(exe)
        if path:
            return [path]
    if platform == "darwin" and which("say"):
        return [which("say")]
    if platform == "win32":
        ps = which("powershell") or which("pwsh")
        if ps:
            return [
                ps,
                "-NoProfile",
                "-Command",
                "Add-Type -AssemblyName System.Speech; "
                "(New-Object System.Speech.Synthesis.SpeechSynthesizer).Speak($args[0])",
            ]
    return None


class Speaker:
    """Says texts one after another in a background thread, so sayings queue instead of overlapping.

    With no engine it says so once (to warn) and stays silent; the caller goes on either way.
    """

    def __init__(self, engine=None, warn=None, extra=()):
        self.engine = find_engine() if engine is None else engine
        self.extra = list(extra)
        self._warn = warn or (lambda msg: print(msg, file=sys.stderr))
        self._warned = False
        self._queue = queue.Queue()
        self._thread = None

    def say(self, text):
        if not self.engine:
            if not self._warned:
                self._warned = True
                self._warn("no speech engine found (espeak-ng, say or SAPI): counts are not spoken")
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        self._queue.put(text)

    def _run(self):
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                subprocess.run(
                    self.engine + self.extra + [text],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    check=False,
                )
            except OSError:
                pass
            finally:
                self._queue.task_done()

    def wait(self):
        """Block until everything queued has been said (a command that exits after one saying)."""
        if self._thread is not None:
            self._queue.join()
