# Input a player or a host sends cannot intern strings on MicroPython ([name budget] docs/memory.md).
import re
import subprocess

from boards import MICROPYTHON

from tools import unixport

# Every character is new to the interpreter: none is a name the firmware or MicroPython has.
_EXOTIC = "\u2603\u00e9\u0416\u4e2d\u00df\u03a9\u20ac\u0100\u0101\u0102\u0103\u0104"

_SCRIPT = """
import micropython
from cribbage.cards import parse_card, parse_cards
from cribbage.errors import CardError
from cribbage import events

def pools():
    micropython.qstr_info()

exotic = %(exotic)r
names = [exotic[i : i + 1] for i in range(len(exotic))]
pools()
for ch in names:
    for token in ("5" + ch, ch, "10" + ch, ch + "H"):
        try:
            parse_card(token)
        except CardError:
            pass
try:
    parse_cards("5H;" + exotic + ",JD")
except CardError:
    pass
line = events._text("Ann " + exotic + ' "quoted" \\\\ \\n')
pools()
print(line)
"""


def _counts(out):
    return [int(n) for n in re.findall(r"qstr pool: n_pool=\d+, n_qstr=(\d+)", out)]


def test_card_and_event_text_intern_nothing_they_are_given():
    # Before: parse_card indexed t[-1] and events._text iterated the name, so each new character a
    # host sent became a permanent name in the pool (12 new names here); past the pool's edge that
    # is one 8 KB block on a Pico, asked for mid-game.
    script = _SCRIPT % {"exotic": _EXOTIC}
    env = unixport.env(unixport.FIRMWARE)
    out = subprocess.run([MICROPYTHON, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    before, after = _counts(out.stdout)
    assert after == before, "%d names interned by input" % (after - before)
    # The text is still escaped as JSON requires, every character kept.
    assert out.stdout.rstrip().endswith('"Ann ' + _EXOTIC + ' \\"quoted\\" \\\\ \\u000a"'), out.stdout
