# The whole circuit from board.json: every part (reference, value, footprint, board, place) and every net.
# One model feeds the schematic, the circuit boards, the BOM and the tests, so no figure is typed twice.
# Boards: four leg boards (the LEDs, hall switches and 74HCT165s of one leg of the track, all three
# tracks) and the controller (Pico, level shifters, power entry, keypad, display, record/dealer LEDs),
# joined by one 20-way ribbon cable per leg. Plain CPython, no packages.
import json

# Nets of the power rails.
GND = "GND"
V5 = "+5V"  # after the fuse: Pico VSYS (through a Schottky), the level shifters
V5SW = "+5V_SW"  # switched by the P-MOSFET (pins.led_power): LEDs, hall switches, 74HCT165 chain
V3 = "+3V3"  # the Pico's 3V3 OUT: display, 74LVC1G125
VBUS = "VBUS"

# 74HCT165: chain bit 8k+i is input "HGFEDCBA"[i] of chip k; the pin of each input (SOIC/TSSOP-16).
SR_INPUT_PIN = {"H": "6", "G": "5", "F": "4", "E": "3", "D": "14", "C": "13", "B": "12", "A": "11"}
SR_BIT_PIN = tuple(SR_INPUT_PIN[c] for c in "HGFEDCBA")
# Pico header pin of each GPIO (Raspberry Pi Pico datasheet).
_GPIOS = tuple(range(23)) + (26, 27, 28)
_PINS = (1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 29, 31, 32, 34)
PICO_PIN = dict(zip(_GPIOS, _PINS, strict=True))
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)

