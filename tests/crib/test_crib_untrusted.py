# Issue 9 items 11-16: crib takes nothing from a board, a file or stdin on trust (each fails on the old code).
import csv
import io
import json
import os
import pty
import random
import subprocess
import sys

import pytest
from liarport import LiarPort, PtyPort, hello, reply
from typer.testing import CliRunner

from crib.cli import app
from crib.history.replay import rebuild
from crib.history.sync import sync
from crib.link import client as client_mod
from crib.link import share
from crib.link.client import LinkClient, LinkError
from crib.store import db
from cribbage import events

runner = CliRunner()
CRIB = os.path.join(os.path.dirname(sys.executable), "crib")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARD = "e6614104032f122b"


def clean(r):
    """A CLI run that ended as crib means it to: an exit code, no Python traceback."""
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    r.said = " ".join(r.output.split())  # the words, whatever the console's line width
    return r


def with_port(monkeypatch, port):
    monkeypatch.setattr(share, "open_port", lambda spec, timeout=2.0: port)  # the port crib's commands open


def history(tmp_path, names, extra=()):
    """A database holding one board's match with these side names: a few pegs, shows and a fix."""
    path = str(tmp_path / "h.sqlite3")
    con = db.connect(path)
    evs = [
        events.setup(names=list(names)),
        events.dealer(0),
        events.starter("5D"),
        events.peg(1, 2, "play"),
        events.peg(0, 3, "play"),
        events.hand(1, "5H 5C JS 9D"),
        events.hand(0, "2H 4H 6H 8H"),
        events.crib(0, "AC 3C QS KD"),
        events.fix(1, -2),
    ]
    evs += list(extra)
    db.note_board(con, {"board": BOARD, "protocol": 1})
    db.add_events(con, BOARD, [{"seq": i + 1, "event": e} for i, e in enumerate(evs)])
    rebuild(con, BOARD)
    return path, con


# -- item 11: crib score and its stdin ------------------------------------------------------------


