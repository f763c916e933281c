# MicroPython side of bench_replay: replay time and memory of a 600-event journal, and a small-heap run.
"""micropython bench/mp_replay.py [events]       timing and memory report, one "key value" a line
micropython -X heapsize=64k bench/mp_replay.py heap PATH
    plays a three-game match live (journaling each line to PATH), then replays PATH line by line
    as the board does at boot; prints the peak heap in use. A MemoryError is the failure.
Its path (MICROPYPATH, bench_replay.py sets it): firmware/ and tests/support/, or for the heap run a
folder of the modules precompiled by mpy-cross (as deployed to the board): compiling the sources on
the device itself would need more heap than running them.
"""

import gc
import sys
import time

from match_script import match_events

from cribbage.events import from_line, to_line
from cribbage.game import Match


def _us():
    return time.ticks_us()  # type: ignore[attr-defined]


def _since(t0):
    return time.ticks_diff(time.ticks_us(), t0)  # type: ignore[attr-defined]


def _live():
    gc.collect()
    return gc.mem_alloc()  # type: ignore[attr-defined]


def _best(fn, runs=5):
    # The least of a few runs: the machine is shared, and only the quietest run is the code's own.
    best = None
    for _ in range(runs):
        gc.collect()
        t0 = _us()
        fn()
        t = _since(t0)
        if best is None or t < best:
            best = t
    return best


def _lines(n):
    """The journal lines of an n-event match. The events first, then a collection, then the lines: made
    in one pass, the match's garbage spreads the kept events over the whole heap and the lines' list
    finds no hole its size."""
    lines = match_events(fmt="acc", games=99, max_events=n)
    gc.collect()
    lines = [to_line(ev) for ev in lines]
    gc.collect()
    return lines


def bench(n):
    lines = _lines(n)
    report = {"events": len(lines) - 1, "journal_bytes": sum(len(x) + 1 for x in lines)}
    order = [
        "events",
        "journal_bytes",
        "undos",
        "shows_keyed",
        "parse_us",
        "apply_trusted_us",
        "boot_replay_us",
        "apply_recount_us",
        "undo_us",
        "log_bytes",
        "checkpoints",
        "match_live_bytes",
    ]
    parsed = [from_line(x) for x in lines]
    kinds = {}
    for ev in parsed[1:]:
        kinds[ev["t"]] = kinds.get(ev["t"], 0) + 1
    report["undos"] = kinds.get("undo", 0)
    report["shows_keyed"] = kinds.get("show", 0)

    def parse():
        for x in lines:
            from_line(x)

    def trusted():
        m = Match(parsed[0])
        for ev in parsed[1:]:
            m.apply(ev, True)

    def boot():
        m = Match(from_line(lines[0]))
        for x in lines[1:]:
            m.apply(from_line(x), True)

    def recount():
        m = Match(parsed[0])
        for ev in parsed[1:]:
            m.apply(ev)

    report["parse_us"] = _best(parse)
    report["apply_trusted_us"] = _best(trusted)
    report["boot_replay_us"] = _best(boot)  # line -> dict -> fold: what the board does at boot
    report["apply_recount_us"] = _best(recount)  # shows recounted from their cards, as live

    m = Match(parsed[0])
    for ev in parsed[1:]:
        m.apply(ev, True)
    report["log_bytes"] = m._log.end
    report["checkpoints"] = len(m._cps)
    undo = {"t": "undo"}
    t0 = _us()
    m.apply(undo)
    report["undo_us"] = _since(t0)

    # Memory of the Match alone after the replay (a fresh heap figure, other objects dropped).
    parsed = []
    m = None
    base = _live()
    m = Match(from_line(lines[0]))
    for x in lines[1:]:
        m.apply(from_line(x), True)
    report["match_live_bytes"] = _live() - base
    for k in order:
        print(k, report[k])
    for t, n, us, b in by_type([from_line(x) for x in lines]):
        print("type", t, n, us, b)


def by_type(parsed, runs=9):
    """[(event type, count, us, bytes allocated)] of the trusted fold, most time first: each event
    timed alone (the least of a few runs, by type), allocation from micropython.mem_total when the
    build keeps it (-1 otherwise)."""
    mem_total = getattr(__import__("micropython"), "mem_total", None)
    us = {}
    mem = {}
    count = {}
    for ev in parsed[1:]:
        t = ev["t"] if ev["t"] != "peg" else "peg/" + ev["why"]
        count[t] = count.get(t, 0) + 1
    for _ in range(runs):
        m = Match(parsed[0])
        run = {}
        gc.collect()
        for ev in parsed[1:]:
            t = ev["t"] if ev["t"] != "peg" else "peg/" + ev["why"]
            m0 = mem_total() if mem_total else 0
            t0 = _us()
            m.apply(ev, True)
            run[t] = run.get(t, 0) + _since(t0)
            if mem_total:
                mem[t] = mem.get(t, 0) + mem_total() - m0
        for t in run:
            if t not in us or run[t] < us[t]:
                us[t] = run[t]
    rows = [(t, count[t], us[t], mem[t] // runs if mem_total else -1) for t in us]
    rows.sort(key=lambda r: -r[2])
    return rows


def heap(path):
    """Peak heap in use (after a collection, sampled at every event) while playing live, then
    while replaying the journal line by line; code already loaded counts in every figure."""
    code = _live()
    peak = [code]

    def sample():
        used = _live()
        if used > peak[0]:
            peak[0] = used

    with open(path, "w") as f:

        def sink(ev):
            f.write(to_line(ev))
            f.write("\n")
            sample()

        live = match_events(sink=sink)
    print("code_bytes", code)
    print("live_events", live.count, "match_over", live.match_over)
    print("live_peak_bytes", peak[0])
    live = None
    peak[0] = code
    m = None
    n = 0
    with open(path) as f:
        for line in f:
            ev = from_line(line)
            if m is None:
                m = Match(ev)
            else:
                m.apply(ev, True)
            n += 1
            sample()
    assert m is not None
    print("replayed_lines", n, "match_over", m.match_over, "points", m.match_points)
    print("replay_peak_bytes", peak[0])
    print("heap_total", gc.mem_alloc() + gc.mem_free())  # type: ignore[attr-defined]


def repeat(what, reps, n=600):
    """Do `what` reps times and nothing else, so the caller can time this process's CPU (a shared
    machine makes wall-clock figures wander; CPU time of reps runs minus 0 runs does not)."""
    lines = _lines(n)
    parsed = [from_line(x) for x in lines]
    gc.collect()
    for _ in range(reps):
        if what == "parse":
            for x in lines:
                from_line(x)
        elif what == "boot":
            m = Match(from_line(lines[0]))
            for x in lines[1:]:
                m.apply(from_line(x), True)
        elif what == "trusted":
            m = Match(parsed[0])
            for ev in parsed[1:]:
                m.apply(ev, True)
        else:
            m = Match(parsed[0])
            for ev in parsed[1:]:
                m.apply(ev)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "repeat":
        repeat(args[1], int(args[2]))
    elif args and args[0] == "heap":
        heap(args[1] if len(args) > 1 else "/tmp/cribboard_replay.jsonl")
    else:
        bench(int(args[0]) if args else 600)
