# The scenario harness (KMK's manner): scripted keys and taps against a fake clock in; LED frames,
# display text and journal lines out. Drives board.app.App.step exactly as the asyncio tasks would.
from board_fixture import reference
from fakehal import FakeHal, remove_tree

from board import app as board_app
from board.settings import Settings
from cribbage import events
from cribbage.cards import parse_card

STEP_MS = 5  # the scan period of the real tasks


class Scenario:
    def __init__(self, storage_dir=None, start_ms=None, piezo=False, **settings):
        self.board = reference()
        kw = {"storage_dir": storage_dir, "piezo": piezo}
        if start_ms is not None:
            kw["start_ms"] = start_ms
        self.hal = FakeHal(self.board, **kw)
        s = Settings(self.hal.storage_dir + board_app.SETTINGS).load_saved()
        for k in settings:
            s.set(k, settings[k])
        self.app = board_app.App(self.hal, self.board, s)
        self._chain_ok()
        self.wait(20)

    # -- time and input --------------------------------------------------------------------------
    def wait(self, ms):
        """Advance the fake clock ms, running the app every STEP_MS."""
        end = ms
        t = 0
        while t < end:
            self.hal.advance(STEP_MS)
            t += STEP_MS
            self.app.step(self.hal.now)

    def hold(self, *names):
        for n in names:
            self.hal.keys.down |= self.hal.keys.bit(n)

    def release(self, *names):
        for n in names:
            self.hal.keys.down &= ~self.hal.keys.bit(n)

    def press(self, *names, hold_ms=60, gap_ms=60):
        """Press and release each key in turn."""
        for n in names:
            self.hold(n)
            self.wait(hold_ms)
            self.release(n)
            self.wait(gap_ms)

    def keys(self, text):
        """Press keys named in text: '5 H J D OK' (space separated); 10 is T."""
        for n in text.split():
            self.press("T" if n == "10" else n.upper() if len(n) == 1 else n)

    def card(self, token):
        c = parse_card(token)
        self.press("A23456789TJQK"[c >> 2], "SHDC"[c & 3])

    def cards(self, text):
        for token in text.split():
            self.card(token)

    def key_points(self, n):
        """Key n points (A=1 .. 9, T=0; two digits for 0 and for 10 and more), then confirm them."""
        digits = "%02d" % n if n == 0 or n >= 10 else "%d" % n
        self.keys(" ".join("T" if d == "0" else "A" if d == "1" else d for d in digits) + " OK")
        self.keys("OK")  # the proposal confirmed

    def unplug_chain(self):
        """The sensor chain's cable pulled: every input floats high."""
        raw = self.hal.sensors.raw
        for i in range(len(raw)):
            raw[i] = 0xFF

    def _chain_ok(self):
        # tied inputs read as the HAL hands them over (1 = present, active-low inverted)
        raw = self.hal.sensors.raw
        for i in range(len(raw)):
            raw[i] = 0
        for bit, level in self.board.wiring.sensor_fixed:
            if level ^ (1 if self.board.sensor_active_low else 0):
                raw[bit // 8] |= 0x80 >> (bit % 8)

    def _bit(self, bit, on):
        m = 0x80 >> (bit % 8)
        if on:
            self.hal.sensors.raw[bit // 8] |= m
        else:
            self.hal.sensors.raw[bit // 8] &= ~m & 0xFF

    def tap(self, side, hole, ms=80):
        """Tap a hole of a side's track (track by the app's side -> track map); 121 = game hole."""
        if hole > 120:
            bit = self.board.sensor_game
        else:
            bit = self.board.sensor_track[self.app.track_of(side)][hole - 1]
        self._bit(bit, True)
        self.wait(ms)
        self._bit(bit, False)
        self.wait(60)

    def peg(self, side, points):
        """Tap the hole points ahead of a side's front peg and confirm with OK."""
        self.tap(side, self.app.match.front[side] + points)
        self.press("OK")

    # -- what came out ---------------------------------------------------------------------------
    def screen(self):
        return self.hal.display.screen()

    def said(self):
        """The display's rows joined by spaces, for messages wrapped over several rows."""
        return " ".join([" ".join(r.split()) for r in self.hal.display.rows if r.strip()])

    def rgb(self, led):
        return self.hal.leds.rgb(led)

    def lit(self):
        f = self.hal.leds.frame
        return [i for i in range(len(f) // 3) if f[3 * i] or f[3 * i + 1] or f[3 * i + 2]]

    def journal(self):
        """Event dicts on flash, the set-up first."""
        lines = []
        self.app.journal.close()
        self.app.journal.open(lines.append)
        return [events.from_line(x) for x in lines]

    def reboot(self):
        """Power cut and boot: a new app on the same storage (the journal is the truth)."""
        self.app.journal.close()
        s = Settings(self.hal.storage_dir + board_app.SETTINGS).load_saved()
        hal = self.hal
        self.hal = FakeHal(
            self.board, start_ms=hal.now + 12345, storage_dir=hal.storage_dir, piezo=hal.piezo is not None
        )
        self.app = board_app.App(self.hal, self.board, s)
        self._chain_ok()
        self.wait(20)

    def close(self):
        self.app.journal.close()
        remove_tree(self.hal.storage_dir)


def lit_rgb(frame):
    """{LED: (r, g, b)} of the lit LEDs of an R,G,B frame."""
    out = {}
    for i in range(len(frame) // 3):
        if frame[3 * i] or frame[3 * i + 1] or frame[3 * i + 2]:
            out[i] = (frame[3 * i], frame[3 * i + 1], frame[3 * i + 2])
    return out
