# Wiring and pinout table (Markdown) from board.json: Pico pins, LED chains, 74HCT165 inputs, keys.

# Pico header pin number of each GPIO (Raspberry Pi Pico datasheet, pinout).
PICO_PIN = {
    0: 1,
    1: 2,
    2: 4,
    3: 5,
    4: 6,
    5: 7,
    6: 9,
    7: 10,
    8: 11,
    9: 12,
    10: 14,
    11: 15,
    12: 16,
    13: 17,
    14: 19,
    15: 20,
    16: 21,
    17: 22,
    18: 24,
    19: 25,
    20: 26,
    21: 27,
    22: 29,
    26: 31,
    27: 32,
    28: 34,
}
INPUTS = "HGFEDCBA"  # 74HCT165 inputs in the order they leave QH after a load (D7 first)


def hole_name(board, bit):
    """What a sensor bit reads, in words: 'red 37', 'blue start 2', 'game hole', 'spare (tied to GND)'."""
    for s in range(board.sides):
        name = board.side_names[s]
        if bit in board.sensor_track[s]:
            return "%s %d" % (name, board.sensor_track[s].index(bit) + 1)
        if bit in board.sensor_start[s]:
            return "%s start %d" % (name, board.sensor_start[s].index(bit) + 1)
    if bit == board.sensor_game:
        return "game hole"
    for b, level in board.wiring.sensor_fixed:
        if b == bit:
            return "tied to %s" % ("+5V" if level else "GND")
    return "spare (tied to +5V)"


def pin_roles(board):
    """(gpio, role, goes to) for every pin the board file uses, in GPIO order."""
    p = board.wiring.pins
    rows = []
    for c, gp in enumerate(board.wiring.led_pins):
        rows.append(
            (
                gp,
                "LED chain %d data" % c,
                "74AHCT125 input %dA; output via 330 ohm to DIN of LED %d"
                % (c + 1, board.wiring.led_chain_start[c]),
            )
        )
    if board.wiring.led_power_pin is not None:
        rows.append(
            (
                board.wiring.led_power_pin,
                "LED rail enable (high = on)",
                "gate of 2N7002 (100 ohm), which pulls the P-MOSFET gate low",
            )
        )
    rows.append(
        (
            p["sensor_sck"],
            "SPI%d SCK" % board.wiring.sensor_spi,
            "74AHCT125 (5 V) -> CLK (pin 2) of every 74HCT165",
        )
    )
    rows.append(
        (
            p["sensor_miso"],
            "SPI%d MISO (RX)" % board.wiring.sensor_spi,
            "QH (pin 9) of 74HCT165 U0 through a 74LVC1G125 at 3.3 V (5 V -> 3.3 V)",
        )
    )
    rows.append(
        (
            p["sensor_mosi"],
            "SPI%d MOSI (TX), unused" % board.wiring.sensor_spi,
            "not connected; reserved because the SPI peripheral claims it",
        )
    )
    rows.append(
        (
            p["sensor_latch"],
            "74HCT165 latch",
            "74AHCT125 (5 V) -> SH/LD (pin 1) of every 74HCT165 (low = load)",
        )
    )
    for r, gp in enumerate(board.wiring.key_rows):
        rows.append((gp, "key row %d (output, driven low to scan)" % r, "diode cathodes side of row %d" % r))
    for c, gp in enumerate(board.wiring.key_cols):
        rows.append((gp, "key column %d (input, pull-up)" % c, "switch terminals of column %d" % c))
    d = board.wiring.display
    rows.append((d["sda"], "I2C%d SDA" % d["i2c"], "SSD1306 SDA"))
    rows.append((d["scl"], "I2C%d SCL" % d["i2c"], "SSD1306 SCL"))
    rows.sort()
    return rows


