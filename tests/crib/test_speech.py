"""Spoken counts: the words players say for shows and pegs, and a real speech engine saying them."""

import shutil
import wave

import pytest

from crib.speech import Speaker, find_engine, peg_words, show_words
from cribbage.show import score_show


@pytest.mark.parametrize(
    "hand, starter, words",
    [
        (
            "5H 5C 5S JD",
            "5D",
            "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
            "fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight, "
            "and one for his nobs is twenty-nine",
        ),
        ("3H 3C 4D 5S", "KD", "fifteen two, fifteen four, a pair is six, and two runs of three is twelve"),
        ("2H 4H 6H 8H", "KS", "a flush of four is four"),
        ("AH 2C 9D JS", "KS", "one for his nobs is one"),
        ("2C 4D 6H 8S", "QC", "nineteen"),
    ],
)
def test_show_words(hand, starter, words):
    show = score_show(hand.split(), starter)
    assert show_words(show) == words
    assert show_words(show, "Alice") == "Alice: " + words


@pytest.mark.parametrize(
    "n, why, words",
    [
        (2, "play", "Bob: two"),
        (1, "go", "Bob: one for the go"),
        (2, "go", "Bob: thirty-one for two"),
        (2, "heels", "Bob: two for his heels"),
        (12, "hand", "Bob: twelve for the hand"),
        (0, "hand", "Bob: nineteen"),
        (4, "crib", "Bob: four for the crib"),
        (3, "muggins", "Bob: muggins, three"),
    ],
)
def test_peg_words(n, why, words):
    assert peg_words("Bob", n, why) == words


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_ng_writes_the_count(tmp_path):
    wav = tmp_path / "count.wav"
    engine = find_engine()
    assert engine and engine[0].endswith("espeak-ng")
    speaker = Speaker(engine, extra=["-w", str(wav)])
    speaker.say(show_words(score_show("5H 5C 5S JD".split(), "5D"), "Alice"))
    speaker.wait()
    with wave.open(str(wav)) as w:
        assert w.getnframes() > w.getframerate()  # more than a second of speech


def test_no_engine_says_so_once():
    warnings = []
    assert find_engine(which=lambda exe: None, platform="linux") is None
    speaker = Speaker(engine=[], warn=warnings.append)
    speaker.say("fifteen two")
    speaker.say("and a pair is four")
    speaker.wait()
    assert len(warnings) == 1 and "no speech engine" in warnings[0]


# A deal on the real firmware in the simulator while watch follows it: the demo's play (a fifteen, a
# 31, the last card) and the 29 hand keyed and counted by the board, each score said once as the state
# after its event shows it.
DEAL = """+3000
cards 4H TD
key OK
+500 cards 5S
+500 cards 5H
+400 cards TH
+400 cards 5C
+400 cards 6C
+400 cards 5D
+400 cards 9C
+400 cards JS
+400 cards 2H
+1500 cards 5H 5C 5D JS
key OK
+2000 key OK
wait display the end of this test
"""

TWENTY_NINE = (
    "P2: fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
    "fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight, "
    "and one for his nobs is twenty-nine for the hand"
)


def test_watch_says_each_score_of_a_deal_on_the_simulated_board_in_players_words(tmp_path):
    import io
    import time

    from boards import Sim
    from rich.console import Console

    from crib.link import ports
    from crib.link.client import LinkClient
    from crib.watch import watch

    script = tmp_path / "deal.script"
    script.write_text(DEAL)
    said = []
    with Sim(str(tmp_path / "data"), script=str(script), fresh=True, extra=("--realtime",)) as sim:
        client = LinkClient(ports.open_port(sim.url, 5.0), timeout=5.0)
        client.connect()
        try:
            clock = lambda: float("inf") if len(said) >= 4 else time.monotonic()  # noqa: E731
            watch(client, Console(file=io.StringIO()), seconds=90, clock=clock, speak=said.append)
        finally:
            client.close()
    assert said == ["P1: fifteen two", "P2: thirty-one for two", "P1: one for last", TWENTY_NINE]


@pytest.mark.parametrize(
    "cards, n, words",
    [
        ("5H TH", 2, "Ann: fifteen two"),
        ("8C 7H 7D", 2, "Ann: a pair is two"),
        ("AC AH AD", 6, "Ann: a pair royal is six"),
        ("5H 5C 5D", 8, "Ann: fifteen two, and a pair royal is eight"),
        ("AC 2H 3D", 4, "Ann: a run of three is three, and one for last"),
        ("TH 5C KD 6S", 2, "Ann: thirty-one for two"),
        ("5H KC TD AS", 1, "Ann: one for last"),
    ],
)
def test_play_words(cards, n, words):
    from crib.speech import play_words
    from cribbage.play import reasons_for_lay

    assert play_words("Ann", reasons_for_lay(cards.split()), n) == words


def test_a_state_that_makes_no_sense_says_nothing():
    from crib.watch import said_scores

    good = {"names": ["Ann", "Bob"], "front": [0, 0], "play": {"current": []}}
    assert said_scores({"t": "lay", "c": 20}, good, dict(good, front=[0, 0])) == []  # no points: nothing
    for before, after, ev in [
        (good, dict(good, front=["x", 2]), {"t": "peg", "s": 1, "n": 2}),
        ({"front": None}, good, {"t": "go"}),
        (good, dict(good, front=[2, 0]), {"t": "lay", "c": "not a card"}),
    ]:
        assert said_scores(ev, before, after) == [], (ev, before, after)
    assert said_scores({"t": "peg", "s": 1, "n": 2, "why": "heels"}, good, dict(good, front=[0, 2])) == [
        "Bob: two for his heels"
    ]
