# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# First light (board/render/firstlight.py, which start.py runs on the Pico): the pegs the journal holds,
# lit from its seq mark's name on the Pico HAL's LED chains (the fakes of tests/support/rp2fakes.py: the
# words that reach the wire), before any of the app's code is loaded; nothing lit from a mark that does
# not name the journal as it is.
import os
import sys

import rp2fakes
from board_fixture import reference
from scenario import Scenario, lit_rgb

from board import app as board_app
from board.render import firstlight

# What start.py's first light may load: the renderer and the limiter (the app's own, loaded anyway);
# neither the app nor the journal nor the game.
ALLOWED = ("board.render", "board.render.firstlight", "board.render.anims", "board.render.power")
ALLOWED += ("board.ticks",)


def _played(**settings):
    """A board that keyed a dealer and pegged a few scores (its journal and mark on flash), closed."""
    s = Scenario(**settings)
    s.keys("A OK")  # player 1 deals
    for side, n in ((1, 7), (0, 12), (1, 5), (0, 3)):
        s.app.book.apply({"t": "peg", "s": side, "n": n, "why": "manual"})
    s.wait(40)
    s.app.journal.close()
    return s


def _wire(r, b):
    """The last frame on the fake wire as an R,G,B frame (hal/ws2812.py's pack, undone), or None if no
    frame but the dark one the set-up writes reached it."""
    from hal.ws2812 import ORDERS

    a, bb, c = ORDERS[b.wiring.led_order]
    frame = bytearray(3 * b.led_count)
    start_led = 0
    frames = 0
    for i in range(len(b.wiring.led_pins)):
        n = b.wiring.led_chains[i]
        words = r.machines[i].words
        frames = len(words) // n
        for k in range(n):
            w = words[len(words) - n + k]
            j = 3 * (start_led + k)
            frame[j + a] = w >> 24 & 255
            frame[j + bb] = w >> 16 & 255
            frame[j + c] = w >> 8 & 255
        start_led += n
    return frame if frames > 1 else None


def _pico_hal():
    """hal.rp2 on the fakes, one fake clock for it and the LED chains; -> (hal.rp2, the fake rp2)."""
    _m, r, _o = rp2fakes.install()
    clock = rp2fakes.Clock()
    hal_rp2 = rp2fakes.hal_module("rp2")
    hal_rp2.time = clock
    rp2fakes.hal_module("ws2812").time = clock
    return hal_rp2, r


def _first_light(storage_dir):
    """The first light on the Pico HAL's fakes, loaded as start.py loads it, with the app's, journal's and
    game's modules out of sys.modules (as at a board's boot); -> (the frame on the wire or None, the LED
    chains it hands the HAL's set-up, the modules it loaded but its own and the renderer's, the fake rp2)."""
    kept = {}
    for name in list(sys.modules):
        if name.startswith(("board.", "cribbage.")) and name not in ALLOWED[1:]:
            kept[name] = sys.modules.pop(name)
    hal_rp2, r = _pico_hal()
    try:
        __import__("board.render.firstlight")
        leds = sys.modules["board.render.firstlight"].show(reference(), hal_rp2, storage_dir)
        loaded = [n for n in sys.modules if n.startswith(("board.", "cribbage.")) and n not in ALLOWED]
        return _wire(r, reference()), leds, loaded, r
    finally:
        rp2fakes.uninstall()
        sys.modules.update(kept)


def test_the_pegs_the_journal_holds_are_lit_from_its_seq_mark_before_the_app_is_loaded():
    # Before: the first lit frame was the app's, once every module was loaded and the journal replayed.
    s = _played(brightness=192, tracks=1)  # sides 0 and 1 on tracks 0 and 2, not the default's 0 and 1
    try:
        b = s.board
        m = s.app.match
        assert m.front == [15, 12] and m.back == [12, 7] and tuple(s.app.tracks()) == (0, 2)
        frame, leds, loaded, r = _first_light(s.hal.storage_dir)
        assert loaded == []  # nothing of the app, the journal or the game
        assert frame is not None, "nothing lit"
        pegs = {}
        for side in range(2):
            t = s.app.tracks()[side]
            pegs[b.led_track[t][m.front[side] - 1]] = s.app.render.colours[12 * t : 12 * t + 3]
            pegs[b.led_track[t][m.back[side] - 1]] = s.app.render.colours[12 * t + 3 : 12 * t + 6]
        got = lit_rgb(frame)
        assert got == {led: tuple(rgb) for led, rgb in pegs.items()}
        # the same LEDs in the same colours as the app's own frame draws them; the dealer's LED the app's only
        app_lit = lit_rgb(s.hal.leds.frame)
        assert {led: app_lit[led] for led in got} == got
        assert sorted(set(app_lit) - set(got)) == [b.led_dealer[s.app.tracks()[0]]]
        # the chains it lit are the ones the HAL's set-up takes over (not a second set of state machines)
        assert leds is not None and len(r.dmas) == len(b.wiring.led_pins)
    finally:
        s.close()


