# crib stats over a synced history of many games; crib watch's view; crib deploy and sim wiring.
import json
import os
import random

from fakeport import FakePort
from linkfakes import journal
from rich.console import Console

from board.link import Link
from crib import tools
from crib.history.replay import rebuild
from crib.history.stats import best_hands, player_stats
from crib.history.sync import sync
from crib.link.client import LinkClient
from crib.store import db
from crib.watch import describe, render, watch
from cribbage.events import to_line
from cribbage.game import Match
from sim.matchgen import history

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

N_GAMES = 60


def synced(tmp_path, n_games=N_GAMES, seed=4):
    j = journal()
    m = None
    for ev in history(random.Random(seed), n_games):
        j.append(to_line(ev))
    link = Link(j, m, board_id="ab12", firmware="t", form="six")
    con = db.connect(str(tmp_path / "h.sqlite3"))
    sync(LinkClient(FakePort(link), timeout=0.5), con)
    games, orphans, last = rebuild(con, "ab12")
    return con, games, last


def test_stats_over_many_games(tmp_path):
    con, games, last = synced(tmp_path)
    assert len(games) == N_GAMES and all(g.over for g in games) and not any(g.flags for g in games)
    stats = player_stats(con)
    by_name = {s.name: s for s in stats}
    assert sum(s.games for s in stats) == 2 * N_GAMES  # two sides a game
    assert sum(s.wins for s in stats) == N_GAMES
    losers_skunked = sum(1 for g in games if any(g.skunk))
    assert sum(s.skunked for s in stats) == losers_skunked == sum(s.skunks_given for s in stats)
    for s in stats:
        assert 0 <= s.wins <= s.games
        assert 0 < s.hand_avg < 29 and 0 < s.crib_avg < 29 and 0 < s.play_avg < 15
        assert len(s.hands["dealer"] + s.hands["pone"]) >= s.games * 4  # a game lasts several deals
    # the per player sums equal the scores table: a keyed hand by its items (its full count, though
    # pegged short at the game hole), a tapped one by its points unless capped at the game hole
    total_hand = 0
    for items, points, front in con.execute("SELECT items, points, front FROM scores WHERE kind='hand'"):
        items = json.loads(items)
        total_hand += sum(it[1] for it in items) if items else (points if front < 121 else 0)
    assert sum(sum(s.hands["dealer"] + s.hands["pone"]) for s in stats) == total_hand
    assert set(by_name) <= {"Ann", "Bob", "Cy", "Di", "Ed", "Flo"}
    best = best_hands(con, 5)
    assert all(best[i]["points"] >= best[i + 1]["points"] for i in range(len(best) - 1))


def test_resync_and_rebuild_keep_game_ids(tmp_path):
    con, games, last = synced(tmp_path, 6)
    ids = [g["id"] for g in db.games(con)]
    rebuild(con, "ab12")
    assert [g["id"] for g in db.games(con)] == ids
    assert con.execute("SELECT count(*) FROM scores").fetchone()[0] == sum(len(g.scores) for g in games)


def test_a_show_count_that_disagrees_with_the_cards_flags_the_game(tmp_path):
    con = db.connect(str(tmp_path / "h.sqlite3"))
    db.note_board(con, {"board": "b"})
    m = Match({"t": "setup", "names": ["Ann", "Bob"]})
    evs = [
        m.setup,
        {"t": "dealer", "p": 0},
        {"t": "peg", "s": 1, "n": 4, "why": "manual"},
        {"t": "fix", "s": 0, "n": 3},
        {"t": "undo"},
        {"t": "lay", "p": 1, "c": 3},
    ]
    db.add_events(con, "b", [{"seq": i + 1, "event": e} for i, e in enumerate(evs)])
    games, orphans, _m = rebuild(con, "b")
    # the lay before a starter is refused by the core: flagged, and the rest still replayed
    assert len(games) == 1 and games[0].flags and "refused by the core" in games[0].flags[0]
    assert games[0].final == [0, 4]  # the fix was undone
    assert db.games(con)[0]["flagged"] == 1


def test_watch_renders_the_board_and_follows_pushes():
    m = Match({"t": "setup", "names": ["Ann", "Bob"]})
    j = journal()
    for ev in (m.setup, {"t": "dealer", "p": 0}):
        done = m.apply(ev) if ev["t"] != "setup" else ev
        j.append(to_line(done))
    link = Link(j, m, board_id="ab", firmware="t", form="six")
    port = FakePort(link)
    client = LinkClient(port, timeout=0.5)
    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    ticks = iter(range(1000))
    orig_next = client.next_push

    def next_push(timeout):
        # the board pegs while we watch: the push arrives on the next pass of its link task
        done = m.apply({"t": "peg", "s": 1, "n": 6, "why": "manual"})
        seq = j.append(to_line(done))
        link.appended(seq, to_line(done))
        port.tick()
        return orig_next(timeout)

    client.next_push = next_push
    state = watch(client, console, seconds=5, clock=lambda: next(ticks))
    assert state["front"][1] >= 12 and state["front"][1] % 6 == 0  # redrawn from the state pushes
    text = console.export_text()
    assert "Ann" in text and "Bob" in text
    r = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    r.print(render(state, {"board": "ab"}, ["x"]))
    out = r.export_text()
    assert "match 0" in out and "deal 1" in out
    assert describe({"t": "peg", "s": 1, "n": 6, "why": "hand"}, ["Ann", "Bob"]) == "Bob +6 hand"
    r.print(render(None))
    assert "no match running" in r.export_text()


def test_deploy_and_sim_run_the_makefile_tools():
    cmd, root = tools.tool_command("deploy", ["--port", "auto", "--dry-run"])
    assert cmd[1:3] == ["-m", "tools.deploy"] and cmd[3:] == ["--port", "auto", "--dry-run"]
    cmd, root = tools.tool_command("sim", tools.sim_args(7400, True, ["--fresh"]))
    assert cmd[1:3] == ["-m", "sim"] and cmd[3:] == ["--link", "7400", "--headless", "--fresh"]
    # in the checkout this crib was installed from (make crib: editable), as pip recorded it
    assert root == ROOT


class _Dist:
    """An installed cribboard as importlib.metadata gives it: its direct_url.json, or none (a wheel)."""

    def __init__(self, origin):
        self.origin = origin

    def read_text(self, name):
        return None if self.origin is None else json.dumps(self.origin)


def test_outside_a_checkout_deploy_and_sim_say_what_to_do_and_run_nothing(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from crib.cli import app

    ran = []
    monkeypatch.setattr(tools.subprocess, "call", lambda *a, **k: ran.append(a) or 0)
    wheel = [_Dist(None), _Dist({"url": "file://" + str(tmp_path), "dir_info": {"editable": True}})]
    monkeypatch.setattr(tools.importlib.metadata, "distributions", lambda name=None: iter(wheel))
    assert tools.checkout() is None  # a wheel's; an editable folder that is no checkout
    for argv in (["deploy", "--dry-run"], ["sim", "--headless"]):
        r = CliRunner().invoke(app, argv)
        said = r.output
        assert r.exit_code == 1 and "not installed from" in said and "make " + argv[0] in said, said
        assert "link:" not in said and not isinstance(r.exception, Exception), said  # no sim, no traceback
    assert ran == []