# The catalogue: part, value, package, footprint, manufacturer part number, second source, note.
CATALOGUE = {
    "led": ("RGB LED", "WS2812B", "5050", "LED_WS2812B_5050", "Worldsemi WS2812B-B/W",
            "Opsco SK6812 (5050, same pins; set leds.type SK6812)", "one under every lit hole"),
    "c100n": ("Capacitor", "100 nF X7R 16 V", "0603", "C_0603", "Samsung CL10B104KO8NNNC",
              "Yageo CC0603KRX7R7BB104", "one per LED at its VDD, one per logic IC"),
    "hall": ("Hall switch", "DRV5032FA omnipolar push-pull 20 Hz", "SOT-23", "SOT-23", "TI DRV5032FADBZR",
             "TI DRV5032FADBZT (same part, small reel); no other maker matches pins, polarity and 5 V",
             "one under every peg hole, on the back of the board; output low while a magnet is over it"),
    "sr": ("Shift register", "74HCT165 8-bit PISO", "TSSOP-16", "TSSOP-16", "Nexperia 74HCT165PW,118",
           "TI CD74HCT165PWR", "hole sensor chain at 5 V (TTL inputs take the 3.3 V clock)"),
    "buf": ("Buffer", "74AHCT125 quad, 3.3 V -> 5 V", "TSSOP-14", "TSSOP-14", "TI SN74AHCT125PWR",
            "Nexperia 74AHCT125PW,118", "LED data, SPI clock and latch to 5 V levels"),
    "lvc": ("Buffer", "74LVC1G125, 5 V -> 3.3 V", "SOT-23-5", "SOT-23-5", "TI SN74LVC1G125DBVR",
            "Nexperia 74LVC1G125GV,125", "QH of the chain (5 V) to the Pico's MISO (3.3 V)"),
    "r330": ("Resistor", "330 ohm 1 %", "0603", "R_0603", "Yageo RC0603FR-07330RL", "Vishay CRCW0603330RFKEA",
             "series resistor in each LED data line"),
    "r5k1": ("Resistor", "5.1 kohm 1 %", "0603", "R_0603", "Yageo RC0603FR-075K1L", "Vishay CRCW06035K10FKEA",
             "USB-C CC1 and CC2 to GND: a source then gives 5 V"),
    "r10k": ("Resistor", "10 kohm 1 %", "0603", "R_0603", "Yageo RC0603FR-0710KL", "Vishay CRCW060310K0FKEA",
             "P-MOSFET gate pull-up (rail off at reset); 2N7002 gate pull-down"),
    "r100": ("Resistor", "100 ohm 1 %", "0603", "R_0603", "Yageo RC0603FR-07100RL", "Vishay CRCW0603100RFKEA",
             "GPIO to the 2N7002 gate"),
    "pmos": ("P-MOSFET", "-30 V -12 A logic level", "SO-8", "SOIC-8", "Alpha & Omega AO4407A",
             "Vishay SI4435DDY-T1-GE3", "switches the 5 V rail of the LEDs and sensors"),
    "nmos": ("N-MOSFET", "2N7002 60 V 0.3 A", "SOT-23", "SOT-23", "onsemi 2N7002LT1G", "Nexperia 2N7002,215",
             "drives the P-MOSFET gate from the GPIO"),
    "schottky": ("Schottky diode", "1 A 40 V", "SMA", "SMA", "Vishay SS14-E3/61T", "onsemi MBRA140T3G",
                 "5 V rail -> Pico VSYS"),
    "tvs": ("TVS diode", "SMAJ5.0A 5 V unidirectional", "SMA", "SMA", "Littelfuse SMAJ5.0A",
            "Bourns SMAJ5.0A",
            "clamps surges on the 5 V input"),
    "fuse": ("Fuse", "4 A very fast, 2410", "2410", "Fuse_2410", "Littelfuse 0451004.MRL", "Bel Fuse C1Q 4",
             "in VBUS after the receptacle: above the 3 A supply, below the wiring's limit"),
    "bulk": ("Capacitor, bulk", "1000 uF 10 V electrolytic", "radial 8 mm, 3.5 mm pitch",
             "CP_Radial_D8.0mm_P3.50mm", "Panasonic EEU-FR1A102", "Nichicon UHE1A102MPD",
             "on the switched 5 V rail at the controller"),
    "usbc": ("USB-C receptacle", "USB 2.0 Type-C, power in", "SMD + THT shell",
             "USB_C_Receptacle_GCT_USB4105-xx-A_16P_TopMnt_Horizontal",
             "GCT USB4105-GF-A",
             "Korean Hroparts TYPE-C-31-M-12 (own land pattern: KiCad's USB_C_Receptacle_HRO_TYPE-C-31-M-12)",
             "5 V 3 A in; the Pico's own micro-USB stays the data link"),
    "pico": ("Microcontroller module", "Raspberry Pi Pico (Pico 2 also fits)", "castellated module",
             "RaspberryPi_Pico_SMD", "Raspberry Pi SC0915", "Raspberry Pi SC1631 (Pico 2)",
             "soldered flat by its castellated edge on the back of the controller"),
    "key": ("Key switch", "tactile 12 x 12 mm with cap", "THT", "SW_Push_12x12mm", "Omron B3F-4055",
            "Diptronics DTS-24N-V", "keypad"),
    "diode": ("Diode", "1N4148W", "SOD-123", "SOD-123", "Diodes Inc 1N4148W-7-F", "Vishay 1N4148W-E3-08",
              "one per key, cathode to the row"),
    "oled": ("Display socket", "1 x 4 female header 2.54 mm", "THT", "PinSocket_1x04_P2.54mm",
             "Sullins PPTC041LFBN-RC", "Samtec SSW-104-01-T-S",
             "for a 0.96 in SSD1306 I2C module with pins GND VCC SCL SDA"),
    "hdr": ("Connector", "2 x 10 box header 2.54 mm", "THT", "PinHeader_2x10_P2.54mm", "Wurth 61202021621",
            "Amphenol T821120A1S100CEU", "leg board <-> controller, one ribbon cable per leg"),
}  # fmt: skip
# Bought per cable or per peg, not placed on a board.
EXTRAS = (
    ("Ribbon cable", "20-way 1.27 mm, 2 IDC sockets each end", "cable", "3M 3365/20 + 2 x 3M 89120-0101",
     "Amphenol FFSD-10-D (assembled)", "legs", "one per leg board, about 15 cm"),
    ("Magnet", "3 x 2 mm NdFeB N52 disc", "-", "K&J Magnetics D21B-N52 (3.2 x 1.6 mm)",
     "first4magnets F321-N52", "pegs", "glued in the tip of every peg"),
    ("Screw + standoff", "M3 x 8, 10 mm standoff", "-", "Wurth 970100365", "Keystone 24336", "mounting",
     "one per mounting hole of the panel"),
    ("Screw + standoff", "M3 x 8, 10 mm standoff", "-", "Wurth 970100365", "Keystone 24336", "fixings",
     "one per M3 hole of the circuit boards (MH1.. on each board): the boards hang under the panel"),
    ("Threaded insert", "M3 heat-set, 5.7 mm long", "-", "Ruthex RX-M3x5.7", "CNC Kitchen M3x5.7",
     "fixings", "pressed into the back of the panel at every board fixing (the template's crossed circles)"),
)  # fmt: skip

