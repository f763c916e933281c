# `crib sync` against the real link handler in-process: idempotent, resumable, paged, schema-versioned.
import json
import os
import sqlite3

import platformdirs
import platformdirs.macos
import platformdirs.unix
import platformdirs.windows
import pytest
from fakeport import FakePort
from linkfakes import journal, matches, new_match, pegs

from board import link as board_link
from board.link import Link
from crib.history import sync as sync_mod
from crib.history.sync import sync
from crib.link.client import LinkClient, LinkError, Refused
from crib.store import db, schema

BOARD = b"\xe6\x61\x41\x04\x03\x2f\x12\x2b"


def board(n_events):
    """A board whose journal holds n_events: set-up, dealer, manual pegs (at most 80 keep the game on)."""
    j = journal()
    m = new_match(j)
    pegs(j, m, n_events - 2)
    return j, m, Link(j, m, board_id=BOARD, firmware="0.1.0", form="six")


def many(n_events):
    """A journal of n_events spread over matches, and its link."""
    j, m = matches(n_events)
    return j, m, Link(j, m, board_id=BOARD, firmware="0.1.0", form="six")


def client_for(link):
    return LinkClient(FakePort(link), timeout=0.5)


def test_a_sync_report_counts_in_words():
    rep = sync_mod.SyncReport("b1")
    rep.start, rep.end, rep.added, rep.pages = 7, 8, 1, 1
    assert str(rep) == "board b1: 1 new event (seq 7..7), stored in 1 batch"
    rep.added = 0
    assert str(rep).startswith("board b1: 0 new events")


def stored(con):
    return [(r[0], json.loads(r[1])) for r in con.execute("SELECT seq, event FROM events ORDER BY seq")]


@pytest.mark.parametrize("older", [False, True])
def test_sync_stores_every_event_once(history_db, older, monkeypatch):
    j, m, link = many(150)
    if older:  # a board before the records stream: it answers `op`, and crib asks page by page
        monkeypatch.setattr(board_link, "_OPS", tuple(o for o in board_link._OPS if o != "records"))
    con = db.connect(history_db)  # SQLite and PostgreSQL alike
    seen = []
    rep = sync(client_for(link), con, progress=lambda done, end: seen.append((done, end)))
    # The stream: one request, stored as it arrives, a batch every 64 records. Pages: 64 events
    # asked for; the board cuts each at PAGE_BYTES of event lines (~27 pegs).
    assert rep.added == 150 and rep.pages == len(seen) - 1 == (6 if older else 3)  # the start, then each page
    batches = "6 batches" if older else "3 batches"
    assert str(rep).endswith("150 new events (seq 1..150), stored in %s" % batches)
    rows = stored(con)
    assert [s for s, _ in rows] == list(range(1, 151))
    assert rows[0][1]["t"] == "setup" and rows[1][1] == {"t": "dealer", "p": 0}
    assert rows[2][1] == {"t": "peg", "s": 0, "n": 1, "why": "manual"}
    assert seen[-1] == (151, 151)
    # again: nothing new, nothing doubled
    rep = sync(client_for(link), con)
    assert rep.added == 0 and db.count_events(con) == 150


def test_sync_is_incremental(history_db):
    j, m, link = board(10)
    con = db.connect(history_db)  # SQLite and PostgreSQL alike
    sync(client_for(link), con)
    pegs(j, m, 7)
    rep = sync(client_for(link), con)
    assert rep.start == 11 and rep.added == 7
    assert db.next_seq(con, "e6614104032f122b") == 18


def test_a_sync_cut_in_the_middle_resumes_without_loss_or_double(history_db):
    j, m, link = many(300)
    con = db.connect(history_db)  # SQLite and PostgreSQL alike
    port = FakePort(link)
    port.fail_after = 9000  # bytes: the cable is pulled during the third page or so
    with pytest.raises(LinkError):
        sync(LinkClient(port, timeout=0.5), con, page=8)  # stored every 64 records of the stream
    partial = db.count_events(con)
    assert 0 < partial < 300
    assert [s for s, _ in stored(con)] == list(range(1, partial + 1))  # whole pages only
    rep = sync(client_for(link), con)
    assert rep.start == partial + 1
    assert [s for s, _ in stored(con)] == list(range(1, 301))


