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
# exactly those before or those after the step in flight (so no earlier event is lost), and folding
# them must give the state before or after. Then one more event is appended and replayed, to show the
# journal goes on cleanly. A recovery that itself writes (removing an unfinished compaction's temp
# file) is cut at each of its own operations too.
#
# To keep this linear rather than quadratic, each cut re-runs only the boot session it falls in,
# from a copy of the flash as it was at that boot: the same bytes and the same operations give the
# same writes, so this is exactly the uncut run up to the cut.
import gc
import json

import vfs
from cutblockdev import CutBlockDev

from board.journal import Journal

BLOCK_SIZE = 4096
BLOCK_COUNT = 32  # 128 KB: room for a three-game match journal and its compaction copy
PROG_SIZE = 256
MOUNT = "/pcut"
PATH = MOUNT + "/journal.log"


# -- the match: swap these two for the game engineer's scripted match and cribbage.game fold ----------


def placeholder_match_lines(n=450):
    """n event lines shaped like cribbage.events lines (a three-game match is about 450 events)."""
    lines = ['{"t":"setup","form":"six","fmt":"acc","muggins":false,"names":["Ann","Bob"]}']
    x = 12345
    while len(lines) < n:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        side = x & 1
        kind = (x >> 3) % 4
        if kind == 0:
            lines.append('{"t":"lay","p":%d,"c":%d}' % (side, (x >> 5) % 52))
        elif kind == 1:
            lines.append('{"t":"peg","s":%d,"n":%d,"why":"play"}' % (side, 1 + (x >> 7) % 3))
        elif kind == 2:
            c = (x >> 9) % 48
            cards = (c, c + 1, c + 2, c + 3)
            lines.append('{"t":"show","s":%d,"k":"hand","cards":[%d,%d,%d,%d]}' % ((side,) + cards))
        else:
            lines.append('{"t":"go","p":%d}' % side)
    return lines


def placeholder_fold(lines):
    """The state of a match from its event lines: front and back peg of each side, events applied."""
    front = [0, 0]
    back = [0, 0]
    for line in lines:
        ev = json.loads(line)
        if ev["t"] == "peg":
            s = ev["s"]
            back[s] = front[s]
            front[s] += ev["n"]
    return (len(lines), tuple(front), tuple(back))


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


# A model of the journal's content: records events[a:b], numbered from seq f.


def _after(model, step):
    a, b, f = model
    if step[0] == "event":
        return (a, b + 1, f)
    if step[0] == "keep":
        k = b - a if step[1] is None else step[1]
        return (b - k, b, f + (b - a - k))
    return model


def _mount(dev):
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    vfs.mount(vfs.VfsLfs2(dev, progsize=PROG_SIZE), MOUNT)


def _abandon(journal):
    """Drop a journal whose flash lost power (its file handle closes now, not in a finaliser later)."""
    try:
        journal.close()
    except Exception:
        pass


def _run(dev, steps, model, events, models=None, ops=None):
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
                    assert got == events[a:b] and report.first_seq == f and report.ok, report
            elif kind == "event":
                j.append(events[model[1]])
            else:
                new = _after(model, step)
                j.compact(events[new[0] : new[1]], new[2])
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
    def __init__(self, events, fold):
        self.events = events
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
            s = self.states[model] = self.fold(self.events[a:b])
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
            if got == self.events[a:b] and report.first_seq == f and report.next_seq == f + b - a:
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
        state = self.fold(got)
        assert state == self.state(before) or state == self.state(after), label
        # The journal goes on cleanly after the cut: one more record, replayed with the rest.
        j.append("after the cut")
        j.close()
        again = []
        report = j.open(again.append)
        assert again == got + ["after the cut"] and report.ok, label
        return ops