def test_score_a_byte_that_is_not_utf8_is_one_bad_line_and_the_rest_is_scored():
    # Old code: UnicodeDecodeError traceback, nothing scored, not even line 1.
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    p = subprocess.run(
        [CRIB, "score"],
        input=b"5H 5C 5S JD 5D\n\xff 5H\n2H 4H 6H 8H KH crib\n",
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert p.returncode == 1
    assert p.stdout.decode().splitlines() == ["29", "-", "5"]
    assert b"Traceback" not in p.stderr
    assert p.stderr.decode().strip() == "crib score: line 2: not UTF-8 text (byte 0xff at column 1)"


def test_score_a_10_mb_bad_line_gets_a_short_message():
    # Old code: the whole 10 MB line echoed to stderr inside the message.
    big = b"5H " * 3_500_000 + b"\n5H 5C 5S JD 5D\n"
    p = subprocess.run([CRIB, "score"], input=big, capture_output=True, timeout=120)
    assert p.returncode == 1
    assert p.stdout.decode().splitlines() == ["-", "29"]
    assert len(p.stderr) < 200, len(p.stderr)
    assert "line 1: line too long (10500001 bytes)" in p.stderr.decode()


def test_score_a_long_bad_token_is_quoted_short():
    r = runner.invoke(app, ["score"], input="x" * 900 + "\n")
    assert r.exit_code == 1 and len(r.stderr) < 200, r.stderr


# -- item 12: crib sync bounds what the board says ------------------------------------------------


def liar(pages):
    """A board at end 100 whose events replies come from pages(req)."""

    def answer(req):
        if req["op"] == "hello":
            return hello(req, nxt=100)
        return pages(req)

    return LiarPort(answer)


def stuck_board():
    """A board whose every page says there is more and whose `next` never advances."""
    return liar(
        lambda req: reply(
            req,
            events=[{"seq": req["from"], "event": {"t": "deal"}}],
            next=req["from"],
            end=100,
            first=1,
            more=True,
        )
    )


def test_sync_stops_when_next_does_not_advance(tmp_path):
    # Old code: 19,056 pages in 15 s, for ever.
    port = stuck_board()
    con = db.connect(str(tmp_path / "h.sqlite3"))
    with pytest.raises(LinkError, match="does not advance"):
        sync(LinkClient(port, timeout=0.5), con)
    assert len([r for r in port.asked if r["op"] == "events"]) == 1


def test_sync_more_always_true_stores_no_more_than_the_boards_end(tmp_path):
    # Old code: `more` always true with a growing end stored 533,504 invented events in 15 s.
    def pages(req):
        s = req["from"]
        evs = [{"seq": s + i, "event": {"t": "deal"}} for i in range(req["limit"])]
        return reply(req, events=evs, next=s + req["limit"], end=s + 10 * req["limit"], first=1, more=True)

    port = liar(pages)
    con = db.connect(str(tmp_path / "h.sqlite3"))
    rep = sync(LinkClient(port, timeout=0.5), con)
    assert db.count_events(con) <= 100 + 63 and db.next_seq(con, BOARD) < 100 + 64
    assert rep.pages == 2  # 0..63, 64..127: the board's end at hello (100) is passed, stop


def test_sync_that_a_board_ends_early_is_an_error_not_a_finished_sync(tmp_path):
    # Old code: a board announcing seqs up to 99 that served 0..40 and then an empty page with `more`
    # false ended the sync as if complete ("41 new events"), the rest silently never stored.
    def pages(req):
        s = req["from"]
        n = max(0, min(req["limit"], 41 - s))
        evs = [{"seq": s + i, "event": {"t": "deal"}} for i in range(n)]
        return reply(req, events=evs, next=s + n, end=100, first=1, more=False)

    port = liar(pages)
    con = db.connect(str(tmp_path / "h.sqlite3"))
    with pytest.raises(LinkError, match="stopped serving at seq 41"):
        sync(LinkClient(port, timeout=0.5), con)
    assert db.count_events(con) == 41  # seqs 0..40, what came, is kept: the next sync goes on from 41


def test_sync_refuses_seqs_at_or_past_the_boards_end(tmp_path):
    port = liar(
        lambda req: reply(
            req, events=[{"seq": 500, "event": {"t": "deal"}}], next=501, end=100, first=1, more=False
        )
    )
    con = db.connect(str(tmp_path / "h.sqlite3"))
    with pytest.raises(LinkError, match="below the end"):
        sync(LinkClient(port, timeout=0.5), con)
    assert db.count_events(con) == 0


def test_pushes_piling_up_while_waiting_are_bounded(monkeypatch):
    # Old code: every push kept (168 MB of pushes grew crib to 500 MB).
    flood = b"".join(b'{"push":"event","seq":%d,"event":{"t":"deal"}}\n' % i for i in range(3000))

    def answer(req):
        return flood + (hello(req) if req["op"] == "hello" else reply(req, settings={}))

    c = LinkClient(LiarPort(answer), timeout=0.5)
    c.connect()
    c.request("settings")
    assert len(c.pushes) == client_mod.MAX_PUSHES and c.dropped == 6000 - client_mod.MAX_PUSHES
    assert c.pushes[-1]["seq"] == 2999  # the newest are kept


def test_sync_cli_on_a_lying_board_gives_a_clear_error(tmp_path, monkeypatch):
    port = stuck_board()
    with_port(monkeypatch, port)
    r = clean(runner.invoke(app, ["sync", "--db", str(tmp_path / "h.sqlite3")]))
    assert r.exit_code == 3 and "does not advance" in r.said


# -- item 13: text from a board is data -----------------------------------------------------------


@pytest.mark.parametrize("bad", [["e6", "61"], "x" * 100_000, "[/]", "\x1b[2J", 42, None])
def test_a_board_id_that_is_not_hex_is_refused_at_hello(tmp_path, monkeypatch, bad):
    # Old code: a list id gave a sqlite traceback; a 100 KB id made a sync take 58 s; [/] MarkupError.
    port = LiarPort(lambda req: hello(req, board=bad))
    with_port(monkeypatch, port)
    r = clean(runner.invoke(app, ["sync", "--db", str(tmp_path / "h.sqlite3")]))
    assert r.exit_code == 3 and "is this a cribboard?" in r.said
    assert "\x1b" not in r.output and len(r.output) < 400
    assert [q["op"] for q in port.asked] == ["hello"]


def stored_by_an_older_crib(con, names):
    """The games' names as a crib that took any set-up name stored them (the core holds them now)."""
    with con:
        con.execute("UPDATE games SET names=$1", (json.dumps(names),))


def test_markup_and_escapes_in_names_are_shown_as_text(tmp_path):
    # Old code: MarkupError from `[/]` in games, show and stats; ESC reached the terminal.
    path, con = history(tmp_path, ["[/]", "P2"])
    stored_by_an_older_crib(con, ["[/]", "\x1b[2J$a$"])
    for args in (["games"], ["show", "1"], ["stats"]):
        r = clean(runner.invoke(app, args + ["--db", path]))
        assert r.exit_code == 0, r.output
        assert "[/]" in r.output and "\x1b" not in r.output, args
    r = clean(runner.invoke(app, ["show", "1", "--db", path]))
    assert "[/] v \\x1b[2J$a$" in r.said


def test_a_dollar_in_a_name_is_plotted_as_a_dollar(tmp_path):
    # Old code: matplotlib's mathtext raised ValueError on an unmatched '$'.
    path, _con = history(tmp_path, ["$^$", "Bob$"])
    out = str(tmp_path / "g.png")
    r = clean(runner.invoke(app, ["plot", "1", "--db", path, "-o", out]))
    assert r.exit_code == 0 and os.path.getsize(out) > 10_000


def test_a_refusal_with_markup_is_printed_as_text(tmp_path, monkeypatch):
    def answer(req):
        if req["op"] == "hello":
            return hello(req)
        return (
            json.dumps(
                {"id": req["id"], "ok": False, "code": "[/]", "error": "\x1b]0;pwned\x07[bold]x"}
            ).encode()
            + b"\n"
        )

    with_port(monkeypatch, LiarPort(answer))
    r = clean(runner.invoke(app, ["sync", "--db", str(tmp_path / "h.sqlite3")]))
    assert r.exit_code == 3 and "[bold]x" in r.said and "[/]" in r.said and "\x1b" not in r.output


def test_an_event_type_with_markup_in_a_flag_is_text(tmp_path, monkeypatch):
    evs = [{"seq": 1, "event": events.setup()}, {"seq": 2, "event": {"t": "[/]\x1b[31m"}}]

    def answer(req):
        if req["op"] == "hello":
            return hello(req, nxt=3)
        return reply(req, events=evs, next=3, end=3, first=1, more=False)

    with_port(monkeypatch, LiarPort(answer))
    r = clean(runner.invoke(app, ["sync", "--db", str(tmp_path / "h.sqlite3")]))
    assert r.exit_code == 0 and "seq 2 ([/]\\x1b[31m) refused" in r.said


# -- item 14: CSV cells are never formulas --------------------------------------------------------


def test_csv_export_neutralises_formula_leading_cells(tmp_path):
    # Old code: =1+2, @SUM(A1:A9) and +cmd|' /c'!A went into the CSV as they are.
    path, _con = history(tmp_path, ["=1+2", "@SUM(A1:A9)"])
    r = clean(runner.invoke(app, ["export", "--csv", "--db", path]))
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert {row["name"] for row in rows} == {"'=1+2", "'@SUM(A1:A9)"}
    fix = [row for row in rows if row["kind"] == "fix"]
    assert fix and fix[0]["points"] == "-2"  # a number stays a number
    path2, _ = history(tmp_path / "b", ["+cmd|' /c'!A", "-x"]) if os.makedirs(tmp_path / "b") is None else 0
    r = clean(runner.invoke(app, ["export", "--csv", "--db", path2]))
    names = {row["name"] for row in csv.DictReader(io.StringIO(r.stdout))}
    assert names == {"'+cmd|' /c'!A", "'-x"}


# -- item 15: missing folders and files that are not databases ------------------------------------


def test_out_into_a_missing_folder_is_a_message(tmp_path):
    path, _con = history(tmp_path, ["Ann", "Bob"])
    missing = str(tmp_path / "nope" / "x")
    for args in (
        ["plot", "1", "-o", missing + ".png"],
        ["export", "--csv", "-o", missing + ".csv"],
        ["export", "--json", "--out", missing + ".json"],
    ):
        r = clean(runner.invoke(app, args + ["--db", path]))
        assert r.exit_code == 2 and "no folder" in r.said and "nope" in r.said, args


def test_db_on_a_file_that_is_not_a_database_is_a_message(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: milk, eggs\n" * 100)
    for args in (["games"], ["stats"], ["show", "1"]):
        r = clean(runner.invoke(app, args + ["--db", str(notes)]))
        assert r.exit_code == 4 and "is not a crib database" in r.said, args
    assert notes.read_text().startswith("shopping")  # and it is left as it was
    r = clean(runner.invoke(app, ["games", "--db", str(tmp_path)]))
    assert r.exit_code == 4 and "is a folder" in r.said


# -- item 16: the board at the MicroPython prompt -------------------------------------------------


def test_the_real_micropython_prompt_is_recognised():
    # Old code: "no answer to 'hello' ... is the board running its firmware?" (or, where the REPL's
    # echo reads as JSON, "board refused: no reason given (?)").
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [os.path.join(ROOT, ".venv", "bin", "micropython")],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    try:
        c = LinkClient(PtyPort(master), timeout=1.5)
        with pytest.raises(LinkError) as e:
            c.connect()
        assert "MicroPython prompt (>>>)" in str(e.value) and "mpremote reset" in str(e.value)
    finally:
        proc.kill()
        proc.wait()
        os.close(master)


def test_a_repl_echo_that_reads_as_json_is_not_a_refusal():
    # The REPL echoing the request on a line of its own: the old client took it as a reply.
    c = LinkClient(
        LiarPort(lambda req: json.dumps(req, separators=(",", ":")).encode() + b"\r\n"), timeout=0.5
    )
    with pytest.raises(LinkError) as e:
        c.connect()
    assert "MicroPython prompt" in str(e.value) and "refused" not in str(e.value)


def test_protocol_doc_says_the_board_stays_at_the_prompt_after_mpremote_exec():
    with open(os.path.join(ROOT, "docs", "protocol.md")) as f:
        text = " ".join(f.read().split())
    assert "stays at the `>>>` prompt until a reset" in text


# -- the lying board: random lies, never a traceback, never more than the board's end -------------


def lies(rng):
    """An answer function for a board that lies at random, and the `next` it claims at hello."""
    ids = [BOARD, ["e6"], "x" * 5000, "[/]", "\x1b[31m", 7, "e", ""]
    nxt = rng.choice([0, 3, 100, 2**40, -1, "9", True])
    bid = ids[0] if rng.random() < 0.6 else rng.choice(ids)

    def page(req):
        s = req["from"]
        kind = rng.randrange(10)
        evs = [
            {"seq": s + i, "event": {"t": rng.choice(["deal", "[/]", "\x1b[2J", "game"])}}
            for i in range(rng.randrange(0, req["limit"] + 2))
        ]
        if kind == 0:
            return reply(req, events=evs, next=s, end=100, first=1, more=True)
        if kind == 1:
            return b'{"push":"event"}\n' * rng.randrange(5000) + reply(
                req, events=evs, next=s + len(evs), end=s + 500, more=True
            )
        if kind == 2:
            return reply(req, events="nope", next=None, end=[1])
        if kind == 3:
            return b"\xff\xfe{garbage\n" + reply(req, events=[{"seq": "1", "event": 3}], next=2, end=3)
        if kind == 4:
            refusal = {"id": req["id"], "ok": False, "code": [1], "error": {"x": "[/]"}}
            return json.dumps(refusal).encode() + b"\n"
        if kind == 5:
            return b""  # silence: the request times out
        if kind == 6:
            return reply(req, events=evs[::-1], next=s + len(evs), end=s + len(evs) + 1, more=True)
        return reply(
            req,
            events=evs,
            next=s + len(evs),
            end=max(s + len(evs), 1),
            first=rng.choice([0, 1, 50]),
            more=rng.random() < 0.7,
        )

    def answer(req):
        if req["op"] == "hello":
            return hello(req, board=bid, nxt=nxt)
        return page(req)

    return answer, nxt


def test_crib_sync_against_a_lying_board_never_tracebacks(tmp_path, monkeypatch):
    rng = random.Random(9)
    dbp = str(tmp_path / "h.sqlite3")
    codes = {}
    for _ in range(150):
        answer, nxt = lies(rng)
        with_port(monkeypatch, LiarPort(answer))
        r = clean(runner.invoke(app, ["sync", "--db", dbp, "--timeout", "0.05"]))
        codes[r.exit_code] = codes.get(r.exit_code, 0) + 1
        assert r.exit_code in (0, 3), r.output
    con = db.connect(dbp)
    for b in db.boards(con):
        assert b == BOARD
    # never more events than the board's own end: at most the largest `next` said at hello plus a page
    assert db.count_events(con) < 100 + 64
    for args in (["games"], ["stats"], ["export", "--csv"], ["export", "--json"]):
        clean(runner.invoke(app, args + ["--db", dbp]))
    assert codes.get(0) and codes.get(3), codes