HEADER_PINS = 20
LEG_X = (12.0, 306.0)  # every leg board spans the whole track, start and game holes included
CTRL_RECT = (306.4, 10.0, 386.0, 136.0)
LEG_ABOVE = 4.4  # leg board edge above lane 0's hole centres
LEG_BELOW = 25.4  # and below them: lane 2 plus the band for the 74HCT165s and the header


class Part:
    def __init__(self, ref, kind, board, x, y, rot=0.0, side="F", pins=None, value=None):
        self.ref = ref
        self.kind = kind
        self.board = board
        self.x = x
        self.y = y
        self.rot = rot  # degrees, KiCad's sense (counter-clockwise as drawn)
        self.side = side  # "F" or "B"
        self.pins = dict(pins or {})  # pin number -> net name
        self.value = value or CATALOGUE[kind][1]

    @property
    def footprint(self):
        return CATALOGUE[self.kind][3]

    def as_dict(self):
        return {
            "ref": self.ref,
            "kind": self.kind,
            "board": self.board,
            "x": round(self.x, 4),
            "y": round(self.y, 4),
            "rot": self.rot,
            "side": self.side,
            "pins": self.pins,
            "value": self.value,
            "footprint": self.footprint,
        }


def leg_boards(board):
    out = []
    for L, leg in enumerate(board.layout["legs"]):
        out.append(("leg%d" % L, (LEG_X[0], leg["y"] - LEG_ABOVE, LEG_X[1], leg["y"] + LEG_BELOW)))
    return out


# The M3 holes that screw each board to the back of the panel on 10 mm standoffs (hardware/README.md,
# "Mounting"). A leg board: one at each end, between the first and second lane, clear of the holes'
# LEDs (x 33: between the start holes and hole 1; x 301: past the last hole, above the cable header).
# The controller: down its right edge (top, and beside the record rows) and top left beside the Pico;
# the rest of its area is the Pico, the cable headers and the 14 mm key matrix, with no 7 mm gap.
LEG_HOLES_X = (33.0, 301.0)
REVISION = "1.0"  # of the circuit boards, printed on each; raise it with any change a fab would see
CTRL_HOLES = ((310.0, 13.6), (382.0, 13.6), (382.0, 74.6))


def mounting(board):
    """{board name: [(x, y)]}: the centres of each board's M3 mounting holes, in panel mm."""
    out = {}
    for L, (name, _) in enumerate(leg_boards(board)):
        leg = board.layout["legs"][L]
        y = leg["y"] + board.layout["lane_pitch"] / 2
        out[name] = [(x, y) for x in LEG_HOLES_X]
    out["ctrl"] = list(CTRL_HOLES)
    return out


def board_outlines(board):
    return leg_boards(board) + [("ctrl", CTRL_RECT)]


def _leg_board_at(board, y):
    for name, (_, y0, _, y1) in leg_boards(board):
        if y0 <= y <= y1:
            return name
    raise ValueError("no leg board at y=%s" % y)


def lit_holes(board):
    """Every LED: (led, kind, side, i, x, y, sensor bit or None), in global LED order."""
    out = []
    for s in range(board.sides):
        for h in range(1, 121):
            out.append(
                (board.led_track[s][h - 1], "track", s, h)
                + board.position("track", s, h)
                + (board.sensor_track[s][h - 1],)
            )
        for i in range(2):
            out.append(
                (board.led_start[s][i], "start", s, i)
                + board.position("start", s, i)
                + (board.sensor_start[s][i],)
            )
        for i in range(board.record_count):
            out.append((board.led_record[s][i], "record", s, i) + board.position("record", s, i) + (None,))
        out.append((board.led_dealer[s], "dealer", s, 0) + board.position("dealer", s) + (None,))
    out.append((board.led_game, "game", 0, 0) + board.position("game") + (board.sensor_game,))
    out.sort()
    return out


def led_net(n):
    return "LD%d" % n


def _chain_last(board):
    return {
        start + n - 1 for start, n in zip(board.wiring.led_chain_start, board.wiring.led_chains, strict=True)
    }


