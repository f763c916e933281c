# `crib serve` holding a room, on 127.0.0.1 only: one snapshot for every page (made once per change), a
# slow-header attack under a 256-file limit that leaves a normal request answered, a log a flood cannot
# fill, and the page's security headers. Every loop is bounded in count and every socket in time.
import json
import logging
import random
import re
import resource
import socket
import subprocess
import sys
import threading
from html.parser import HTMLParser

from boards import ROOT, free_port

from crib import club, speech
from crib.history import replay
from crib.store import clubdb, db
from crib.web import httpgate, serve
from sim.matchgen import MatchPlayer

HOST = "127.0.0.1"
WAIT_S = 30  # the most any one socket waits for the server


def _room(path, boards=2, games=3, seed=3):
    """A club night on `boards` boards, each one match of `games` games played and synced."""
    con = db.connect(path)
    ids = ["%016x" % (0xC1AB000 + i) for i in range(boards)]
    players = ["P%d" % i for i in range(1, 2 * boards + 1)]
    clubdb.open_night(con, "Tuesday", players, ids, games=games, now=0)
    rounds = club.rotation(players, games)
    rng = random.Random(seed)
    for i, board in enumerate(ids):
        db.note_board(con, {"board": board})
        p = MatchPlayer(rng, rounds[0][i], games=games)
        p.play(max_games=games)
        db.add_events(con, board, [{"seq": k + 1, "event": e} for k, e in enumerate(p.events)])
        replay.rebuild(con, board)
    con.close()
    return ids


def _play_more(path, board):
    """The board plays and syncs one more game (a change every page must see)."""
    con = db.connect(path)
    p = MatchPlayer(random.Random(9), ("P1", "P2"), games=1)
    p.play(max_games=1)
    start = db.next_seq(con, board)
    db.add_events(con, board, [{"seq": start + k, "event": e} for k, e in enumerate(p.events)])
    replay.rebuild(con, board)
    con.close()


def _stop(server, thread, streams=()):
    for s, r in streams:
        r.close()
        s.close()
    server.should_exit = True
    thread.join(10)


def _thread_server(app):
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        thread.join(0.05)
    assert server.started
    return server, thread, port


def _get(port, path):
    """One GET on a new connection: (status, headers dict, body)."""
    with socket.create_connection((HOST, port), timeout=WAIT_S) as s:
        s.sendall(("GET %s HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n" % path).encode())
        raw = b""
        while True:
            part = s.recv(65536)
            if not part:
                break
            raw += part
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.lower(), v.strip()) for k, v in (line.split(":", 1) for line in lines[1:]))
    return int(lines[0].split()[1]), headers, body


def _open_stream(port):
    s = socket.create_connection((HOST, port), timeout=WAIT_S)
    s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n")
    return s, s.makefile("rb")


def _next_room(reader, lines=10000):
    """The next room a stream sends (its `data:` line decoded), reading at most `lines` lines."""
    for _ in range(lines):
        line = reader.readline()
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            return json.loads(line[6:])
    raise AssertionError("no room in %d lines" % lines)


def test_the_room_is_made_once_per_change_however_many_pages_follow_it(tmp_path, monkeypatch):
    path = str(tmp_path / "room.sqlite3")
    boards = _room(path)
    made = []
    real = serve.Room.snapshot

    def counted(self):
        made.append(1)
        return real(self)

    # A sync stores its events, then replays them (two commits): the server is kept from looking
    # between the two, so the test's one change is one change for it too.
    syncing = threading.Lock()
    real_mark = serve.Room.mark

    def looked(self):
        with syncing:
            return real_mark(self)

    monkeypatch.setattr(serve.Room, "snapshot", counted)
    monkeypatch.setattr(serve.Room, "mark", looked)
    server, thread, port = _thread_server(serve.build(path, poll=0.05))
    streams = []
    try:
        streams = [_open_stream(port) for _ in range(30)]
        first = [_next_room(r) for _s, r in streams]
        assert all(len(room["boards"]) == 2 for room in first)
        for _ in range(30):
            status, _h, body = _get(port, "/api/room")
            assert status == 200 and json.loads(body) == first[0]
        # Many polls later the history has not changed: the room was made once, for everyone.
        threading.Event().wait(0.5)
        assert _get(port, "/api/room")[0] == 200
        assert len(made) == 1

        # A board syncs a new game: every page gets the new room, made once more.
        with syncing:
            _play_more(path, boards[0])
        second = [_next_room(r) for _s, r in streams]
        assert all(room == second[0] != first[0] for room in second)
        assert json.loads(_get(port, "/api/room")[2]) == second[0]
        assert len(made) == 2
    finally:
        _stop(server, thread, streams)


