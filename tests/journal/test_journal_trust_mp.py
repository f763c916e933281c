# Issue 9 items 1, 2, 3 and 5 on real littlefs (VfsLfs2 over a RAM flash shaped like the Pico's).
#
# Each test names the failure it pins down; each failed on the code before (a seq handed out twice,
# a traceback at boot, good records thrown away, a new match erasing what no laptop had stored).
import gc
import json

import lfsjournal as lfs
from match_script import match_events

from board.link import Link
from board.store.journal import Journal
from cribbage import events

BLOCK_COUNT = 48
MOUNT = "/trust"
PATH = MOUNT + "/journal.log"
N = 345  # the case: a three-game match's worth of events, all synced

_lines = []


def match_lines():
    """N event lines of the scripted matches (tests/support/match_script.py), made once."""
    if not _lines:
        gc.collect()
        match_events(seed=1, games=9, max_events=N, sink=lambda ev: _lines.append(events.to_line(ev)))
    return _lines


def _mount(dev):
    lfs.mount(dev, MOUNT)


def flash_with(lines):
    """A fresh littlefs holding a journal of `lines` (appended one by one, as the board does)."""
    return lfs.journal_of(lines, BLOCK_COUNT, MOUNT, PATH)


def boot():
    """Open the journal as the board does at boot: (payloads replayed, report, the open journal)."""
    got = []
    j = Journal(PATH)
    report = j.open(got.append)
    return got, report, j


def _record_span(data, seq):
    """(start, end) of record seq's line in a journal file's bytes."""
    at = data.index(b"\n%d " % seq) + 1
    return at, data.index(b"\n", at) + 1


# -- item 1: a seq is never handed out twice ------------------------------------------------------


def test_a_flipped_byte_in_record_340_does_not_hand_out_340_again():
    # Before: the board kept 1..339, and the next 8 events got seqs 340..347 again.
    lines = match_lines()
    flash_with(lines)
    data = bytearray(lfs.read(PATH))
    a, b = _record_span(data, 340)
    data[b - 3] ^= 0x01  # a flipped bit in record 340's payload
    lfs.write(PATH, data)
    got, report, j = boot()
    assert got == lines[:339] + lines[340:]  # item 3 too: 341..345 are kept
    assert report.next_seq == 346 and report.dropped == 1
    assert report.problem() == ("Journal: 1 bad", "set aside, kept")
    assert [j.append("after %d" % i) for i in range(8)] == list(range(346, 354))
    j.close()


def test_a_flipped_last_record_does_not_hand_out_its_seq_again():
    lines = match_lines()
    flash_with(lines)
    data = bytearray(lfs.read(PATH))
    data[-3] ^= 0x01  # record 345, the last one
    lfs.write(PATH, data)
    got, report, j = boot()
    assert got == lines[:344] and report.next_seq == 346  # before: 345, a seq the laptop already has
    j.close()


def test_a_journal_rolled_back_to_an_older_commit_is_reported_and_no_seq_is_reused():
    # littlefs falling back to an older commit of the journal's metadata: the file is whole but
    # shorter. The seq mark lives in another folder (another metadata pair) and says what was given.
    lines = match_lines()
    flash_with(lines[:315])
    older = lfs.read(PATH)
    j = Journal(PATH)
    j.open()
    for line in lines[315:]:
        j.append(line)
    j.close()
    lfs.write(PATH, older)  # the journal as it was 30 confirmed events ago
    got, report, j = boot()
    assert got == lines[:315]
    assert report.lost == (316, 345) and report.next_seq == 346  # before: 316, silently
    assert report.problem() == ("Journal rollback", "lost seq 316-345")
    assert "316..345" in str(report)
    assert j.append("next") == 346
    j.close()
    _, report, j = boot()
    j.close()
    assert report.ok  # said once: the journal goes on from there


def test_a_compaction_never_lowers_the_next_seq():
    lines = match_lines()
    flash_with(lines[:40])
    _, _, j = boot()
    j.ack(40)
    j.rewrite(41, ['{"t":"setup"}'])  # everything synced: nothing kept but the new set-up
    assert j.first_seq == 41 and j.next_seq == 42
    j.close()
    lfs.write(PATH, lfs.read(PATH).split(b"\n")[0] + b"\n")  # and then the set-up record is lost too
    got, report, j = boot()
    assert got == [] and report.next_seq == 42 and report.lost == (41, 41)
    j.close()


# -- item 2: every damaged journal boots ----------------------------------------------------------


def _damaged_cases(data):
    head_end = data.index(b"\n") + 1
    flipped = bytearray(data)
    flipped[5] ^= 0x10
    return [
        ("schema version 3 (newer firmware)", None),
        ("schema version 2 without a checksum", b"cribboard-journal 2 first 1\n" + data[head_end:]),
        ("a flipped bit in the header", bytes(flipped)),
        ("a truncated header", data[:20]),
        ("first 0", b"cribboard-journal 1 first 0\n" + data[head_end:]),
        ("an empty file", b""),
        ("all 0xFF", b"\xff" * 8192),
        ("all 0x00", b"\x00" * 8192),
        ("a record line of 18 KB", data + b"346 00000000 " + b"x" * 18000 + b"\n"),
    ]


