# Power cuts on real littlefs: a scripted match cut at every flash program and erase (whole, and half done).
#
# The journal runs on vfs.VfsLfs2 over a RAM block device shaped like the Pico's flash (4 KB erase
# blocks, 256-byte program size as ports/rp2/modules/_boot.py mounts it). The script is a match as
# the board lives it: boots (mount + replay), events appended one by one, a compaction when the file
# is big (keeping the match's events), and the end-of-match compaction (keeping none).
#
# Every step of the script is first run uncut to count its flash operations. Then, for every
# operation k in turn, the script is run again and the power goes at k: the operation does not land,
# or lands half. The flash is mounted afresh and the journal replayed; the replayed records must be
# byte for byte those before or those after the step in flight (so no earlier event is lost), and
# folding them with the game must give the match state before or after. Then one more event is
# appended and replayed, to show the journal goes on cleanly. A recovery that itself writes (removing
# an unfinished compaction's temp file) is cut at each of its own operations too.
#
# To keep this linear rather than quadratic, each cut re-runs only the boot session it falls in,
# from a copy of the flash as it was at that boot: the same bytes and the same operations give the
# same writes, so this is exactly the uncut run up to the cut.
import gc

import lfsjournal as lfs
import vfs
from cutblockdev import CutBlockDev
from game_kit import state
from match_script import match_events

from board.store.journal import Journal
from cribbage import events
from cribbage.game import Match

BLOCK_SIZE = lfs.BLOCK_SIZE
BLOCK_COUNT = 24  # 96 KB: room for a three-game match journal (~13 KB) and its compaction copy
MOUNT = "/pcut"
PATH = MOUNT + "/journal.log"


# -- the match: the game engineer's scripted three-game match, folded by cribbage.game -----------------


def match_lines():
    """A three-game ACC match (match_script.py) as journal lines, then the next match's set-up."""
    # Collected as it goes: MicroPython allocates where its last search stopped, so the lines, made
    # among megabytes of garbage, would otherwise end up strewn over the whole heap and leave no free
    # run of even 8 KB for the lists and flash images that follow.
    gc.collect()
    lines = []

    def sink(ev):
        lines.append(events.to_line(ev))
        if len(lines) % 16 == 0:
            gc.collect()

    match_events(seed=1, sink=sink)
    lines.append(events.to_line(match_events(seed=2, max_events=1)[0]))  # the next match's set-up
    return lines


def replayed(lines):
    """The match the journal's lines fold into, line by line as App.boot does (None: no match)."""
    m = None
    for line in lines:
        ev = events.from_line(line)
        if m is None:
            m = Match(ev)
        else:
            m.apply(ev, True)
    return m


def game_fold(lines):
    """The match state the board shows after a boot's replay of lines (None: no match)."""
    m = replayed(lines)
    return None if m is None else state(m)


# -- the script -------------------------------------------------------------------------------------


def match_script(n_events, boot_every=60, compact_at=None):
    """Steps: ("boot",), ("event",), ("keep", k): compact keeping the last k records (None: all)."""
    compact_at = n_events // 2 + 7 if compact_at is None else compact_at
    steps = []
    for i in range(n_events):
        if i % boot_every == 0:
            steps.append(("boot",))
        steps.append(("event",))
        if i + 1 == compact_at:
            steps.append(("keep", None))  # the file passed its size: keep the whole current match
    steps.append(("keep", 0))  # the match is over: keep nothing
    steps.append(("event",))  # the first event of the next match
    return steps


# A model of the journal's content: records lines[a:b], numbered from seq f.


def _after(model, step):
    a, b, f = model
    if step[0] == "event":
        return (a, b + 1, f)
    if step[0] == "keep":
        k = b - a if step[1] is None else step[1]
        return (b - k, b, f + (b - a - k))
    return model


def _mount(dev):
    lfs.mount(dev, MOUNT)


def _abandon(journal):
    """Drop a journal whose flash lost power (its file handle closes now, not in a finaliser later)."""
    try:
        journal.close()
    except Exception:
        pass


def _run(dev, steps, model, lines, models=None, ops=None):
    """Run boot-session steps on dev from model; fills models (and ops: the device's operation count
    after each step) when given. Returns the step in flight when the power went (None if it never did)."""
    j = Journal(PATH)
    i = 0
    try:
        for i in range(len(steps)):
            step = steps[i]
            kind = step[0]
            if kind == "boot":
                _mount(dev)
                got = []
                report = j.open(got.append)
                if models is not None:  # the uncut run checks itself too
                    a, b, f = model
                    assert got == lines[a:b] and report.first_seq == f and report.ok, report
            elif kind == "event":
                j.append(lines[model[1]])
            else:
                new = _after(model, step)
                j.compact(lines[new[0] : new[1]], new[2])
            model = _after(model, step)
            if models is not None:
                models.append(model)
            if ops is not None:
                ops.append(dev.ops)
    except Exception:
        if not dev.dead:
            raise
        _abandon(j)
        return i
    _abandon(j)
    return None


