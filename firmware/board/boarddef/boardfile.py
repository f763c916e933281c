# Loads and checks hardware/board.json, the one description of the board (docs/design.md, rule 4).
#
# API (read these attributes; nothing else in the firmware names a pin or an LED index):
#   board = load(path_or_dict, name="board.json", layout=True)
#       -> Board (board/boarddef/), or raises BoardFileError naming the field. layout=False drops
#       the layout data once checked (the firmware never draws the board: less on the heap).
#   read(path) -> the raw dict (for tests and tools that edit a copy)
# This module is only the validator: start.py drops it from sys.modules after boot (its code is heap
# on a stock Pico); Board and BoardFileError live in boarddef/ and are re-exported here.
#
# Board attributes (plain data; side 0..sides-1, hole 1..120 is index hole-1; the per-side hole maps
# led_track, led_start, led_record, sensor_track, sensor_start are tuples of array("H")):
#   name, id, format                 strings / int from the file
#   sides                            number of tracks (2 or 3)
#   led_count                        LEDs in all chains together; LED indices are global 0..led_count-1
#   led_track[side][hole-1]          LED under track hole 1..120
#   led_start[side][0..1]            LEDs under the two start holes
#   led_game                         LED under the shared game hole (121)
#   led_record[side][i]              LEDs under the game-record holes (match points), i < record_count
#   record_count                     game-record holes a side
#   led_dealer[side]                 the dealer LED of each side
#   sensor_kind                      "tap" (switch) or "hall" (magnetic pegs)
#   sensor_bits                      bits in the sensor chain: wiring.sensor_chips * 8
#   sensor_active_low                True: a pressed/occupied hole reads 0
#   sensor_track[side][hole-1]       bit of each track hole, sensor_start[side][0..1], sensor_game
#                                    bit b = byte b // 8 of the SPI read, mask 0x80 >> (b % 8)
#   key_names                        row-major list, len(key_rows) * len(key_cols); None = no key there
#   side_names[side], colours[side]  name and (r, g, b) of each side's pegs at full brightness
#   brightness                       default brightness 0..255
#   large_print                      the large print setting's default (optional, false)
#   layout                           dict of physical layout data (mm), see hardware/README.md;
#                                    None when loaded with layout=False
#   position(kind, side, i)          (x, y) in mm of a hole: kind "track" (i = hole 1..120), "start",
#                                    "record" (i from 0), "dealer", "game" (side, i ignored)
#   wiring                           a boarddef.Wiring: what only the set-up reads (start.py drops it
#                                    once the HAL and the App are made), these attributes:
#     pins                           dict role -> GPIO number (or list), exactly as in the file
#     led_type, led_order            "WS2812B", "GRB" (byte order on the wire)
#     led_pins[c], led_chains[c]     data pin and LED count of chain c
#     led_chain_start[c]             first global LED index of chain c (chains are consecutive ranges)
#     led_power_pin                  GPIO that switches the LED 5 V rail on (high = on), or None
#     piezo_pin                      GPIO of a piezo sounder (driven by PWM), or None: no sound
#     sensor_chips                   74HC165 chips in the chain
#     sensor_spi, sensor_baud        SPI bus id and clock; pins in pins["sensor_*"]
#     sensor_fixed                   list of (bit, level): spare inputs tied to GND (0) or 3V3 (1);
#                                    a reading that disagrees means the chain is broken or unplugged
#     key_rows, key_cols             GPIOs of the matrix (rows driven low one at a time, cols pulled up)
#     display                        dict: type, i2c, sda, scl, address, width, height, freq
#     power                          dict: supply_ma, budget_ma, idle_ma_per_led, ma_per_channel,
#                                    mcu_ma, display_ma (see board/render/power.py, all estimates)
import json
from array import array

from board import jsonscan
from board.boarddef import KEYS, Board, BoardFileError

