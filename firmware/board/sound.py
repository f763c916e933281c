# The piezo's sounds: a beep a point pegged, in fives, and a tune at the game hole; a pure function of time.
# Loaded at the first event with the sound on (App._committed): a board without a piezo, or with the
# sound off, never pays for this code.
from board.ticks import diff
from cribbage import const

BEEP_HZ = const(2093)  # C7: near a small piezo's resonance, its loudest
_BEEP_MS = const(45)
_POINT_MS = const(110)  # a beep and the gap after it
_GROUP_MS = const(220)  # the gap after every fifth beep: twelve is heard as five, five and two
_REST_MS = const(250)  # after a sound, before the next peg's
_MOST = const(29)  # beeps for one peg at most (the best hand)
TUNE = ((1047, 120), (1319, 120), (1568, 120), (2093, 400))  # C E G C: the game hole
_TUNE = const(0)  # the tune's entry in the queue (a peg's is its points, 1 and up)


def at(sound, t):
    """(tone in Hz or 0, over) of a sound t ms after it began: a peg's points, or _TUNE."""
    if sound == _TUNE:
        for hz, ms in TUNE:
            if t < ms:
                return hz, False
            t -= ms
        return 0, t >= _REST_MS
    group = 5 * _POINT_MS + _GROUP_MS
    last = sound - 1  # the last beep's place: its group, then its place in the group
    end = last // 5 * group + (last % 5 + 1) * _POINT_MS
    if t >= end:
        return 0, t >= end + _REST_MS
    r = t % group
    return (BEEP_HZ if r < 5 * _POINT_MS and r % _POINT_MS < _BEEP_MS else 0), False


class Sound:
    """Plays the queued sounds one after another on hal.piezo (tone(hz), 0: silent), stepped by update."""

    def __init__(self, piezo):
        self.piezo = piezo
        self.queue = []  # sounds waiting: a peg's points, or _TUNE
        self.playing = -1  # the sound begun at t0, -1: none
        self.t0 = 0
        self.hz = 0

    def points(self, n):
        if n > 0:
            self.queue.append(min(n, _MOST))

    def tune(self):
        self.queue.append(_TUNE)

    def pegged(self, m, was_over):
        """The sounds an event applied to match m earned: a beep a point it pegged, the tune if it won."""
        for _side, n, _why in m.last_pegs:
            self.points(n)
        if m.game_over and not was_over:
            self.tune()

    def step(self, now, on):
        """The tone for now (App.scan calls it); on: the setting."""
        if on:
            self.update(now)
        elif self.playing >= 0 or self.queue:
            self.stop()

    def update(self, now):
        if self.playing < 0:
            if not self.queue:
                return
            self.playing = self.queue.pop(0)
            self.t0 = now
        hz, over = at(self.playing, diff(now, self.t0))
        if over:
            self.playing = -1
        if hz != self.hz:
            self.hz = hz
            self.piezo.tone(hz)

    def stop(self):
        """Silence now and forget what was queued (the sound turned off)."""
        self.queue = []
        self.playing = -1
        if self.hz:
            self.hz = 0
            self.piezo.tone(0)
