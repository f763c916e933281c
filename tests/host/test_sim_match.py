# The whole firmware plays sim/match3.script through `make sim`'s launcher (tools/sim.py) on the
# MicroPython unix port, and the final scores it prints equal the ones written in the script.
import os
import re
import subprocess

import pytest
import simbuild

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "sim", "match3.script")


def run_sim(data, *args, timeout=600):
    cmd = simbuild.command("--headless", "--data", str(data), *args)
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def expectations(path):
    """The script's end-of-match expectations: {"game 1": [121, 87], ..., "match": [..]}."""
    want = {}
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words[:1] != ["expect"]:
                continue
            if words[1] == "game":
                want["game " + words[2]] = [int(w) for w in words[3:]]
            elif words[1] in ("match", "score"):
                want[words[1]] = [int(w) for w in words[2:]]
    return want


def printed(out):
    """The sim's printed end state in the same shape."""
    got = {}
    for line in out.splitlines():
        m = re.match(r"(final|game \d+|match points): (.*)$", line)
        if m:
            key = {"final": "score", "match points": "match"}.get(m.group(1), m.group(1))
            got[key] = [int(n) for n in re.findall(r"-?\d+", m.group(2))]
    return got


def check_match(result):
    """The match ran to its end and printed the script's scores (whatever the log says on the way)."""
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-3000:]
    with open(SCRIPT) as f:
        n = len([line for line in f if line.startswith("expect ")])
    assert "expectations: %d checked, 0 failed" % n in out, out[-3000:]
    want = expectations(SCRIPT)
    assert len([k for k in want if k.startswith("game")]) == 3
    assert printed(result.stdout) == want, out[-3000:]
    assert "Traceback" not in out, out[-3000:]


def memory_errors(result):
    return [line for line in result.stdout.splitlines() if "MemoryError" in line]


def test_match3_script_expects_three_games_and_the_match():
    want = expectations(SCRIPT)
    assert sorted(want) == ["game 1", "game 2", "game 3", "match", "score"]
    assert max(want["match"]) >= 5  # ACC: three games decide the match


_runs = {}


def _match_at(heap, tmp_path_factory):
    if heap not in _runs:
        _runs[heap] = run_sim(tmp_path_factory.mktemp("sim"), "--script", SCRIPT, "--fresh", "--heap", heap)
    return _runs[heap]


def test_three_game_match_at_the_picos_heap(tmp_path_factory):
    check_match(_match_at("200k", tmp_path_factory))


@pytest.mark.xfail(reason="at the Pico's 200 KB the firmware's passes hit MemoryError in game 3 (it retries "
                          "and recovers; the scores are right): it needs a slimmer heap, see the HAL report",
                   strict=False)
def test_no_memory_error_at_the_picos_heap(tmp_path_factory):
    assert memory_errors(_match_at("200k", tmp_path_factory)) == []


@pytest.mark.xfail(reason="the firmware's modules alone need more than 96 KB of a Pico's heap "
                          "(see tools/sim.py and the HAL report); passes once they are slimmed or frozen",
                   raises=AssertionError, strict=False)
def test_three_game_match_at_96k(tmp_path_factory):
    result = _match_at("96k", tmp_path_factory)
    check_match(result)
    assert memory_errors(result) == []
