# Child of test_journal_memory: replays a journal through Journal.open in a small heap (-X heapsize=64k).
"""MICROPYPATH=.frozen:LIB micropython -X heapsize=64k tests/journal/journal_small_heap.py \\
    JOURNAL MODE EXPECTED

LIB, its path, holds the firmware compiled with mpy-cross (as the Pico runs it: compiling .py needs more
heap than running it). MODE "count" only counts the payloads; "events" parses each into its event dict
(cribbage.events.from_line); "game" folds them into cribbage.game's Match as the board does at boot
(a "setup" line starts a match). Prints the records replayed and the
peak of live heap during the replay (the journal's reading plus the fold's state); exits 1 on a wrong
count. A MemoryError is the failure.
"""

import gc
import sys

from board.store.journal import Journal


def main(path, mode, expected):
    box = [None, 0, 0]  # match, records, peak bytes

    if mode == "game":
        from cribbage import events
        from cribbage.game import Match

        def fold(line):
            ev = events.from_line(line)
            if ev["t"] == "setup":
                box[0] = Match(ev)
            else:
                box[0].apply(ev, True)

    elif mode == "events":
        from cribbage.events import from_line

        def fold(line):
            from_line(line)

    else:

        def fold(line):
            pass

    gc.collect()
    base = gc.mem_alloc()

    def apply(line):
        fold(line)
        box[1] += 1
        if box[1] % 8 == 0:  # live bytes (collected), sampled every 8 records
            gc.collect()
            used = gc.mem_alloc() - base
            if used > box[2]:
                box[2] = used

    j = Journal(path)
    report = j.open(apply)
    j.close()
    heap = gc.mem_alloc() + gc.mem_free()
    print("journal_small_heap %s: %s; peak %d bytes in use of a %d-byte heap" % (mode, report, box[2], heap))
    if mode == "game":
        m = box[0]
        print("  match over %r, match points %r" % (m.match_over, m.match_points))
    return 0 if report.ok and report.kept == expected else 1


sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
