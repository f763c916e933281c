# Corrupted journals and flipped flash bits on real littlefs, booted as the board boots (issue 9's sweep).
"""Usage (the full run; tests/journal/test_journal_sweep_mp.py runs a deterministic sample):

    .venv/bin/micropython -X heapsize=4m tests/journal/journal_sweep.py [JOURNALS] [FLIPS] [SEED]

A journal of N events is written by the board's Journal on a littlefs RAM flash; each case spoils it
one way (bit flips in records and header, truncations, duplicated and swapped records, records with
a valid checksum and nonsense inside, other schema versions, long lines, whole-file fills) or flips
one bit anywhere in the littlefs image, then boots it (Journal.open with the board's own replay,
App._replay). Counted: tracebacks, seqs handed out again (the next seq is not past every seq given),
confirmed events lost without a report (missing from the journal while the report says all is well),
lines neither kept in the journal nor byte for byte in the set-aside files, and a journal that does
not read back cleanly after one more append.
"""

import gc
import os
import sys

import vfs

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _p in (_HERE, _HERE + "/../support", _HERE + "/../../firmware"):
    if _p not in sys.path:
        sys.path.append(_p)

import lfsjournal as lfs  # noqa: E402
from cutblockdev import CutBlockDev  # noqa: E402

from board.store.journal import Journal  # noqa: E402
from cribbage.journal import crc32  # noqa: E402

BLOCK_SIZE = lfs.BLOCK_SIZE
BLOCK_COUNT = 32
MOUNT = "/sweep"
PATH = MOUNT + "/journal.log"
N = 150

PEG = '{"t":"peg","s":0,"n":1,"why":"manual"}'
NONSENSE = (b"nonsense", b"[1,2]", b'"x"', b'{"t":"zzz"}', b"{", b'{"t":"setup","form":"none"}')
KINDS = (
    "flip-record",
    "flip-header",
    "flip-three",
    "truncate",
    "duplicate",
    "swap",
    "nonsense",
    "version",
    "long-line",
    "fill",
)


class Rng:
    """xorshift32: the same cases on every interpreter and run."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x % n


class Boot:
    """The board's own replay at boot: board.store.commit.Commit.replay, on a Commit of its own."""

    def __init__(self):
        from board.store.commit import Commit

        self.apply = Commit(None, None, print).replay


def _mount(dev):
    lfs.mount(dev, MOUNT)


def _record_lines(data):
    """(start, end) of each line after the header."""
    out = []
    at = data.find(b"\n") + 1
    while 0 < at < len(data):
        nl = data.find(b"\n", at)
        end = len(data) if nl < 0 else nl + 1
        out.append((at, end))
        at = end
    return out


def spoil(kind, rng, good):
    """The journal file's bytes spoilt one way."""
    data = bytearray(good)
    recs = _record_lines(good)
    head = recs[0][0]
    if kind == "flip-record":
        i = head + rng.below(len(good) - head)
        data[i] ^= 1 << rng.below(8)
    elif kind == "flip-header":
        i = rng.below(head)
        data[i] ^= 1 << rng.below(8)
    elif kind == "flip-three":
        for _ in range(3):
            i = rng.below(len(good))
            data[i] ^= 1 << rng.below(8)
    elif kind == "truncate":
        data = data[: rng.below(len(good))]
    elif kind == "duplicate":
        a, b = recs[rng.below(len(recs))]
        at = recs[rng.below(len(recs))][0]
        data = data[:at] + good[a:b] + data[at:]
    elif kind == "swap":
        i, k = sorted((rng.below(len(recs)), rng.below(len(recs))))
        (a, b), (c, d) = recs[i], recs[k]
        data = good[:a] + good[c:d] + good[b:c] + good[a:b] + good[d:]
    elif kind == "nonsense":
        seq = 1 + rng.below(N + 40)
        payload = NONSENSE[rng.below(len(NONSENSE))]
        line = b"%d %08x " % (seq, crc32(payload, seq)) + payload + b"\n"
        at = recs[rng.below(len(recs))][0] if rng.below(2) else len(good)
        data = data[:at] + line + data[at:]
    elif kind == "version":
        v = (0, 1, 2, 3, 9)[rng.below(5)]
        text = b"cribboard-journal %d first 1 fold 1" % v
        if rng.below(2):
            text += b" crc %08x" % crc32(text)
        data = text + b"\n" + data[head:]
    elif kind == "long-line":
        line = b"%d 00000000 " % (1 + rng.below(N)) + b"z" * (2000 + rng.below(20000)) + b"\n"
        at = recs[rng.below(len(recs))][0]
        data = data[:at] + line + data[at:]
    else:  # fill
        data = (b"", b"\xff" * len(good), b"\x00" * len(good))[rng.below(3)]
    return bytes(data)