def wiring_md(board):
    out = [
        "# Wiring and pinout: %s" % board.name,
        "",
        "Generated from `hardware/board.json` by `make hardware`; edit the board file, not this page.",
        "",
        "## Pico pins",
        "",
        "| GPIO | Pico pin | role | connects to |",
        "|---|---|---|---|",
    ]
    for gp, role, to in pin_roles(board):
        out.append("| GP%d | %d | %s | %s |" % (gp, PICO_PIN[gp], role, to))
    out += [
        "",
        "Power: VSYS (pin 39) from the 5 V rail through a Schottky diode; GND (pins 3, 8, 13, 18, 23, 28, "
        "33, 38) to the common ground; 3V3 OUT (pin 36) feeds the display, the keypad pull-ups and the "
        "74LVC1G125 on MISO. "
        "The hall switches and the 74HCT165 chain run from the switched 5 V rail (see hardware/README.md).",
        "",
        "## LED chains (%s, %d LEDs, byte order %s)"
        % (board.wiring.led_type, board.led_count, board.wiring.led_order),
        "",
        "| chain | data GPIO | LEDs | global indices | order along the chain |",
        "|---|---|---|---|---|",
    ]
    for c in range(len(board.wiring.led_chains)):
        first = board.wiring.led_chain_start[c]
        last = first + board.wiring.led_chains[c] - 1
        out.append(
            "| %d | GP%d | %d | %d..%d | %s |"
            % (
                c,
                board.wiring.led_pins[c],
                board.wiring.led_chains[c],
                first,
                last,
                _chain_summary(board, first, last),
            )
        )
    out += [
        "",
        "Every LED's index is in `leds` of the board file and drawn in `leds.svg`.",
        "",
        "## Sensor chain (%d x 74HCT165 on SPI%d, %d bits, %s sensors, %s)"
        % (
            board.wiring.sensor_chips,
            board.wiring.sensor_spi,
            board.sensor_bits,
            board.sensor_kind,
            "active low" if board.sensor_active_low else "active high",
        ),
        "",
        "U0 is nearest the Pico: its QH goes to MISO; each later chip's QH goes to SER (pin 10) of the one "
        "before it; SER of the last chip goes to GND. CLK INH (pin 15) of every chip to GND.",
        "",
        "| chip | bits | H | G | F | E | D | C | B | A |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for chip in range(board.wiring.sensor_chips):
        names = [hole_name(board, chip * 8 + k) for k in range(8)]
        out.append("| U%d | %d..%d | %s |" % (chip, chip * 8, chip * 8 + 7, " | ".join(names)))
    ncols = len(board.wiring.key_cols)
    out += [
        "",
        "## Key matrix (%d x %d)" % (len(board.wiring.key_rows), ncols),
        "",
        "Rows are driven low one at a time; columns read with pull-ups; a 1N4148 per key, cathode "
        "to the row, "
        "so two keys held together (MENU+UNDO) never ghost.",
        "",
        "| row \\ column | "
        + " | ".join("col %d GP%d" % (c, g) for c, g in enumerate(board.wiring.key_cols))
        + " |",
        "|---" * (ncols + 1) + "|",
    ]
    for r, gp in enumerate(board.wiring.key_rows):
        cells = [board.key_names[r * ncols + c] or "-" for c in range(ncols)]
        out.append("| row %d GP%d | %s |" % (r, gp, " | ".join(cells)))
    d = board.wiring.display
    out += [
        "",
        "## Display",
        "",
        "%s %dx%d on I2C%d, address 0x%02X, %d Hz: SDA GP%d, SCL GP%d, VCC 3V3, GND."
        % (d["type"], d["width"], d["height"], d["i2c"], d["address"], d["freq"], d["sda"], d["scl"]),
        "",
    ]
    return "\n".join(out)


def _chain_summary(board, first, last):
    parts = []
    for s in range(board.sides):
        name = board.side_names[s]
        if first <= board.led_dealer[s] <= last:
            parts.append("%s dealer" % name)
        if first <= board.led_record[s][0] <= last:
            parts.append("%s record 1-%d" % (name, board.record_count))
        if first <= board.led_start[s][0] <= last:
            parts.append("%s start 1-2" % name)
        if first <= board.led_track[s][0] <= last:
            parts.append("%s track 1-120" % name)
    if first <= board.led_game <= last:
        parts.append("game hole")
    return ", ".join(parts)
