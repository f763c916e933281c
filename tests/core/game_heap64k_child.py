# Child of tests/core/test_game_heap64k.py: the three-game match replayed and played live in a 64 KB heap.
"""Compiled into the ROMFS image with the game and the journal and run by sim/boot.py, as a Pico with
a ROM partition runs the firmware: the bytecode stays in the image, the heap holds only what runs.

    micropython -X heapsize=H sim/boot.py IMAGE STUB EVENTS FLASH MODULES [--rom SIZE]
    (STUB: `import game_heap64k_child` then main(); sim/boot.py adds --rom)

EVENTS: the scripted match's journal lines, set-up first (tests/support/match_script.py, completed events).
FLASH: a file for the littlefs image the journal lives on (sim.flash, the sim's flash).
MODULES: the image's modules, comma-separated, imported one by one first to measure what each keeps.

main() first trims the heap to HEAP_BYTES with a ballast (H is 8 KB more than 64 KB, the image and the
sim's ROM_OVERHEAD: sim/boot.py's boot, the stub and this module's own objects took ~5.5 KB of that when
measured), so the game and the journal get exactly 64 KB of this 64-bit port's heap. Then:
  (a) the journal written to littlefs from EVENTS, replayed through Journal.open into Match.apply(ev,
      trusted=True) as the board boots;
  (b) the same match played live: each event without the counts apply adds ("n" of shows, lays, goes,
      "s" of a go) through Match.apply, the completed event checked against the journal line it made
      before and appended to a new journal, as board/store/commit.py does.
It prints `heap64k {json}` lines: the heap given, what each import and the flash mount keep, and per
phase the least free heap after a collection at each game's end (the Pico-relevant figure) and after
any event, the final scores. A MemoryError ends it with a traceback and exit code 1.
"""

import gc
import sys

HEAP_BYTES = 64 * 1024


def _free():
    gc.collect()
    return gc.mem_free()


def _say(**kw):
    import json

    print("heap64k " + json.dumps(kw))


class _Phase:
    """A match fed event by event; the least free heap at each game's end and after any event."""

    def __init__(self, name):
        self.name = name
        self.match = None
        self.game_ends = []  # free heap after the event that ended each game
        self.low = 1 << 30  # least free heap after any event
        self.events = 0

    def _after(self, was_over):
        m = self.match
        free = _free()
        if free < self.low:
            self.low = free
        if m.game_over and not was_over:
            self.game_ends.append(free)
        self.events += 1

    def report(self):
        m = self.match
        _say(
            what=self.name,
            events=self.events,
            free_at_game_ends=self.game_ends,
            least_free_at_game_ends=min(self.game_ends) if self.game_ends else None,
            least_free_any_event=self.low,
            games=[list(r[4]) for r in m.results],
            match_points=list(m.match_points),
            front=list(m.front),
            match_over=m.match_over,
        )


def _replay(journal, events, Match):
    ph = _Phase("replay")

    def apply(line):
        ev = events.from_line(line)
        if ev["t"] == "setup":
            ph.match = Match(ev)
            return
        was_over = ph.match.game_over
        ph.match.apply(ev, True)
        ph._after(was_over)

    report = journal.open(apply)
    assert report.ok, str(report)
    journal.close()
    ph.report()


_COUNTED = {"show": ("n",), "lay": ("n",), "go": ("n", "s")}  # what apply adds to the event


def _live(journal, events, Match, events_path):
    ph = _Phase("live")
    journal.open()
    with open(events_path) as f:
        for line in f:
            line = line.rstrip("\n")
            ev = events.from_line(line)
            t = ev["t"]
            if t == "setup":
                ph.match = Match(ev)
                journal.append(events.to_line(ph.match.setup))
                continue
            for k in _COUNTED.get(t, ()):
                ev.pop(k, None)
            was_over = ph.match.game_over
            done = ph.match.apply(ev)
            out = events.to_line(done)
            if out != line:
                raise AssertionError("played live %s, journalled %s" % (out, line))
            journal.append(out)
            del ev, done, out, line
            ph._after(was_over)
    journal.close()
    ph.report()


def main():
    events_path, flash, modules = sys.argv[1], sys.argv[2], sys.argv[3]
    given = _free()
    ballast = bytearray(given - HEAP_BYTES) if given > HEAP_BYTES else None  # noqa: F841 (held)
    start = _free()
    _say(what="boot", given=given, start=start, figures="gc.mem_free after gc.collect, bytes")

    kept = []
    before = start
    for name in modules.split(","):
        __import__(name)
        now = _free()
        kept.append((name, before - now))  # with the modules it imports that were not loaded yet
        before = now
    from board.store.journal import Journal
    from cribbage import events
    from cribbage.game import Match
    from sim import flash as simflash

    imported = _free()
    simflash.mount(flash, "/flash")
    mounted = _free()
    _say(what="by_module", kept=kept)
    import micropython

    micropython.qstr_info()  # the interned-string pools: part of what the imports keep
    del kept, name  # the measuring's own list: not the game's
    ready = _free()
    littlefs = imported - mounted
    _say(what="ready", imports_keep=start - ready - littlefs, littlefs_mount_keeps=littlefs, free=ready)

    j = Journal("/flash/replay.log")
    j.open()
    with open(events_path) as f:
        j.compact(line.rstrip("\n") for line in f)
    j.close()
    _replay(Journal("/flash/replay.log"), events, Match)
    _live(Journal("/flash/live.log"), events, Match, events_path)
    _say(what="end", free=_free())
