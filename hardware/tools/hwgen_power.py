# Power budget (Markdown) from board.json, computed by the firmware's own limiter (board/render/power.py).
from board.render.power import Limiter, budget


def typical_frame(board):
    """A game in progress at the default brightness: two pegs a side, dealer, 5 record holes, game hole."""
    frame = bytearray(3 * board.led_count)
    bri = board.brightness

    def put(led, rgb, level):
        for k in range(3):
            frame[3 * led + k] = rgb[k] * level * bri // (255 * 255)

    for s in range(board.sides):
        rgb = board.colours[s]
        put(board.led_track[s][100], rgb, 255)  # front peg
        put(board.led_track[s][90], rgb, 96)  # back peg, dimmer
        for i in range(min(5, board.record_count)):
            put(board.led_record[s][i], rgb, 255)
    put(board.led_dealer[0], board.colours[0], 255)
    put(board.led_game, (255, 255, 255), 255)
    return frame


def power_md(board):
    f = budget(board)
    lim = Limiter(board.wiring.power, board.led_count)
    typical = lim.estimate_ma(typical_frame(board))
    usb2_left = 500 - f["dark_ma"]
    out = [
        "# Power budget: %s" % board.name,
        "",
        "**These are estimates**, computed by `firmware/board/render/power.py` (the firmware's own current "
        "limiter) "
        "from the `power` figures in `hardware/board.json`. WS2812B current varies by batch, supply "
        "voltage and "
        "temperature; measure your build with a USB meter before trusting the margin.",
        "",
        "## Figures",
        "",
        "| item | estimate |",
        "|---|---|",
        "| idle draw of %d LEDs showing black (%s mA each) | %d mA |"
        % (f["led_count"], f["idle_ma_per_led"], f["idle_ma"]),
        "| Pico (MCU) | %s mA |" % f["mcu_ma"],
        "| display | %s mA |" % f["display_ma"],
        "| **dark board** (all of the above) | **%d mA** |" % f["dark_ma"],
        "| one colour channel at full | %s mA (so %d mA for one LED at full white) |"
        % (f["ma_per_channel"], (3 * f["ma_per_channel"] * 100 + 99) // 100),
        "| one peg in %s's colour at full | +%d mA |" % (board.side_names[0], f["peg_ma"]),
        "| a game in progress at brightness %d (%d pegs, dealer, record holes, game hole) | %d mA |"
        % (board.brightness, 2 * board.sides, typical),
        "| all %d LEDs full white, no limiter | %d mA |" % (f["led_count"], f["full_white_ma"]),
        "| **worst case under the firmware limiter** (all white dimmed to %d/255) | **%d mA** |"
        % (f["white_scale"], f["limited_ma"]),
        "| limiter budget (`power.budget_ma`) | %s mA |" % f["budget_ma"],
        "| supply rating (`power.supply_ma`) | %s mA |" % f["supply_ma"],
        "",
        "## What supply the board needs",
        "",
        "- The LEDs alone draw about %d mA while showing nothing. A USB 2.0 port gives 500 mA, which "
        "leaves %d mA once the Pico and display are counted: almost nothing for lit holes. Do not power "
        "the LEDs from a laptop's USB port." % (f["idle_ma"], usb2_left),
        "- Recommended: a **5 V 3 A USB-C supply** into the board's USB-C receptacle (5.1 kohm on "
        "CC1 and CC2 to "
        "GND so the source switches 5 V on). The limiter keeps every frame under %s mA, leaving %d mA of "
        "the supply's %s mA for the estimate's error."
        % (f["budget_ma"], f["supply_ma"] - f["budget_ma"], f["supply_ma"]),
        "- The LED rail is switched by a P-MOSFET (`pins.led_power`, high = on, off at reset by its "
        "pull-up): the firmware drives it high before the first frame and may drive it low when the board "
        "sleeps, which removes the %d mA idle draw. Keep the data lines low while the rail is off, or the "
        "first LED of each chain is powered through its DIN." % f["idle_ma"]
        if board.wiring.led_power_pin is not None
        else "- No switched LED rail is defined (`pins.led_power` is null).",
        "- The Pico's micro-USB carries the data link to the laptop; its VBUS does not feed the "
        "LEDs (the 5 V "
        "rail reaches VSYS through a Schottky diode, so either source may be plugged first).",
        "- From a 500 mA port the board is not usable: with `power.supply_ma` 500 and `power.budget_ma` "
        "480 it starts (the dark draw of %d mA fits), but the limiter then has %d mA for lit holes "
        "(one peg at full takes %d mA). Low-idle LEDs (some SK6812 variants idle near 0.3 mA) lower "
        "`power.idle_ma_per_led` and leave more." % (f["dark_ma"], 480 - f["dark_ma"], f["peg_ma"]),
        "- Wiring: the worst case puts up to %d mA through the LED rail; use 0.5 mm2 wire and inject 5 V "
        "at both ends of every chain." % (f["limited_ma"] - f["mcu_ma"] - f["display_ma"]),
        "",
    ]
    return "\n".join(out)
