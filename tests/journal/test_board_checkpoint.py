# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The boot checkpoint (board/store/commit.py load/save): a boot from it is the journal's full replay,
# and one the journal does not agree with (or damaged, or of another layout) is dropped, all replayed.
import json
import os

from fakehal import remove_tree, scratch_dir
from game_kit import state
from match_script import match_events
from scenario import Scenario

from board.store.commit import Commit
from board.store.journal import Journal
from cribbage import events
from cribbage.game import replay
from cribbage.journal import crc32


class Board:
    """A Commit on a journal in a scratch folder, booted as the app boots it."""

    def __init__(self, folder, setup):
        self.logged = []
        self.book = Commit(Journal(folder + "/journal.log"), setup, self.logged.append)
        self.book.boot(setup)

    def close(self):
        self.book.journal.close()


def played(folder, evs, save=True):
    """evs committed one by one, the checkpoint saved after each as the app's save pass does."""
    b = Board(folder, evs[0])
    for ev in evs[1:]:
        b.book.apply(ev)
        if save:
            b.book.save()
    b.close()


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def lines_of(folder):
    out = []
    j = Journal(folder + "/journal.log")
    j.open(out.append)
    j.close()
    return out


def same_as_replay(m, lines):
    """m is what the full replay of lines makes: its state, its events in force, and its undos."""
    full = replay([events.from_line(x) for x in lines])
    assert state(m) == state(full)
    assert m.effective_events() == full.effective_events()
    assert m.names == full.names and m.results == full.results
    for _ in range(30):  # undo far back over the checkpoint: the refolds from its deal checkpoints
        if not full.count:
            break
        m.apply({"t": "undo"})
        full.apply({"t": "undo"})
        assert state(m) == state(full)


def test_a_boot_from_the_checkpoint_is_the_full_replay():
    # (the boot refolds from the last game's start: these stop in games 2, 1, 2, 3 and 3)
    for seed, form, n in (
        (1, "six", 240),
        (3, "three", 180),
        (5, "five", 130),
        (2, "six", 420),
        (7, "four", 330),
    ):
        evs = match_events(seed=seed, form=form, max_events=n)
        folder = scratch_dir("/tmp/cribcp-")
        try:
            played(folder, evs)
            assert exists(folder + "/journal.log.checkpoint")
            b = Board(folder, evs[0])
            # it was used: the records it holds were not replayed, and the ones after it were
            assert b.book.mark is None and 2 <= b.book.kept <= n and n - b.book.kept < 50
            assert b.book.count == n and "checkpoint dropped" not in b.logged
            assert len(b.book.match.results) == {240: 1, 180: 0, 130: 1, 420: 2, 330: 2}[n]
            lines = lines_of(folder)
            assert len(lines) == n
            same_as_replay(b.book.match, lines)
            # and it plays on: the next events commit, and the next boot is the replay again
            b.close()
            more = match_events(seed=seed, form=form, max_events=n + 60)[n:]
            b = Board(folder, evs[0])
            for ev in more:
                b.book.apply(ev)
                b.book.save()
            b.close()
            b = Board(folder, evs[0])
            assert b.book.kept > n
            same_as_replay(b.book.match, lines_of(folder))
            b.close()
        finally:
            remove_tree(folder)


def test_a_boot_without_a_checkpoint_writes_one_at_its_first_calm_pass():
    # A journal with no checkpoint (a firmware update that changed its format, one set aside): the
    # board writes one as soon as its boot has replayed, so that only that boot replays it all.
    evs = match_events(seed=1, max_events=130)
    folder = scratch_dir("/tmp/cribcp-")
    try:
        played(folder, evs, save=False)
        assert not exists(folder + "/journal.log.checkpoint")
        s = Scenario(storage_dir=folder)  # boots, then runs its passes for 20 ms
        assert s.app.book.count == 130
        assert exists(folder + "/journal.log.checkpoint")
        s.reboot()  # a chip reset a moment later: this boot replays only from it
        assert "checkpoint dropped" not in s.hal.logged
        assert s.app.book.kept == 130 and s.app.book.count == 130
        same_as_replay(s.app.match, lines_of(folder))
        s.close()
    finally:
        if exists(folder):
            remove_tree(folder)


