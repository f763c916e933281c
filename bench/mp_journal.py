# Journal bench on the MicroPython unix port: appends and replays on littlefs over a RAM flash like a Pico's.
# Run by bench/bench_journal.py; prints one JSON object (the last line) for it to report.
import gc
import json
import os
import sys
import time

import vfs

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _p in (_HERE + "/../firmware", _HERE + "/../tests/mp", _HERE + "/../tests"):
    sys.path.append(_p)

from cutblockdev import CutBlockDev  # noqa: E402

from board.journal import Journal  # noqa: E402

# The Pico's filesystem as ports/rp2 makes it: 1408 KB of 4 KB erase blocks, 256-byte programs.
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PROG_SIZE = 256
N_EVENTS = 600
RUNS = 5


def _game_lines(n):
    """n event lines of real matches and a fold over them, or (None, None) if the game is not here."""
    try:
        from match_script import match_events

        from cribbage import events
        from cribbage.game import Match
    except ImportError:
        return None, None
    lines = []
    seed = 1
    try:
        while len(lines) < n:
            lines.extend(events.to_line(e) for e in match_events(seed=seed, games=5))
            seed += 1
    except ImportError:  # the game is there but not all of it yet (the show scorer)
        return None, None
    lines = lines[:n]

    def fold():
        box = []

        def apply(line):
            ev = events.from_line(line)
            if ev["t"] == "setup":
                box[:] = [Match(ev)]
            else:
                box[0].apply(ev, True)

        return apply

    return lines, fold


def _placeholder_lines(n):
    from test_journal_powercut import placeholder_match_lines

    return placeholder_match_lines(n)


def _time_replay(path, make_apply):
    best = None
    for _ in range(RUNS):
        apply = make_apply() if make_apply else None
        gc.collect()
        t0 = time.ticks_us()
        j = Journal(path)
        report = j.open(apply)
        dt = time.ticks_diff(time.ticks_us(), t0)
        j.close()
        assert report.ok and report.kept == N_EVENTS, report
        best = dt if best is None or dt < best else best
    return best


def main():
    out = {"events": N_EVENTS, "runs": RUNS}
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT)  # first, while the heap is still in one piece
    lines, game_fold = _game_lines(N_EVENTS)
    out["event_source"] = "match_script (real matches)" if lines else "placeholder event lines"
    if not lines:
        lines = _placeholder_lines(N_EVENTS)
    out["payload_bytes"] = sum(len(x.encode()) for x in lines)

    vfs.VfsLfs2.mkfs(dev, progsize=PROG_SIZE)
    vfs.mount(vfs.VfsLfs2(dev, progsize=PROG_SIZE), "/flash")
    path = "/flash/journal.log"
    j = Journal(path)
    j.open()
    size0 = j.size
    dev.reset_counts()
    t0 = time.ticks_us()
    for line in lines:
        j.append(line)
    out["append_us"] = time.ticks_diff(time.ticks_us(), t0)
    out["record_bytes"] = j.size - size0
    out["writes"] = dev.writes
    out["bytes_programmed"] = dev.bytes_written
    out["erases"] = dev.erases
    # The last 300 appends alone: the file is past its inline start and settled.
    dev.reset_counts()
    j.compact([])
    out["compact_empty_erases"] = dev.erases
    dev.reset_counts()
    for line in lines[:300]:
        j.append(line)
    dev.reset_counts()
    for line in lines[300:]:
        j.append(line)
    out["steady"] = {"events": 300, "writes": dev.writes, "bytes": dev.bytes_written, "erases": dev.erases}
    dev.reset_counts()
    j.compact(lines, first_seq=j.first_seq)  # the same records again: a full-size compaction
    out["compact_full"] = {"writes": dev.writes, "bytes": dev.bytes_written, "erases": dev.erases}
    j.close()

    out["replay_littlefs_read_us"] = _time_replay(path, None)
    out["replay_littlefs_json_us"] = _time_replay(path, lambda: json.loads)
    # The same file on the host filesystem: reads in C, as rp2.Flash reads are on the Pico.
    host = "/tmp/cribboard-bench-journal.log"
    with open(path, "rb") as src, open(host, "wb") as dst:
        dst.write(src.read())
    out["replay_read_us"] = _time_replay(host, None)
    out["replay_json_us"] = _time_replay(host, lambda: json.loads)
    if game_fold:
        out["replay_game_us"] = _time_replay(host, game_fold)
        out["replay_littlefs_game_us"] = _time_replay(path, game_fold)
    os.remove(host)
    vfs.umount("/flash")
    print(json.dumps(out))


main()
