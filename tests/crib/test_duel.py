# crib duel: seeded duplicate games scored by the core; a bot breaking the protocol loses, the duel goes on.
import json
import os
import sys

from typer.testing import CliRunner

from crib.cli import app
from crib.duel.game import play_game
from crib.duel.players import LevelPlayer
from crib.duel.run import deal_seeds, duel
from cribbage.deal import deal

BOT = os.path.join(os.path.dirname(__file__), "..", "support", "duel_bot.py")


def _bot(mode):
    return "%s %s %s" % (sys.executable, BOT, mode)


def _consistent(out, sequences):
    assert out["games"] == 2 * sequences == sum(out["wins"])
    assert out["sequences"] == sequences
    assert abs(out["win_rate"] - out["wins"][0] / out["games"]) < 1e-4
    lo, hi = out["interval95"]
    assert 0 <= lo <= out["win_rate"] <= hi <= 1
    for i in (0, 1):
        assert out["skunks"][i] + out["double_skunks"][i] + out["forfeits"][1 - i] <= out["wins"][i]
    assert len(out["forfeit_reasons"]) == min(20, sum(out["forfeits"]))


def test_a_game_is_scored_by_the_core_and_ends_at_the_target():
    seeds = deal_seeds(5, 0)
    r = play_game((LevelPlayer("expected"), LevelPlayer("beginner")), seeds, "six")
    assert r.forfeit is None
    assert r.scores[r.winner] == 121 > r.scores[1 - r.winner]
    # every point of every deal adds up to the final scores
    assert [sum(d[s] for d in r.points) for s in (0, 1)] == r.scores
    assert r.deals == len(r.points) >= 5
    # the first deal is the seeded deal, seat 0 dealing
    hands, _c, _s = deal(seeds(0), "six", 0)
    assert len(hands[0]) == 6


def test_seeded_duels_are_reproducible_and_seats_swap():
    a = duel("level:top", "level:beginner", 6, seed=9)
    b = duel("level:top", "level:beginner", 6, seed=9)
    c = duel("level:top", "level:beginner", 6, seed=10)
    for out in (a, b, c):
        _consistent(out, 6)
    drop = ("seconds", "games_per_second")
    assert {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}
    assert (a["deals"], a["points_per_deal"]) != (c["deals"], c["points_per_deal"])
    # the same player on both sides, the same deals swapped: each sequence is one win each exactly
    # when the deals decide; the duel of a level with itself splits the games
    same = duel("level:expected", "level:expected", 5, seed=4)
    assert same["wins"] == [5, 5]


def test_a_legal_bot_plays_whole_games():
    out = duel(_bot("good"), "level:beginner", 2, seed=3, timeout=10)
    _consistent(out, 2)
    assert out["forfeits"] == [0, 0]
    assert out["deals"] >= 10


def test_bots_that_break_the_protocol_lose_cleanly_and_the_duel_goes_on():
    cases = {
        "garbage": "answered the deal with 'throw me a bone'",
        "silent": "no answer to deal within 1.0 s",
        "exit": "ended without answering deal (exit status 3)",
        "slow": "no answer to turn within 1.0 s",
        "illegal": "laid ",
        "early-go": "said go at ",
    }
    for mode, said in cases.items():
        out = duel(_bot(mode), "level:beginner", 2, seed=3, timeout=1.0)
        _consistent(out, 2)
        # it breaks the protocol on its second deal of every game: it loses all four, the duel played
        # them all (a new process each game), and each reason says what went wrong
        assert out["forfeits"] == [4, 0], (mode, out)
        assert out["wins"] == [0, 4]
        for r in out["forfeit_reasons"]:
            assert r["player"] == 0
            assert said in r["reason"], (mode, r)


def test_a_bot_that_cannot_start_loses_every_game():
    out = duel("/nonexistent/bot", "level:top", 1, seed=1)
    assert out["forfeits"] == [2, 0]
    assert "could not start" in out["forfeit_reasons"][0]["reason"]


def test_the_command_prints_json_and_refuses_bad_options():
    runner = CliRunner()
    r = runner.invoke(app, ["duel", "level:top", "level:expected", "-n", "4", "--seed", "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    _consistent(out, 2)
    assert out["players"] == ["level:top", "level:expected"]
    for args, said in (
        (["-n", "3"], "even"),
        (["--form", "five"], "unknown form"),
        (["--timeout", "0"], "timeout"),
    ):
        r = runner.invoke(app, ["duel", "level:top", "level:expected", *args])
        assert r.exit_code == 2 and said in r.output, r.output
    r = runner.invoke(app, ["duel", "level:grand", "level:top", "-n", "2"])
    assert r.exit_code == 2 and "unknown level" in r.output
