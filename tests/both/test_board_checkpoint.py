# The boot checkpoint, Commit.load/save (issue 15, item 1): it restores exactly the match a full replay
# makes, and one that disagrees with the journal (its bytes, the firmware, its own CRC) is dropped for a
# full replay.
from fakehal import remove_tree, scratch_dir
from game_kit import state
from match_script import match_events

from board.app import FIRMWARE
from board.commit import Commit
from board.journal import Journal
from cribbage import events
from cribbage.game import replay

EVERY = 40  # board/commit.py: a checkpoint every 40 records
N = 130  # events after the set-up: checkpoints at 40, 80 and 120 records, and some records after the last


def _events(n=N):
    evs = []
    match_events(seed=3, max_events=n + 1, sink=evs.append)
    return evs


class Board:
    """A Commit on a scratch journal, booted as the app boots it."""

    def __init__(self, path):
        self.logged = []
        self.book = Commit(Journal(path), _events(0)[0], self.logged.append)
        self.book.boot(_events(0)[0])

    def close(self):
        self.book.journal.close()


def _played(evs):
    d = scratch_dir("/tmp/cribckpt-")
    b = Board(d + "/journal.log")
    for ev in evs[1:]:
        b.book.apply(ev)
        b.book.save()  # as App.save does after each committed event
    b.close()
    return d


def _full(evs):
    return replay([events.from_line(events.to_line(e)) for e in evs])


def _undo_all(book, k):
    """The states through k undos: a checkpoint must keep what undo needs (the log, the deal checkpoints)."""
    got = []
    for _ in range(k):
        book.apply(events.undo())
        got.append(state(book.match))
    return got


def test_a_boot_from_the_checkpoint_is_the_full_replay_and_replays_only_the_records_after_it():
    evs = _events()
    d = _played(evs)
    try:
        b = Board(d + "/journal.log")
        try:
            # N events + the set-up = 131 records; checkpoints at 40, 80, 120: the boot skipped 120
            assert b.book.kept == 120 and b.book.count == N + 1, (b.book.kept, b.book.count)
            assert "checkpoint: the match after 120 records" in b.logged, b.logged
            want = _full(evs)
            assert state(b.book.match) == state(want)
            assert b.book.match.effective_events() == want.effective_events()
            assert b.book.last() == want.effective_events()[-1]
            # the restored match plays on as the replayed one does: undo back over the checkpoint
            fresh = scratch_dir("/tmp/cribckpt-ref-")
            try:
                ref = Commit(Journal(fresh + "/journal.log"), evs[0], [].append)
                ref.boot(evs[0])
                for ev in evs[1:]:
                    ref.apply(ev)
                assert _undo_all(b.book, 25) == _undo_all(ref, 25)
                ref.journal.close()
            finally:
                remove_tree(fresh)
        finally:
            b.close()
    finally:
        remove_tree(d)


def _spoil(path, at, byte):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[at] = byte
    with open(path, "wb") as f:
        f.write(data)


def _boot_checked(d, evs, used):
    b = Board(d + "/journal.log")
    try:
        assert state(b.book.match) == state(_full(evs))
        assert (b.book.kept > 0) == used, b.book.kept
        if not used:
            assert b.book.kept == 0
    finally:
        b.close()


def test_a_checkpoint_of_other_firmware_is_dropped_and_everything_replayed():
    evs = _events()
    d = _played(evs)
    try:
        path = d + "/journal.log.checkpoint"
        with open(path, "rb") as f:
            state_line, check = f.read().split(b"\n")[:2]
        check = check.replace(b'"%s"' % FIRMWARE.encode(), b'"0.0.9"')
        with open(path, "wb") as f:
            f.write(state_line + b"\n" + check + b"\n")
        _boot_checked(d, evs, False)
    finally:
        remove_tree(d)


def test_a_checkpoint_whose_state_is_damaged_is_dropped():
    evs = _events()
    d = _played(evs)
    try:
        path = d + "/journal.log.checkpoint"
        with open(path, "rb") as f:
            data = f.read()
        at = data.index(b'"front":') + len(b'"front":') + 1  # a digit: still JSON, another state
        assert data[at - 1] == ord("[") and ord("0") <= data[at] <= ord("9"), data[at - 1 : at + 4]
        _spoil(path, at, ord("9") if data[at] != ord("9") else ord("8"))
        _boot_checked(d, evs, False)
    finally:
        remove_tree(d)


def test_a_journal_that_no_longer_starts_as_the_checkpoint_says_is_replayed_whole():
    # A record the checkpoint covers, changed with a valid checksum (as another board's journal copied
    # over would be): the journal is the truth, so its match, not the checkpoint's.
    evs = _events()
    d = _played(evs)
    try:
        other = list(evs)
        for i in range(119, 5, -1):  # the last one the checkpoint covers: in the game in force
            if other[i]["t"] == "show" and other[i]["n"] > 1:  # replayed trusted: its count stands
                other[i] = dict(other[i], n=other[i]["n"] - 1)
                break
        else:
            raise AssertionError("no show to change")
        j = Journal(d + "/journal.log")
        j.open()
        j.compact([events.to_line(e) for e in other], 1)
        j.close()
        _boot_checked(d, other, False)
        assert state(_full(other)) != state(_full(evs))
    finally:
        remove_tree(d)


def test_a_new_match_leaves_no_checkpoint_in_force():
    evs = _events()
    d = _played(evs)
    try:
        b = Board(d + "/journal.log")
        b.book.new_match(evs[0])
        b.close()
        b = Board(d + "/journal.log")
        try:
            assert b.book.kept == 0 and b.book.count == 1 and state(b.book.match) == state(_full(evs[:1]))
        finally:
            b.close()
    finally:
        remove_tree(d)


def test_records_set_aside_after_the_checkpoint_replay_everything_and_say_so():
    evs = _events()
    d = _played(evs)
    try:
        path = d + "/journal.log"
        with open(path, "rb") as f:
            data = f.read()
        last = data.rindex(b"\n", 0, len(data) - 1) + 1  # the last record, after the last checkpoint
        _spoil(path, last + len(data[last:]) // 2 + 3, ord("#"))
        b = Board(path)
        try:
            assert b.book.kept == 0
            assert state(b.book.match) == state(_full(evs[:-1]))
            assert any("set aside 1 records" in x for x in b.logged), b.logged
        finally:
            b.close()
    finally:
        remove_tree(d)