def run_power_cuts(events, fold, steps, halves=True):
    """Cut the script at every flash operation; returns the _Checker with its counts."""
    check = _Checker(events, fold)
    gc.collect()
    # Five flash images, allocated once: 128 KB blocks are hard to find in a fragmented heap later.
    size = BLOCK_SIZE * BLOCK_COUNT
    image = bytearray(b"\xff" * size)  # the flash at the boot that starts the current session
    end = bytearray(size)  # ... and at its end (the next session's start)
    work = bytearray(size)
    pre = bytearray(size)
    work2 = bytearray(size)
    vfs.VfsLfs2.mkfs(CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, image), progsize=PROG_SIZE)
    model = (0, 0, 1)
    starts = [i for i in range(len(steps)) if steps[i][0] == "boot"] + [len(steps)]
    for s in range(len(starts) - 1):
        session = steps[starts[s] : starts[s + 1]]
        work[:] = image
        dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
        models = [model]
        marks = []
        assert _run(dev, session, model, events, models, marks) is None
        total = dev.ops
        for i in range(len(session)):
            kind = session[i][0]
            check.uncut_ops[kind] = check.uncut_ops.get(kind, 0) + marks[i] - (marks[i - 1] if i else 0)
        dev.dead = True
        end[:] = work
        for k in range(total):
            for half in (False, True) if halves else (False,):
                work[:] = image
                dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
                dev.cut_after = k
                dev.half = half
                i = _run(dev, session, model, events)
                assert i is not None, "no cut at op %d" % k
                check.cuts += 1
                kind = session[i][0]
                check.in_flight[kind] = check.in_flight.get(kind, 0) + 1
                label = "session %d op %d%s (%s)" % (s, k + 1, " half" if half else "", kind)
                pre[:] = work
                ops = check.recover(work, models[i], models[i + 1], label)
                for k2 in range(ops):  # the recovery itself writes: cut it too
                    for half2 in (False, True):
                        work2[:] = pre
                        dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work2)
                        dev.cut_after = k2
                        dev.half = half2
                        j = Journal(PATH)
                        try:
                            _mount(dev)
                            j.open()
                        except Exception:
                            if not dev.dead:
                                raise
                        _abandon(j)
                        check.recovery_cuts += 1
                        check.recover(work2, models[i], models[i + 1], label + " recovery op %d" % (k2 + 1))
        image, end = end, image
        model = models[-1]
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    return check


def test_power_cut_at_every_flash_operation_of_a_match():
    events = placeholder_match_lines(450)
    steps = match_script(len(events) - 1)
    check = run_power_cuts(events, placeholder_fold, steps)
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
    events = ['{"t":"peg","s":%d,"n":%d,"why":"rot-%03d"}' % (i & 1, 1 + i % 5, i) for i in range(60)]
    image = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT)
    vfs.VfsLfs2.mkfs(image, progsize=PROG_SIZE)
    _mount(image)
    j = Journal(PATH)
    j.open()
    for e in events:
        j.append(e)
    j.close()
    image.dead = True
    assert _flip_everywhere(image.mem, b"rot-017") > 0  # record seq 18 no longer matches its checksum
    rotten = bytes(image.mem)
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
    assert got == events[:17] and report.bad_seq == 18 and report.reason == "checksum mismatch"
    assert report.dropped == 43 and report.tail_valid == 42 and repair_ops > 0
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
            assert got == events[:17] and report.next_seq == 18, (k, half, report)
            with open(PATH + ".bad", "rb") as f:
                bad = f.read()
            assert bad.count(b"rot-059") in (1, 2) and bad.count(b"# set aside") == bad.count(b"rot-059")
            j = Journal(PATH)
            j.open()
            assert j.append("after") == 18
            _abandon(j)
            dev.dead = True
    print("bit rot: record 18 of 60 corrupted; %d cut points in its repair (%d ops)" % (cuts, repair_ops))


def test_littlefs_write_alone_is_not_on_flash_flush_is():
    """Why append() flushes: on littlefs, write() stays in the file's RAM cache; flush() is
    lfs_file_sync (extmod/vfs_lfsx_file.c, MP_STREAM_FLUSH), which commits data and size."""
    dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT)
    vfs.VfsLfs2.mkfs(dev, progsize=PROG_SIZE)
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