TRACK = 120
MAX_BYTES = 16384  # the largest board file checked (the 3-track reference is well under it): a Pico's heap
MAX_TEXT = 64  # characters of a name or id
MAX_NUM = 1e6  # the largest magnitude of a number (mA, mm): no infinity, no overflow downstream
MAX_LEDS = 2000  # LEDs in all chains together (the reference has 397)
# GPIOs brought out on a Pico's header (23, 24, 25 and 29 are used on the board itself).
PICO_GPIO = tuple(range(23)) + (26, 27, 28)
# Which GPIO can carry which function of I2C/SPI bus 0 and 1 (RP2040 datasheet, function table).
_I2C_SDA = ((0, 4, 8, 12, 16, 20), (2, 6, 10, 14, 18, 26))
_I2C_SCL = ((1, 5, 9, 13, 17, 21), (3, 7, 11, 15, 19, 27))
_SPI_SCK = ((2, 6, 18), (10, 14, 26))
_SPI_MOSI = ((3, 7, 19), (11, 15, 27))
_SPI_MISO = ((0, 4, 16, 20), (8, 12, 28))


def read(path, name="board.json"):
    """The file's JSON object; BoardFileError if it is too large to check or not strict JSON (leading
    zeros, trailing commas, NaN: MicroPython's json would read them, and 1e400 as infinity)."""
    import os

    try:
        size = os.stat(path)[6]
        if size > MAX_BYTES:
            raise BoardFileError("%s: too large to check (%d bytes, at most %d)" % (name, size, MAX_BYTES))
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BoardFileError("%s: cannot read (%s)" % (name, e))
    why = jsonscan.error(data)
    if why:
        raise BoardFileError("%s: not valid JSON (%s)" % (name, why))
    try:
        return json.loads(data)
    except MemoryError:
        raise BoardFileError("%s: too large to check (out of memory reading it)" % name)
    except ValueError as e:
        raise BoardFileError("%s: not valid JSON (%s)" % (name, e))


def _show(v):
    """A value for a message: short, whatever it is (a 300 KB string or a huge list is not repeated)."""
    if isinstance(v, list):
        return "a list of %d" % len(v)
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, str) and len(v) > 20:
        return repr(v[:20]) + "..."
    if type(v) is int and not -(10**9) < v < 10**9:
        return "a %d-digit number" % len(str(abs(v)))
    return repr(v)


class _Check:
    # Collects the validation helpers so every message starts with the file name and the field.
    def __init__(self, name):
        self.name = name

    def fail(self, field, what):
        raise BoardFileError("%s: %s: %s" % (self.name, field, what))

    def get(self, d, key, field):
        if not isinstance(d, dict):
            self.fail(field or "(top)", "must be an object, not %s" % _show(d))
        if key not in d:
            self.fail(field + "." + key if field else key, "missing")
        return d[key]

    def int_(self, v, field, lo=None, hi=None):
        if type(v) is bool or not isinstance(v, int):
            self.fail(field, "must be a whole number, not %s" % _show(v))
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self.fail(field, "%d is out of range %s..%s" % (v, lo, hi))
        return v

    def num(self, v, field, lo=0.0):
        if type(v) is bool or not isinstance(v, (int, float)):
            self.fail(field, "must be a number, not %s" % _show(v))
        if not -MAX_NUM <= v <= MAX_NUM:  # also NaN and infinity (1e400 reads as inf)
            self.fail(field, "%s is not a number from %g to %g" % (_show(v), -MAX_NUM, MAX_NUM))
        if v < lo:
            self.fail(field, "%r is below %r" % (v, lo))
        return v

    def str_(self, v, field, choices=None):
        if not isinstance(v, str):
            self.fail(field, "must be a string, not %s" % _show(v))
        if choices and v not in choices:
            self.fail(field, "%s is not one of %s" % (_show(v), ", ".join(choices)))
        if len(v) > MAX_TEXT:
            self.fail(field, "longer than %d characters" % MAX_TEXT)
        return v

    def list_(self, v, field, n=None):
        if not isinstance(v, list):
            self.fail(field, "must be a list, not %s" % _show(v))
        if n is not None and len(v) != n:
            self.fail(field, "has %d entries, needs %d" % (len(v), n))
        return v

    def ints(self, v, field, n=None, lo=None, hi=None):
        self.list_(v, field, n)
        for i in range(len(v)):
            self.int_(v[i], "%s[%d]" % (field, i), lo, hi)
        return v

    def nums(self, v, field, n):
        self.list_(v, field, n)
        for i in range(len(v)):
            self.num(v[i], "%s[%d]" % (field, i), -1e6)
        return v


