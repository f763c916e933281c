# crib sync over a link cut again and again: each try stores what came whole before the cut, a resumed
# sync asks for the new events first and checks the stored ones a page a query, and only the matches
# that changed are replayed (each fails on the code that stored 512 records at a time after the overlap).
import json

import pytest
from fakeport import FakePort
from linkfakes import matches

from board.link import Link
from crib.history import sync as crib_sync
from crib.history.replay import rebuild
from crib.history.sync import sync
from crib.link.client import LinkClient, LinkError
from crib.store import db

BOARD = b"\xe6\x61\x41\x04\x03\x2f\x12\x2b"
HEX = "e6614104032f122b"


def board(n_events):
    j, m = matches(n_events)
    return j, Link(j, m, board_id=BOARD, firmware="0.1.0", form="six")


def seqs(con):
    return [r[0] for r in con.execute("SELECT seq FROM events ORDER BY seq")]


def whole_records(port_bytes, cut):
    """The seqs of the record lines that arrived whole in the first `cut` bytes the board sent."""
    got = []
    for line in bytes(port_bytes[:cut]).split(b"\n")[:-1]:
        if line[:1].isdigit():
            got.append(int(line.split(b" ")[0]))
    return got


class CutPort(FakePort):
    """A FakePort that keeps every byte the board sent (to see what reached the laptop whole) and
    goes away after `cut` of them: a cable pulled mid-stream."""

    def __init__(self, link, cut):
        super().__init__(link)
        self.sent = bytearray()
        self.fail_after = cut

    def read(self, n=1):
        data = super().read(n)
        self.sent += data
        return data


def test_a_cut_sync_stores_every_record_that_came_whole_before_the_cut(history_db):
    j, link = board(600)
    con = db.connect(history_db)  # SQLite and PostgreSQL alike
    port = CutPort(link, 9000)  # ~160 records, then the cable is pulled
    with pytest.raises(LinkError) as e:
        sync(LinkClient(port, timeout=0.5), con)
    came = whole_records(port.sent, 9000)
    assert 100 < len(came) < 600
    assert seqs(con) == came == list(range(1, len(came) + 1))  # each record stored as it came
    assert e.value.report.added == len(came) and e.value.report.changed == 1


def test_a_link_cut_every_few_hundred_records_still_syncs_to_the_end(history_db, monkeypatch):
    monkeypatch.setattr(crib_sync, "OVERLAP", 256)  # the stored events read again: fewer than a try holds
    j, link = board(2400)
    con = db.connect(history_db)
    gained = []
    for _try in range(40):
        link.disconnect()  # the last host went with the cable
        before = db.count_events(con)
        try:
            rep = sync(LinkClient(CutPort(link, 20000), timeout=0.5), con)  # ~350 records a try
        except LinkError:
            gained.append(db.count_events(con) - before)
            continue
        break
    else:
        raise AssertionError("no try reached the end: %s" % gained)
    assert all(n > 0 for n in gained) and len(gained) >= 5, gained  # every cut try moved on
    assert seqs(con) == list(range(1, 2401))
    assert rep.acked == 2400 and j.acked == 2400  # the last try got to the end: the board was told


def test_a_resumed_sync_asks_for_the_new_events_first_then_the_stored_ones_up_to_them(history_db):
    j, link = board(900)
    con = db.connect(history_db)
    db.note_board(con, {"board": HEX, "protocol": 1})
    held = [{"seq": s, "event": json.loads(line)} for s, line in j.records(1) if s <= 500]
    db.add_events(con, HEX, held)
    asked = []
    port = FakePort(link)
    write = port.write
    port.write = lambda data: (asked.append(data), write(data))[1]
    rep = sync(LinkClient(port, timeout=0.5), con)
    streams = [json.loads(line) for data in asked for line in data.split(b"\n") if b'"records"' in line]
    assert [(r["from"], r.get("to")) for r in streams] == [(501, 901), (1, 501)]
    assert rep.added == 400 and rep.changed == 501 and seqs(con) == list(range(1, 901))