def test_the_hal_takes_the_chains_the_first_light_made():
    s = _played()
    try:
        b = s.board
        hal_rp2, r = _pico_hal()
        try:
            options = {"storage_dir": s.hal.storage_dir}
            options["leds"] = firstlight.show(b, hal_rp2, s.hal.storage_dir)
            hal = hal_rp2.make(b, options)
            assert hal.leds is options["leds"] and len(r.dmas) == len(b.wiring.led_pins)
            hal.leds.write(bytearray(3 * b.led_count))
            assert _wire(r, b) == bytearray(3 * b.led_count)  # the app's frames go out on the same chains
        finally:
            rp2fakes.uninstall()
    finally:
        s.close()


def _mark(s):
    folder = s.hal.storage_dir + board_app.JOURNAL + ".seq"
    names = os.listdir(folder)
    assert len(names) == 1, names
    return folder, names[0]


def test_a_mark_that_does_not_name_the_journal_as_it_is_lights_nothing():
    s = _played()
    try:
        path = s.hal.storage_dir + board_app.JOURNAL
        assert _first_light(s.hal.storage_dir)[0] is not None
        # a power cut after a record, before its mark: the journal is longer than the mark says
        with open(path, "ab") as f:
            f.write(b"\n")
        assert _first_light(s.hal.storage_dir)[0] is None
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:-1])
        folder, name = _mark(s)
        words = name.split(".")
        for bad in (
            words[:2],  # an older firmware's <seq>.<acked>
            words[:3],  # a journal with no note (tools)
            words[:3] + ["0"] + words[4:],  # brightness 0
            words[:3] + ["x"] + words[4:],
            words + ["1"],  # a note of some other firmware
        ):
            os.rename(folder + "/" + name, folder + "/" + ".".join(bad))
            name = ".".join(bad)
            assert _first_light(s.hal.storage_dir)[0] is None, name
        os.rename(folder + "/" + name, folder + "/" + ".".join(words))
        assert _first_light(s.hal.storage_dir)[0] is not None
        open(folder + "/1.0", "wb").close()  # two marks: not the journal's own doing
        assert _first_light(s.hal.storage_dir)[0] is None
        os.remove(folder + "/1.0")
        os.remove(path)
        assert _first_light(s.hal.storage_dir)[0] is None  # no journal
    finally:
        s.close()


def test_an_older_firmwares_mark_keeps_its_acked_seq_and_the_first_boot_renames_it():
    s = _played()
    try:
        j = s.app.journal
        j.open()
        j.ack(3)
        last = j.next_seq - 1
        j.close()
        folder, name = _mark(s)
        os.rename(folder + "/" + name, folder + "/%d.3" % last)  # what the older firmware wrote
        assert _first_light(s.hal.storage_dir)[0] is None
        s.reboot()
        assert s.app.journal.acked == 3 and s.app.journal.mark == last
        s.app.journal.close()
        folder, name = _mark(s)
        assert name.startswith("%d.3." % last) and len(name.split(".")) == 10
        assert _first_light(s.hal.storage_dir)[0] is not None
    finally:
        s.close()


def test_a_new_match_is_first_lit_in_its_start_holes():
    s = _played()
    try:
        s.reboot()
        s.app.book.new_match(s.app.match.setup)
        s.app.journal.close()
        frame = _first_light(s.hal.storage_dir)[0]
        b = s.board
        assert frame is not None
        assert sorted(lit_rgb(frame)) == sorted(b.led_start[t][k] for t in (0, 1) for k in (0, 1))
    finally:
        s.close()


def test_the_first_light_names_the_journal_it_lights():
    assert firstlight.JOURNAL == board_app.JOURNAL
