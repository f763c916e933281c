# A history that fails under a command (locked, a full disk, a damaged page) is one line and exit 4,
# never a traceback, and what the command was writing is not half kept.
import errno
import os
import random
import shutil
import sqlite3

import pytest
from liarport import LiarPort, hello, reply
from rich.console import Console
from test_crib_untrusted import BOARD, clean, history, with_port
from typer.testing import CliRunner

from crib.cli import app, common
from crib.history import export
from crib.store import db, sqlite
from cribbage import events

runner = CliRunner()
common.err = Console(width=300, stderr=True)
PAGE = 4096


def _joined(r):
    return "".join(r.output.split())


def board(n):
    """A board holding a new match of n events after the history's (seqs 20..), as crib sync asks."""
    evs = [{"seq": 20, "event": events.setup(names=["Cy", "Di"])}]
    evs += [{"seq": 21 + i, "event": events.peg(i % 2, 1, "manual")} for i in range(n - 1)]
    end = 20 + n

    def answer(req):
        if req["op"] == "hello":
            return hello(req, board=BOARD, nxt=end)
        start = req.get("from", 0)
        page = [e for e in evs if e["seq"] >= start][:64]
        nxt = page[-1]["seq"] + 1 if page else end
        return reply(req, events=page, next=nxt, end=end, first=1, more=nxt < end)

    return LiarPort(answer)


def test_a_locked_history_is_said_after_the_wait(tmp_path, monkeypatch):
    path, con = history(tmp_path, ["Ann", "Bob"])
    held = db.count_events(con)
    con.execute("BEGIN IMMEDIATE")  # another crib writing: sync waits its 5 s, then says so
    with_port(monkeypatch, board(5))
    r = clean(runner.invoke(app, ["sync", "--db", path]))
    assert r.exit_code == 4 and ("%sislockedbyanotherprogram" % path) in _joined(r), r.output
    con.rollback()
    assert db.count_events(con) == held


def test_a_history_locked_against_readers_is_said_after_the_wait(tmp_path):
    path, con = history(tmp_path, ["Ann", "Bob"])
    con.execute("PRAGMA locking_mode = EXCLUSIVE")
    con.execute("BEGIN EXCLUSIVE")  # a program that keeps even readers out
    for args in (["games"], ["export", "--csv"]):
        r = clean(runner.invoke(app, args + ["--db", path]))
        assert r.exit_code == 4 and ("%sislockedbyanotherprogram" % path) in _joined(r), r.output
    con.rollback()


def test_a_full_disk_is_said_and_the_page_being_stored_is_not_half_kept(tmp_path, monkeypatch):
    path, con = history(tmp_path, ["Ann", "Bob"])
    held = db.count_events(con)
    con.close()
    real = sqlite.connect

    def full(path, readonly=False):  # SQLite's own "database or disk is full", 3 pages on
        c = real(path, readonly)
        pages = c.execute("PRAGMA page_count").fetchone()[0]
        c.execute("PRAGMA max_page_count = %d" % (pages + 3))
        return c

    monkeypatch.setattr(sqlite, "connect", full)
    with_port(monkeypatch, board(300))
    r = clean(runner.invoke(app, ["sync", "--db", path]))
    assert r.exit_code == 4 and ("diskholding%sisfull" % path) in _joined(r), r.output
    monkeypatch.setattr(sqlite, "connect", real)
    con = db.connect(path, readonly=True)
    new = db.count_events(con) - held
    assert 0 < new < 299 and new % 64 == 0  # the pages that fitted, then none of the page that did not
    assert db.next_seq(con, BOARD) == 20 + new  # where the next sync resumes


def test_an_export_onto_a_full_disk_is_said_and_leaves_the_file(tmp_path, monkeypatch):
    path, _con = history(tmp_path, ["Ann", "Bob"])
    out = tmp_path / "games.csv"
    out.write_text("the last good export\n")

    def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(export.os, "fsync", no_space)
    r = clean(runner.invoke(app, ["export", "--csv", "--db", path, "-o", str(out)]))
    assert r.exit_code == 2 and "No space left on device" in r.output
    assert out.read_text() == "the last good export\n"
    assert sorted(os.listdir(tmp_path)) == ["games.csv", "h.sqlite3", "h.sqlite3-shm", "h.sqlite3-wal"]


def _pages(path):
    return os.path.getsize(path) // PAGE


@pytest.mark.parametrize("seed", range(3))
def test_a_damaged_page_is_said_in_one_line_by_every_command(tmp_path, monkeypatch, seed):
    good, con = history(tmp_path, ["Ann", "Bob"])
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    rng = random.Random(seed)
    damaged = 0
    for page in range(1, _pages(good)):  # every page but the first (the header: not a database at all)
        path = str(tmp_path / ("d%d.sqlite3" % page))
        shutil.copy(good, path)
        with open(path, "r+b") as f:
            f.seek(page * PAGE)
            f.write(bytes(rng.randrange(256) for _ in range(PAGE)))
        with_port(monkeypatch, board(5))
        for args in (["games"], ["stats"], ["export", "--json"], ["show", "1"], ["sync"]):
            r = clean(runner.invoke(app, args + ["--db", path]))
            if r.exit_code:
                assert r.exit_code == 4 and len(r.output) < 600, (page, args, r.output)
                damaged += "%sisdamaged" % path in _joined(r)
    assert damaged  # the damage was met, and said as such


def test_trouble_words_each_kind_of_failure():
    assert "is locked" in db.trouble(sqlite3.OperationalError("database is locked"), "h.db")
    assert "is full" in db.trouble(sqlite3.OperationalError("database or disk is full"), "h.db")
    said = db.trouble(sqlite3.DatabaseError("database disk image is malformed"), "h.db")
    assert said.startswith("h.db is damaged (database disk image is malformed)")
    assert db.trouble(ValueError("x"), "h.db") is None