class _Checker:
    def __init__(self, lines, fold):
        self.lines = lines
        self.fold = fold
        self.states = {}
        self.cuts = 0
        self.recovery_cuts = 0
        self.dropped_at_boot = 0
        self.in_flight = {}  # step kind -> cuts that fell in it
        self.uncut_ops = {}  # step kind -> flash operations of the uncut run

    def state(self, model):
        s = self.states.get(model)
        if s is None:
            a, b, _ = model
            s = self.states[model] = self.fold(self.lines[a:b])
        return s

    def recover(self, mem, before, after, label):
        """Mount the cut flash, replay, check before/after, go on; returns the recovery's flash ops."""
        dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, mem)
        try:
            _mount(dev)
        except Exception as e:
            raise AssertionError("mount failed after %s: %r" % (label, e))
        j = Journal(PATH)
        try:
            return self._check(dev, j, before, after, label)
        finally:
            _abandon(j)
            dev.dead = True

    def _check(self, dev, j, before, after, label):
        got = []
        report = j.open(got.append)
        ops = dev.ops
        if not report.ok:
            self.dropped_at_boot += 1
        found = None
        for model in (before, after):
            a, b, f = model
            if got == self.lines[a:b] and report.first_seq == f and report.next_seq == f + b - a:
                found = model
                break
        assert found is not None, "%s: replayed %d records from seq %d, expected %r or %r (%s)" % (
            label,
            len(got),
            report.first_seq,
            before,
            after,
            report,
        )
        # The records read back fold into the match state before or after. The fold is pure, so each
        # distinct record list is folded once (from the records read back, the first time it is met).
        state = self.states.get(found)
        if state is None:
            state = self.states[found] = self.fold(got)
        assert state == self.state(before) or state == self.state(after), label
        # The journal goes on cleanly after the cut: one more record, replayed with the rest.
        j.append("after the cut")
        j.close()
        again = []
        report = j.open(again.append)
        assert again == got + ["after the cut"] and report.ok, label
        return ops


def _cut_run(work, image, session, model, lines, k, half):
    """The session from image, with the power going at operation k + 1; returns the step in flight."""
    work[:] = image
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
    dev.cut_after = k
    dev.half = half
    i = _run(dev, session, model, lines)
    assert i is not None, "no cut at op %d" % (k + 1)
    return i


def _cut_boot(work, k, half):
    """Boot (mount + open) the flash in work with the power going at operation k + 1."""
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
    dev.cut_after = k
    dev.half = half
    j = Journal(PATH)
    try:
        _mount(dev)
        j.open()
    except Exception:
        if not dev.dead:
            raise
    _abandon(j)


def run_power_cuts(lines, fold, steps, halves=True):
    """Cut the script at every flash operation; returns the _Checker with its counts."""
    check = _Checker(lines, fold)
    gc.collect()
    # Two flash images, allocated once (big blocks are hard to find in a fragmented heap later): the
    # flash at the boot that starts the current session, and the one each run works on. Anything
    # else is made again by running the same steps on the same bytes, which gives the same flash.
    size = BLOCK_SIZE * BLOCK_COUNT
    image = bytearray(size)
    work = bytearray(size)
    blank = b"\xff" * BLOCK_SIZE
    for b in range(BLOCK_COUNT):
        image[b * BLOCK_SIZE : (b + 1) * BLOCK_SIZE] = blank
    vfs.VfsLfs2.mkfs(CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, image), progsize=lfs.PROG_SIZE)
    model = (0, 0, 1)
    starts = [i for i in range(len(steps)) if steps[i][0] == "boot"] + [len(steps)]
    for s in range(len(starts) - 1):
        session = steps[starts[s] : starts[s + 1]]
        work[:] = image
        dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
        models = [model]
        marks = []
        assert _run(dev, session, model, lines, models, marks) is None
        dev.dead = True
        total = dev.ops
        for i in range(len(session)):
            kind = session[i][0]
            check.uncut_ops[kind] = check.uncut_ops.get(kind, 0) + marks[i] - (marks[i - 1] if i else 0)
        for k in range(total):
            for half in (False, True) if halves else (False,):
                i = _cut_run(work, image, session, model, lines, k, half)
                check.cuts += 1
                kind = session[i][0]
                check.in_flight[kind] = check.in_flight.get(kind, 0) + 1
                label = "session %d op %d%s (%s)" % (s, k + 1, " half" if half else "", kind)
                ops = check.recover(work, models[i], models[i + 1], label)
                for k2 in range(ops):  # the recovery itself writes: cut it too
                    for half2 in (False, True):
                        _cut_run(work, image, session, model, lines, k, half)
                        _cut_boot(work, k2, half2)
                        check.recovery_cuts += 1
                        check.recover(work, models[i], models[i + 1], label + " recovery op %d" % (k2 + 1))
        # The next session starts from this one's end: run it uncut again.
        work[:] = image
        dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
        assert _run(dev, session, model, lines) is None
        dev.dead = True
        image[:] = work
        model = models[-1]
        check.states = {}  # the next session's cuts see other models
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    return check