def _where(entry):
    # entry = (section, field path tuple) -> "leds.track[0][5]"
    section, parts = entry
    s = section
    for p in parts:
        s += "[%d]" % p if isinstance(p, int) else "." + p
    return s


class _Claims:
    # Tracks who uses each LED index / sensor bit / pin so a clash names both users.
    def __init__(self, chk, section, size, what):
        self.chk = chk
        self.section = section
        self.owner = [None] * size if size else {}
        self.size = size
        self.what = what

    def claim(self, value, parts):
        field = _where((self.section, parts))
        if self.size and not 0 <= value < self.size:
            self.chk.fail(field, "%s %d is beyond the chain (0..%d)" % (self.what, value, self.size - 1))
        prev = self.owner.get(value) if isinstance(self.owner, dict) else self.owner[value]
        if prev is not None:
            self.chk.fail(field, "%s %d used twice (also %s)" % (self.what, value, _where(prev)))
        self.owner[value] = (self.section, parts)


def load(src, name="board.json", layout=True):
    """Read (a path) or take (a dict) the board definition, check all of it, return a Board.

    layout=False: the layout is checked but not kept (Board.position then refuses)."""
    if isinstance(src, str):
        name = src.rsplit("/", 1)[-1]
        src = read(src, name)
    chk = _Check(name)
    if not isinstance(src, dict):
        chk.fail("(top)", "must be a JSON object")
    try:
        return _load(chk, src, layout)
    except MemoryError:  # a dict handed in (not read from a file) can still be too big for the heap
        raise BoardFileError("%s: too large to check (out of memory)" % name)


def _load(chk, src, layout):
    b = Board()
    b.format = chk.int_(chk.get(src, "format", ""), "format", 1, 1)
    b.name = chk.str_(chk.get(src, "name", ""), "name")
    b.id = chk.str_(chk.get(src, "id", ""), "id")
    _pins(chk, src, b)
    _leds(chk, src, b)
    _sensors(chk, src, b)
    _keys(chk, src, b)
    _display(chk, src, b)
    _sides(chk, src, b)
    _power(chk, src, b)
    _layout(chk, src, b)
    if not layout:
        b.layout = None
    return b


def _pins(chk, src, b):
    pins = chk.get(src, "pins", "")
    chk.get(pins, "led_data", "pins")  # an object, not null, a number or a list
    claims = _Claims(chk, "pins", 0, "GP")
    known = (
        "led_data",
        "led_power",
        "piezo",
        "sensor_sck",
        "sensor_mosi",
        "sensor_miso",
        "sensor_latch",
        "key_rows",
        "key_cols",
        "display_sda",
        "display_scl",
    )
    for key in pins:
        if key not in known:
            chk.fail("pins." + key, "unknown pin role (known: %s)" % ", ".join(known))
    for key in known:
        if (key == "led_power" or key == "piezo") and pins.get(key) is None:
            continue  # optional parts
        v = chk.get(pins, key, "pins")
        if key in ("led_data", "key_rows", "key_cols"):
            chk.list_(v, "pins." + key)
        else:
            chk.int_(v, "pins." + key)
        vals = v if isinstance(v, list) else [v]
        for i in range(len(vals)):
            parts = (key, i) if isinstance(v, list) else (key,)
            gp = vals[i]
            chk.int_(gp, _where(("pins", parts)))
            if gp not in PICO_GPIO:
                chk.fail(_where(("pins", parts)), "GP%d is not a free Pico GPIO" % gp)
            claims.claim(gp, parts)
    b.wiring.pins = pins
    b.wiring.led_pins = pins["led_data"]
    b.wiring.led_power_pin = pins.get("led_power")
    b.wiring.piezo_pin = pins.get("piezo")
    b.wiring.key_rows = pins["key_rows"]
    b.wiring.key_cols = pins["key_cols"]


