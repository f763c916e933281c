# Issue 9's sweep, a deterministic sample: spoilt journals and flipped littlefs bits boot with no
# traceback, no seq handed out twice, no confirmed event lost without a report, and what cannot be
# read kept byte for byte. The full run (520 + 520 cases) is `micropython tests/journal/journal_sweep.py`.
from journal_sweep import KINDS, match_lines, sweep_checkpoints, sweep_flips, sweep_journals

_lines = []


def _match():
    if not _lines:
        _lines.extend(match_lines(120))
    return _lines


def test_every_kind_of_spoilt_journal_boots_and_keeps_its_promises():
    t = sweep_journals(6 * len(KINDS), seed=7, lines=_match())
    print("journal sweep sample: %s" % t)
    assert t.bad() == 0, (t.tracebacks + t.reused + t.silent_loss + t.not_kept + t.not_clean)[:5]
    assert t.reported >= 5 * len(KINDS)  # nearly every spoilt journal is said to be so


def test_single_bit_flips_over_the_littlefs_image_boot_and_keep_their_promises():
    t = sweep_flips(48, seed=7, lines=_match())
    print("flash flip sample: %s" % t)
    assert t.bad() == 0, (t.tracebacks + t.reused + t.silent_loss + t.not_kept + t.not_clean)[:5]
    assert t.cases + t.mount_refused == 48


def test_a_checkpoint_the_spoilt_journal_no_longer_matches_changes_nothing_a_boot_does():
    # Each kind of spoilt journal booted twice, with the boot checkpoint of the journal before it was
    # spoilt and without: the same match, report, journal and set-aside bytes (board/store/commit.py).
    n, used, differ = sweep_checkpoints(3 * len(KINDS), seed=7, lines=_match())
    print("checkpoint sweep sample: %d cases, the checkpoint used in %d, %d differ" % (n, used, len(differ)))
    assert not differ, differ[:5]
    assert used >= 1  # the unspoilt journal (case 0) boots from it