def test_the_same_page_twice_adds_nothing(history_db):
    con = db.connect(history_db)  # SQLite and PostgreSQL alike
    db.note_board(con, {"board": "ab", "protocol": 1})
    items = [{"seq": i, "event": {"t": "peg", "s": 0, "n": 1}} for i in range(1, 11)]
    assert db.add_events(con, "ab", items) == 10
    assert db.add_events(con, "ab", items) == 0
    assert db.add_events(con, "ab", items[5:] + [{"seq": 11, "event": {"t": "deal"}}]) == 1
    assert db.count_events(con, "ab") == 11


def test_two_boards_keep_their_own_sequences(history_db):
    con = db.connect(history_db)  # SQLite and PostgreSQL alike
    _, _, a = board(5)
    j, m, b = board(8)
    b.board_id = "0000000000000002"
    sync(client_for(a), con)
    sync(client_for(b), con)
    assert db.count_events(con, "e6614104032f122b") == 5
    assert db.count_events(con, "0000000000000002") == 8
    assert set(db.boards(con)) == {"e6614104032f122b", "0000000000000002"}


def test_a_board_behind_the_database_is_reported_not_stored(history_db):
    con = db.connect(history_db)  # SQLite and PostgreSQL alike
    _, _, link = board(20)
    sync(client_for(link), con)
    _, _, fresh = board(3)  # same id, a wiped journal
    rep = sync(client_for(fresh), con)
    assert rep.behind and rep.added == 0 and "reflashed" in str(rep)


def test_client_skips_repl_noise_and_keeps_pushes_aside():
    _, _, link = board(3)
    port = FakePort(link)
    port.out += b"MicroPython v1.29 on 2025-01-01; Raspberry Pi Pico with RP2040\r\n>>> \r\n{not json\n"
    c = LinkClient(port, timeout=0.5)
    assert c.connect()["board"] == "e6614104032f122b"
    c.subscribe()
    port.out += b'{"push":"event","seq":4,"event":{"t":"deal"}}\n'
    assert c.state()["ok"] is True
    assert c.next_push(0.1) == {"push": "event", "seq": 4, "event": {"t": "deal"}}
    assert c.next_push(0.01) is None


def test_client_raises_refused_and_times_out():
    _, _, link = board(1)
    c = client_for(link)
    c.connect()
    with pytest.raises(Refused) as e:
        c.events(0, 1000)
    assert e.value.code == "range"

    class Silent(FakePort):
        def write(self, data):
            return len(data)

    ticks = iter(range(0, 100))
    c = LinkClient(Silent(link), timeout=2.0, clock=lambda: next(ticks) * 0.5)
    with pytest.raises(LinkError, match="no answer to 'hello'"):
        c.connect()


def test_schema_version_is_checked(tmp_path):
    path = str(tmp_path / "h.sqlite3")
    db.connect(path).close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    with pytest.raises(db.DbError, match="newer"):
        db.connect(path)
    other = str(tmp_path / "other.sqlite3")
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE x (a)")
    con.commit()
    con.close()
    with pytest.raises(db.DbError, match="not a crib database"):
        db.connect(other)


def test_default_path_follows_the_platform(monkeypatch):
    for name in ("CRIB_DB", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", "/h")
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    assert db.default_path() == "/h/.local/share/cribboard/crib.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "/x")
    assert db.default_path() == "/x/cribboard/crib.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)
    assert db.default_path() == "/h/Library/Application Support/cribboard/crib.sqlite3"
    # Windows' folder as platformdirs is told it (the shell's answer on Windows); no author folder.
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", "C:\\L")
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    assert db.default_path() == os.path.join("C:\\L", "cribboard", "crib.sqlite3")
    monkeypatch.setenv("CRIB_DB", "/c.db")
    assert db.default_path() == "/c.db"


def test_a_postgresql_schema_is_checked_as_sqlites(pg_server):
    url = pg_server.database("crib_schema_check")
    db.connect(url).close()
    import psycopg

    with psycopg.connect(url, autocommit=True) as raw:
        raw.execute("UPDATE crib_meta SET value = 99 WHERE key = 'schema'")
    with pytest.raises(db.DbError, match="schema 99, newer"):
        db.connect(url)
    other = pg_server.database("crib_not_ours")
    with psycopg.connect(other, autocommit=True) as raw:
        raw.execute("CREATE TABLE events (x INTEGER)")
    with pytest.raises(db.DbError, match="not a crib database"):
        db.connect(other)
    with pytest.raises(db.DbError, match="cannot open postgresql://crib@/nowhere"):
        db.connect(url.replace("crib_schema_check", "nowhere"))
