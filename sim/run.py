# Plays a parsed sim script against the sim HAL's input queue, then reads and checks the end state.
# A line starts when the previous one has finished (its keys released and the gap after them), plus
# its own delay; `expect display` is checked when reached, the other expectations at the end, from
# the journal on the sim's flash replayed with the game core (the journal is the truth).
import gc
import time

from sim import script as simscript


class ScriptEnd(SystemExit):
    """Raised out of the firmware's scan when the script is done: the sim reads the end state."""


class Runner:
    def __init__(self, hal, script):
        self.hal = hal
        self.script = script  # simscript.Script: steps read from the file as they come
        self.failures = []
        self._next = script.next()
        self._due = None  # when the next step starts (set once the previous step has finished)
        self._line_t = hal.started  # when the previous step started
        self._done_at = None

    def poll(self, now):
        hal = self.hal
        while self._next is not None:
            if hal.busy():
                return
            step = self._next
            if self._due is None:
                delay, absolute = step[0], step[1]
                base = hal.started if absolute else self._line_t
                if not absolute and time.ticks_diff(hal.free_at, base) > 0:
                    base = hal.free_at
                self._due = time.ticks_add(base, delay)
            if time.ticks_diff(now, self._due) < 0:
                return
            if step[3] and step[2] == "wait":  # wait display TEXT
                if step[3][1] not in "\n".join(hal.display.rows):
                    return
                self._due = now  # the next line's delay counts from when the display showed it
            self._line_t = self._due
            self._due = None
            self._next = self.script.next()
            self._step(step[2], step[3])
        if self._done_at is None:
            self._done_at = now
        elif time.ticks_diff(now, self._done_at) >= 1500 and not hal.busy():  # settled 1.5 s after the end
            raise ScriptEnd(0)

    def _step(self, verb, args):
        hal = self.hal
        if verb == "key":
            for name in args:
                hal.press((name,))
        elif verb == "hold":
            hal.press(args[0], args[1])
        elif verb == "tap":
            hal.tap(args[0], args[1])
        elif verb == "unplug":
            hal.sensors.unplugged = True
        elif verb == "plug":
            hal.sensors.unplugged = False
        elif verb == "log":
            hal.log("script: " + args[0])
        elif verb == "laptop":
            lines = getattr(hal.link, "lines", None)  # a drawn sim's link is a socket (--link)
            if lines is None:
                hal.log("script: laptop lines need a headless run")
            else:
                lines.append(args[0].encode())
        elif verb == "quit":
            hal.log("script: quit (power cut)")
            raise SystemExit(0)
        elif verb == "expect" and args[0] == "display" and args[1] not in "\n".join(hal.display.rows):
            msg = "step %d: display shows %r, expected %r" % (self.script.done, hal.display.screen(), args[1])
            self.failures.append(msg)
            hal.log("EXPECT FAILED " + msg)

    def finish(self, path, sides, names):
        """The end state, printed and checked -> (lines to print, exit code)."""
        state = final_state(path, sides)
        lines = report(state, names) + heap_report(self.hal)
        self.failures += simscript.check(self.script.finals(), state, names)
        for msg in self.failures:
            lines.append("EXPECT FAILED: " + msg)
        lines.append("expectations: %d checked, %d failed" % (self.script.expects, len(self.failures)))
        return lines, (1 if self.failures else 0)


def final_state(path, sides):
    """Replay the journal read-only with the game core, a "setup" record starting a new match."""
    from board.store.journal import Journal
    from cribbage import events
    from cribbage.game import Match

    gc.collect()
    m = None
    try:
        for _, line in Journal(path).records(0):
            ev = events.from_line(line)
            if ev.get("t") == "setup":
                m = Match(ev)
            elif m is not None:
                m.apply(ev, trusted=True)
    except OSError:
        pass  # no journal: nothing was played
    if m is None:
        return {"score": [0] * sides, "games": [], "match": [0] * sides, "winner": None}
    return {
        "score": list(m.front),
        "games": [list(r[4]) for r in m.results],
        "match": list(m.match_points),
        "winner": m.match_winner,
    }


def report(state, names):
    """The end state as lines: scores, finished games, match points."""

    def line(values):
        return "  ".join("%s %d" % (names[s], values[s]) for s in range(min(len(names), len(values))))

    out = ["final: " + line(state["score"])]
    for k in range(len(state["games"])):
        out.append("game %d: %s" % (k + 1, line(state["games"][k])))
    out.append("match points: " + line(state["match"]))
    w = state["winner"]
    out.append("match winner: " + (names[w] if w is not None else "none yet"))
    return out


def heap_report(hal):
    """The firmware's heap as lines: free after boot, and the most it held after a calm gc (the app
    collects after boot and after each committed event; the sim reads the heap then, see
    SimHal.heap_seen), here and scaled to the Pico the run stands for. None for a drawn run: the
    terminal's strings share the heap (sim/launch.py gives them heap on top), so they would blur it."""
    o = hal.options
    if not o["headless"]:
        return []
    size = hal.heap_size()
    least = size - hal.live_peak
    out = [
        "heap (this unix port): %d KB for the firmware, code in %s; free after boot %d KB; "
        "live at most %d KB, least free %d KB"
        % (size // 1024, o["code"].upper(), hal.boot_free // 1024, hal.live_peak // 1024, least // 1024)
    ]
    out.append(
        "heap in bytes (this unix port): free after boot %d, least free %d; the sim's HAL less the Pico's %d"
        % (hal.boot_free, least, hal.hal_bytes)
    )
    if o["heap"] and o["ratio"]:
        r = o["ratio"]
        out.append(
            "heap as a Pico's (/%.2f): %d KB; free after boot %d KB; least free %d KB"
            % (r, o["heap"] // 1024, int(hal.boot_free / r) // 1024, int(least / r) // 1024)
        )
    return out
