# The sim's clock (sim/parts.py): run fast, a host stall is not time the firmware sees.
# Regression: under a loaded host (other jobs on both cores) a stall of a second while a scripted key
# was down read as a long press (800 ms), and a scripted match ended otherwise (2 runs in 18 failed).
from sim import parts


class StallingTime:
    """time's ticks functions, with the real clock moved by hand."""

    def __init__(self):
        self.now = 1000

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, b):
        return a + b


def _clock(capped):
    fake = StallingTime()
    real = parts.time
    parts.time = fake
    try:
        return fake, parts.Clock(capped=capped), real
    except Exception:
        parts.time = real
        raise


def test_a_fast_sim_sees_a_host_stall_as_one_short_step():
    fake, clock, real = _clock(True)
    try:
        start = clock.ticks_ms()
        fake.now += 5  # an ordinary step counts whole
        assert clock.ticks_ms() - start == 5
        fake.now += 3000  # the host ran other jobs for 3 s
        assert clock.ticks_ms() - start == 5 + parts.Clock.STEP_MS
        clock.skip(250)  # idle waits skipped (parts.warp) still count whole
        assert clock.ticks_ms() - start == 5 + parts.Clock.STEP_MS + 250
    finally:
        parts.time = real


def test_a_sim_watched_in_real_time_follows_the_real_clock():
    fake, clock, real = _clock(False)
    try:
        start = clock.ticks_ms()
        fake.now += 3000
        assert clock.ticks_ms() - start == 3000
    finally:
        parts.time = real
