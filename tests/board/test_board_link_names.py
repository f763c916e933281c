# A match against the board interns the link's names at its start: the link loads later without a new pool.
"""[link names] docs/memory.md: after a game against the board the Pico's heap is in pieces, and the link's
names, interned only at a laptop's first line, crossed the name pool's edge then: a 7.7 KB block the heap
did not always have, and the game could not be synced. Here, on the MicroPython unix port with the
firmware's modules: once the solo plug-in has started, loading the link interns no name, and the link's
code is not held by the match."""

import re
import subprocess

from boards import MICROPYTHON

from tools import unixport

_SCRIPT = """
import sys
import micropython

class Controller:
    settings = {"large": 0}

%(start)s
print("link held:", "board.link" in sys.modules)
micropython.qstr_info()
import board.link
micropython.qstr_info()
"""

_START = """
from board.controller import solo
solo.start(Controller())
"""


def _names_the_link_adds(start):
    script = _SCRIPT % {"start": start}
    env = unixport.env(unixport.FIRMWARE)
    out = subprocess.run([MICROPYTHON, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    before, after = [int(n) for n in re.findall(r"qstr pool: n_pool=\d+, n_qstr=(\d+)", out.stdout)]
    return after - before, out.stdout


def test_after_a_match_against_the_board_starts_the_link_loads_without_a_new_name():
    added, out = _names_the_link_adds(_START)
    assert "link held: False" in out, out  # its code dropped at once: the match keeps its heap
    assert added == 0, "the link interned %d names after the match's start" % added


def test_without_the_solo_start_the_link_interns_its_names_when_it_loads():
    # The check above can fail: the link's load, the plug-in not started, brings names of its own.
    added, out = _names_the_link_adds("from board.controller import solo")
    assert "link held: False" in out, out
    assert added > 50, added