def _side_lists(chk, sec, key, sides, n, claims, base):
    """A per-side list of LED indices or sensor bits, checked -> tuple of array("H") a side."""
    rows = chk.list_(chk.get(sec, key, base), base + "." + key, sides)
    for s in range(sides):
        row = chk.list_(rows[s], "%s.%s[%d]" % (base, key, s), n)
        for i in range(len(row)):
            chk.int_(row[i], "%s.%s[%d][%d]" % (base, key, s, i))  # and claim: 0..chain size
            claims.claim(row[i], (key, s, i))
    return tuple([array("H", rows[s]) for s in range(sides)])


def _leds(chk, src, b):
    leds = chk.get(src, "leds", "")
    b.wiring.led_type = chk.str_(chk.get(leds, "type", "leds"), "leds.type", ("WS2812B", "SK6812"))
    b.wiring.led_order = chk.str_(chk.get(leds, "order", "leds"), "leds.order", ("GRB", "RGB", "BRG"))
    chains = chk.list_(chk.get(leds, "chains", "leds"), "leds.chains")
    if len(chains) != len(b.wiring.led_pins):
        chk.fail(
            "leds.chains", "%d chains but %d pins in pins.led_data" % (len(chains), len(b.wiring.led_pins))
        )
    chk.ints(chains, "leds.chains", None, 1, 1000)
    b.wiring.led_chains = chains
    b.wiring.led_chain_start = []
    n = 0
    for c in chains:
        b.wiring.led_chain_start.append(n)
        n += c
    b.led_count = n
    if n > MAX_LEDS:
        chk.fail("leds.chains", "%d LEDs in all, at most %d" % (n, MAX_LEDS))
    track = chk.list_(chk.get(leds, "track", "leds"), "leds.track")
    if len(track) not in (2, 3):
        chk.fail("leds.track", "has %d tracks, needs 2 or 3" % len(track))
    b.sides = sides = len(track)
    claims = _Claims(chk, "leds", n, "LED")
    b.led_track = _side_lists(chk, leds, "track", sides, TRACK, claims, "leds")
    b.led_start = _side_lists(chk, leds, "start", sides, 2, claims, "leds")
    rec = chk.get(leds, "record", "leds")
    b.record_count = len(rec[0]) if isinstance(rec, list) and rec and isinstance(rec[0], list) else 0
    if not 1 <= b.record_count <= 30:
        chk.fail("leds.record[0]", "needs 1..30 game-record holes")
    b.led_record = _side_lists(chk, leds, "record", sides, b.record_count, claims, "leds")
    b.led_dealer = chk.ints(chk.get(leds, "dealer", "leds"), "leds.dealer", sides)
    for s in range(sides):
        claims.claim(b.led_dealer[s], ("dealer", s))
    b.led_game = chk.int_(chk.get(leds, "game", "leds"), "leds.game")
    claims.claim(b.led_game, ("game",))
    unused = [i for i in range(n) if claims.owner[i] is None]
    if unused:
        chk.fail(
            "leds.chains",
            "%d LEDs in the chains are not mapped to any hole (first: LED %d)" % (len(unused), unused[0]),
        )


def _sensors(chk, src, b):
    sen = chk.get(src, "sensors", "")
    b.sensor_kind = chk.str_(chk.get(sen, "kind", "sensors"), "sensors.kind", ("tap", "hall"))
    b.wiring.sensor_chips = chk.int_(chk.get(sen, "chips", "sensors"), "sensors.chips", 1, 128)
    b.sensor_bits = b.wiring.sensor_chips * 8
    b.wiring.sensor_spi = chk.int_(chk.get(sen, "spi", "sensors"), "sensors.spi", 0, 1)
    b.wiring.sensor_baud = chk.int_(chk.get(sen, "baud", "sensors"), "sensors.baud", 10000, 10000000)
    act = chk.get(sen, "active_low", "sensors")
    if type(act) is not bool:
        chk.fail("sensors.active_low", "must be true or false")
    b.sensor_active_low = act
    bus = b.wiring.sensor_spi
    for role, table in (("sensor_sck", _SPI_SCK), ("sensor_mosi", _SPI_MOSI), ("sensor_miso", _SPI_MISO)):
        if b.wiring.pins[role] not in table[bus]:
            chk.fail(
                "pins." + role,
                "GP%d cannot be %s of SPI%d (use one of %s)"
                % (b.wiring.pins[role], role[7:].upper(), bus, table[bus]),
            )
    claims = _Claims(chk, "sensors", b.sensor_bits, "sensor bit")
    b.sensor_track = _side_lists(chk, sen, "track", b.sides, TRACK, claims, "sensors")
    b.sensor_start = _side_lists(chk, sen, "start", b.sides, 2, claims, "sensors")
    b.sensor_game = chk.int_(chk.get(sen, "game", "sensors"), "sensors.game")
    claims.claim(b.sensor_game, ("game",))
    fixed = chk.list_(chk.get(sen, "fixed", "sensors"), "sensors.fixed")
    b.wiring.sensor_fixed = []
    for i in range(len(fixed)):
        pair = chk.ints(fixed[i], "sensors.fixed[%d]" % i, 2)
        chk.int_(pair[1], "sensors.fixed[%d][1]" % i, 0, 1)
        claims.claim(pair[0], ("fixed", i, 0))
        b.wiring.sensor_fixed.append((pair[0], pair[1]))


