# Journal bench on the MicroPython unix port: appends and replays on littlefs over a RAM flash like a Pico's.
# Run by bench/bench_journal.py (its path: firmware/, tests/support/); prints one JSON object (the last line).
import gc
import json
import os
import time

import vfs
from cutblockdev import CutBlockDev  # noqa: E402

from board.store.journal import Journal  # noqa: E402

# The Pico's filesystem as ports/rp2 makes it: 1408 KB of 4 KB erase blocks, 256-byte programs.
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PROG_SIZE = 256
N_EVENTS = 600
RUNS = 5


def _game_lines(n):
    """n event lines of one long scripted match (tests/support/match_script.py), and a factory of the
    apply the board's boot gives the journal."""
    from match_script import match_events

    from cribbage import events

    lines = []
    match_events(seed=1, games=9, max_events=n, sink=lambda ev: lines.append(events.to_line(ev)))
    assert len(lines) == n, len(lines)

    from board.store.commit import Commit

    def fold():
        # What the boot runs for each record: the board's own Commit.replay (json.loads, the set-up,
        # Match.apply trusted, the recent events), on a Commit with no journal of its own.
        return Commit(None, None, print).replay

    return lines, fold


_mem_total = getattr(__import__("micropython"), "mem_total", None)  # a MICROPY_MEM_STATS build
allocated = {}  # what one replay allocated (bytes, garbage included), by the apply it ran


def _time_replay(path, make_apply, name=None):
    best = None
    for _ in range(RUNS):
        apply = make_apply() if make_apply else None
        gc.collect()
        m0 = _mem_total() if _mem_total else 0
        t0 = time.ticks_us()
        j = Journal(path)
        report = j.open(apply)
        dt = time.ticks_diff(time.ticks_us(), t0)
        if name and _mem_total:
            allocated[name] = _mem_total() - m0
        j.close()
        assert report.ok and report.kept == N_EVENTS, report
        best = dt if best is None or dt < best else best
    return best


def _time_checkpoint_boot(lines):
    """The boot as the board does it (Commit.boot): the journal of these lines with the boot checkpoint
    the board writes (board/store/commit.py: every _EVERY records), the most records after it (_EVERY - 1).
    -> (best us, records the checkpoint held)."""
    from board.store.commit import Commit
    from cribbage import events

    path = "/flash/cp/journal.log"
    os.mkdir("/flash/cp")
    setup = events.from_line(lines[0])
    j = Journal(path)
    j.open()
    keep = len(lines) - 24  # 24: _EVERY - 1 (a const, not readable from here)
    for line in lines[:keep]:
        j.append(line)
    j.close()
    book = Commit(Journal(path), setup, print)
    book.boot(setup)
    assert book.save()
    for line in lines[keep:]:
        book.journal.append(line)
    book.journal.close()
    best = None
    for _ in range(RUNS):
        gc.collect()
        t0 = time.ticks_us()
        book = Commit(Journal(path), setup, lambda text: None)
        book.boot(setup)
        dt = time.ticks_diff(time.ticks_us(), t0)
        book.journal.close()
        assert book.kept == keep and book.count == len(lines), (book.kept, book.count)
        best = dt if best is None or dt < best else best
    return best, keep


def main():
    out = {"events": N_EVENTS, "runs": RUNS}
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT)  # first, while the heap is still in one piece
    lines, game_fold = _game_lines(N_EVENTS)
    out["event_source"] = "tests/support/match_script.py, a 9-game ACC match cut at %d events" % N_EVENTS
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
    out["replay_game_us"] = _time_replay(host, game_fold)
    out["replay_littlefs_game_us"] = _time_replay(path, game_fold, "game")
    if "game" in allocated:
        out["replay_allocated_bytes"] = allocated["game"]
    out["boot_checkpoint_us"], out["boot_checkpoint_kept"] = _time_checkpoint_boot(lines)
    os.remove(host)
    vfs.umount("/flash")
    print(json.dumps(out))


main()
