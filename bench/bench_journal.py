# Journal bench: replay of a 600-event journal (MicroPython unix, Pico estimate), flash writes, flash life.
"""Runs bench/mp_journal.py on the MicroPython unix port and reports:

- replay of a 600-event journal at boot: read + checksum, + JSON parse, + the game fold when the game
  is there; the Pico estimate is the unix time x150 (goal: 1 s or less on the Pico);
- bytes, flash programs and erases per event, counted on a RAM flash shaped like the Pico's
  (littlefs, 4 KB erase blocks, 256-byte programs, 1408 KB filesystem);
- what that means for flash life: games until the filesystem's blocks reach their erase cycles.
"""

import json
import os
import subprocess
import sys

from tools import unixport

PICO_FACTOR = 150  # MicroPython unix on a laptop -> RP2040 at 125 MHz (the team's agreed ratio)
GOAL_S = 1.0
ERASE_CYCLES = 100_000  # per 4 KB sector, typical NOR flash datasheet minimum
FS_BLOCKS = 352  # 1408 KB / 4 KB: the rp2 port's filesystem on a 2 MB Pico
FIRMWARE_BLOCKS = 64  # ~256 KB of .py/.mpy and board.json that never move: not in the rotation
EVENTS_PER_GAME = 150
GAMES_PER_MATCH = 3

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure():
    script = os.path.join(_ROOT, "bench", "mp_journal.py")
    cmd = [unixport.MICROPYTHON, "-X", "heapsize=4m", script]
    env = unixport.env(unixport.FIRMWARE, unixport.SUPPORT)
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=_ROOT, env=env)
    if done.returncode:
        # A crash is the bench's only failure: say what MicroPython said.
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit("bench/mp_journal.py failed (exit %d)" % done.returncode)
    return json.loads(done.stdout.strip().splitlines()[-1])


def goal_line(boot_us):
    """GOAL MET or GOAL MISSED with the figures: the goal is the board's whole boot replay."""
    pico = boot_us * PICO_FACTOR / 1e6
    word = "GOAL MET" if pico <= GOAL_S else "GOAL MISSED"
    return "%s: boot replay %.1f ms unix -> %.2f s Pico estimate (x%d), goal %.1f s or less" % (
        word,
        boot_us / 1000,
        pico,
        PICO_FACTOR,
        GOAL_S,
    )


def report(r):
    n = r["events"]
    out = []
    out.append("journal bench (%d events: %s; best of %d runs)" % (n, r["event_source"], r["runs"]))
    out.append("  replay at boot, littlefs on a RAM flash (unix) -> Pico estimate x%d:" % PICO_FACTOR)
    rows = [
        ("read + checksum", "replay_littlefs_read_us"),
        ("+ JSON parse", "replay_littlefs_json_us"),
        ("+ game fold (Match.apply)", "replay_littlefs_game_us"),
    ]
    for label, key in rows:
        us = r[key]
        pico = us * PICO_FACTOR / 1e6
        verdict = "ok" if pico <= GOAL_S else "OVER the %.1f s goal" % GOAL_S
        out.append("    %-28s %7.1f ms unix  -> %5.2f s Pico  (%s)" % (label, us / 1000, pico, verdict))
    out.append(
        "  (the same file on the host filesystem, as the simulator reads it: read %.1f ms, + JSON %.1f ms%s)"
        % (
            r["replay_read_us"] / 1000,
            r["replay_json_us"] / 1000,
            ", + game %.1f ms" % (r["replay_game_us"] / 1000) if "replay_game_us" in r else "",
        )
    )
    boot = r["replay_littlefs_game_us"]
    out.append("  " + goal_line(boot))
    if "boot_checkpoint_us" in r:
        us = r["boot_checkpoint_us"]
        out.append(
            "  the board's boot (Commit.boot): the boot checkpoint of the first %d records, %d replayed"
            " after it: %.1f ms unix -> %.2f s Pico (x%d; measured on the emulated Pico: make bench-device)"
            % (
                r["boot_checkpoint_kept"],
                n - r["boot_checkpoint_kept"],
                us / 1000,
                us * PICO_FACTOR / 1e6,
                PICO_FACTOR,
            )
        )
    if "replay_allocated_bytes" in r:
        # The 4 MB heap here never collects during the replay; a Pico's ~200 KB heap collects a few
        # times (a short pause each): not in the figure above.
        out.append(
            "  heap allocated by the boot replay: %.0f bytes a record (garbage for the collector; this"
            " port's heap never collects during the bench, a Pico's does a few times, not counted)"
            % (r["replay_allocated_bytes"] / n)
        )
    out.append(
        "  whole boot replay: journal (read, checksum) %.0f%%, JSON %.0f%%, game (from_line, apply) %.0f%%"
        % (
            100 * r["replay_littlefs_read_us"] / boot,
            100 * (r["replay_littlefs_json_us"] - r["replay_littlefs_read_us"]) / boot,
            100 * (boot - r["replay_littlefs_json_us"]) / boot,
        )
    )

    per = r["record_bytes"] / n
    steady = r["steady"]
    k = steady["events"]
    erases_per_event = steady["erases"] / k
    out.append("  writes per event (appended and synced one by one):")
    out.append(
        "    record %.1f bytes (payload %.1f); flash programs %.2f, bytes programmed %.0f, erases %.2f"
        % (per, r["payload_bytes"] / n, steady["writes"] / k, steady["bytes"] / k, erases_per_event)
    )
    out.append(
        "    (littlefs copies the file's last, partly filled 4 KB block to a fresh block at each sync: "
        "one erase per event)"
    )
    full = r["compact_full"]
    out.append(
        "  compaction of %d records: %d programs, %d bytes, %d erases; %d appends from empty: %.1f ms unix"
        % (n, full["writes"], full["bytes"], full["erases"], n, r["append_us"] / 1000)
    )

    rotating = FS_BLOCKS - FIRMWARE_BLOCKS
    budget = rotating * ERASE_CYCLES
    per_game = erases_per_event * EVENTS_PER_GAME + full["erases"] / GAMES_PER_MATCH
    games = budget / per_game
    out.append("  flash life:")
    out.append(
        "    %d of %d blocks in littlefs's rotation (firmware files excluded) x %d cycles = %.1fM erases"
        % (rotating, FS_BLOCKS, ERASE_CYCLES, budget / 1e6)
    )
    out.append(
        "    a game of %d events: %.0f erases (+ a compaction each %d-game match) -> about %.0fk games,"
        % (EVENTS_PER_GAME, per_game, GAMES_PER_MATCH, games / 1000)
    )
    out.append("    %.0f years at 10 games every evening" % (games / 10 / 365))
    out.append(
        "    (assumes littlefs spreads erases evenly over its free blocks, which its allocator does; "
        "an estimate, not a measurement of wear)"
    )
    return "\n".join(out)


def main():
    # A missed goal is a figure to report, not a failure of `make bench`: only a crash fails it.
    print(report(measure()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
