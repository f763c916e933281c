# First light: the pegs the journal's seq mark names, on the LEDs before the app's code is loaded.
"""start.py calls show() on the Pico once the board file is read and before it imports the app, then
drops this module. The seq mark (board/store/journal.py) is the name of an empty file,
<seq>.<acked>.<size>.<note>, where the app's note (App.note) is the brightness and each track's front
and back pegs as it last drew them. When <size> is the journal's size, the mark was written with the
journal as it is: its pegs are the journal's, drawn as the app draws them (board.render) with nothing
but the pegs in the view. Anything else (no mark, an older firmware's, a journal written after it)
lights nothing here, and the app's first frame comes when it has booted. One folder listed and one
file's size: no journal read."""

import os

from board.render import BRIGHT, Render
from board.render.power import Limiter

JOURNAL = "/journal.log"  # board.app's: not imported from there, as the app's code is what this precedes


def show(board_def, hal_mod, storage_dir=None):
    """Make the LED chains (hal_mod.make_leds: the Pico's HAL) and light on them the pegs the seq mark
    names, if it names the journal as it is; -> the chains, for the HAL's set-up to take."""
    leds = hal_mod.make_leds(board_def)
    path = (hal_mod.STORAGE if storage_dir is None else storage_dir) + JOURNAL
    try:
        names = os.listdir(path + ".seq")
        words = names[0].split(".") if len(names) == 1 else ()
        if len(words) != 10 or int(words[2]) != os.stat(path)[6] or not 0 < int(words[3]) < 256:
            return leds
        r = Render(board_def, Limiter(board_def.wiring.power, board_def.led_count))
        v = r.view
        v[BRIGHT] = int(words[3])
        for i in range(6):  # each track's front peg, then each track's back peg (render.FRONT, BACK)
            v[i] = int(words[4 + i])
    except (OSError, ValueError):  # no mark, no journal, a name this firmware did not write
        return leds
    r.update(0)
    leds.write(r.frame)
    return leds