def build(board):
    """The circuit: {"parts": [Part], "nets": {name: [(ref, pin)]}, "boards": [(name, rect)]}."""
    parts = []
    lits = lit_holes(board)
    firsts = set(board.wiring.led_chain_start)
    lasts = _chain_last(board)
    pos = {t[0]: (t[4], t[5]) for t in lits}
    chain_of = {}
    for c, (start, n) in enumerate(zip(board.wiring.led_chain_start, board.wiring.led_chains, strict=True)):
        for i in range(start, start + n):
            chain_of[i] = c

    # --- LEDs, their capacitors, the hall switches ---
    for n, kind, _, _, x, y, bit in lits:
        on_ctrl = kind in ("record", "dealer")
        where = "ctrl" if on_ctrl else _leg_board_at(board, y)
        if on_ctrl:
            rot = 90.0  # the record row is 6.5 mm apart: pads across the row, not along it
        else:
            # pads turned so DOUT faces the next LED (or DIN the previous one at a chain's end)
            nx = pos[n + 1][0] if n not in lasts else x + (x - pos[n - 1][0])
            rot = 180.0 if nx > x else 0.0
        din = "LDATA%d" % chain_of[n] if n in firsts else led_net(n)
        pins = {"1": V5SW, "3": GND, "4": din}
        if n not in lasts:
            pins["2"] = led_net(n + 1)
        parts.append(Part("D%d" % n, "led", where, x, y, rot, "F", pins))
        if on_ctrl:  # under its LED, on the back: the record row has no room beside the LEDs
            parts.append(Part("C%d" % n, "c100n", where, x, y, 90.0, "B", {"1": V5SW, "2": GND}))
        else:  # above the LED, away from the band of chips below the tracks
            parts.append(Part("C%d" % n, "c100n", where, x, y - 3.5, 0.0, "F", {"1": V5SW, "2": GND}))
        if bit is not None:
            parts.append(
                Part("H%d" % bit, "hall", where, x, y, rot, "B", {"1": V5SW, "2": "S%d" % bit, "3": GND})
            )

    # --- the 74HCT165 chain ---
    bit_used = set()
    for s in range(board.sides):
        bit_used.update(board.sensor_track[s])
        bit_used.update(board.sensor_start[s])
    bit_used.add(board.sensor_game)
    fixed = dict(board.wiring.sensor_fixed)
    chips = board.wiring.sensor_chips
    chip_board = _chip_boards(board, lits)
    for k in range(chips):
        pins = {
            "16": V5SW,
            "8": GND,
            "15": GND,
            "1": "LATCH5",
            "2": "SCK5",
            "9": "QH%d" % k,
            "10": "QH%d" % (k + 1) if k + 1 < chips else GND,
        }
        for i, pin in enumerate(SR_BIT_PIN):
            b = 8 * k + i
            if b in bit_used:
                pins[pin] = "S%d" % b
            elif b in fixed:
                pins[pin] = V5SW if fixed[b] else GND
            else:
                pins[pin] = V5SW  # unused input: reads "empty"
        parts.append(Part("U%d" % k, "sr", chip_board[k], 0.0, 0.0, 0.0, "F", pins))
        parts.append(
            Part("C%d" % (400 + k), "c100n", chip_board[k], 0.0, 0.0, 0.0, "F", {"1": V5SW, "2": GND})
        )

    # --- the ribbon cable between each leg board and the controller ---
    for L, (name, _) in enumerate(leg_boards(board)):
        pins = _header_pins(board, name, lits, chip_board)
        parts.append(Part("J%d" % (L + 1), "hdr", name, 0.0, 0.0, 0.0, "B", pins))
        parts.append(Part("J%d" % (L + 11), "hdr", "ctrl", 0.0, 0.0, 0.0, "B", pins))

    parts += _controller(board)
    place(board, parts)
    nets = {}
    for p in parts:
        for pin, net in p.pins.items():
            nets.setdefault(net, []).append((p.ref, pin))
    return {
        "parts": parts,
        "nets": nets,
        "boards": board_outlines(board),
        "mounting": mounting(board),
        "title": "%s rev %s" % (board.name, REVISION),
    }