def test_power_cut_at_every_flash_operation_of_a_match():
    lines = match_lines()
    steps = match_script(len(lines) - 1)
    check = run_power_cuts(lines, game_fold, steps)
    n_events = sum(1 for s in steps if s[0] == "event")
    print(
        "power cuts: %d cut points (every flash program and erase, whole and half) over %d events, "
        "%d boots, %d compactions; %d more cuts inside recoveries; by step in flight: %r; "
        "flash operations of the uncut run: %r; boots that dropped a torn record: %d"
        % (
            check.cuts,
            n_events,
            sum(1 for s in steps if s[0] == "boot"),
            sum(1 for s in steps if s[0] == "keep"),
            check.recovery_cuts,
            check.in_flight,
            check.uncut_ops,
            check.dropped_at_boot,
        )
    )
    assert check.cuts > 0 and check.in_flight.get("keep", 0) > 0


def _flip_everywhere(mem, needle):
    """Corrupt every copy of needle in the flash image (littlefs leaves old copies in free blocks)."""
    n = 0
    at = mem.find(needle)
    while at >= 0:
        mem[at] ^= 0x20
        n += 1
        at = mem.find(needle, at + 1)
    return n


def test_bit_rot_mid_journal_on_littlefs_is_set_aside_even_when_the_repair_is_cut():
    gc.collect()
    lines = ['{"t":"peg","s":%d,"n":%d,"why":"rot-%03d"}' % (i & 1, 1 + i % 5, i) for i in range(60)]
    image = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT)
    vfs.VfsLfs2.mkfs(image, progsize=lfs.PROG_SIZE)
    _mount(image)
    j = Journal(PATH)
    j.open()
    for e in lines:
        j.append(e)
    j.close()
    image.dead = True
    assert _flip_everywhere(image.mem, b"rot-017") > 0  # record seq 18 no longer matches its checksum
    rotten = image.mem
    work = bytearray(len(rotten))

    def boot(dev):
        _mount(dev)
        got = []
        j = Journal(PATH)
        try:
            report = j.open(got.append)
        finally:
            _abandon(j)
        return got, report

    work[:] = rotten
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
    got, report = boot(dev)
    repair_ops = dev.ops
    dev.dead = True
    # Issue 9 item 3: record 18 alone is set aside (before: 18 and the 42 good records after it).
    kept = lines[:17] + lines[18:]
    assert got == kept and report.bad_seq == 18 and report.reason == "checksum mismatch"
    assert report.dropped == 1 and report.tail_valid == 0 and report.next_seq == 61 and repair_ops > 0
    cuts = 0
    for k in range(repair_ops):
        for half in (False, True):
            work[:] = rotten
            dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
            dev.cut_after = k
            dev.half = half
            try:
                boot(dev)
            except Exception:
                if not dev.dead:
                    raise
            assert dev.dead
            cuts += 1
            dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
            got, report = boot(dev)  # the next boot: repaired now, or repairs again
            assert got == kept and report.next_seq == 61, (k, half, report)
            with open(PATH + ".bad", "rb") as f:
                bad = f.read()
            assert bad.count(b"Rot-017") in (1, 2) and bad.count(b"# set aside") == bad.count(b"Rot-017")
            assert b"rot-059" not in bad
            j = Journal(PATH)
            j.open()
            assert j.append("after") == 61
            _abandon(j)
            dev.dead = True
    print("bit rot: record 18 of 60 corrupted; %d cut points in its repair (%d ops)" % (cuts, repair_ops))


def test_littlefs_write_alone_is_not_on_flash_flush_is():
    """Why append() flushes: on littlefs, write() stays in the file's RAM cache; flush() is
    lfs_file_sync (extmod/vfs_lfsx_file.c, MP_STREAM_FLUSH), which commits data and size."""
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT)
    vfs.VfsLfs2.mkfs(dev, progsize=lfs.PROG_SIZE)
    _mount(dev)
    with open(PATH, "wb") as f:
        f.write(b"confirmed\n")
    with open(PATH, "ab") as f:
        dev.ops = 0
        f.write(b"flushed\n")
        assert dev.ops == 0  # nothing has reached the flash yet
        f.flush()
        assert dev.ops > 0
        f.write(b"written when the power went\n")
        dev.dead = True  # nothing more reaches the flash; closing fails
        try:
            f.close()
        except OSError:
            pass
    after = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, dev.mem)
    _mount(after)
    with open(PATH, "rb") as f:
        assert f.read() == b"confirmed\nflushed\n"
    after.dead = True
