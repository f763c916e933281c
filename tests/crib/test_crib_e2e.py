# Issue 5 end to end: the real firmware in the simulator plays a scripted match while crib syncs it.
import json
import time

import pytest
from boards import Sim
from simmatch import SimMatch

from crib.history.replay import rebuild
from crib.history.sync import sync
from crib.link import ports
from crib.link.client import LinkClient, LinkError
from crib.store import db


def try_sync(url, con, progress=None, page=64):
    """One `crib sync` pass: the report, or None when the board was not there or went away mid-way."""
    try:
        client = LinkClient(ports.open_port(url, 2.0), timeout=2.0)
    except ports.PortError:
        return None
    try:
        return sync(client, con, progress=progress, page=page)
    except LinkError:
        return None
    finally:
        client.close()


def board_events(url):
    """Every event the board's journal holds, read over its link: [(seq, event)]."""
    c = LinkClient(ports.open_port(url, 2.0), timeout=2.0)
    try:
        c.connect()
        out = []
        for page in c.iter_pages(0):
            out.extend((e["seq"], e["event"]) for e in page["events"])
        return out, c.state()["state"], c.hello["board"]
    finally:
        c.close()


def stored(con, board):
    rows = con.execute("SELECT seq, event FROM events WHERE board=$1 ORDER BY seq", (board,))
    return [(r[0], json.loads(r[1])) for r in rows]


@pytest.fixture()
def match_script(tmp_path):
    m = SimMatch(7)
    m.play()
    path = tmp_path / "match.script"
    path.write_text(m.script())
    return m, str(path)


def test_sync_while_the_sim_plays_then_every_event_once_and_scores_equal(tmp_path, match_script):
    m, script = match_script
    data = str(tmp_path / "sim-data")
    con = db.connect(str(tmp_path / "h.sqlite3"))
    syncs = []
    with Sim(data, script=script, fresh=True) as sim:
        while sim.running():
            rep = try_sync(sim.url, con)
            if rep is not None:
                syncs.append(rep.added)
        out = sim.wait()
    assert "expectations: %d checked, 0 failed" % (len(m.m.results) + 1) in out, out[-2000:]
    print("syncs during play: %d, adding %s events" % (len(syncs), [a for a in syncs if a]))
    assert sum(1 for a in syncs if a) >= 2, syncs  # events arrived while the match was being played
    with Sim(data) as sim:  # the board boots again and replays its journal
        final = try_sync(sim.url, con)
        assert final is not None
        on_board, state, board = board_events(sim.url)
    got = stored(con, board)
    assert got == on_board  # every event exactly once, in order
    # and they are the match the script played, but for the stamps: each sync's hello told the board the
    # time, and the board stamps the games it starts from then on (issue 12, the board's clock). Their
    # order is not checked here: a scripted sim skips idle time, so its clock runs ahead of the wall
    # clock until the next hello tells it the time again (test_board_clock times them on a fake clock).
    assert [{k: v for k, v in e.items() if k != "at"} for _, e in got] == m.events
    stamps = [e["at"] for _, e in got if "at" in e]
    assert stamps and all(e["t"] in ("setup", "game") for _, e in got if "at" in e)
    assert all(abs(at - time.time()) < 3600 for at in stamps), stamps
    games, orphans, last = rebuild(con, board)
    assert not orphans and not any(g.flags for g in games)
    assert [g.final for g in games] == [list(r[4]) for r in m.m.results]
    assert games[-1].final == state["front"] and last.match_points == state["match_points"]


def test_stop_the_sim_in_the_middle_of_a_sync_then_start_both_again(tmp_path, match_script):
    m, script = match_script
    data = str(tmp_path / "sim-data")
    con = db.connect(str(tmp_path / "h.sqlite3"))
    with Sim(data, script=script, fresh=True) as sim:
        sim.wait()  # the whole match is on the board's flash
    with Sim(data) as sim:

        def pull_the_plug(done, end):
            if done > 64:  # after the first page is stored, in the middle of the sync
                sim.kill()
                # what the board sent before it died may all be in this socket's buffer (a stream
                # is quick): the laptop's end goes too, as with a cable pulled
                raise LinkError("the cable pulled")

        first = try_sync(sim.url, con, progress=pull_the_plug, page=8)  # stored every 64 records
        assert first is None and not sim.running()
    partial = db.count_events(con)
    print("cut after %d of %d events" % (partial, len(m.events)))
    assert 0 < partial < len(m.events)
    with Sim(data) as sim:
        rep = try_sync(sim.url, con)
        assert rep is not None and rep.start == partial + 1 and rep.added == len(m.events) - partial
        again = try_sync(sim.url, con)
        assert again.added == 0
        on_board, state, board = board_events(sim.url)
    assert stored(con, board) == on_board and len(on_board) == len(m.events)
    games, orphans, last = rebuild(con, board)
    assert games[-1].final == state["front"]