class Tally:
    def __init__(self):
        self.cases = 0
        self.tracebacks = []
        self.reused = []
        self.silent_loss = []
        self.not_kept = []
        self.not_clean = []
        self.reported = 0  # boots whose report said something was wrong
        self.rollbacks = 0  # of them, a seq mark above the journal (reported as a rollback)
        self.damaged = 0  # of them, a header it could not read (the whole file kept as .old)
        self.locked = 0
        self.mount_refused = 0
        self.no_effect = 0  # image flips that changed nothing the journal reads

    def bad(self):
        return (
            len(self.tracebacks)
            + len(self.reused)
            + len(self.silent_loss)
            + len(self.not_kept)
            + len(self.not_clean)
        )

    def __str__(self):
        return (
            "%d cases: %d tracebacks, %d seqs reused, %d confirmed events lost without a report, "
            "%d lines not kept, %d journals not clean after; %d boots reported damage (%d rollbacks, "
            "%d damaged headers), %d locked (newer version), %d mounts refused by littlefs, "
            "%d flips changed nothing read"
            % (
                self.cases,
                len(self.tracebacks),
                len(self.reused),
                len(self.silent_loss),
                len(self.not_kept),
                len(self.not_clean),
                self.reported,
                self.rollbacks,
                self.damaged,
                self.locked,
                self.mount_refused,
                self.no_effect,
            )
        )


def make_flash(lines):
    return lfs.journal_of(lines, BLOCK_COUNT, MOUNT, PATH)


def _aside_bytes():
    out = b""
    for name in os.listdir(MOUNT):
        if name.startswith("journal.log.") and name[12:] not in ("seq", "tmp", "checkpoint"):
            out += lfs.read(MOUNT + "/" + name)
    return out


def boot_and_check(label, lines, tally, spoilt=None):
    """Boot the mounted flash; check the four promises. spoilt: the journal's bytes before the boot."""
    tally.cases += 1
    got = []
    j = Journal(PATH)
    try:
        report = j.open(Boot().apply)
    except Exception as e:  # the board would stop here
        tally.tracebacks.append("%s: %r" % (label, e))
        j.close()
        return
    if report.locked:
        tally.locked += 1
        if spoilt is not None and lfs.read(PATH) != spoilt:
            tally.not_kept.append(label + ": a newer journal was changed")
        j.close()
        return
    if not report.ok:
        tally.reported += 1
        tally.rollbacks += report.lost is not None
        tally.damaged += report.damaged is not None
    if report.next_seq <= len(lines):
        tally.reused.append("%s: next seq %d after %d given" % (label, report.next_seq, len(lines)))
    held = {}
    for seq, payload in j.records():
        held[seq] = payload
    lost = [s for s in range(1, len(lines) + 1) if held.get(s) != lines[s - 1]]
    if lost and report.ok:
        tally.silent_loss.append("%s: %d events gone, seqs %r.., report ok" % (label, len(lost), lost[:3]))
    if spoilt is not None:
        now = lfs.read(PATH)
        aside = _aside_bytes()
        if report.damaged:
            if lfs.read(report.damaged) != spoilt:
                tally.not_kept.append(label + ": the .old copy differs")
        else:
            for a, b in _record_lines(spoilt):
                line = spoilt[a:b]
                if line not in now and line.rstrip(b"\n") not in aside:
                    tally.not_kept.append("%s: line at %d neither kept nor set aside" % (label, a))
                    break
    try:
        seq = j.append(PEG)
        j.close()
        again = []
        j2 = Journal(PATH)
        report2 = j2.open(again.append)
        j2.close()
        if not report2.ok or seq != report.next_seq or not again or again[-1] != PEG:
            tally.not_clean.append("%s: %s" % (label, report2))
    except Exception as e:
        tally.tracebacks.append("%s (after): %r" % (label, e))
        j.close()
    del got


def match_lines(n=N):
    from match_script import match_events

    from cribbage import events

    out = []
    match_events(seed=3, games=9, max_events=n, sink=lambda ev: out.append(events.to_line(ev)))
    return out


def sweep_journals(count, seed=1, lines=None):
    """count spoilt journals (the kinds in turn); returns the Tally."""
    lines = lines or match_lines()
    tally = Tally()
    dev = make_flash(lines)
    image = bytearray(dev.mem)
    good = lfs.read(PATH)
    rng = Rng(seed)
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        dev.mem[:] = image
        _mount(dev)
        data = spoil(kind, rng, good)
        lfs.write(PATH, data)
        boot_and_check("journal %d %s" % (i, kind), lines, tally, data)
        if i % 16 == 0:
            gc.collect()
    _umount()
    return tally