def _booted(folder, setup):
    b = Board(folder, setup)
    b.close()
    return b


def test_a_checkpoint_the_journal_does_not_hold_is_dropped():
    a = match_events(seed=1, max_events=120)
    other = match_events(seed=2, max_events=140)
    folder = scratch_dir("/tmp/cribcp-")
    try:
        played(folder, a)
        with open(folder + "/journal.log.checkpoint", "rb") as f:
            kept = f.read()

        def journal(evs):
            for name in os.listdir(folder):
                if name != "journal.log.seq":
                    os.remove(folder + "/" + name)
            for name in os.listdir(folder + "/journal.log.seq"):
                os.remove(folder + "/journal.log.seq/" + name)
            j = Journal(folder + "/journal.log")
            j.open()
            for ev in evs:
                j.append(events.to_line(ev))
            j.close()
            with open(folder + "/journal.log.checkpoint", "wb") as f:
                f.write(kept)

        # another match's journal, longer than the checkpoint: its records are not the ones it holds
        journal(other)
        b = _booted(folder, a[0])
        assert "checkpoint dropped" in b.logged and b.book.count == 140
        assert not exists(folder + "/journal.log.checkpoint")
        same_as_replay(b.book.match, lines_of(folder))
        # the same match, but the journal ends before the checkpoint's last record (rolled back)
        journal(a[:90])
        b = _booted(folder, a[0])
        assert "checkpoint dropped" in b.logged and b.book.count == 90
        same_as_replay(b.book.match, lines_of(folder))
        # the same records, one changed (a peg of another size) before the checkpoint's end
        changed = list(a)
        k = [i for i in range(1, 100) if changed[i]["t"] == "peg"][0]
        changed[k] = dict(changed[k], n=changed[k]["n"] + 1)
        journal(changed)
        b = _booted(folder, a[0])
        assert "checkpoint dropped" in b.logged
        same_as_replay(b.book.match, lines_of(folder))
        # the journal's own match again: it is used
        journal(a)
        b = _booted(folder, a[0])
        assert "checkpoint dropped" not in b.logged and b.book.kept >= 100
        same_as_replay(b.book.match, lines_of(folder))
    finally:
        remove_tree(folder)


def test_a_damaged_checkpoint_is_removed_and_all_replayed():
    a = match_events(seed=4, max_events=110)
    folder = scratch_dir("/tmp/cribcp-")
    path = folder + "/journal.log.checkpoint"
    try:
        played(folder, a)
        with open(path, "rb") as f:
            good = f.read()
        nl = good.find(b"\n")
        head = good[:nl].split()
        damaged = [
            good[: nl + 40] + bytes([good[nl + 40] ^ 4]) + good[nl + 41 :],  # a flipped bit in the games
            good[:-100] + bytes([good[-100] ^ 4]) + good[-99:],  # a flipped bit in the log
            good[: nl + 1 + 200],  # cut short
            b"9 " + b" ".join(head[1:]) + good[nl:],  # another layout's
            b"",  # empty
            b"1 2 3\n",  # too few numbers
            b"\xff" * 300,  # erased flash
        ]
        # and one whose checksum holds around numbers no journal has (a negative seq, a mark past its end)
        n = int(head[2])
        games = json.loads(good[nl + 1 : nl + 1 + n])
        chunks = good[nl + 1 + n :]
        for field, value in ((2, -1), (4, [1, 10**6])):
            bad = json.loads(json.dumps(games))
            bad[2][field] = value
            text = json.dumps(bad).encode()
            damaged.append(b"3 %d %d\n" % (crc32(chunks, crc32(text)), len(text)) + text + chunks)
        for data in damaged:
            with open(path, "wb") as f:
                f.write(data)
            b = _booted(folder, a[0])
            assert not exists(path), data[:20]
            assert b.book.kept == 0 and b.book.count == 110
            same_as_replay(b.book.match, lines_of(folder))
        with open(path, "wb") as f:
            f.write(good)
        b = _booted(folder, a[0])
        assert b.book.kept >= 100
    finally:
        remove_tree(folder)


