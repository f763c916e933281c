# Flash wear of the boot checkpoint (docs/journal.md): a 600-event match committed on littlefs over a RAM
# flash shaped like the Pico's, the checkpoint saved after each event as App.save does; what the appends
# and the checkpoints programmed and erased.   micropython -X heapsize=4m bench/mp_checkpoint_wear.py
import sys

sys.path[:0] = ["tests/support", "firmware"]

import vfs  # noqa: E402
from cutblockdev import CutBlockDev  # noqa: E402
from match_script import match_events  # noqa: E402

from board.store.commit import Commit  # noqa: E402
from board.store.journal import Journal  # noqa: E402


def main():
    dev = CutBlockDev(4096, 352)  # the Pico's littlefs: 1.4 MB
    vfs.VfsLfs2.mkfs(dev, progsize=256)
    vfs.mount(vfs.VfsLfs2(dev, progsize=256), "/w")
    evs = match_events(seed=1, games=9, max_events=600)  # the benches' 600-event journal
    book = Commit(Journal("/w/journal.log"), evs[0], lambda text: None)
    book.boot(evs[0])
    appends = [0, 0, 0]
    saves = [0, 0, 0]
    n = 0
    for ev in evs[1:]:
        dev.reset_counts()
        book.apply(ev)
        for i, got in enumerate((dev.writes, dev.bytes_written, dev.erases)):
            appends[i] += got
        dev.reset_counts()
        if book.save():
            n += 1
            for i, got in enumerate((dev.writes, dev.bytes_written, dev.erases)):
                saves[i] += got
    print("appends: %d programs, %d bytes, %d erases" % tuple(appends))
    print("%d checkpoints: %d programs, %d bytes, %d erases" % tuple([n] + saves))
    print("+%.1f%% bytes, +%.1f%% erases" % (100 * saves[1] / appends[1], 100 * saves[2] / appends[2]))


main()