def _keys(chk, src, b):
    keys = chk.get(src, "keys", "")
    rows = chk.list_(chk.get(keys, "names", "keys"), "keys.names", len(b.wiring.key_rows))
    names = []
    seen = {}
    for r in range(len(rows)):
        row = chk.list_(rows[r], "keys.names[%d]" % r, len(b.wiring.key_cols))
        for c in range(len(row)):
            k = row[c]
            field = "keys.names[%d][%d]" % (r, c)
            if k is not None:
                if k not in KEYS:
                    chk.fail(field, "unknown key %r (known: %s)" % (k, " ".join(KEYS)))
                if k in seen:
                    chk.fail(field, "key %r used twice (also %s)" % (k, seen[k]))
                seen[k] = field
                k = KEYS[KEYS.index(k)]  # the interned name, not a copy read from the file
            names.append(k)
    for k in KEYS:
        if k not in seen:
            chk.fail("keys.names", "key %r is missing" % k)
    b.key_names = names


def _display(chk, src, b):
    d = chk.get(src, "display", "")
    chk.str_(chk.get(d, "type", "display"), "display.type", ("SSD1306",))
    bus = chk.int_(chk.get(d, "i2c", "display"), "display.i2c", 0, 1)
    chk.int_(chk.get(d, "address", "display"), "display.address", 8, 119)
    chk.int_(chk.get(d, "width", "display"), "display.width", 64, 128)
    chk.int_(chk.get(d, "height", "display"), "display.height", 32, 64)
    chk.int_(chk.get(d, "freq", "display"), "display.freq", 10000, 1000000)
    for role, table in (("display_sda", _I2C_SDA), ("display_scl", _I2C_SCL)):
        if b.wiring.pins[role] not in table[bus]:
            chk.fail(
                "pins." + role,
                "GP%d cannot be %s of I2C%d (use one of %s)"
                % (b.wiring.pins[role], role[8:].upper(), bus, table[bus]),
            )
    b.wiring.display = {
        "type": d["type"],
        "i2c": bus,
        "sda": b.wiring.pins["display_sda"],
        "scl": b.wiring.pins["display_scl"],
        "address": d["address"],
        "width": d["width"],
        "height": d["height"],
        "freq": d["freq"],
    }


def _sides(chk, src, b):
    sides = chk.get(src, "sides", "")
    names = chk.list_(chk.get(sides, "names", "sides"), "sides.names", b.sides)
    for i in range(len(names)):
        chk.str_(names[i], "sides.names[%d]" % i)
    cols = chk.list_(chk.get(sides, "colours", "sides"), "sides.colours", b.sides)
    b.colours = []
    for i in range(len(cols)):
        rgb = chk.ints(cols[i], "sides.colours[%d]" % i, 3, 0, 255)
        b.colours.append((rgb[0], rgb[1], rgb[2]))
    b.side_names = names
    b.brightness = chk.int_(chk.get(src, "brightness", ""), "brightness", 1, 255)
    large = src.get("large_print", False)  # optional: the large print setting's default
    if type(large) is not bool:
        chk.fail("large_print", "must be true or false, not %s" % _show(large))
    b.large_print = large


