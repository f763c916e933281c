# The checked board definition as compact plain data (Board, and its Wiring: what only the set-up reads);
# boardfile.py is the validator that fills it, boardcache.py the cache that stands for the check at boot.
# Kept apart so start.py can drop both after boot: only this stays (the Board, its Wiring dropped too). The
# attributes are documented at the top of boardfile.py. Hole maps are array("H") (2 bytes an entry
# instead of an 8-byte list slot and a boxed int on a 64-bit port).
from cribbage.errors import CribError

KEYS = (
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "T",
    "J",
    "Q",
    "K",
    "S",
    "H",
    "D",
    "C",
    "OK",
    "UNDO",
    "MENU",
)


class BoardFileError(CribError):
    """The board file is unusable; the message names the file and the field."""


class Wiring:
    """What only the set-up reads (board.wiring): the pins and buses the HAL's make wires (the LED chains,
    the sensor chain's SPI, the key matrix, the display), the tied sensor inputs and the power figures
    the App's set-up reads, and what only the maker's documents read (the LEDs' type, each chain's first
    LED, the chips). start.py drops it once the HAL and the App are made: the running board has none of
    these fields, so a late reader fails (AttributeError) instead of reading what is gone."""

    def __init__(self):
        # Filled in by boardfile.load(); listed here so every attribute has one home.
        self.pins = {}
        self.led_type = self.led_order = ""
        self.led_pins = []
        self.led_chains = []
        self.led_chain_start = []
        self.led_power_pin = None
        self.piezo_pin = None
        self.sensor_chips = self.sensor_spi = self.sensor_baud = 0
        self.sensor_fixed = []
        self.key_rows = []
        self.key_cols = []
        self.display = {}
        self.power = {}


class Board:
    """The checked board definition; see boardfile.py's module comment for the attributes."""

    def __init__(self):
        # Filled in by boardfile.load(); listed here so every attribute has one home.
        self.format = 0
        self.name = self.id = ""
        self.sides = self.led_count = self.record_count = self.led_game = 0
        self.led_track = ()
        self.led_start = ()
        self.led_record = ()
        self.led_dealer = []
        self.sensor_kind = ""
        self.sensor_bits = self.sensor_game = 0
        self.sensor_active_low = True
        self.sensor_track = ()
        self.sensor_start = ()
        self.key_names = []
        self.side_names = []
        self.colours = []
        self.brightness = 0
        self.large_print = False  # the large print setting's default on this board
        self.layout = None  # only when loaded with layout=True (drawings, the drawn sim)
        self.wiring = Wiring()  # until start.py drops it

    def position(self, kind, side=0, i=0):
        lay = self.layout
        if lay is None:
            raise BoardFileError("board layout not loaded (boardfile.load(..., layout=True))")
        if kind == "track":
            k = i - 1
            leg = lay["legs"][k // lay["leg"]]
            k %= lay["leg"]
            x = leg["x"] + leg["dir"] * (k * lay["pitch"] + (k // lay["group"]) * lay["group_gap"])
            return (x, leg["y"] + leg["lanes"][side] * lay["lane_pitch"])
        if kind == "start":
            p = lay["start"][side][i]
            return (p[0], p[1])
        if kind == "game":
            return (lay["game"][0], lay["game"][1])
        if kind == "record":
            r = lay["record"][side]
            return (r["x"] + i * r["pitch"], r["y"])
        if kind == "dealer":
            p = lay["dealer"][side]
            return (p[0], p[1])
        raise BoardFileError("no hole kind %r" % (kind,))
