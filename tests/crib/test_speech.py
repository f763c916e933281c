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


class _Board:
    """A client whose board pushes a heels peg, a show (not a peg: not said) and a go."""

    hello = {"board": "test"}

    def __init__(self):
        self.pushes = [
            {"push": "event", "event": {"t": "peg", "s": 1, "n": 2, "why": "heels"}},
            {"push": "event", "event": {"t": "show", "s": 0, "k": "fifteen", "n": 2}},
            {"push": "event", "event": {"t": "peg", "s": 0, "n": 1, "why": "go"}},
            {"push": "event", "event": {"t": "peg", "s": "x", "n": 1, "why": "go"}},
        ]

    def state(self):
        return {"state": {"names": ["Alice", "Bob"]}}

    def subscribe(self, state=True):
        pass

    def next_push(self, timeout=0.5):
        return self.pushes.pop(0) if self.pushes else None


def test_watch_speaks_each_peg_with_the_name():
    import io

    from rich.console import Console

    from crib.watch import watch

    said = []
    ticks = iter(range(100))
    watch(_Board(), Console(file=io.StringIO()), seconds=6, clock=lambda: next(ticks), speak=said.append)
    assert said == ["Bob: two for his heels", "Alice: one for the go"]
