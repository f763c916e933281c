# Bill of materials (CSV) from board.json: part, value, package, quantity, example part number, note.
import csv
import io

BOM_FIELDS = ("part", "value", "package", "quantity", "example_part_number", "note")


def sensor_holes(board):
    return board.sides * (120 + 2) + 1


def bom_rows(board):
    """The bill of materials as dicts with BOM_FIELDS; counts come from the board file."""
    chains = len(board.led_chains)
    buffers = (chains + 3) // 4
    keys = len([k for k in board.key_names if k])
    holes = sensor_holes(board)
    rows = [
        (
            "Raspberry Pi Pico",
            "RP2040 (Pico 2 also fits)",
            "module",
            1,
            "Raspberry Pi SC0915",
            "runs MicroPython; solder 2 x 20 headers or castellate",
        ),
        (
            "RGB LED",
            board.led_type,
            "5050",
            board.led_count,
            "Worldsemi WS2812B-B",
            "one under every lit hole: %d track, %d start, 1 game, %d game-record, %d dealer; buy 5 %% spares"
            % (board.sides * 120, board.sides * 2, board.sides * board.record_count, board.sides),
        ),
        (
            "Capacitor",
            "100 nF X7R 16 V",
            "0805",
            board.led_count,
            "Samsung CL21B104KBCNNNC",
            "one per LED, at its VDD pin",
        ),
        (
            "Capacitor",
            "100 nF X7R 16 V",
            "0805",
            board.sensor_chips + buffers,
            "Samsung CL21B104KBCNNNC",
            "one per logic IC (74HC165, 74AHCT125)",
        ),
        (
            "Capacitor, bulk",
            "1000 uF 10 V electrolytic",
            "radial 8 mm",
            chains,
            "Panasonic EEU-FR1A102",
            "one at the 5 V entry of each LED chain",
        ),
        (
            "Level shifter",
            "74AHCT125 quad buffer",
            "SOIC-14 or DIP-14",
            buffers,
            "TI SN74AHCT125N",
            "3.3 V data -> 5 V for the WS2812B DIN; powered from 5 V; OE pins to GND",
        ),
        (
            "Resistor",
            "330 ohm 1 %",
            "0603",
            chains,
            "Yageo RC0603FR-07330RL",
            "series resistor in each LED data line, at the buffer output",
        ),
        (
            "Shift register",
            "74HC165 8-bit PISO",
            "SOIC-16 or DIP-16",
            board.sensor_chips,
            "TI SN74HC165N",
            "hole sensor chain, powered from the Pico's 3V3 so QH is safe for the GPIO",
        ),
    ]
    if board.sensor_kind == "tap":
        rows += [
            (
                "Tap switch",
                "SPST momentary, normally open",
                "SMD 3.9 x 2.9 mm",
                holes,
                "Alps SKRPACE010",
                "one per peg hole (%d track, %d start, 1 game), to GND"
                % (board.sides * 120, board.sides * 2),
            ),
            (
                "Resistor network",
                "8 x 10 kohm bussed",
                "SIP-9",
                board.sensor_chips,
                "Bourns 4609X-101-103LF",
                "pull-ups for the 8 inputs of each 74HC165 (common pin to 3V3)",
            ),
        ]
    else:
        rows += [
            (
                "Hall switch",
                "micropower omnipolar, push-pull, 3.3 V",
                "SOT-23",
                holes,
                "TI DRV5032FA",
                "one per peg hole, output low with a magnet; check its sample rate against a quick tap",
            ),
            ("Magnet", "3 x 2 mm NdFeB N52 disc", "-", board.sides * 2 + 2, "-", "in the peg tips"),
        ]
    rows += [
        (
            "Key switch",
            "tactile 12 x 12 mm with cap",
            "THT",
            keys,
            "Omron B3F-4055",
            "keypad: %s" % " ".join(k for k in board.key_names if k),
        ),
        ("Diode", "1N4148", "SOD-123 or DO-35", keys, "onsemi 1N4148W", "one per key, cathode to the row"),
        (
            "Display",
            "%s %dx%d OLED, I2C" % (board.display["type"], board.display["width"], board.display["height"]),
            "0.96 in module",
            1,
            "Adafruit 326",
            "I2C address 0x%02X; 3.3 V" % board.display["address"],
        ),
        (
            "USB-C receptacle",
            "USB 2.0 Type-C, power in",
            "SMD + THT shell",
            1,
            "GCT USB4105-GF-A",
            "5 V in for the LEDs; the Pico's own micro-USB stays the data link",
        ),
        (
            "Resistor",
            "5.1 kohm 1 %",
            "0603",
            2,
            "Yageo RC0603FR-075K1L",
            "CC1 and CC2 to GND each, so a USB-C source turns on 5 V",
        ),
        ("Fuse", "PTC resettable, 3 A hold, 6 V", "1812", 1, "-", "in VBUS after the receptacle"),
        ("Schottky diode", "1 A 40 V", "SOD-123 or DO-41", 1, "Vishay 1N5819", "5 V rail -> Pico VSYS"),
        (
            "Wire",
            "0.5 mm2 (AWG 20) red/black",
            "-",
            chains * 2,
            "-",
            "5 V and GND to both ends of each LED chain (inject power at each end), in metres",
        ),
        (
            "Screw + standoff",
            "M3 x 8, 10 mm standoff",
            "-",
            len(board.layout["mounting"]["at"]),
            "-",
            "one per mounting hole",
        ),
    ]
    if board.led_power_pin is not None:
        rows[-2:-2] = [
            (
                "P-MOSFET",
                "-30 V -12 A, logic level",
                "SO-8",
                1,
                "Alpha & Omega AO4407A",
                "switches the LED 5 V rail (GP%d); cuts the idle draw of the LEDs" % board.led_power_pin,
            ),
            (
                "N-MOSFET",
                "60 V 0.3 A",
                "SOT-23",
                1,
                "onsemi 2N7002",
                "drives the P-MOSFET gate from the GPIO",
            ),
            (
                "Resistor",
                "10 kohm 1 %",
                "0603",
                2,
                "Yageo RC0603FR-0710KL",
                "P-MOSFET gate pull-up to 5 V (rail off at boot); 2N7002 gate pull-down",
            ),
            ("Resistor", "100 ohm 1 %", "0603", 1, "Yageo RC0603FR-07100RL", "GPIO to 2N7002 gate"),
        ]
    return [dict(zip(BOM_FIELDS, r, strict=True)) for r in rows]


def bom_csv(board):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=BOM_FIELDS, lineterminator="\n")
    w.writeheader()
    for row in bom_rows(board):
        w.writerow(row)
    return buf.getvalue()
