# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Settings: checked values, menu cycling, deferred save through a temp file, bad files keep defaults.
from fakehal import remove_tree, scratch_dir

from board import settings
from board.settings import Settings
from board.ticks import PERIOD, add
from check import raises


def test_defaults_and_refused_values_change_nothing():
    s = Settings()
    assert s["brightness"] == 96 and s["watchdog"] is False and s["fmt"] == "acc"
    raises(ValueError, s.set, "brightness", 97)
    raises(ValueError, s.set, "play", 1)  # a number is not on/off
    raises(ValueError, s.set, "nonsense", 1)
    assert s["brightness"] == 96 and not s.dirty


def test_cycle_walks_the_allowed_values():
    s = Settings()
    seen = [s.cycle("auto_ok_ms") for _ in range(4)]
    assert seen == [2000, 4000, 8000, 0]


def test_save_is_deferred_until_quiet_and_survives_reload():
    d = scratch_dir()
    try:
        path = d + "/settings.json"
        t0 = PERIOD - 1000
        s = Settings(path)
        s.set("brightness", 192, t0)
        s.set("muggins", True, add(t0, 1000))
        assert not s.due(add(t0, 3500))  # 2.5 s after the last change
        assert s.due(add(t0, 4000))
        s.save()
        assert not s.dirty
        again = Settings(path).load_saved()
        assert again["brightness"] == 192 and again["muggins"] is True and again.problem == ""
    finally:
        remove_tree(d)


def test_unknown_version_or_bad_value_keeps_defaults_and_says_why():
    d = scratch_dir()
    try:
        path = d + "/settings.json"
        with open(path, "w") as f:
            f.write('{"v": 99, "brightness": 255}')
        s = Settings(path).load_saved()
        assert s["brightness"] == 96 and "version" in s.problem
        with open(path, "w") as f:
            f.write('{"v": 1, "brightness": 7, "play": false}')
        s = Settings(path).load_saved()
        assert s["brightness"] == 96 and s["play"] is False and "brightness" in s.problem
        with open(path, "w") as f:
            f.write("{not json")
        assert "unreadable" in Settings(path).load_saved().problem
    finally:
        remove_tree(d)


def test_tracks_for_two_sides_on_three_tracks():
    assert settings.tracks_for(2, 0, 3) == (0, 1)
    assert settings.tracks_for(2, 1, 3) == (0, 2)
    assert settings.tracks_for(2, 2, 3) == (1, 2)
    assert settings.tracks_for(3, 1, 3) == (0, 1, 2)


def test_the_menu_s_peg_winks_wink_the_front_pegs_and_stay_on_after_a_reboot():
    from scenario import Scenario

    s = Scenario()
    try:
        s.keys("A OK")  # the cut: a deal on, the pegs on their start holes
        fronts = [
            s.board.led_start[0][0],
            s.board.led_start[1][0],
        ]  # each side's front peg, on its start hole
        s.wait(2000)
        assert all(s.hal.leds.rgb(led) != (0, 0, 0) for led in fronts)
        s.press("MENU", "MENU")
        assert "Peg winks" in s.screen() and "= off" in s.screen()
        s.press("OK")
        assert "= on" in s.screen()
        s.wait(3500)  # saved
        s.press("UNDO")
        s.reboot()
        assert s.app.settings["cue"] is True
        winks = [0, 0]
        was = [False, False]
        for _ in range(400):  # two cycles of 2 s, a look every 10 ms
            s.wait(10)
            for k in range(2):
                off = s.hal.leds.rgb(fronts[k]) == (0, 0, 0)
                winks[k] += off and not was[k]
                was[k] = off
        assert winks == [2, 4]  # side 1's front peg winks once a cycle, side 2's twice
        assert s.hal.leds.rgb(s.board.led_start[0][1]) != (0, 0, 0)  # the back pegs stay lit
    finally:
        s.close()
