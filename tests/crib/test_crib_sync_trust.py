# `crib sync` when the board's journal is not what it was (issue 9 items 1, 3, 5, the laptop's side):
# an event served again with other content is kept beside the first, said and flagged; what the
# board set aside is stored as quarantined; the board is told what is stored.
import json

from fakeport import FakePort
from linkfakes import journal, new_match, pegs
from test_crib_sync import BOARD, stored

from board import link as board_link
from board.link import Link
from board.store.journal import Journal
from crib.history.replay import rebuild
from crib.history.sync import sync
from crib.link.client import LinkClient
from crib.store import address, db, postgres, schema, sqlite

HEX = "e6614104032f122b"


def _board(j, m):
    return Link(j, m, board_id=BOARD, firmware="0.1.0", form="six")


def _client(link):
    return LinkClient(FakePort(link), timeout=0.5)


def test_an_event_served_again_with_other_content_is_kept_said_and_flagged(history_db):
    # Before: INSERT OR IGNORE kept the first content and said nothing (issue 9: the history mixed
    # two timelines). A board that hands seqs out again (older firmware, a damaged flash) must show.
    j = journal()
    m = new_match(j)
    pegs(j, m, 20)
    con = db.connect(history_db)  # SQLite and PostgreSQL
    sync(_client(_board(j, m)), con)
    first = dict(stored(con))
    # The same board serves seqs 10..22 again, different from before (a reused timeline).
    lines = [line for _, line in j.records()]
    lines[10] = json.dumps({"t": "peg", "s": 1, "n": 5, "why": "manual"}, separators=(",", ":"))
    j.compact(lines, 1)
    rep = sync(_client(_board(j, m)), con)
    assert rep.again == [11] and "served again with other content (seq 11)" in str(rep)
    assert dict(stored(con)) == first  # the first content stays where it was
    assert db.served_again(con, HEX) == [(11, lines[10])]  # and the other is kept beside it
    games, _, _ = rebuild(con, HEX)
    assert any("seq 11 was served again" in f for g in games for f in g.flags)
    row = db.games(con, HEX)[0]
    assert row["flagged"] and "served again" in row["flag"]
    rep = sync(_client(_board(j, m)), con)  # said once, not at every sync
    assert rep.again == []


def test_what_the_board_set_aside_is_stored_as_quarantined_and_its_game_flagged(history_db):
    # Before: the .bad file stayed on the board, where nothing could read it.
    j = journal()
    m = new_match(j)
    pegs(j, m, 30)
    j.close()
    with open(j.path, "rb") as f:
        data = bytearray(f.read())
    at = data.index(b"\n12 ") + 1
    data[at + 14] ^= 0x01  # record 12 no longer matches its checksum
    with open(j.path, "wb") as f:
        f.write(data)
    j = Journal(j.path)
    assert j.open().dropped == 1
    with open(j.path + ".bad", "ab") as f:  # and an intact record the fold refused, as open() keeps them
        f.write(b"40 %08x " % __import__("zlib").crc32(b'{"t":"x"}', 40) + b'{"t":"x"}\n')
    con = db.connect(history_db)  # SQLite and PostgreSQL
    rep = sync(_client(_board(j, m)), con)
    q = db.quarantined(con, HEX)
    assert [(r["seq"], r["valid"]) for r in q] == [(None, 0), (12, 0), (40, 1)]  # note, flipped, intact
    assert q[0]["line"].startswith("# set aside at open: from seq 12")
    assert rep.quarantined == 3 and rep.quarantined_valid == 1 and "quarantined" in str(rep)
    assert 12 not in [s for s, _ in stored(con)]
    games, _, _ = rebuild(con, HEX)
    assert any("seq 40 was set aside" in f for g in games for f in g.flags)
    assert sync(_client(_board(j, m)), con).quarantined == 0  # stored once


def test_sync_acknowledges_what_it_stored_and_the_board_keeps_the_rest(tmp_path):
    j = journal()
    m = new_match(j)
    pegs(j, m, 10)
    con = db.connect(str(tmp_path / "h.sqlite3"))
    rep = sync(_client(_board(j, m)), con)
    assert rep.acked == 12 and j.acked == 12
    pegs(j, m, 3)
    j.rewrite(j.acked + 1, ['{"t":"setup"}'])  # a new match on the board: 13..15 not stored yet
    assert [s for s, _ in j.records()] == [13, 14, 15, 16]
    rep = sync(_client(_board(j, m)), con)
    assert rep.added == 4 and j.acked == 16


def test_an_older_board_without_ack_or_aside_still_syncs(tmp_path, monkeypatch):
    monkeypatch.setattr(board_link, "_OPS", tuple(o for o in board_link._OPS if o not in ("ack", "aside")))
    j = journal()
    m = new_match(j)
    pegs(j, m, 5)
    link = _board(j, m)
    real_hello = link._op_hello
    old_hello = lambda req: {k: v for k, v in real_hello(req).items() if k != "acked"}  # noqa: E731
    monkeypatch.setattr(link, "_op_hello", old_hello)
    con = db.connect(str(tmp_path / "h.sqlite3"))
    rep = sync(_client(link), con)
    assert rep.added == 7 and rep.acked is None and j.acked == 0


def test_a_version_1_history_is_migrated_and_keeps_its_events(history_db):
    con = (postgres if address.is_url(history_db) else sqlite).connect(history_db)
    with con:
        for statement in schema.STEPS[con.dialect][1]:
            con.execute(statement)
        if con.dialect == "sqlite":
            con.execute("PRAGMA user_version = 1")
        else:  # as crib made it on PostgreSQL before schema 2
            con.execute(schema.PG_META)
            con.execute("INSERT INTO crib_meta(key, value) VALUES ('schema', 1)")
        con.execute("INSERT INTO boards(board, first_seen) VALUES ('b', 0)")
        con.execute("INSERT INTO events VALUES ('b', 1, 'setup', '{\"t\":\"setup\"}', 0)")
    con.close()
    con = db.connect(history_db)
    assert db.count_events(con, "b") == 1
    assert db.served_again(con, "b") == [] and db.quarantined(con, "b") == []
    db.add_events(con, "b", [{"seq": 1, "event": {"t": "other"}}])
    assert db.served_again(con, "b") == [(1, '{"t":"other"}')]
    con.close()
    assert db.connect(history_db) is not None  # once migrated, it opens as it is