def test_every_damaged_journal_boots_keeps_what_it_cannot_read_and_says_so():
    lines = match_lines()[:60]
    flash_with(lines)
    good = lfs.read(PATH)
    for name, data in _damaged_cases(good):
        if data is None:
            continue
        flash_with(lines)  # a fresh flash: the seq mark says 1..60 were given out
        lfs.write(PATH, data)
        got, report, j = boot()  # before: a traceback for each of these
        assert report.problem() is not None and not report.ok, name
        kept = (report.damaged and lfs.read(report.damaged) == data) or (
            report.set_aside and data[len(good) :] in lfs.read(report.set_aside)
        )
        assert kept, name  # byte for byte, in the .old copy or the .bad file
        assert report.next_seq == 61, (name, str(report))
        assert j.append("after") == 61, name
        j.close()
        again, report2, j = boot()
        assert again[-1] == "after" and report2.ok, name
        j.close()


def test_a_journal_of_newer_firmware_is_left_untouched_and_the_board_says_update():
    flash_with(match_lines()[:10])
    head = b"cribboard-journal 3 first 1 something new"
    from cribbage.journal import crc32

    data = head + b" crc %08x\n" % crc32(head) + b"1 00000000 {}\n"
    lfs.write(PATH, data)
    got, report, j = boot()
    assert got == [] and report.locked and report.problem() == ("Update firmware:", "journal is newer")
    try:
        j.append("x")
        raise AssertionError("appended to a newer journal")
    except Exception as e:
        assert "update the firmware" in str(e)
    j.close()
    assert lfs.read(PATH) == data


# -- item 3: one bad record no longer throws away the rest ---------------------------------------


def test_one_flipped_bit_sets_aside_one_record_and_the_link_pages_through_it():
    # Before: 245 good records after the bad one went to a .bad file nothing could read.
    lines = match_lines()
    flash_with(lines)
    data = bytearray(lfs.read(PATH))
    a, b = _record_span(data, 100)
    data[a + 12] ^= 0x04
    bad_line = bytes(data[a:b])
    lfs.write(PATH, data)
    got, report, j = boot()
    assert got == lines[:99] + lines[100:] and report.dropped == 1 and report.bad_seq == 100
    link = Link(j, None, board_id="b", firmware="t", form="six-card")
    files = json.loads(link.handle('{"id":1,"op":"aside"}')[0])["aside"]
    assert files == [{"name": "journal.log.bad", "size": len(lfs.read(PATH + ".bad"))}]
    fetched = b""
    at = 0
    pages = 0
    while True:
        r = json.loads(link.handle('{"id":2,"op":"aside","name":"journal.log.bad","from":%d}' % at)[0])
        fetched += bytes(bytearray.fromhex(r["data"]))
        at = r["next"]
        pages += 1
        if not r["more"]:
            break
    assert fetched == lfs.read(PATH + ".bad") and bad_line in fetched
    r = json.loads(link.handle('{"id":3,"op":"aside","name":"../journal.log"}')[0])
    assert r["ok"] is False and r["code"] == "range"
    j.close()


# -- item 5: a new match keeps what the laptop has not stored -----------------------------------


def test_a_new_match_keeps_unsynced_events_and_drops_acknowledged_ones():
    lines = match_lines()
    flash_with(lines[:200])
    got, report, j = boot()
    setup = '{"t":"setup","form":"six"}'
    j.rewrite(j.acked + 1, [setup])  # what App.new_match does: nothing acknowledged, all kept
    assert [s for s, _ in j.records()] == list(range(1, 202)) and j.fold == 201
    j.close()
    got, report, j = boot()
    assert got == [setup] and report.ok  # the older match is kept, not replayed
    link = Link(j, None, board_id="b", firmware="t", form="six-card")
    r = json.loads(link.handle('{"id":1,"op":"ack","seq":150}')[0])
    assert r["acked"] == 150 and json.loads(link.handle('{"id":2,"op":"hello"}')[0])["acked"] == 150
    r = json.loads(link.handle('{"id":3,"op":"ack","seq":202}')[0])
    assert r["ok"] is False and r["code"] == "range"  # seqs not given out yet
    j.rewrite(min(j.acked + 1, j.fold))  # a compaction: 151.. stay
    assert j.first_seq == 151 and [s for s, _ in j.records()][:2] == [151, 152]
    j.close()
    got, report, j = boot()  # the acknowledgement is on flash
    assert j.acked == 150 and got == [setup]
    j.ack(201)
    j.rewrite(j.acked + 1, [setup])  # everything stored on the laptop: only the new set-up stays
    assert [s for s, _ in j.records()] == [202]
    j.close()