SERVER = """
import sys
from crib.web import serve
if len(sys.argv) > 3:  # a deadline of its own for a request's head
    import uvicorn
    from crib.web import httpgate
    gate = httpgate.Gate(head_s=float(sys.argv[3]))
    uvicorn.Server(serve.config(sys.argv[1], port=int(sys.argv[2]), gate=gate)).run()
else:  # as `crib serve` runs it
    serve.serve(sys.argv[1], port=int(sys.argv[2]))
"""


def _text(log):
    log.flush()
    with open(log.name, encoding="utf-8", errors="replace") as f:
        return f.read()


def _limited_server(path, port, log, head_s=None, files=256):
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, path, str(port)] + ([str(head_s)] if head_s else []),
        cwd=ROOT,
        stdout=log,
        stderr=log,
        preexec_fn=limit,
    )
    for _ in range(300):
        assert proc.poll() is None, _text(log)[-3000:]
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return proc
        except OSError:
            threading.Event().wait(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def test_half_sent_requests_under_a_256_file_limit_leave_a_normal_request_answered(tmp_path):
    path = str(tmp_path / "room.sqlite3")
    _room(path)
    port = free_port()
    slow = []
    with open(tmp_path / "serve.log", "w+b") as log:
        proc = _limited_server(path, port, log)
        try:
            for _ in range(250):  # half a request each, never finished
                s = socket.create_connection((HOST, port), timeout=WAIT_S)
                s.sendall(b"GET /api/room HTTP/1.1\r\nHost: slow\r\n")
                slow.append(s)
            for _ in range(3):
                status, _h, body = _get(port, "/api/room")
                assert status == 200 and len(json.loads(body)["boards"]) == 2
            # The server closed the oldest half-sent sockets to make room; it did not run out of files.
            closed = 0
            for s in slow[:50]:
                s.settimeout(WAIT_S)
                try:
                    closed += s.recv(1) == b""
                except ConnectionResetError:
                    closed += 1
            assert closed == 50
        finally:
            for s in slow:
                s.close()
            proc.kill()
            proc.wait(10)
        text = _text(log)
    assert "Too many open files" not in text
    assert len(text.splitlines()) < 50, text[-3000:]


def test_a_request_head_not_finished_in_time_is_closed(tmp_path):
    path = str(tmp_path / "room.sqlite3")
    _room(path, boards=1, games=1)
    port = free_port()
    with open(tmp_path / "serve.log", "w+b") as log:
        proc = _limited_server(path, port, log, head_s=0.5)
        try:
            s = socket.create_connection((HOST, port), timeout=WAIT_S)
            s.sendall(b"GET / HTTP/1.1\r\n")
            try:
                assert s.recv(1) == b""  # closed by the server, before any answer
            except ConnectionResetError:
                pass
            s.close()
            assert _get(port, "/")[0] == 200  # and the server goes on
        finally:
            proc.kill()
            proc.wait(10)


def test_a_flood_of_one_log_line_is_held_to_a_few_and_counted():
    quiet = httpgate.Quiet(burst=5, window=60.0, clock=lambda: now[0])
    now = [0.0]
    out = []
    handler = logging.Handler()
    handler.emit = lambda record: out.append(record.getMessage())
    handler.addFilter(quiet)
    logger = logging.getLogger("test.flood")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for _ in range(100000):
            logger.error("socket.accept() out of system resource")
        logger.error("another line")
        assert len(out) == 6
        assert "held back for 60 s" in out[4] and out[5] == "another line"
        now[0] = 61.0
        logger.error("socket.accept() out of system resource")
        assert out[-1] == "(99995 more like this were held back) socket.accept() out of system resource"
    finally:
        logger.removeHandler(handler)


def test_every_answer_carries_the_security_headers_and_the_page_has_no_inline_script(tmp_path):
    path = str(tmp_path / "room.sqlite3")
    _room(path, boards=1, games=1)
    server, thread, port = _thread_server(serve.build(path))
    try:
        for url in ("/", "/api/room", "/scorecards", "/scoreboard.js", "/nothing-here"):
            _status, headers, body = _get(port, url)
            assert headers.get("x-content-type-options") == "nosniff", url
            csp = headers.get("content-security-policy", "")
            assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp, url
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp, url
        page = _get(port, "/")[2].decode()
        assert re.findall(r"<script[^>]*>", page) == [
            '<script src="/contrast.js" defer>',
            '<script src="/scoreboard.js" defer>',
        ]
        assert not re.search(r"<style|\son\w+=|javascript:", page)
        assert "<style" not in _get(port, "/scorecards")[2].decode()
    finally:
        _stop(server, thread)


def test_past_its_cap_the_server_turns_newcomers_away_and_keeps_its_pages(tmp_path):
    import uvicorn

    path = str(tmp_path / "room.sqlite3")
    boards = _room(path, boards=1, games=1)
    gate = httpgate.Gate(cap=6, head_s=600)
    port = free_port()
    server = uvicorn.Server(serve.config(path, port=port, poll=0.05, gate=gate))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    streams = []
    try:
        for _ in range(200):
            if server.started:
                break
            thread.join(0.05)
        streams = [_open_stream(port) for _ in range(5)]
        first = [_next_room(r) for _s, r in streams]
        # Three more with room for one: two are turned away, the five pages stay.
        extra = [socket.create_connection((HOST, port), timeout=WAIT_S) for _ in range(3)]
        for s in extra:
            s.sendall(b"GET /api/room HTTP/1.1\r\nHost: t\r\n\r\n")
        answered = 0
        for s in extra:
            try:
                answered += s.recv(12).startswith(b"HTTP/1.1 200")
            except ConnectionResetError:
                pass
            s.close()
        assert answered == 1 and gate.refused + gate.dropped == 2
        _play_more(path, boards[0])
        assert all(_next_room(r) != first[0] for _s, r in streams)
    finally:
        _stop(server, thread, streams)


def test_before_the_first_room_arrives_the_page_says_it_is_loading(tmp_path):
    path = str(tmp_path / "room.sqlite3")
    _room(path, boards=1, games=1)
    server, thread, port = _thread_server(serve.build(path))
    try:
        page = _get(port, "/")[2].decode()
    finally:
        _stop(server, thread)
    assert re.search(r'<div id="standings"[^>]*>loading…</div>', page)
    assert "no club night" not in page


class _Page(HTMLParser):
    """A page as a browser reads it: the tags it opens, and the text of each heading and cell."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.texts, self._open = [], [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag in ("h1", "h2", "td"):
            self._open = [tag, ""]
            self.texts.append(self._open)

    def handle_endtag(self, tag):
        if self._open and tag == self._open[0]:
            self._open = None

    def handle_data(self, data):
        if self._open:
            self._open[1] += data


def _scorecards(path):
    server, thread, port = _thread_server(serve.build(path))
    try:
        status, headers, body = _get(port, "/scorecards")
    finally:
        _stop(server, thread)
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    return body.decode()


def test_the_scorecards_show_the_names_players_chose_as_text(tmp_path):
    # A director types any name; a board keys one in its font's ASCII signs: both are text on the page.
    path = str(tmp_path / "room.sqlite3")
    board = "%016x" % 0xC1AB000
    names = ["<b>Ann&amp;", '"><i>Bo']
    night = "<script>Tuesday</script>"
    con = db.connect(path)
    clubdb.open_night(con, night, names, [board], games=1, now=0)
    db.note_board(con, {"board": board})
    p = MatchPlayer(random.Random(3), names, games=1)
    p.play(max_games=1)
    db.add_events(con, board, [{"seq": k + 1, "event": e} for k, e in enumerate(p.events)])
    replay.rebuild(con, board)
    con.close()
    page = _Page(_scorecards(path))
    assert set(page.tags) == {
        "html",
        "head",
        "meta",
        "title",
        "link",
        "script",
        "body",
        "header",
        "button",
        "main",
        "h1",
        "section",
        "h2",
        "small",
    } | {
        "table",
        "tr",
        "th",
        "td",
    }
    assert page.tags.count("section") == 2 and page.tags.count("tr") == 2 + 2  # a card a player, one game
    heads = [t for tag, t in page.texts if tag != "td"]
    assert heads[0] == night + ": scorecards"
    assert sorted(h.split(" place ")[0] for h in heads[1:]) == sorted(names)  # `NAME place 1, ...`
    cells = [t for tag, t in page.texts if tag == "td"]
    assert names[0] in cells and names[1] in cells  # each the other's opponent


def test_the_scorecards_before_any_night_say_how_to_start_one(tmp_path):
    path = str(tmp_path / "room.sqlite3")
    db.connect(path).close()
    page = _scorecards(path)
    assert "No club night yet" in page and "<code>crib club night</code>" in page
    assert '<link rel="stylesheet" href="/scorecards.css">' in page


def test_a_night_that_cannot_be_scored_says_why_on_the_scorecards_as_text():
    night = {"name": "Tuesday", "id": 1, "error": "<b>Ann</b> is listed twice", "standings": [], "notes": []}
    page = serve.TEMPLATES.get_template("scorecards.html").render(serve._scorecards({"night": night}))
    assert "<p>&lt;b&gt;Ann&lt;/b&gt; is listed twice</p>" in page and "<h1>" not in page


def test_each_board_carries_its_last_pegs_in_force_in_players_words_with_their_seq(tmp_path):
    """The page says a board's new scores from `said`: the last pegs in force, oldest first, each in
    crib.speech's words with the player's name (a show counted as players count it) and its seq; an
    undo takes its peg out, and the peg made again comes with a new seq."""
    path = str(tmp_path / "room.sqlite3")
    board = "%016x" % 0xC1AB000
    p = MatchPlayer(random.Random(7), ("Ann", "Di"), games=1)
    p.play(max_games=1)
    first_show = next(k for k, e in enumerate(p.events) if e["t"] == "show" and e["n"])
    assert p.events[first_show - 1 : first_show + 1] == [  # the game this test reads, as matchgen plays it
        {"t": "lay", "p": 1, "c": 13, "n": 1},
        {"t": "show", "s": 0, "k": "hand", "cards": [34, 37, 23, 6], "n": 2},
    ]
    con = db.connect(path)
    db.note_board(con, {"board": board})
    con.close()

    seqs = iter(range(1, 1000))  # the board's seqs, from 1 as a board's journal has them

    def add(events):
        con = db.connect(path)
        db.add_events(con, board, [{"seq": next(seqs), "event": e} for e in events])
        replay.rebuild(con, board)
        con.close()
        return serve.Room(path).snapshot()["boards"][0]["said"]

    said = add(p.events[: first_show + 1])
    assert said[-2:] == [
        {"seq": first_show, "text": "Di: one for the go"},
        {"seq": first_show + 1, "text": "Ann: fifteen two for the hand"},
    ]
    assert add([{"t": "undo"}])[-1] == {"seq": first_show, "text": "Di: one for the go"}
    assert add([p.events[first_show]])[-1] == {"seq": first_show + 3, "text": "Ann: fifteen two for the hand"}
    # The last show of the game, its count itemised; and a zero hand is the players' nineteen.
    said = add(p.events[first_show + 1 :])
    assert said[-1]["text"] == (
        "Di: a pair is two, another pair is four, and four runs of three is sixteen for the hand"
    )
    assert len(said) == serve.SAID and [s["seq"] for s in said] == sorted(s["seq"] for s in said)
    assert speech.peg_words("Ann", 0, "hand") == "Ann: nineteen"
    # A lay's points counted as players count them: Ann's 6C on 2D 7D makes fifteen.
    path = str(tmp_path / "lay.sqlite3")
    con = db.connect(path)
    db.note_board(con, {"board": board})
    assert p.events[3:6] == [{"t": "lay", "p": 0, "c": 6, "n": 0}, {"t": "lay", "p": 1, "c": 26, "n": 0}] + [
        {"t": "lay", "p": 0, "c": 23, "n": 2}
    ]
    db.add_events(con, board, [{"seq": k, "event": e} for k, e in enumerate(p.events[:6], 1)])
    replay.rebuild(con, board)
    con.close()
    assert serve.Room(path).snapshot()["boards"][0]["said"][-1] == {"seq": 6, "text": "Ann: fifteen two"}


def test_a_game_s_scores_are_said_under_the_night_s_players_also_between_a_sync_s_two_commits(tmp_path):
    """The board calls its sides P1 and P2, the night seats Ann and Bob there: the scores are said under
    Ann and Bob while the game is played, once it is the night's result, and in between, when a sync has
    stored the finished game's events but not yet its game (a page told the last pegs then would keep
    the board's names for good: each peg is told once)."""
    path = str(tmp_path / "room.sqlite3")
    board = "%016x" % 0xC1AB000
    con = db.connect(path)
    clubdb.open_night(con, "Tuesday", ["Ann", "Bob"], [board], games=1, now=0)
    db.note_board(con, {"board": board})
    p = MatchPlayer(random.Random(7), ("P1", "P2"), games=1)
    p.play(max_games=1)
    events = [{"seq": k + 1, "event": e} for k, e in enumerate(p.events)]
    db.add_events(con, board, events[:-3])
    replay.rebuild(con, board)
    con.close()

    def said():
        room = serve.Room(path).snapshot()
        return room["boards"][0]["said"], room["night"]["results"]

    playing, results = said()
    assert results == [] and {s["text"].split(": ")[0] for s in playing} == {"Ann", "Bob"}
    con = db.connect(path)
    db.add_events(con, board, events[-3:])  # the sync's first commit
    con.close()
    between, results = said()
    assert results == [] and between[:-2] == playing[2:]
    assert [s["text"] for s in between[-2:]] == [
        "Ann: one for the go",
        "Bob: a pair is two, another pair is four, and four runs of three is sixteen for the hand",
    ]
    con = db.connect(path)
    replay.rebuild(con, board)  # and its second
    con.close()
    counted, results = said()
    assert len(results) == 1 and counted == between
