# Assembly guide (Markdown) from board.json: panel, LEDs, sensors, keypad, display, power, first start.
from hwgen_bom import sensor_holes
from hwgen_circuit import mounting


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
        "## 2. Circuit boards",
        "",
        "Order the five boards of `fab/` (Gerbers, drill files, pick-and-place, `bom.csv`): four leg boards "
        "(`leg0`..`leg3`) and the controller (`ctrl`). Their pictures are in `pictures/`. Every LED, its "
        "100 nF capacitor and the hole's hall switch sit at the hole's place in `board.json`: the LED and "
        "capacitor on the front, the hall switch right under the LED on the back.",
        "",
        "Each board is screwed to the back of the panel through its M3 holes (%d in all: two at the ends of "
        "each leg board, three down the controller's right side and top left): press an M3 heat-set insert "
        "into a blind hole in the panel's back at each crossed circle of `layout.svg` (not through), "
        "screw a 10 mm standoff into each, and screw the board onto them, LEDs towards the panel. Nothing "
        "conducting comes within 3.5 mm of a hole, so the screw heads touch no copper."
        % sum(len(at) for at in mounting(board).values()),
        "",
        "## 3. LEDs (%d x %s)" % (board.led_count, board.wiring.led_type),
        "",
        "1. The LEDs are chained on the boards in the order of `leds.svg` (DOUT of each to DIN of the next). "
        "There are %d chains: %s."
        % (
            len(board.wiring.led_chains),
            ", ".join(
                "chain %d from GP%d, %d LEDs" % (c, board.wiring.led_pins[c], board.wiring.led_chains[c])
                for c in range(len(board.wiring.led_chains))
            ),
        ),
        "2. Each chain's data comes from a 74AHCT125 output (powered at 5 V) through 330 ohm on the "
        "controller; "
        "the ribbon cables carry it from leg to leg, and the 5 V rail and ground to every leg board.",
        "3. Before closing up, load the firmware with the rail powered and check each chain lights in order "
        "(a chain that stops part-way has a bad joint at the first dark LED).",
        "",
        "## 4. Hole sensors (%d x 74HCT165, %d hall switches, magnets in the pegs)"
        % (board.wiring.sensor_chips, holes),
        "",
        "1. One DRV5032FA hall switch under each peg hole (%d: track, start and game holes), on the back "
        "of the "
        "leg boards; its output goes low while a peg's magnet is over the hole. Game-record holes and dealer "
        "LEDs have no sensor." % holes,
        "2. Glue a 3 x 2 mm disc magnet flush in the tip of every peg (either pole down: the switch is "
        "omnipolar). Tap a hole by setting the peg in it and lifting it: the switch samples at 20 Hz.",
        "3. The chips are chained in the order of `sensors.svg` and the table in `wiring.md` (U0's QH to the "
        "Pico through the 74LVC1G125)." + _chips_per_side(board),
        "4. The spare inputs of `sensors.fixed` (%s) are tied on the boards: the firmware checks them to "
        "tell "
        "a broken or unplugged chain from an empty board."
        % ", ".join("bit %d to %s" % (b, "+5V" if v else "GND") for b, v in board.wiring.sensor_fixed),
        "",
        "## 5. Keypad and display",
        "",
        "1. Solder the %d key switches on the controller (the %d x %d matrix of `wiring.md`); the 1N4148W "
        "under each key is on the back (cathode to the row)."
        % (len([k for k in board.key_names if k]), len(board.wiring.key_rows), len(board.wiring.key_cols)),
        "2. Plug the SSD1306 module (pins GND VCC SCL SDA) into the socket J101 behind the window; SDA GP%d, "
        "SCL GP%d, 3V3, GND." % (board.wiring.display["sda"], board.wiring.display["scl"]),
        "",
        "## 6. Power",
        "",
        "1. USB-C receptacle: VBUS through the 4 A fuse to the 5 V rail (a TVS diode across it); 5.1 kohm "
        "from CC1 and from CC2 to GND.",
        "2. 5 V rail -> P-MOSFET (source) -> LED rail (drain) if you fit the switched rail; gate "
        "pulled up to 5 V by "
        "10 kohm and pulled low by a 2N7002 from GP%s." % board.wiring.led_power_pin,
        "3. 5 V rail -> Schottky diode -> Pico VSYS (pin 39). All grounds common. The switched rail feeds "
        "the LEDs, hall switches and 74HCT165s, with 1000 uF on it at the controller.",
        "4. Read `power.md`: use a 5 V 3 A USB-C supply.",
        "",
        "## 7. First start",
        "",
        "1. Copy the firmware and `board.json` with `make deploy`.",
        "2. At start the firmware checks the board file; a mistake (a pin used twice, an LED index "
        "used twice, "
        "a hole with no LED or sensor) is shown on the display and the console with the field named.",
        "3. Tap every hole once with a peg and watch it light: a hole that lights another hole has its "
        "sensor or LED "
        "index swapped in `board.json`; fix the file, not the wiring, if that is easier.",
        "",
    ]
    return "\n".join(out)
