# `crib score`: the itemised count, JSON, and stdin bulk mode with bad lines.
import json
import os
import random
import subprocess
import sys

from typer.testing import CliRunner

from crib.cli import app
from cribbage.cards import format_cards
from cribbage.showtotal import score_total

runner = CliRunner()
CRIB = os.path.join(os.path.dirname(sys.executable), "crib")


def test_itemised_count_and_spoken():
    r = runner.invoke(app, ["score", "5H", "5C", "5S", "JD", "--starter", "5D"])
    assert r.exit_code == 0, r.output
    assert "total 29" in r.output
    assert "nobs" in r.output and "fifteen" in r.output and "pair" in r.output
    assert "one for his nobs is" in r.output and "twenty-nine" in r.output


def test_spoken_example():
    r = runner.invoke(app, ["score", "5H", "5C", "JS", "9D", "--starter", "2S"])
    assert r.exit_code == 0
    assert "fifteen two, fifteen four, a pair is six, and one for his nobs is seven" in r.output


def test_crib_and_five_card_flags():
    r = runner.invoke(app, ["score", "2H", "4H", "6H", "8H", "--starter", "KS", "--json"])
    assert json.loads(r.output)["total"] == 4
    r = runner.invoke(app, ["score", "2H", "4H", "6H", "8H", "--starter", "KS", "--crib", "--json"])
    assert json.loads(r.output)["total"] == 0
    r = runner.invoke(app, ["score", "2H", "4H", "7H", "--starter", "KH", "--five-card", "--json"])
    d = json.loads(r.output)
    assert d["total"] == 4 and d["five_card"] is True
    assert d["items"] == [{"kind": "flush", "points": 4, "cards": "2H 4H 7H KH"}]


def test_json_itemised():
    r = runner.invoke(app, ["score", "5H", "5C", "JS", "9D", "-s", "2S", "--json"])
    d = json.loads(r.output)
    assert d["total"] == 7 and d["hand"] == "5H 5C JS 9D" and d["starter"] == "2S"
    assert [i["kind"] for i in d["items"]] == ["fifteen", "fifteen", "pair", "nobs"]
    assert sum(i["points"] for i in d["items"]) == 7


def test_last_card_is_the_starter_without_the_option():
    r = runner.invoke(app, ["score", "5H", "5C", "5S", "JD", "5D", "--json"])
    assert json.loads(r.output)["total"] == 29


def test_bad_hand_is_an_error_naming_it():
    r = runner.invoke(app, ["score", "5H", "1X", "5S", "JD", "--starter", "5D"])
    assert r.exit_code == 2
    assert "1X" in r.output
    r = runner.invoke(app, ["score", "5H", "5C", "5S", "--starter", "5D"])
    assert r.exit_code == 2 and "4 cards" in r.output
    r = runner.invoke(app, ["score", "5H", "5C", "5S", "JD", "--starter", "JD"])
    assert r.exit_code == 2 and "starter JD" in r.output


def test_stdin_totals_with_crib_word_blank_lines_and_a_bad_line():
    text = "5H 5C 5S JD 5D\n2H 4H 6H 8H KH crib\n\n2H 4H 6H 8H KS crib\n5H 5H 2C 3D 4S\nQH KS AD 2C 8S\n"
    r = runner.invoke(app, ["score"], input=text)
    assert r.exit_code == 1
    # One output line per input line (issue 12): blank stays blank, the bad line is "-".
    assert r.stdout.splitlines() == ["29", "5", "", "0", "-", "0"]
    assert "line 5" in r.stderr and "5H" in r.stderr
    assert "line 1" not in r.stderr


def test_stdin_json_one_object_a_line():
    r = runner.invoke(app, ["score", "--json"], input="5H 5C JS 9D 2S\n2H 4H 6H 8H KS crib\n")
    assert r.exit_code == 0
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [(d["line"], d["total"], d["crib"]) for d in lines] == [(1, 7, False), (2, 0, True)]
    assert lines[0]["spoken"].endswith("and one for his nobs is seven")


def test_stdin_five_card_flag():
    r = runner.invoke(app, ["score", "--five-card"], input="2H 4H 7H KH\n2H 4H 7H QH KH crib\n")
    assert r.exit_code == 0 and r.stdout.split() == ["4", "5"]


def test_thousands_of_hands_in_one_process():
    rng = random.Random(7)
    lines, expected = [], []
    for i in range(3000):
        cards = rng.sample(range(52), 5)
        crib = i % 3 == 0
        lines.append(format_cards(cards) + (" crib" if crib else ""))
        expected.append(str(score_total(cards[:4], cards[4], crib)))
    lines.insert(1234, "5H 5C 5S JD ZZ")
    expected.insert(1234, "-")
    text = "\n".join(lines) + "\n"
    p = subprocess.run([CRIB, "score"], input=text, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1
    assert p.stdout.splitlines() == expected
    errors = p.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith("crib score: line 1235: bad card 'ZZ'")
