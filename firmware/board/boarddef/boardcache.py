# The board cache: the Board of a board file already checked on the laptop (`make deploy`, `make sim`
# write it beside board.json, see tools/build.py), with the crc32 and size of the file it came from.
# At boot, a cache made from the very same file stands for the check, so the validator (boardfile.py)
# is not even loaded: its code, and the ~80 names it interns for good (docs/memory.md). Any other file
# (edited by hand, a new one) goes through boardfile.load, which names a bad field. start.py drops
# this module after boot too.
import json
from array import array

from board.boarddef import KEYS, Board
from cribbage import const
from cribbage.journal import crc32

_VERSION = const(1)
# Every attribute of a Board but layout, and of its wiring (boarddef.Wiring: the cache is one flat
# object), in the cache as JSON values: hole maps as lists, and these as lists of lists that go back
# to tuples.
ATTRS = (
    "format",
    "name",
    "id",
    "sides",
    "pins",
    "led_type",
    "led_order",
    "led_count",
    "led_pins",
    "led_chains",
    "led_chain_start",
    "led_power_pin",
    "piezo_pin",
    "led_track",
    "led_start",
    "led_game",
    "led_record",
    "record_count",
    "led_dealer",
    "sensor_kind",
    "sensor_chips",
    "sensor_bits",
    "sensor_spi",
    "sensor_baud",
    "sensor_active_low",
    "sensor_track",
    "sensor_start",
    "sensor_game",
    "sensor_fixed",
    "key_rows",
    "key_cols",
    "key_names",
    "display",
    "side_names",
    "colours",
    "brightness",
    "large_print",
    "power",
)
_MAPS = ("led_track", "led_start", "led_record", "sensor_track", "sensor_start")
_TUPLES = ("sensor_fixed", "colours")


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
    d = {"v": _VERSION, "crc": crc, "size": size}
    wiring = board.wiring
    for name in ATTRS:
        v = getattr(wiring if hasattr(wiring, name) else board, name)
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
    if not isinstance(d, dict) or d.get("v") != _VERSION or d.get("crc") != crc or d.get("size") != size:
        return None
    b = Board()
    wiring = b.wiring
    try:
        for name in ATTRS:
            v = d[name]
            if name in _MAPS:
                v = tuple([array("H", x) for x in v])
            elif name in _TUPLES:
                v = [tuple(x) for x in v]
            elif name == "key_names":
                v = [KEYS[KEYS.index(k)] if k is not None else None for k in v]  # interned, not copies
            setattr(wiring if hasattr(wiring, name) else b, name, v)
    except (KeyError, TypeError, ValueError, OverflowError):
        return None  # not a cache this firmware wrote: check the board file instead
    return b
