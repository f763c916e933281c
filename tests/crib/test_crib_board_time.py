# Games dated by when they were played (issue 12): the board stamps the matches and games it starts once
# crib has told it the time; `crib games` and `crib show` date a stamped game by its stamp, and a game
# from a board never told the time by when it was synced.
import random
import time

from boards import Sim
from fakeport import FakePort
from linkfakes import journal
from simmatch import flash_with_match
from typer.testing import CliRunner

from board.link import Link
from crib.cli import app
from crib.history.replay import rebuild
from crib.history.sync import sync
from crib.link import share
from crib.link.client import LinkClient
from crib.store import db
from cribbage.events import to_line
from sim.matchgen import MatchPlayer

runner = CliRunner()
PLAYED = 1700000000  # 2023-11-14 22:13:20 UTC: long before this test syncs


def test_stamped_games_are_dated_by_the_board_and_others_by_the_sync(tmp_path):
    p = MatchPlayer(random.Random(2), ("Ann", "Bob"), games=2)
    evs = p.play(max_games=2)
    evs[0] = dict(evs[0], at=PLAYED)  # the board's set-up line, stamped
    second = next(i for i, ev in enumerate(evs) if ev["t"] == "game")
    evs[second] = dict(evs[second], at=PLAYED + 3600)  # the second game an hour on
    q = MatchPlayer(random.Random(3), ("Cy", "Di"), games=1)
    evs += q.play(max_games=1)  # a match from before the board was told the time: no stamps
    j = journal()
    for ev in evs:
        j.append(to_line(ev))
    dbp = str(tmp_path / "h.sqlite3")
    con = db.connect(dbp)
    clock = [0, 0]  # Commit.clock
    link = Link(j, None, board_id="ab12", firmware="t", form="six", clock=clock)
    client = LinkClient(FakePort(link), timeout=0.5)
    client.connect()
    assert isinstance(clock[0], int) and abs(clock[0] - time.time()) < 60  # the hello told the board the time
    sync(client, con)
    games = rebuild(con, "ab12")[0]
    assert len(games) == 3
    rows = db.games(con)
    times = {tuple(g["names"]): db.game_times(con, g) for g in rows}
    firsts = sorted(db.game_times(con, g)[0] for g in rows if g["names"] == ["Ann", "Bob"])
    assert firsts == [PLAYED, PLAYED + 3600]
    synced = times[("Cy", "Di")]
    assert synced[1] is not None and abs(synced[0] - time.time()) < 120
    out = runner.invoke(app, ["games", "--db", dbp]).output
    for stamp in (PLAYED, PLAYED + 3600, synced[0]):
        assert time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) in out, out
    first = min(g["id"] for g in rows)
    out = runner.invoke(app, ["show", str(first), "--db", dbp]).output
    assert "played %s (the board's time" % time.strftime("%Y-%m-%d %H:%M", time.localtime(PLAYED)) in out


def test_a_simulator_no_laptop_met_stamps_its_games_by_the_hosts_clock(tmp_path):
    # The sim takes its host's time at boot (the HAL's time()): a club night's games on a simulated board
    # carry when they were played though no crib was connected while they were.
    before = int(time.time())
    data, m = flash_with_match(tmp_path, seed=5, games=1)  # played with no laptop on the link
    after = int(time.time())
    with Sim(data) as sim:
        c = share.connect(sim.url, 5.0)
        evs = [e["event"] for page in c.iter_pages(1) for e in page["events"]]
        c.close()
    stamped = [e for e in evs if "at" in e]
    assert stamped and stamped[0] is evs[0] and evs[0]["t"] == "setup", evs[:3]
    assert before <= evs[0]["at"] <= after  # the match's set-up, stamped as it began


def test_a_match_started_while_only_crib_watch_was_connected_is_dated_by_watchs_hello(monkeypatch):
    # A Pico knows no time; `crib watch` says hello with the time as it connects (through the board's
    # hub where there is one), so a match the players start while only watch is open is stamped then,
    # and the sync that comes later (its own hello) dates it by that stamp, not by the sync.
    import io

    from rich.console import Console
    from scenario import Scenario
    from test_crib_name import BoardPort

    from crib.watch import watch

    s = Scenario()
    try:
        s.app.start_link()
        monkeypatch.setattr(share.ports, "open_port", lambda spec, timeout=2.0: BoardPort(s, "\0", None))
        told, ticks = int(time.time()), s.hal.ticks_ms()
        watch(share.connect("bridge", 2.0), Console(file=io.StringIO()), seconds=0.5)
        s.wait(65000)  # a minute on, the players start a new match on the board
        s.hold("MENU", "UNDO")
        s.wait(1000)
        s.release("MENU", "UNDO")
        s.wait(60)
        s.keys("OK")
        since = (
            s.hal.ticks_diff(s.hal.ticks_ms(), ticks) // 1000 + 2
        )  # board seconds since the hello, at most
        con = db.connect(":memory:")
        sync(share.connect("bridge", 2.0), con)
        board = db.boards(con)[0]
        setups = [ev for _, ev in db.events(con, board) if ev["t"] == "setup"]
        assert "at" not in setups[0] and len(setups) == 2  # the boot's match, before any hello
        assert told + 60 <= setups[1]["at"] <= told + since, (setups[1], since)
    finally:
        s.close()
