# Current limiter in WLED's manner: ESTIMATE a frame's current from the board file's figures, dim to budget.
#
# These are estimates, not measurements: WS2812B draw varies by batch, supply voltage and
# temperature. The figures come from hardware/board.json "power" (idle mA per LED, mA per colour
# channel at full, the Pico, the display, the budget) and hardware/tools reuses this module for
# the power budget it prints, so the document and the firmware agree.
#
# limiter = Limiter(board.wiring.power, board.led_count)
# limiter.estimate_ma(frame)   whole-board estimate for the frame as it is, in mA (rounded up)
# limiter.limit(frame)         scales the frame in place so estimate_ma(frame) <= budget_ma and
#                              returns the scale applied (255 = unchanged, 0 = all dark)
# frame is the preallocated bytearray(3 * led_count) the renderer fills (any byte order: the
# estimate treats every channel alike). Both calls allocate nothing: integer maths only (a float
# is a heap object on MicroPython) and sum() over a bytearray.
from cribbage import const

# Internal unit: hundredths of a mA, so 18.3 mA a channel stays exact and small ints never overflow.
_CMA = const(100)
_FULL = const(255)


def _cma(ma):
    return int(ma * _CMA + 0.5)


class Limiter:
    """Brightness limiter for one board; all figures are estimates in mA."""

    def __init__(self, power, led_count):
        self.led_count = led_count
        self.budget_ma = power["budget_ma"]
        self.supply_ma = power["supply_ma"]
        self._budget = _cma(self.budget_ma)
        self._channel = _cma(power["ma_per_channel"])  # one colour channel at 255
        self._idle = _cma(power["idle_ma_per_led"]) * led_count
        self._fixed = self._idle + _cma(power["mcu_ma"]) + _cma(power["display_ma"])

    def _led_cma(self, total):
        # ceil(total * channel / 255) without a big int: total is at most 765 per LED.
        q = total // _FULL
        r = total - q * _FULL
        return q * self._channel + (r * self._channel + _FULL - 1) // _FULL

    def estimate_ma(self, frame):
        """Estimated current of the whole board showing frame (LEDs lit and idle, Pico, display)."""
        return (self._fixed + self._led_cma(sum(frame)) + _CMA - 1) // _CMA

    def idle_ma(self):
        """Estimated draw of every LED showing black: the floor no brightness setting removes."""
        return (self._idle + _CMA - 1) // _CMA

    def fixed_ma(self):
        """Idle LEDs plus the Pico and the display: the draw of a dark board."""
        return (self._fixed + _CMA - 1) // _CMA

    def limit(self, frame, n=-1):
        """Dim frame in place so its estimate fits the budget; return the scale used (0..255).

        n: at most this many LEDs of the frame are lit (-1: not known). When even n LEDs at full
        white fit the budget the frame is not summed: sum() over all its bytes would be most of a
        frame's render on a Pico. Not known (an animation): the frame's bytes that are not 0, each
        taken at 255, are the bound, counted in C (bytes.count), so a frame that fits is not summed
        either."""
        allowed = self._budget - self._fixed
        n = 765 * n if n >= 0 else 255 * (len(frame) - frame.count(b"\x00"))  # channels' total at most
        if self._led_cma(n) <= allowed:
            return _FULL
        n = self._led_cma(sum(frame))  # n from here: the lit LEDs' estimate ([frame rule]: 11 words)
        if n <= allowed:
            return _FULL
        scale = allowed * _FULL // n if allowed > 0 else 0
        # floor per byte keeps the dimmed sum under sum * scale / 255, so the new estimate fits.
        for i in range(len(frame)):
            frame[i] = frame[i] * scale // _FULL
        return scale


def budget(board):
    """Figures for the power budget document, computed by the limiter itself (all estimates)."""
    power = board.wiring.power
    lim = Limiter(power, board.led_count)
    white = bytearray(b"\xff" * (3 * board.led_count))
    full_white = lim.estimate_ma(white)
    scale = lim.limit(white)
    r, g, b = board.colours[0]
    one_peg = bytearray(3 * board.led_count)
    one_peg[0], one_peg[1], one_peg[2] = r, g, b
    per_peg = lim.estimate_ma(one_peg) - lim.fixed_ma()
    return {
        "led_count": board.led_count,
        "idle_ma_per_led": power["idle_ma_per_led"],
        "ma_per_channel": power["ma_per_channel"],
        "idle_ma": lim.idle_ma(),
        "mcu_ma": power["mcu_ma"],
        "display_ma": power["display_ma"],
        "dark_ma": lim.fixed_ma(),
        "full_white_ma": full_white,
        "limited_ma": lim.estimate_ma(white),
        "white_scale": scale,
        "peg_ma": per_peg,
        "budget_ma": power["budget_ma"],
        "supply_ma": power["supply_ma"],
    }