def _power(chk, src, b):
    p = chk.get(src, "power", "")
    for key in ("supply_ma", "budget_ma", "idle_ma_per_led", "ma_per_channel", "mcu_ma", "display_ma"):
        chk.num(chk.get(p, key, "power"), "power." + key)
    if p["budget_ma"] > p["supply_ma"]:
        chk.fail(
            "power.budget_ma", "%r mA is more than the supply's %r mA" % (p["budget_ma"], p["supply_ma"])
        )
    fixed = p["mcu_ma"] + p["display_ma"] + p["idle_ma_per_led"] * b.led_count
    if p["budget_ma"] < fixed:
        chk.fail(
            "power.budget_ma",
            "%r mA does not cover the Pico, the display and the idle draw of %d LEDs "
            "(%d mA estimated)" % (p["budget_ma"], b.led_count, int(fixed + 0.999)),
        )
    b.wiring.power = p


def _layout(chk, src, b):
    lay = chk.get(src, "layout", "")
    chk.str_(chk.get(lay, "units", "layout"), "layout.units", ("mm",))
    chk.nums(chk.get(lay, "board", "layout"), "layout.board", 2)
    for key in ("hole_d", "pitch", "group_gap", "lane_pitch", "corner_radius"):
        chk.num(chk.get(lay, key, "layout"), "layout." + key)
    chk.int_(chk.get(lay, "group", "layout"), "layout.group", 1, 30)
    leg = chk.int_(chk.get(lay, "leg", "layout"), "layout.leg", 1, TRACK)
    if TRACK % leg:
        chk.fail("layout.leg", "%d does not divide the %d track holes" % (leg, TRACK))
    legs = chk.list_(chk.get(lay, "legs", "layout"), "layout.legs", TRACK // leg)
    for i in range(len(legs)):
        f = "layout.legs[%d]" % i
        chk.num(chk.get(legs[i], "x", f), f + ".x", -1e6)
        chk.num(chk.get(legs[i], "y", f), f + ".y", -1e6)
        chk.int_(chk.get(legs[i], "dir", f), f + ".dir", -1, 1)
        chk.ints(chk.get(legs[i], "lanes", f), f + ".lanes", b.sides, 0, 2)
    starts = chk.list_(chk.get(lay, "start", "layout"), "layout.start", b.sides)
    for s in range(b.sides):
        pts = chk.list_(starts[s], "layout.start[%d]" % s, 2)
        for i in range(2):
            chk.nums(pts[i], "layout.start[%d][%d]" % (s, i), 2)
    chk.nums(chk.get(lay, "game", "layout"), "layout.game", 2)
    recs = chk.list_(chk.get(lay, "record", "layout"), "layout.record", b.sides)
    for s in range(b.sides):
        for key in ("x", "y", "pitch"):
            chk.num(chk.get(recs[s], key, "layout.record[%d]" % s), "layout.record[%d].%s" % (s, key), -1e6)
    deal = chk.list_(chk.get(lay, "dealer", "layout"), "layout.dealer", b.sides)
    for s in range(b.sides):
        chk.nums(deal[s], "layout.dealer[%d]" % s, 2)
    keys = chk.get(lay, "keys", "layout")
    for key in ("x", "y", "pitch", "cutout"):
        chk.num(chk.get(keys, key, "layout.keys"), "layout.keys." + key)
    disp = chk.get(lay, "display", "layout")
    for key in ("x", "y", "w", "h"):
        chk.num(chk.get(disp, key, "layout.display"), "layout.display." + key)
    chk.nums(chk.get(disp, "module", "layout.display"), "layout.display.module", 4)
    mnt = chk.get(lay, "mounting", "layout")
    chk.num(chk.get(mnt, "d", "layout.mounting"), "layout.mounting.d")
    at = chk.list_(chk.get(mnt, "at", "layout.mounting"), "layout.mounting.at")
    if len(at) > 16:
        chk.fail("layout.mounting.at", "%d holes, at most 16" % len(at))
    for i in range(len(at)):
        chk.nums(at[i], "layout.mounting.at[%d]" % i, 2)
    b.layout = lay
