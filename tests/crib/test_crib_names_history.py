# Players, not seats (issue 12): a side renamed mid-match on one board and named on another is one player
# in the history: every game of the match under the name it ended with, stats by name across boards.
import random

from fakeport import FakePort
from linkfakes import journal
from typer.testing import CliRunner

from board.link import Link
from crib.cli import app
from crib.history.replay import rebuild
from crib.history.stats import player_stats
from crib.history.sync import sync
from crib.link.client import LinkClient
from crib.store import db
from crib.watch import describe
from cribbage import events as E
from cribbage.events import to_line
from cribbage.game import replay
from sim.matchgen import MatchPlayer

runner = CliRunner()


def _match(seed, games, renames, at):
    """A match played with the set-up's names P1/P2, the renames inserted `at` events in (mid game 1)."""
    p = MatchPlayer(random.Random(seed), ("P1", "P2"), games=games)
    evs = p.play(max_games=games)
    evs = evs[:at] + [E.name(s, n) for s, n in renames] + evs[at:]
    m = replay(evs, trusted=False)  # still a valid match: a rename changes nothing else
    assert m.results == p.m.results
    return evs, m


def _sync(con, board, evs):
    j = journal()
    for ev in evs:
        j.append(to_line(ev))
    sync(LinkClient(FakePort(Link(j, None, board_id=board, firmware="t", form="six")), timeout=0.5), con)
    return rebuild(con, board)[0]


def test_renamed_players_keep_their_games_across_boards(tmp_path):
    con = db.connect(str(tmp_path / "h.sqlite3"))
    one, m1 = _match(3, 2, [(0, "Ann"), (1, "Bob")], at=12)
    two, m2 = _match(8, 1, [(1, "Ann"), (0, "Cy")], at=30)  # Ann sits at the other seat here
    g1 = _sync(con, "ab12", one)
    g2 = _sync(con, "cd34", two)
    assert [g.names for g in g1] == [["Ann", "Bob"]] * 2 and [g.names for g in g2] == [["Cy", "Ann"]]
    want = {"Ann": [0, 0], "Bob": [0, 0], "Cy": [0, 0]}  # games, wins worked out from the core's results
    for m, names in ((m1, ("Ann", "Bob")), (m2, ("Cy", "Ann"))):
        for winner, _out, _gains, _skunk, _fronts in m.results:
            for side, n in enumerate(names):
                want[n][0] += 1
                want[n][1] += winner == side
    got = {s.name: [s.games, s.wins] for s in player_stats(con)}
    assert got == want  # no P1, no P2: the seats are gone
    r = runner.invoke(app, ["games", "--db", str(tmp_path / "h.sqlite3")])
    assert r.exit_code == 0 and "Ann v Bob" in r.output and "Cy v Ann" in r.output, r.output
    assert describe({"t": "name", "s": 1, "name": "Bob"}, ["Ann", "Bob"]) == "player 2 is Bob"
