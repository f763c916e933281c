# `crib advise`: the ranked discards as the issue specifies them, the tables, and refusals.
import json

from typer.testing import CliRunner

from crib.cli import app
from cribbage.cards import RANKS, parse_cards
from verify import reference_scorer

runner = CliRunner()


def _json(args):
    r = runner.invoke(app, ["advise", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_json_lists_every_discard_best_first_with_exact_hand_values():
    dealt = "5H 5C 5S JD 4C 6D".split()
    for flag, sign in (("--dealer", 1), ("--pone", -1)):
        rows = _json([*dealt, flag])
        assert len(rows) == 15
        assert [r["net"] for r in rows] == sorted((r["net"] for r in rows), reverse=True)
        for r in rows:
            assert set(r) == {"discard", "keep", "hand", "crib", "net"}
            assert sorted(r["discard"] + r["keep"]) == sorted(dealt)
            keep = parse_cards(r["keep"])
            total = sum(reference_scorer.score(keep, s) for s in range(52) if s not in parse_cards(dealt))
            assert r["hand"] == round(total / 46 + 1e-9, 2)
            assert r["crib"] > 0
            assert abs(r["net"] - (r["hand"] + sign * r["crib"])) < 0.005
    keep_fives = [
        r for r in _json([*dealt, "--pone"]) if sorted(r["keep"]) == sorted(["5H", "5C", "5S", "JD"])
    ]
    assert keep_fives[0]["hand"] == 16.63 and keep_fives[0]["discard"] == ["4C", "6D"]


def test_other_forms_by_the_boards_names():
    assert len(_json(["5H", "5C", "JH", "4H", "6H", "--dealer", "--form", "five"])) == 10
    rows = _json(["5H", "5C", "JH", "4H", "6H", "--pone", "--form", "three"])
    assert len(rows) == 5 and all(len(r["discard"]) == 1 and len(r["keep"]) == 4 for r in rows)
    assert len(_json(["5H", "5C", "JH", "4H", "6H", "--pone", "--form", "four"])) == 5


def test_crib_table_json_keys_two_ranks_lower_first():
    t = _json(["--crib-table"])
    assert set(t) == {"dealer", "pone"}
    keys = [RANKS[a] + RANKS[b] for a in range(13) for b in range(a, 13)]
    for side in ("dealer", "pone"):
        assert list(t[side]) == keys
        assert max(t[side].values()) == t[side]["55"]
    assert all(t["dealer"][k] < t["pone"][k] for k in keys)


def test_the_table_printed_is_the_one_advice_uses():
    t = _json(["--crib-table"])
    for r in _json(["AS", "2H", "3D", "4C", "5S", "6H", "--pone"]):
        ranks = sorted(RANKS.index(c[0]) for c in r["discard"])
        assert r["crib"] == t["pone"][RANKS[ranks[0]] + RANKS[ranks[1]]]


def test_text_output_ranks_and_names_the_crib():
    r = runner.invoke(app, ["advise", "AS", "2H", "3D", "4C", "5S", "6H", "--pone"])
    assert r.exit_code == 0, r.output
    assert "opponent's" in r.output
    first = [line for line in r.output.splitlines() if line.strip().startswith("1 ")][0]
    assert "AS 2H" in first and "3D 4C 5S 6H" in first


def test_refusals_name_the_problem():
    for args, words in (
        (["5H", "5C", "5S", "JD", "4C", "6D"], "--dealer"),
        (["5H", "5C", "5S", "JD", "4C", "--dealer"], "deals 6 cards, not 5"),
        (["5H", "5C", "5S", "JD", "4C", "5H", "--dealer"], "the same card twice"),
        (["5H", "5C", "5S", "JD", "4C", "XX", "--dealer"], "bad card"),
        (["5H", "5C", "5S", "JD", "4C", "6D", "--dealer", "--form", "seven"], "unknown game form"),
        (["5H", "--crib-table"], "takes no cards"),
    ):
        r = runner.invoke(app, ["advise", *args])
        assert r.exit_code == 2, (args, r.output)
        assert words in r.output, (args, r.output)