def _chip_boards(board, lits):
    """Each 74HCT165 sits on the leg board that holds most of its holes."""
    where_bit = {}
    for _, kind, _, _, _, y, bit in lits:
        if bit is not None and kind not in ("record", "dealer"):
            where_bit[bit] = _leg_board_at(board, y)
    out = []
    for k in range(board.wiring.sensor_chips):
        count = {}
        for b in range(8 * k, 8 * k + 8):
            if b in where_bit:
                count[where_bit[b]] = count.get(where_bit[b], 0) + 1
        out.append(max(sorted(count), key=lambda name: count[name]))
    return out


def _header_pins(board, name, lits, chip_board):
    """The 20 ways of a leg's cable: power, clock, latch, LED data in/out and chain in/out per side."""
    pins = {"1": V5SW, "2": V5SW, "3": V5SW, "4": GND, "5": GND, "6": GND, "7": "SCK5", "8": "LATCH5"}
    here = [t[0] for t in lits if t[1] not in ("record", "dealer") and _leg_board_at(board, t[5]) == name]
    lasts = _chain_last(board)
    for c, (start, count) in enumerate(
        zip(board.wiring.led_chain_start, board.wiring.led_chains, strict=True)
    ):
        mine = [n for n in here if start <= n < start + count]
        if not mine:
            continue
        first, last = min(mine), max(mine)
        pins[str(9 + 2 * c)] = led_net(first) if first != start else "LDATA%d" % c
        if last not in lasts:
            pins[str(10 + 2 * c)] = led_net(last + 1)
    ks = [k for k in range(board.wiring.sensor_chips) if chip_board[k] == name]
    # runs of consecutive chips on this board: the first one's QH leaves, the last one's SER arrives
    runs = []
    for k in ks:
        if runs and runs[-1][-1] == k - 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    for r, run in enumerate(runs[:3]):
        pins[str(15 + 2 * r)] = "QH%d" % run[0]
        if run[-1] + 1 < board.wiring.sensor_chips:
            pins[str(16 + 2 * r)] = "QH%d" % (run[-1] + 1)
    return pins