def sweep_flips(count, seed=1, lines=None):
    """count single-bit flips in the littlefs image (half anywhere, half in written blocks); -> Tally."""
    lines = lines or match_lines()
    tally = Tally()
    dev = make_flash(lines)
    _umount()
    image = bytes(dev.mem)
    work = bytearray(image)
    blank = b"\xff" * BLOCK_SIZE
    used = [b for b in range(BLOCK_COUNT) if image[b * BLOCK_SIZE : (b + 1) * BLOCK_SIZE] != blank]
    rng = Rng(seed + 1000)
    for i in range(count):
        work[:] = image
        if i % 2:  # every other flip in a block littlefs has written (most of the image is erased)
            at = used[rng.below(len(used))] * BLOCK_SIZE + rng.below(BLOCK_SIZE)
        else:
            at = rng.below(len(work))
        work[at] ^= 1 << rng.below(8)
        dev = CutBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
        try:
            _mount(dev)
            lfs.read(PATH)
        except Exception:
            tally.mount_refused += 1  # littlefs itself refuses: the board's HAL sees a mount error
            continue
        before = tally.reported
        boot_and_check("flip %d at byte %d" % (i, at), lines, tally)
        if tally.reported == before:
            tally.no_effect += 1
        if i % 16 == 0:
            gc.collect()
    _umount()
    return tally


def _booted(setup, logged):
    """Boot the mounted flash as the app does (Commit.boot: the checkpoint if any, then the journal);
    -> what a player and a laptop would meet: the match's state and events in force, the report, the
    journal's and the set-aside files' bytes."""
    from board.store.commit import Commit

    book = Commit(Journal(PATH), setup, logged.append)
    report = book.boot(setup)
    m = book.match
    state = (m.front, m.back, m.game_no, m.deal_no, m.count, m.results, m.effective_events())
    book.journal.close()
    return state, str(report), book.count, lfs.read(PATH), _aside_bytes()


def sweep_checkpoints(count, seed=1, lines=None):
    """count spoilt journals (the kinds in turn), each booted twice from the same bytes: with the boot
    checkpoint of the unspoilt journal beside it and without one. -> (cases, checkpoints used,
    [cases whose two boots differ or raised]). A checkpoint the journal's bytes no longer match must
    change nothing a boot does (docs/journal.md, "The boot checkpoint")."""
    from board.store.commit import Commit
    from cribbage import events

    lines = lines or match_lines()
    setup = events.from_line(lines[0])
    dev = make_flash(lines)
    book = Commit(Journal(PATH), setup, print)
    book.boot(setup)
    if not book.save():
        raise RuntimeError("no checkpoint of %d records" % book.count)
    book.journal.close()
    image = bytearray(dev.mem)
    good = lfs.read(PATH)
    rng = Rng(seed)
    used = 0
    differ = []
    for i in range(count):
        kind = KINDS[i % len(KINDS)] if i else "none"
        data = good if i == 0 else spoil(kind, rng, good)
        got = []
        for keep in (True, False):
            dev.mem[:] = image
            _mount(dev)
            lfs.write(PATH, data)
            if not keep:
                os.remove(PATH + ".checkpoint")
            logged = []
            try:
                got.append(_booted(setup, logged))
            except Exception as e:
                got.append("%r" % (e,))
            if keep and "checkpoint dropped" not in logged and not isinstance(got[0], str):
                used += 1
        if got[0] != got[1]:
            differ.append("journal %d %s" % (i, kind))
        if i % 16 == 0:
            gc.collect()
    _umount()
    return count, used, differ


def _umount():
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass


def main(argv):
    journals = int(argv[1]) if len(argv) > 1 else 520
    flips = int(argv[2]) if len(argv) > 2 else 520
    seed = int(argv[3]) if len(argv) > 3 else 1
    lines = match_lines()
    t = sweep_journals(journals, seed, lines)
    print("corrupted journals (%d events each): %s" % (len(lines), t))
    for x in (t.tracebacks + t.reused + t.silent_loss + t.not_kept + t.not_clean)[:20]:
        print("  ", x)
    f = sweep_flips(flips, seed, lines)
    print(
        "single-bit flips over the %d KB littlefs image (half in written blocks): %s"
        % (BLOCK_SIZE * BLOCK_COUNT // 1024, f)
    )
    for x in (f.tracebacks + f.reused + f.silent_loss + f.not_kept + f.not_clean)[:20]:
        print("  ", x)
    n, used, differ = sweep_checkpoints(journals, seed, lines)
    print(
        "the same kinds, booted with the unspoilt journal's checkpoint and without: %d cases, the "
        "checkpoint used in %d, %d boots differ" % (n, used, len(differ))
    )
    for x in differ[:20]:
        print("  ", x)
    return t.bad() + f.bad() + len(differ)


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv) else 0)
