# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# app.run: the asyncio tasks start inside asyncio.run, survive a failing pass, stop on an interrupt.
from board_fixture import reference
from fakehal import FakeHal, remove_tree

from board import app as board_app
from board.settings import Settings


class _Stop(KeyboardInterrupt):
    pass


class _Keys:
    """A key matrix that fails once, then stops the board after n scans (as Ctrl-C would)."""

    def __init__(self, hal, n):
        self.hal = hal
        self.n = n
        self.calls = 0

    def scan(self):
        self.calls += 1
        self.hal.advance(5)
        if self.calls == 3:
            raise ValueError("a glitch in one pass")
        if self.calls >= self.n:
            raise _Stop()
        return 0


def test_run_survives_a_bad_pass_and_stops_on_interrupt():
    b = reference()
    hal = FakeHal(b)
    hal.keys = _Keys(hal, 40)
    saved = (board_app.App.scan_ms, board_app.App.frame_ms, board_app.App.save_ms)
    board_app.App.scan_ms = board_app.App.frame_ms = board_app.App.save_ms = 0  # no wall-clock waits
    try:
        stopped = False
        try:
            board_app.run(board_app.App(hal, b, Settings()))
        except KeyboardInterrupt:
            stopped = True
        assert stopped
        assert hal.keys.calls == 40  # the glitch at scan 3 did not stop the scanning
        assert any("a glitch in one pass" in line for line in hal.logged)
        assert hal.leds.writes >= 1 and hal.display.shows >= 1
    finally:
        board_app.App.scan_ms, board_app.App.frame_ms, board_app.App.save_ms = saved
        remove_tree(hal.storage_dir)


def test_watchdog_is_off_by_default_and_fed_when_on():
    b = reference()
    saved = (board_app.App.scan_ms, board_app.App.frame_ms, board_app.App.save_ms)
    board_app.App.scan_ms = board_app.App.frame_ms = board_app.App.save_ms = 0
    try:
        for on in (False, True):
            hal = FakeHal(b)
            hal.keys = _Keys(hal, 30)
            s = Settings()
            s.set("watchdog", on)
            try:
                board_app.run(board_app.App(hal, b, s))
            except KeyboardInterrupt:
                pass
            if on:
                assert hal.dog is not None and hal.dog.feeds > 0
            else:
                assert hal.dog is None
            remove_tree(hal.storage_dir)
    finally:
        board_app.App.scan_ms, board_app.App.frame_ms, board_app.App.save_ms = saved