def _controller(board):
    """Pico, level shifters, power entry, keypad, display socket (placed by place())."""
    P = []
    gp = {}
    for c, g in enumerate(board.wiring.led_pins):
        gp[g] = "LED%d_3V3" % c
    if board.wiring.led_power_pin is not None:
        gp[board.wiring.led_power_pin] = "LED_EN"
    p = board.wiring.pins
    gp[p["sensor_sck"]] = "SCK"
    gp[p["sensor_miso"]] = "MISO"
    gp[p["sensor_latch"]] = "LATCH"
    for r, g in enumerate(board.wiring.key_rows):
        gp[g] = "ROW%d" % r
    for c, g in enumerate(board.wiring.key_cols):
        gp[g] = "COL%d" % c
    gp[board.wiring.display["sda"]] = "SDA"
    gp[board.wiring.display["scl"]] = "SCL"
    pico = {str(PICO_PIN[g]): net for g, net in gp.items()}
    for pin in PICO_GND:
        pico[str(pin)] = GND
    pico["39"] = "VSYS"
    pico["36"] = V3
    P.append(Part("M1", "pico", "ctrl", 0, 0, 0, "B", pico))
    # LED data, clock and latch to 5 V: two 74AHCT125 (1A/1Y 2,3; 2A/2Y 5,6; 3A/3Y 9,8; 4A/4Y 12,11)
    chans = [("2", "3", "1"), ("5", "6", "4"), ("9", "8", "10"), ("12", "11", "13")]
    sigs = ["LED%d_3V3" % c for c in range(len(board.wiring.led_pins))] + ["SCK", "LATCH"]
    outs = ["LED%d_5V" % c for c in range(len(board.wiring.led_pins))] + ["SCK5", "LATCH5"]
    for u in range(2):
        pins = {"7": GND, "14": V5}
        for ch, (a, y, oe) in enumerate(chans):
            i = 4 * u + ch
            pins[oe] = GND
            if i < len(sigs):
                pins[a] = sigs[i]
                pins[y] = outs[i]
            else:
                pins[a] = GND
        P.append(Part("U%d" % (100 + u), "buf", "ctrl", 0, 0, 0, "F", pins))
        P.append(Part("C%d" % (1100 + u), "c100n", "ctrl", 0, 0, 0, "F", {"1": V5, "2": GND}))
    for c in range(len(board.wiring.led_pins)):
        P.append(
            Part("R%d" % (10 + c), "r330", "ctrl", 0, 0, 0, "F", {"1": "LED%d_5V" % c, "2": "LDATA%d" % c})
        )
    P.append(
        Part("U102", "lvc", "ctrl", 0, 0, 0, "F", {"1": GND, "2": "QH0", "3": GND, "4": "MISO", "5": V3})
    )
    P.append(Part("C1102", "c100n", "ctrl", 0, 0, 0, "F", {"1": V3, "2": GND}))
    # power entry: USB-C, CC resistors, fuse, TVS, switch, Schottky, bulk capacitor
    # the receptacle's every GND and VBUS contact (the plug may sit either way up), CC1/CC2 to their
    # 5.1 kohm; D+/D- (A6 A7 B6 B7) and SBU (A8 B8) are not used: the Pico's own USB is the data link
    usb = {"S1": GND, "A5": "CC1", "B5": "CC2"}
    usb.update({pin: GND for pin in ("A1", "B1", "A12", "B12")})
    usb.update({pin: VBUS for pin in ("A4", "B4", "A9", "B9")})
    P.append(Part("J100", "usbc", "ctrl", 0, 0, 0, "F", usb))
    P.append(Part("R1", "r5k1", "ctrl", 0, 0, 0, "F", {"1": "CC1", "2": GND}))
    P.append(Part("R2", "r5k1", "ctrl", 0, 0, 0, "F", {"1": "CC2", "2": GND}))
    P.append(Part("F1", "fuse", "ctrl", 0, 0, 0, "F", {"1": VBUS, "2": V5}))
    P.append(Part("D1000", "tvs", "ctrl", 0, 0, 0, "F", {"1": V5, "2": GND}))
    P.append(Part("D1001", "schottky", "ctrl", 0, 0, 0, "F", {"1": "VSYS", "2": V5}))
    if board.wiring.led_power_pin is not None:
        P.append(
            Part("Q1", "pmos", "ctrl", 0, 0, 0, "F",
                 {"1": V5, "2": V5, "3": V5, "4": "LED_EN_N", "5": V5SW, "6": V5SW, "7": V5SW, "8": V5SW})
        )  # fmt: skip
        P.append(Part("Q2", "nmos", "ctrl", 0, 0, 0, "F", {"1": "LED_EN_G", "2": GND, "3": "LED_EN_N"}))
        P.append(Part("R3", "r10k", "ctrl", 0, 0, 0, "F", {"1": V5, "2": "LED_EN_N"}))
        P.append(Part("R4", "r10k", "ctrl", 0, 0, 0, "F", {"1": "LED_EN_G", "2": GND}))
        P.append(Part("R5", "r100", "ctrl", 0, 0, 0, "F", {"1": "LED_EN", "2": "LED_EN_G"}))
    P.append(Part("C1000", "bulk", "ctrl", 0, 0, 0, "F", {"1": V5SW, "2": GND}))
    # keypad: a diode per key, cathode to the row
    ncols = len(board.wiring.key_cols)
    for r in range(len(board.wiring.key_rows)):
        for c in range(ncols):
            name = board.key_names[r * ncols + c]
            if not name:
                continue
            k = r * ncols + c + 1
            P.append(
                Part(
                    "SW%d" % k,
                    "key",
                    "ctrl",
                    0,
                    0,
                    0,
                    "F",
                    {"1": "COL%d" % c, "2": "K%d" % k},
                    value="key %s" % name,
                )
            )
            P.append(
                Part("D%d" % (2000 + k), "diode", "ctrl", 0, 0, 0, "B", {"1": "ROW%d" % r, "2": "K%d" % k})
            )
    P.append(Part("J101", "oled", "ctrl", 0, 0, 0, "F", {"1": GND, "2": V3, "3": "SCL", "4": "SDA"}))
    return P