def test_a_stored_event_missing_or_served_otherwise_is_found_by_the_check_after_the_new(history_db):
    j, link = board(700)
    con = db.connect(history_db)
    db.note_board(con, {"board": HEX, "protocol": 1})
    held = [{"seq": s, "event": json.loads(line)} for s, line in j.records(1) if s <= 600 and s != 300]
    held[100]["event"] = {"t": "peg", "s": 1, "n": 2, "why": "manual"}  # seq 101 stored otherwise
    db.add_events(con, HEX, held)
    rep = sync(LinkClient(FakePort(link), timeout=0.5), con)
    assert seqs(con) == list(range(1, 701))  # seq 300 (a line lost on the way) filled in
    assert rep.again == [101] and [s for s, _ in db.served_again(con, HEX)] == [101]
    assert rep.added == 101 and rep.changed == 101


def test_only_the_matches_that_changed_are_replayed(history_db):
    j, link = board(900)
    con = db.connect(history_db)
    sync(LinkClient(FakePort(link), timeout=0.5), con)
    whole, _o, _m = rebuild(con, HEX)
    rows = {g["first_seq"]: (g["id"], g["last_seq"]) for g in db.games(con, HEX)}
    assert len({g.match_no for g in whole}) >= 3
    # nothing new: nothing replayed, every game as it was
    rep = sync(LinkClient(FakePort(link), timeout=0.5), con)
    assert rep.added == 0 and rep.changed is None
    assert rebuild(con, HEX, rep.changed)[0] == []
    assert {g["first_seq"]: (g["id"], g["last_seq"]) for g in db.games(con, HEX)} == rows
    # an event played: only the last match is replayed; its games keep their ids, the rest untouched
    j.append('{"t":"peg","s":0,"n":1,"why":"manual"}')
    rep = sync(LinkClient(FakePort(link), timeout=0.5), con)
    assert rep.added == 1 and rep.changed == 901
    got, _o, _m = rebuild(con, HEX, rep.changed)
    last_match = max(g.match_no for g in whole)
    assert {g.match_no for g in got} == {last_match}
    assert [(g.match_no, g.game_no, g.first_seq) for g in got] == [
        (g.match_no, g.game_no, g.first_seq) for g in whole if g.match_no == last_match
    ]
    after = {g["first_seq"]: (g["id"], g["last_seq"]) for g in db.games(con, HEX)}
    assert after.keys() == rows.keys() and after[got[-1].first_seq][1] == 901
    assert all(after[k] == rows[k] for k in rows if k != got[-1].first_seq)
    # the games are those a whole replay makes
    full = rebuild(con, HEX)[0]
    assert [(g.match_no, g.game_no, g.first_seq, g.last_seq, g.scores) for g in full][-len(got) :] == [
        (g.match_no, g.game_no, g.first_seq, g.last_seq, g.scores) for g in got
    ]


def test_events_a_cut_sync_stored_are_replayed_by_the_next_even_with_nothing_new(history_db):
    j, link = board(600)
    con = db.connect(history_db)
    with pytest.raises(LinkError):
        sync(LinkClient(CutPort(link, 9000), timeout=0.5), con)  # stored, never replayed (killed)
    rep = sync(LinkClient(FakePort(link), timeout=0.5), con)
    rebuild(con, HEX, rep.changed)
    assert max(g["last_seq"] for g in db.games(con, HEX)) == 600
    rep = sync(LinkClient(FakePort(link), timeout=0.5), con)
    assert rep.changed is None and rebuild(con, HEX, rep.changed)[0] == []


def test_a_board_that_does_not_know_to_sends_on_to_its_end_and_nothing_is_doubled(history_db, monkeypatch):
    from board import link as board_link

    whole = board_link.records
    monkeypatch.setattr(board_link, "records", lambda journal, rid, start, to=0: whole(journal, rid, start))
    j, link = board(900)
    con = db.connect(history_db)
    sync(LinkClient(FakePort(link), timeout=0.5), con)
    j.append('{"t":"peg","s":0,"n":1,"why":"manual"}')
    rep = sync(LinkClient(FakePort(link), timeout=0.5), con)
    assert rep.added == 1 and rep.again == [] and seqs(con) == list(range(1, 902))
    assert rep.acked == 901
