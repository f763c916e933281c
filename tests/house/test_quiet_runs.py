# A clean `make test` prints only results: the MicroPython-only test files that once printed a traceback
# (a collector's finaliser reading a replaced flash with the heap locked) or a refusal line from tests
# that pass, run as `make test-mp` runs them, print their result line and nothing else.
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")


@pytest.mark.parametrize("name", ["journal/test_journal_ioerror_mp.py", "board/test_board_boot_mp.py"])
def test_a_passing_micropython_test_file_prints_only_its_result(name):
    r = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=2m", "tests/mp_runner.py", "tests/" + name],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr == ""
    assert r.stdout == "micropython: 3 passed, 0 failed\n", r.stdout