def place(board, parts):
    """Where the parts not fixed by a hole go: chips and headers in each leg board's band, the controller."""
    by = {p.ref: p for p in parts}
    lay = board.layout
    hole_x = {}
    for p in parts:
        if p.kind == "hall":
            hole_x[int(p.ref[1:])] = p.x
    for L, (name, (x0, _, x1, _)) in enumerate(leg_boards(board)):
        band = lay["legs"][L]["y"] + 2 * lay["lane_pitch"] + 6.2
        chips = sorted((p for p in parts if p.kind == "sr" and p.board == name), key=lambda p: int(p.ref[1:]))
        want = []
        for p in chips:
            k = int(p.ref[1:])
            xs = [hole_x[b] for b in range(8 * k, 8 * k + 8) if b in hole_x]
            want.append((sum(xs) / len(xs) + (k // 16 - 1) * 11.5, p))
        want.sort(key=lambda t: t[0])
        slot, lo, hi = 14.0, x0 + 9.0, x1 - 33.0  # the last chip clear of the header by its pins' vias
        xs = []
        for w, _ in want:
            xs.append(max(w, xs[-1] + slot if xs else lo))
        for i in range(len(xs) - 1, -1, -1):  # pushed past the header: slide the row back left
            top = hi if i == len(xs) - 1 else xs[i + 1] - slot
            xs[i] = min(xs[i], top)
        for (_, p), x in zip(want, xs, strict=True):
            # turned 180 on the back: SH/LD and CLK (pins 1, 2) at the top, where the router drops them
            # to the clock and latch lines along the band's bottom off the back (kicad_pcb.Router.bus)
            p.x, p.y, p.rot, p.side = x, band, 180.0, "B"  # beside the hall switches' tracks
            cap = by["C%d" % (400 + int(p.ref[1:]))]
            cap.x, cap.y, cap.rot, cap.side = x - 7.4, band, 90.0, "B"  # clear of the pins' vias
        hdr = by["J%d" % (L + 1)]
        hdr.x, hdr.y, hdr.rot = x1 - 13.0, band, 90.0
    _place_controller(board, parts, by)


CTRL_PLACES = {
    # ref: (x, y, rot, side); the display socket and Pico sit under the display window
    "J101": (345.0, 14.2, 0.0, "F"),
    "M1": (333.0, 28.0, 90.0, "B"),
    "J11": (320.5, 43.5, 90.0, "B"),
    "J12": (347.5, 43.5, 90.0, "B"),
    "J13": (320.5, 73.0, 90.0, "B"),
    "J14": (347.5, 73.0, 90.0, "B"),
    "J100": (382.4, 24.0, 90.0, "F"),
    "F1": (375.0, 16.0, 90.0, "F"),
    "D1000": (375.0, 31.0, 90.0, "F"),
    "R1": (372.0, 24.0, 90.0, "F"),  # (at 377 its courtyard overlapped J100's and walled in VBUS A9)
    "R2": (374.5, 24.0, 90.0, "F"),
    "Q1": (366.0, 16.5, 0.0, "F"),
    "Q2": (364.0, 26.0, 0.0, "F"),
    "R3": (369.5, 26.0, 90.0, "F"),
    "R4": (364.0, 30.5, 0.0, "F"),
    "R5": (368.5, 30.5, 0.0, "F"),
    "D1001": (381.0, 40.0, 90.0, "F"),
    "C1000": (366.0, 39.5, 0.0, "F"),
    "U100": (312.0, 25.0, 0.0, "F"),
    "C1100": (312.0, 19.5, 0.0, "F"),
    "U101": (321.0, 25.0, 0.0, "F"),
    "C1101": (321.0, 19.5, 0.0, "F"),
    "R10": (311.0, 32.0, 0.0, "F"),
    "R11": (315.0, 32.0, 0.0, "F"),
    "R12": (319.0, 32.0, 0.0, "F"),
    "U102": (326.0, 33.5, 0.0, "F"),
    "C1102": (326.0, 38.0, 0.0, "F"),
}


def _place_controller(board, parts, by):
    for ref, (x, y, rot, side) in CTRL_PLACES.items():
        if ref in by:
            p = by[ref]
            p.x, p.y, p.rot, p.side = x, y, rot, side
    k = board.layout["keys"]
    ncols = len(board.wiring.key_cols)
    for p in parts:
        if p.kind == "key":
            i = int(p.ref[2:]) - 1
            p.x, p.y = k["x"] + (i % ncols) * k["pitch"], k["y"] + (i // ncols) * k["pitch"]
            d = by["D%d" % (2000 + i + 1)]
            d.x, d.y, d.side = p.x, p.y, "B"


def to_json(circuit):
    return json.dumps(
        {
            "parts": [p.as_dict() for p in circuit["parts"]],
            "nets": circuit["nets"],
            "boards": circuit["boards"],
            "mounting": circuit["mounting"],
            "title": circuit["title"],
        },
        indent=1,
        sort_keys=True,
    )
