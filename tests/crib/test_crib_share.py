# Several crib processes on one board (crib/link/share.py): watch, name, sync and sync --follow side by
# side on the real firmware in the simulator, each with its own answers, through the one hub that holds
# the board. Pins down: with `crib watch` open, `crib name 2 Di` ended in a traceback (the board closed the
# connection) and `crib sync` made watch say the board went away: the sim, like a USB port, has one host.
import os
import select
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

import pytest
from boards import LinkServer, Sim, played, write_journal
from simmatch import flash_with_match

from board.link import Link, pump
from board.store.journal import Journal
from crib.history.sync import sync
from crib.link import share
from crib.link.client import LinkError
from crib.store import db
from hal.lines import LineBuffer

CRIB = os.path.join(os.path.dirname(sys.executable), "crib")


def crib(*args):
    """`crib ARGS` as a user runs it, in a process of its own (its output in .stdout)."""
    env = dict(os.environ, COLUMNS="160", LINES="40")
    return subprocess.Popen(
        [CRIB, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )


def until(test, what, seconds=60):
    """Wait for test() (the processes are real: they take their time), failing with `what` if never."""
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, what
        time.sleep(0.2)


def stored(path):
    """[(seq, event)] of the one board a history holds."""
    con = db.connect(path)
    try:
        return [(seq, ev) for board in db.boards(con) for seq, ev in db.events(con, board)]
    finally:
        con.close()


@pytest.fixture(scope="module")
def played_flash(tmp_path_factory):
    """A sim flash whose journal holds a game played through the real firmware (made once here)."""
    return flash_with_match(tmp_path_factory.mktemp("played"), seed=5, games=1)[0]


def board_copy(played_flash, tmp_path):
    """A copy of played_flash for one test: the same board (its id is on the flash), its own journal."""
    data = str(tmp_path / "sim-data")
    shutil.copytree(played_flash, data)
    return data


def test_watch_name_sync_and_follow_at_once_on_one_board(played_flash, tmp_path):
    data = board_copy(played_flash, tmp_path)
    script = tmp_path / "ok.script"  # a player at the board: OK once the name request is on the display
    script.write_text("wait display P2 is Di?\n+2000 key OK\nwait display the end of this test\n")
    follow_db, sync_db = str(tmp_path / "follow.sqlite3"), str(tmp_path / "sync.sqlite3")
    with Sim(data, script=str(script), extra=("--realtime",)) as sim:
        watch = crib("watch", "--port", sim.url)
        follow = crib("sync", "--follow", "--port", sim.url, "--db", follow_db)
        until(lambda: os.path.exists(follow_db) and len(stored(follow_db)) >= 100, "follow's first sync")
        name = crib("name", "2", "Di", "--port", sim.url, "--wait", "60")
        said_name = name.communicate(timeout=120)[0].decode()
        sync = crib("sync", "--port", sim.url, "--db", sync_db)
        said_sync = sync.communicate(timeout=120)[0].decode()
        on_board = share.connect(sim.url, 5.0)  # one more crib on the board, beside watch and follow
        try:
            want = []
            for page in on_board.iter_pages(1):
                want.extend((e["seq"], e["event"]) for e in page["events"])
        finally:
            on_board.close()
        until(lambda: len(stored(follow_db)) == len(want), "the name event in follow's history")
        alive = (watch.poll(), follow.poll())
        for p in (watch, follow):
            p.send_signal(signal.SIGINT)
        said_watch = watch.communicate(timeout=60)[0].decode()
        said_follow = follow.communicate(timeout=60)[0].decode()
    for said in (said_name, said_sync, said_watch, said_follow):
        assert "Traceback" not in said, said
    assert name.returncode == 0 and "applied" in said_name, said_name
    assert want[-1][1] == {"t": "name", "s": 1, "name": "Di"}
    assert sync.returncode == 0 and "%d new events" % len(want) in said_sync, said_sync
    assert stored(sync_db) == want and stored(follow_db) == want
    assert alive == (None, None), (said_watch, said_follow)  # both kept the board all along
    assert "went away" not in said_follow and "went away" not in said_watch, (said_follow, said_watch)
    assert watch.returncode == 0 and "Di" in said_watch, said_watch


def journal_server(tmp_path, games=2):
    return LinkServer(write_journal(str(tmp_path / "journal.log"), played(games, seed=3)))


def test_cribs_asking_at_once_get_their_own_answers(tmp_path):
    # Every LinkClient numbers its requests from 1: the hub must send each reply to the crib that asked.
    with journal_server(tmp_path) as server:
        cribs = [share.connect(server.url, 10.0) for _ in range(3)]
        wrong = []

        def ask(c, start):
            for _ in range(40):
                page = c.events(start, 4)
                if [e["seq"] for e in page["events"]] != list(range(start, start + 4)):
                    wrong.append((start, page))

        threads = [threading.Thread(target=ask, args=(c, 1 + 50 * i)) for i, c in enumerate(cribs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert wrong == []
        assert all(c.pushes == [] for c in cribs)  # nor another's pushes: none subscribed
        for c in cribs:
            c.close()


def test_each_subscriber_gets_the_events_it_asked_for(played_flash, tmp_path):
    # The board holds one subscription; the hub gives each crib its own backlog, each seq once.
    with Sim(board_copy(played_flash, tmp_path)) as sim:
        a, b = share.connect(sim.url, 10.0), share.connect(sim.url, 10.0)
        end = a.hello["next"]
        a.subscribe(start=end - 30)
        b.subscribe(start=end - 80)

        def got(c, n):
            seqs = []
            while len(seqs) < n:
                push = c.next_push(10.0)
                assert push is not None, seqs
                seqs.append(push["seq"])
            assert c.next_push(0.5) is None
            return seqs

        assert got(a, 30) == list(range(end - 30, end))
        assert got(b, 80) == list(range(end - 80, end))
        a.subscribe(start=end - 5)  # again, lower than it has: it asked, so it gets them again
        assert got(a, 5) == list(range(end - 5, end))
        assert b.next_push(0.5) is None
        a.close()
        b.close()


def test_a_socket_left_by_a_dead_hub_is_replaced_and_the_socket_is_the_users_alone(tmp_path):
    with journal_server(tmp_path) as server:
        sock_path, lock_path, _log = share.paths(server.url)
        dead = socket.socket(socket.AF_UNIX)
        dead.bind(sock_path)  # a hub killed with its socket on disk: nothing listens there
        dead.close()
        c = share.connect(server.url, 10.0)
        assert c.hello["next"] == server.next_seq
        assert stat.S_IMODE(os.stat(sock_path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(sock_path)).st_mode) == 0o700
        c.close()


def test_cribs_on_a_hub_that_was_killed_reconnect_to_a_new_one(tmp_path):
    with journal_server(tmp_path) as server:
        a = share.connect(server.url, 10.0)
        b = share.connect(server.url, 10.0)
        hub = share._hubs[-1]
        hub.kill()  # the hub dies (its lock goes with it; its socket stays on disk)
        hub.wait()
        for c in (a, b):
            try:
                c.state()
                raise AssertionError("a crib still talks to a killed hub")
            except LinkError as e:
                assert "closed the connection" in str(e) or "went away" in str(e)
            c.close()
        again = share.connect(server.url, 10.0)
        assert share._hubs[-1] is not hub and again.state()["next"] == server.next_seq
        again.close()


def test_a_hub_says_why_it_cannot_open_the_board(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    url = "socket://127.0.0.1:%d" % s.getsockname()[1]
    s.close()  # nothing listens there
    try:
        share.connect(url, 2.0)
        raise AssertionError("connected to nothing")
    except share.ports.PortError as e:
        assert "nothing listening on %s" % url in str(e)
    r = crib("watch", "--port", url)
    said = r.communicate(timeout=60)[0].decode()
    assert r.returncode == 2 and "nothing listening" in said and "Traceback" not in said, said


def test_two_syncs_at_once_each_store_the_whole_history(tmp_path):
    # The board streams one `records` request at a time (a second one ends the first): the hub asks for
    # the second crib's stream once the first one's reply is in, and each stream's lines go to its crib.
    with journal_server(tmp_path, games=6) as server:
        reports, errors = {}, []

        def one(name):
            try:
                con = db.connect(str(tmp_path / ("%s.sqlite3" % name)))
                c = share.connect(server.url, 30.0)
                reports[name] = sync(c, con)
                c.close()
                con.close()
            except Exception as e:  # the failure is the test's answer
                errors.append(e)

        threads = [threading.Thread(target=one, args=(n,)) for n in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
    want = list(range(1, server.next_seq))
    for name in ("a", "b"):
        assert reports[name].added == len(want)
        assert [seq for seq, _ in stored(str(tmp_path / ("%s.sqlite3" % name)))] == want


class _Controller:
    """The board's controller as the link's pump sees it: no proposals in these tests."""

    def offer_link(self, *args):
        pass

    def withdraw_link(self, now):
        pass


class SlowBoard:
    """The real link on a journal, served on a socket by the firmware's own pump (requests answered
    every pass, a records stream a chunk a pass between them), a pass every `pass_s` s: a board that
    takes seconds to stream a long history, as a Pico does. It streams nothing until `hellos` cribs
    have said hello (so they are all on the hub before the first stream moves), and after
    `quiet_after` chunks (a kilobyte each) it says nothing more: a board that stopped mid-stream."""

    def __init__(self, journal_path, pass_s=0.15, hellos=1, quiet_after=None):
        self.journal = Journal(journal_path, max_bytes=1 << 30)
        self.journal.open()
        self.next_seq = self.journal.next_seq
        self.pass_s, self.hellos, self.quiet_after = pass_s, hellos, quiet_after
        self.said = []  # the request lines the board read
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        host, _ = self.listener.accept()
        board = self
        chunks, passes, last = [0], [0], [-1]

        class Slow(Link):
            def more(self):  # one chunk a pass
                hellos = sum(b'"op":"hello"' in line for line in board.said)
                if hellos < board.hellos or last[0] == passes[0]:
                    return None
                data = Link.more(self)
                if data is not None:
                    chunks[0] += 1
                    last[0] = passes[0]
                return None if data is None else bytes(data)

        class Port:  # the HAL's link on the socket: read_line() and write()
            lines = LineBuffer()

            def readinto(self, buf):
                if not select.select([host], [], [], 0)[0]:
                    return 0
                data = host.recv(len(buf))
                if not data:
                    board.stop.set()
                buf[: len(data)] = data
                return len(data)

            def read_line(self):
                line = self.lines.read_line(self.readinto)
                if line is not None:
                    board.said.append(bytes(line))
                return line

            def write(self, data):
                host.sendall(data)

        link = Slow(self.journal, None, board_id="5ee0000000000002", firmware="test", form="six")
        port, controller, session = Port(), _Controller(), 0
        while not self.stop.wait(self.pass_s):
            if self.quiet_after is not None and chunks[0] >= self.quiet_after:
                continue  # quiet for good: no request is read or answered
            passes[0] += 1
            session = pump(port, link, controller, session, 0)
        host.close()

    def close(self):
        self.stop.set()
        self.thread.join(10)
        self.listener.close()
        self.journal.close()


def test_a_sync_waiting_for_another_cribs_is_told_so_and_not_timed_out(tmp_path):
    # A full sync of a long history takes seconds on a Pico; a second `crib sync` meanwhile waits in the
    # hub for its turn on the board, longer than its --timeout: the board is there, so it waits.
    board = SlowBoard(write_journal(str(tmp_path / "journal.log"), played(3, seed=3)), hellos=2)
    try:
        dbs = [str(tmp_path / ("%s.sqlite3" % name)) for name in ("a", "b")]
        first = crib("sync", "--port", board.url, "--db", dbs[0], "--timeout", "60")
        until(lambda: any(b'"op":"records"' in line for line in board.said), "the first crib's stream")
        second = crib("sync", "--port", board.url, "--db", dbs[1], "--timeout", "1")
        said = [p.communicate(timeout=120)[0].decode() for p in (first, second)]
    finally:
        board.close()
    want = list(range(1, board.next_seq))
    for p, path, words in zip((first, second), dbs, said, strict=True):
        assert "Traceback" not in words and "running its firmware" not in words, words
        assert p.returncode == 0 and "%d new events" % len(want) in words, words
        assert [seq for seq, _ in stored(path)] == want
    assert "waiting for another crib's sync" not in said[0], said[0]
    assert "waiting for another crib's sync of this board to finish" in said[1], said[1]


def test_a_board_that_goes_quiet_mid_stream_still_times_out_the_crib_waiting_its_turn(tmp_path):
    journal = write_journal(str(tmp_path / "journal.log"), played(3, seed=3))
    board = SlowBoard(journal, hellos=2, quiet_after=5)
    errors = []

    def one(name):
        try:
            c = share.connect(board.url, 1.0)
            sync(c, db.connect(str(tmp_path / ("%s.sqlite3" % name))))
        except LinkError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=one, args=(n,), daemon=True) for n in ("a", "b")]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not any(t.is_alive() for t in threads), "a crib still waits on a board that went quiet"
    finally:
        board.close()
    assert len(errors) == 2 and all("no records or answer within 1.0 s" in e for e in errors), errors
