# A littlefs I/O error at boot or at a save (issue 9): the flash itself fails (EIO from open, read, stat,
# rename), not a record. Injected by a real block device under a real littlefs: CutBlockDev's
# readblocks answers -EIO on cue, as a worn or disturbed flash sector does.
#
# Before: Journal.open let the OSError through and the firmware stopped at boot with a traceback; a
# read error on the journal's stat() read as "no journal", and open() wrote a new, empty journal over
# the old one (every event gone); a new match whose rewrite failed had already renewed the match in
# RAM, and its events went on after the old match's in the journal.
import gc

import lfsjournal as flash
from scenario import Scenario

from board.settings import Settings
from board.store.commit import Commit, setup_of
from board.store.journal import Journal
from cribbage import events
from cribbage.errors import CribError

MOUNT = "/ioerr"
PATH = MOUNT + "/journal.log"
SETUP = setup_of(Settings(None).load_saved())
N = 40  # events after the set-up: a few deals


def _events():
    out = [{"t": "dealer", "p": 0}]
    for k in range(N - 1):
        out.append({"t": "peg", "s": k % 2, "n": 1 + k % 3, "why": "manual"})
    return out


def _journal_image():
    """The flash (bytes) holding the journal of a set-up and N events, as the board wrote it."""
    dev = flash.fresh(16, MOUNT)
    book = Commit(Journal(PATH), SETUP, lambda text: None)
    book.boot(SETUP)
    for ev in _events():
        book.apply(ev)
    book.journal.close()
    return bytes(dev.mem)


def _boot(mem, once=(), bad_from=0):
    """Mount a copy of the flash image, make the reads numbered in once (and all from bad_from) fail
    after the mount, boot a Commit.
    -> (the device, the Commit, its report, what it logged)."""
    dev = flash.CutBlockDev(flash.BLOCK_SIZE, 16, bytearray(mem))
    flash.mount(dev, MOUNT)
    dev.reads = 0
    dev.bad_reads = once
    dev.bad_from = bad_from
    logged = []
    book = Commit(Journal(PATH), SETUP, logged.append)
    report = book.boot(SETUP)
    dev.bad_reads = ()
    dev.bad_from = 0
    return dev, book, report, logged


def _healed(dev):
    """Every record on the flash once the reads work again: (payloads, next seq)."""
    flash.mount(dev, MOUNT)
    got = []
    j = Journal(PATH)
    r = j.open(got.append)
    j.close()
    return got, r.next_seq


def test_a_read_error_anywhere_in_the_boot_is_reported_and_loses_nothing():
    image = _journal_image()
    dev, book, report, _ = _boot(image)
    reads = dev.reads  # what a clean boot reads
    book.journal.close()  # closed, not left for the collector to finalise on a device since replaced
    want, want_next = _healed(dev)
    assert report.ok and len(want) == N + 1 and want_next == N + 2 and reads > 3
    failed = 0
    for k in range(1, reads + 1):
        for once in (True, False):  # one read fails; every read from the k-th on fails
            gc.collect()
            dev, book, report, logged = _boot(image, (k,) if once else (), 0 if once else k)
            label = "read %d of %d failed (%s)" % (k, reads, "once" if once else "from then on")
            if report.locked:
                failed += 1
                assert report.unreadable and "flash error" in report.locked, label
                assert report.problem() == ("Flash error:", "journal not read"), label
                assert any("flash error" in m for m in logged), (label, logged)
                try:
                    book.apply({"t": "peg", "s": 0, "n": 1, "why": "manual"})
                    raise AssertionError("%s: an event was taken on a journal not read" % label)
                except CribError as e:
                    assert "Flash error" in str(e), label
            book.journal.close()
            got, nxt = _healed(dev)
            # Nothing lost, nothing written over, no seq handed out again.
            assert got == want, (label, len(got))
            assert nxt >= want_next, label
    assert failed, "no injected read reached the journal"


def test_the_board_says_a_flash_error_at_boot_and_goes_on():
    image = _journal_image()
    dev = flash.CutBlockDev(flash.BLOCK_SIZE, 16, bytearray(image))
    flash.mount(dev, MOUNT)
    dev.bad_from = dev.reads + 1  # the flash stops reading after the mount
    s = Scenario(storage_dir=MOUNT)
    try:
        assert "Flash error: journal not read" in s.said(), s.said()
        assert any("flash error" in m for m in s.hal.logged), s.hal.logged
        s.keys("A OK")  # the board still answers keys: it says why nothing is saved
        assert "Flash error" in s.said(), s.said()
        s.app.journal.close()
        dev.bad_from = 0
        got, _ = _healed(dev)
        assert len(got) == N + 1  # the journal kept as it was, for a laptop and the next boot
    finally:
        s.app.journal.close()


def test_a_new_match_whose_rewrite_fails_keeps_the_match_in_force():
    image = _journal_image()
    dev, book, report, logged = _boot(image)
    before = book.match.front[:]
    assert report.ok and before != [0, 0]
    dev.cut_after = dev.ops  # the next flash program fails: the rewrite's temp file cannot be written
    try:
        book.new_match(SETUP)
        raise AssertionError("a new match was started on a flash that would not take it")
    except CribError as e:
        assert "Flash error" in str(e)
    assert book.match.front == before  # the match in force stays, as on flash
    dev.dead = False
    dev.cut_after = -1
    book.journal.close()
    got, _ = _healed(dev)
    assert len(got) == N + 1 and events.from_line(got[0])["t"] == "setup"
