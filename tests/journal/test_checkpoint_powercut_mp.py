# Power cuts during the boot checkpoint's write (board/store/commit.py save), on real littlefs: at every
# flash program and erase of the write (whole, and half done) the next boot has the match the journal says,
# from the old checkpoint or the new one, and the board plays on. Also what one write costs the flash.
import vfs
from cutblockdev import CutBlockDev
from game_kit import state
from match_script import match_events

from board.store.commit import Commit
from board.store.journal import Journal
from cribbage import events
from cribbage.game import replay

BLOCK_SIZE = 4096
BLOCK_COUNT = 24
MOUNT = "/ckcut"
PATH = MOUNT + "/journal.log"
EVERY = 25  # board/store/commit.py _EVERY: a checkpoint every 25 records
N = 2 * EVERY  # records: a checkpoint at EVERY, then the one cut at 2 * EVERY


def _mount(dev):
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    vfs.mount(vfs.VfsLfs2(dev, progsize=256), MOUNT)


def _boot(evs):
    book = Commit(Journal(PATH), evs[0], lambda text: None)
    book.boot(evs[0])
    return book


def _close(book):
    try:
        book.journal.close()
    except Exception:
        pass


def _match_states(evs):
    """The match of the journal before the cut write (N records) and after one more event."""
    return [state(replay([events.from_line(events.to_line(e)) for e in evs[:n]])) for n in (N, N + 1)]


def _cut_each(image, ops, evs, kept):
    """Boot image and save, the power cut at each of the write's ops flash operations (whole, and half
    done): every next boot has the journal's match, from a checkpoint of `kept` records (0: none), and
    plays on. -> {records the checkpoint held: boots}."""
    want, after = _match_states(evs)
    seen = {}
    for half in (False, True):
        for k in range(ops):
            dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, bytearray(image))
            _mount(dev)
            book = _boot(evs)
            dev.reset_counts()
            dev.cut_after = k
            dev.half = half
            assert not book.save()  # the flash failed under it: not saved, and no exception
            _close(book)
            dev.dead = True
            # power back: mount, boot, the journal's match; then one more event, and boot again
            dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, dev.mem)
            _mount(dev)
            book = _boot(evs)
            label = "cut at op %d of %d (half %s)" % (k + 1, ops, half)
            assert state(book.match) == want, label
            assert book.kept in kept, (label, book.kept)
            assert book.collect == (N - book.kept >= EVERY), label  # none, or one far behind: asked for
            seen[book.kept] = seen.get(book.kept, 0) + 1
            book.apply(evs[N])
            _close(book)
            book = _boot(evs)
            assert state(book.match) == after, label
            _close(book)
    vfs.umount(MOUNT)
    return seen


def _played(seed, save):
    """A match of N records played onto a new flash (saved as App.save does after each event, but for
    the last, or never), then booted on a copy: -> (events, the match, the image, the device, the Commit)."""
    evs = []
    match_events(seed=seed, max_events=N + 1, sink=evs.append)
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT)
    vfs.VfsLfs2.mkfs(dev, progsize=256)
    _mount(dev)
    book = _boot(evs)
    for ev in evs[1:N]:
        book.apply(ev)
        if save and book.count < N:
            book.save()
    assert book.kept == (EVERY if save else 0)  # the next save is the one cut
    _close(book)
    image = bytes(dev.mem)
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, bytearray(image))
    _mount(dev)
    return evs, _match_states(evs)[0], image, dev, _boot(evs)


def test_a_power_cut_at_every_flash_operation_of_the_checkpoint_write():
    evs, want, image, dev, book = _played(5, True)
    assert book.kept == EVERY and state(book.match) == want
    dev.reset_counts()
    assert book.save()
    ops = dev.ops
    wear = (dev.writes, dev.bytes_written, dev.erases)
    dev.reset_counts()
    book.apply(evs[N])  # one event's record, for comparison
    append = (dev.writes, dev.bytes_written, dev.erases)
    _close(book)
    assert ops >= 2, ops

    seen = _cut_each(image, ops, evs, (0, EVERY, N))
    # the old checkpoint survives the cuts before the rename; the new one is in force after it
    assert seen.get(EVERY, 0) > 0, seen
    print("checkpoint write cut at %d operations x 2: boots from %r" % (ops, seen))
    print(
        "one checkpoint write (%d records): %d programs, %d bytes, %d erases; one event's append: %d, %d, %d"
        % ((N,) + wear + append)
    )


def test_a_power_cut_at_every_flash_operation_of_the_write_a_boot_makes():
    # A journal with no checkpoint (a new firmware's first boot, one set aside): the boot asks for one
    # (collect: the app's first calm pass writes it). A cut at any flash operation of that write leaves
    # no checkpoint or the whole new one: the next boot has the journal's match, and the one after a
    # write that landed replays only from it.
    evs, want, image, dev, book = _played(6, False)  # never saved: no checkpoint on flash
    assert book.kept == 0 and book.count == N and book.collect  # all replayed; a checkpoint asked for
    dev.reset_counts()
    assert book.save()
    ops = dev.ops
    _close(book)
    book = _boot(evs)
    assert book.kept == N and not book.collect and state(book.match) == want
    _close(book)
    assert ops >= 2, ops

    seen = _cut_each(image, ops, evs, (0, N))
    assert seen.get(0, 0) > 0, seen
    print("a boot's checkpoint write cut at %d operations x 2: boots from %r" % (ops, seen))