def test_a_new_match_is_not_the_old_checkpoint():
    a = match_events(seed=6, max_events=120)
    folder = scratch_dir("/tmp/cribcp-")
    try:
        played(folder, a)
        b = Board(folder, a[0])
        assert b.book.kept >= 100
        b.book.new_match(a[0])
        b.close()
        b = _booted(folder, a[0])
        assert b.book.count == 1 and b.book.match.count == 0
        same_as_replay(b.book.match, lines_of(folder)[-1:])
        # the new match checkpoints from its own start
        b = Board(folder, a[0])
        for ev in a[1:60]:
            b.book.apply(ev)
            b.book.save()
        b.close()
        b = _booted(folder, a[0])
        assert b.book.kept == 50 and b.book.count == 60  # the set-up and 49 events
        same_as_replay(b.book.match, [events.to_line(a[0])] + [events.to_line(e) for e in a[1:60]])
    finally:
        remove_tree(folder)


def test_the_journal_reads_only_the_records_after_its_state():
    # Journal.open(apply, skip, resume): a state() whose bytes are still the file's first ones is
    # taken as read (resume makes what their replay would); the journal is then the one a full
    # open makes: the same next seq, seq marks and records for the link.
    folder = scratch_dir("/tmp/cribcp-")
    path = folder + "/journal.log"
    try:
        lines = [events.to_line(ev) for ev in match_events(seed=8, max_events=150)]
        j = Journal(path)
        j.open()
        for line in lines[:100]:
            j.append(line)
        skip = j.state()
        assert skip[:4] == [j.size, skip[1], 100, 100] and len(skip[4]) == 8  # marks at 1, 33, 65, 97
        for line in lines[100:]:
            j.append(line)
        j.close()
        full = Journal(path)
        whole = []
        full.open(whole.append)
        full.close()
        resumed = []
        j = Journal(path)
        report = j.open(resumed.append, skip, lambda: True)
        assert resumed == lines[100:] and whole == lines
        assert (j.next_seq, j.last, j._marks, report.kept) == (full.next_seq, 150, full._marks, 150)
        assert [x for _, x in j.records(90)] == lines[89:]
        j.close()
        # resume() refusing (a checkpoint that does not fold): every record is replayed
        again = []
        j = Journal(path)
        j.open(again.append, skip, lambda: False)
        j.close()
        assert again == lines
        # a state of other bytes (a CRC that differs), or past the file's end: resume is not called
        for other in ([skip[0], skip[1] ^ 1] + skip[2:], [j.size + 1] + skip[1:]):
            again = []
            j = Journal(path)
            j.open(again.append, other, lambda: 1 / 0)
            j.close()
            assert again == lines
    finally:
        remove_tree(folder)


def test_a_record_damaged_under_the_checkpoint_is_set_aside_as_without_one():
    # A flipped bit in a record the checkpoint holds: its bytes are not the checkpoint's, so the boot
    # walks the whole journal, sets that record aside and keeps every other (issue 9), exactly as
    # a board without a checkpoint does.
    evs = match_events(seed=9, max_events=130)
    booted = []
    for with_checkpoint in (True, False):
        folder = scratch_dir("/tmp/cribcp-")
        path = folder + "/journal.log"
        try:
            played(folder, evs, save=with_checkpoint)
            assert exists(path + ".checkpoint") == with_checkpoint
            with open(path, "rb") as f:
                data = bytearray(f.read())
            at = data.find(b'{"t"', data.find(b"\n30 ")) + 3  # inside record 30's payload
            data[at] ^= 4
            with open(path, "wb") as f:
                f.write(data)
            b = Board(folder, evs[0])
            b.close()
            assert ("checkpoint dropped" in b.logged) == with_checkpoint
            with open(path + ".bad", "rb") as f:
                aside = f.read().split(b"\n")
            assert aside[1].startswith(b"30 ")  # record 30 first, then those that no longer fold
            kept = Journal(path).open()  # what is on flash now
            assert kept.kept + len(aside) - 2 == 130 and kept.ok
            m = b.book.match
            booted.append((b.book.count, kept.kept, aside, state(m), m.effective_events()))
        finally:
            remove_tree(folder)
    assert booted[0] == booted[1]
