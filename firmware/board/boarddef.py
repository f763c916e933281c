# The checked board definition as compact plain data (Board); boardfile.py is the validator that fills it.
# Kept apart so start.py can drop the validator's code from the heap after boot: only this stays.
# The attributes are documented at the top of boardfile.py. Hole maps are array("H") (2 bytes an
# entry instead of an 8-byte list slot and a boxed int on a 64-bit port).
#
# The board cache: the Board of a board file already checked on the laptop (`make deploy`, `make
# sim` write it beside board.json, see tools/build.py), with the crc32 and size of the file it
# came from. At boot, a cache made from the very same file stands for the check, so the validator is
# not even loaded (its code, and the ~80 names it interns for good: docs/memory.md); any other file
# (edited by hand, a new one) goes through boardfile.load, which names a bad field.
import json
from array import array

from board.crc import crc32
from cribbage.errors import CribError

KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K",
        "S", "H", "D", "C", "OK", "UNDO", "MENU")
CACHE_VERSION = 1
# Every attribute of a Board but layout, in the cache as JSON values: hole maps as lists, and
# these as lists of lists that go back to tuples.
ATTRS = ("format", "name", "id", "sides", "pins", "led_type", "led_order", "led_count", "led_pins",
         "led_chains", "led_chain_start", "led_power_pin", "led_track", "led_start", "led_game", "led_record",
         "record_count", "led_dealer", "sensor_kind", "sensor_chips", "sensor_bits", "sensor_spi",
         "sensor_baud", "sensor_active_low", "sensor_track", "sensor_start", "sensor_game", "sensor_fixed",
         "key_rows", "key_cols", "key_names", "display", "side_names", "colours", "brightness", "power")
_MAPS = ("led_track", "led_start", "led_record", "sensor_track", "sensor_start")
_TUPLES = ("sensor_fixed", "colours")


class BoardFileError(CribError):
    """The board file is unusable; the message names the file and the field."""


class Board:
    """The checked board definition; see boardfile.py's module comment for the attributes."""

    def __init__(self):
        # Filled in by boardfile.load(); listed here so every attribute has one home.
        self.format = 0
        self.name = self.id = ""
        self.sides = self.led_count = self.record_count = self.led_game = 0
        self.pins = {}
        self.led_type = self.led_order = ""
        self.led_pins = []
        self.led_chains = []
        self.led_chain_start = []
        self.led_power_pin = None
        self.led_track = ()
        self.led_start = ()
        self.led_record = ()
        self.led_dealer = []
        self.sensor_kind = ""
        self.sensor_chips = self.sensor_bits = self.sensor_spi = self.sensor_baud = self.sensor_game = 0
        self.sensor_active_low = True
        self.sensor_track = ()
        self.sensor_start = ()
        self.sensor_fixed = []
        self.key_rows = []
        self.key_cols = []
        self.key_names = []
        self.display = {}
        self.side_names = []
        self.colours = []
        self.brightness = 0
        self.power = {}
        self.layout = None  # only when loaded with layout=True (drawings, the drawn sim)

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


def cache_path(board_path):
    """Where the cache of a board file lives: beside it, "board.json" -> "board.cache"."""
    base = board_path[:-5] if board_path.endswith(".json") else board_path
    return base + ".cache"


def file_crc(path):
    """(crc32, size) of a file, read in small pieces (no big buffer at boot)."""
    buf = bytearray(256)
    view = memoryview(buf)
    crc = size = 0
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            crc = crc32(view[:n], crc)
            size += n
    return crc, size


def cache_dict(board, crc, size):
    """A checked Board (boardfile.load) as the cache's JSON object, for the file of this crc and size."""
    d = {"v": CACHE_VERSION, "crc": crc, "size": size}
    for name in ATTRS:
        v = getattr(board, name)
        if name in _MAPS or name in _TUPLES:
            v = [list(x) for x in v]
        d[name] = v
    return d


def from_cache(path, crc, size):
    """The Board in the cache at path when it was made from a file of this crc and size; None when the
    cache is missing, unreadable, of another version or made from another file (check it then)."""
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(d, dict) or d.get("v") != CACHE_VERSION or d.get("crc") != crc or d.get("size") != size:
        return None
    b = Board()
    try:
        for name in ATTRS:
            v = d[name]
            if name in _MAPS:
                v = tuple([array("H", x) for x in v])
            elif name in _TUPLES:
                v = [tuple(x) for x in v]
            elif name == "key_names":
                v = [KEYS[KEYS.index(k)] if k is not None else None for k in v]  # interned, not copies
            setattr(b, name, v)
    except (KeyError, TypeError, ValueError, OverflowError):
        return None  # not a cache this firmware wrote: check the board file instead
    return b
