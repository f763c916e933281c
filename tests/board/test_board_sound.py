# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The piezo: a beep a point pegged, in fives, the tune at the game hole; silent unless fitted and on.
from fakehal import FakePiezo
from scenario import Scenario

from board import sound


def _heard(tones):
    """The tones begun, in order, from a piezo's (ms, hz) changes."""
    return [hz for _t, hz in tones if hz]


def _beeps(n):
    """The tone changes a sound of n points makes, played alone and stepped every 5 ms."""
    p = FakePiezo(_Clock())
    s = sound.Sound(p)
    s.points(n)
    for t in range(0, 8000, 5):
        p._hal.now = t
        s.update(t)
    return p.tones


class _Clock:
    now = 0


def test_a_peg_beeps_its_points_in_fives_and_falls_silent():
    tones = _beeps(12)
    assert _heard(tones) == [sound.BEEP_HZ] * 12 and tones[-1][1] == 0
    starts = [t for t, hz in tones if hz]
    gaps = [starts[i + 1] - starts[i] for i in range(len(starts) - 1)]
    assert gaps == [110] * 4 + [330] + [110] * 4 + [330] + [110]  # heard as five, five and two
    assert _heard(_beeps(40)) == [sound.BEEP_HZ] * 29  # a peg beeps the best hand's 29 at most


def test_the_tune_plays_after_the_beeps_queued_before_it():
    p = FakePiezo(_Clock())
    s = sound.Sound(p)
    s.points(2)
    s.tune()
    for t in range(0, 4000, 5):
        p._hal.now = t
        s.update(t)
    assert _heard(p.tones) == [sound.BEEP_HZ, sound.BEEP_HZ] + [hz for hz, _ms in sound.TUNE]
    assert p.tones[-1][1] == 0 and s.playing == -1 and s.queue == []


def _a_deal(s, shows):
    """One deal pegged on the holes, each show's beeps waited out: shows = the points of the first hand
    to show, the second and the crib."""
    m = s.app.match
    s.press("OK")  # no starter keyed: the play on the holes
    s.press("OK")  # on to the show
    for pts in shows:
        if m.game_over:
            return
        side, _kind = m.next_show()
        s.tap(side, min(m.front[side] + pts, 121))
        s.press("OK")
        s.wait(5000)  # the beeps played out
    if not m.game_over:
        s.press("OK")  # the next deal


def test_a_board_with_a_piezo_and_the_sound_on_beeps_each_peg_and_plays_the_tune_at_the_game_hole():
    s = Scenario(piezo=True, sound=True)
    try:
        s.keys("A OK")
        tones = s.hal.piezo.tones
        _a_deal(s, (7, 5, 3))
        assert _heard(tones) == [sound.BEEP_HZ] * 15 and tones[-1][1] == 0
        m = s.app.match
        while not m.game_over:
            _a_deal(s, (29, 24, 16))
        s.wait(3000)  # the tune played out
        pegs = [e["n"] for e in s.journal() if e["t"] == "peg"]
        assert sum(pegs) > 121 and pegs[:3] == [7, 5, 3]
        assert _heard(tones) == [sound.BEEP_HZ] * sum(pegs) + [hz for hz, _ms in sound.TUNE]
        assert tones[-1][1] == 0
    finally:
        s.close()


def test_the_sound_is_off_by_default_and_a_board_without_a_piezo_is_silent():
    s = Scenario(piezo=True)
    try:
        s.keys("A OK")
        _a_deal(s, (7, 5, 3))
        assert s.hal.piezo.tones == [] and s.app.sound is None  # off: never loaded
    finally:
        s.close()
    s = Scenario(sound=True)  # no piezo in the board file
    try:
        s.keys("A OK")
        _a_deal(s, (7, 5, 3))
        assert s.app.sound is None
    finally:
        s.close()


def test_the_menu_turns_the_sound_off_mid_beeps_and_the_piezo_falls_silent():
    s = Scenario(piezo=True, sound=True)
    try:
        s.keys("A OK")
        s.press("OK", "OK")
        m = s.app.match
        side, _kind = m.next_show()
        s.tap(side, m.front[side] + 20)
        s.press("OK")
        s.wait(300)  # a few beeps in
        s.app.settings.set("sound", False, s.hal.now)  # as the menu's OK does
        s.wait(3000)
        tones = s.hal.piezo.tones
        assert 0 < len(_heard(tones)) < 20 and tones[-1][1] == 0
    finally:
        s.close()
