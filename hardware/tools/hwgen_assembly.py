# Assembly guide (Markdown) from board.json: panel, LEDs, sensors, keypad, display, power, first start.
from hwgen_bom import sensor_holes


def _g(v):
    return "%g" % v


def _chips_per_side(board):
    # When each side's holes sit on chips of their own, say so: a track can then be built and tested alone.
    spans = []
    used = set()
    for s in range(board.sides):
        chips = {b // 8 for b in board.sensor_track[s] + board.sensor_start[s]}
        if chips & used:
            return ""
        used |= chips
        spans.append("U%d-U%d %s" % (min(chips), max(chips), board.side_names[s]))
    return " Chips by track: %s, so a track can be built and tested alone." % ", ".join(spans)


def assembly_md(board):
    lay = board.layout
    holes = sensor_holes(board)
    out = [
        "# Assembly guide: %s" % board.name,
        "",
        "Generated from `hardware/board.json`. Read `wiring.md` beside it and keep `layout.svg`, "
        "`leds.svg` and `sensors.svg` printed at 100 % (check the 100 mm scale bar).",
        "",
        "## 1. Panel",
        "",
        "1. Print `layout.svg` at 1:1 and check the scale bar with a ruler.",
        "2. Tape it to the %s x %s mm top panel; centre-punch every cross."
        % (_g(lay["board"][0]), _g(lay["board"][1])),
        "3. Drill the %d LED holes at %s mm (pitch %s mm, groups of %d, %s mm between groups), the %d "
        "mounting holes at %s mm; cut the %d key openings (%s mm square) and the display window (%s x %s mm)."
        % (
            len(board.led_track[0]) * board.sides + board.sides * (2 + board.record_count + 1) + 1,
            _g(lay["hole_d"]),
            _g(lay["pitch"]),
            lay["group"],
            _g(lay["pitch"] + lay["group_gap"]),
            len(lay["mounting"]["at"]),
            _g(lay["mounting"]["d"]),
            len([k for k in board.key_names if k]),
            _g(lay["keys"]["cutout"]),
            _g(lay["display"]["w"]),
            _g(lay["display"]["h"]),
        ),
        "4. Paint or engrave the skunk lines (red on the template) before holes 91 and 61, and 31 for "
        "61-point games.",
        "",
        "## 2. LEDs (%d x %s)" % (board.led_count, board.led_type),
        "",
        "1. Place one LED centred under every hole, facing up, with a 100 nF capacitor at each.",
        "2. Chain them in the order of `leds.svg`: DOUT of each to DIN of the next, following the arrows. "
        "There are %d chains: %s."
        % (
            len(board.led_chains),
            ", ".join(
                "chain %d from GP%d, %d LEDs" % (c, board.led_pins[c], board.led_chains[c])
                for c in range(len(board.led_chains))
            ),
        ),
        "3. Each chain's data comes from a 74AHCT125 output (powered at 5 V) through 330 ohm; the "
        "Pico's GPIO "
        "goes to the buffer input. Tie the buffer's OE pins to GND.",
        "4. Run 5 V and GND to both ends of every chain, with a 1000 uF capacitor at each chain's start.",
        "5. Before closing up, load the firmware with the LED rail powered and check each chain "
        "lights in order "
        "(a chain that stops part-way has a bad joint at the first dark LED).",
        "",
        "## 3. Hole sensors (%d x 74HC165, %d %s sensors)" % (board.sensor_chips, holes, board.sensor_kind),
        "",
    ]
    if board.sensor_kind == "tap":
        out.append(
            "1. Fit one tap switch under each peg hole (%d: track, start and game holes), between the input "
            "and GND; each 74HC165 gets a 10 kohm network pulling its 8 inputs to 3V3 (a tap reads 0). "
            "Game-record holes and dealer LEDs have no sensor." % holes
        )
    else:
        out.append(
            "1. Fit one hall switch beside each peg hole's LED (%d), output to the 74HC165 input, supply "
            "3V3; a magnet reads 0. Game-record holes and dealer LEDs have no sensor." % holes
        )
    out += [
        "2. Wire the chips in the order of `sensors.svg` and the table in `wiring.md` (U0 nearest the "
        "Pico)." + _chips_per_side(board),
        "3. Tie the spare inputs of `sensors.fixed` (%s): the firmware checks them to tell a broken or "
        "unplugged chain from an empty board."
        % ", ".join("bit %d to %s" % (b, "3V3" if v else "GND") for b, v in board.sensor_fixed),
        "4. Power the chain from the Pico's 3V3 so nothing above 3.3 V reaches a GPIO.",
        "",
        "## 4. Keypad and display",
        "",
        "1. Mount the %d key switches in the %d x %d matrix of `wiring.md`, a 1N4148 at each "
        "(cathode to the row)."
        % (len([k for k in board.key_names if k]), len(board.key_rows), len(board.key_cols)),
        "2. Mount the SSD1306 module behind the window (its outline is dashed on the template); SDA GP%d, "
        "SCL GP%d, 3V3, GND." % (board.display["sda"], board.display["scl"]),
        "",
        "## 5. Power",
        "",
        "1. USB-C receptacle: VBUS through the PTC fuse to the 5 V rail; 5.1 kohm from CC1 and from "
        "CC2 to GND.",
        "2. 5 V rail -> P-MOSFET (source) -> LED rail (drain) if you fit the switched rail; gate "
        "pulled up to 5 V by "
        "10 kohm and pulled low by a 2N7002 from GP%s." % board.led_power_pin,
        "3. 5 V rail -> Schottky diode -> Pico VSYS (pin 39). All grounds common.",
        "4. Read `power.md`: use a 5 V 3 A USB-C supply.",
        "",
        "## 6. First start",
        "",
        "1. Copy the firmware and `board.json` with `make deploy`.",
        "2. At start the firmware checks the board file; a mistake (a pin used twice, an LED index "
        "used twice, "
        "a hole with no LED or sensor) is shown on the display and the console with the field named.",
        "3. Tap every hole once and watch it light: a hole that lights another hole has its sensor or LED "
        "index swapped in `board.json`; fix the file, not the wiring, if that is easier.",
        "",
    ]
    return "\n".join(out)
