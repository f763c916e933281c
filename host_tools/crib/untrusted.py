# Text from a board is data, never markup or terminal codes: board ids checked, everything shown escaped.
import re

from rich.markup import escape

BOARD_ID = re.compile(r"[0-9a-fA-F]{2,64}\Z")  # hex of machine.unique_id(): 8 bytes on a Pico and the sim
# C0 and C1 controls and DEL: ESC sequences, carriage returns and bells must not reach the terminal.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
SHORT = 64  # characters of a board's text shown where one word is expected (a name, a type)


class BadBoard(Exception):
    """The board said something no cribboard says (an id that is not hex, a field of the wrong type)."""


def board_id(value):
    """The board's id if it is what a cribboard sends (2..64 hex digits), else BadBoard."""
    if not isinstance(value, str):
        raise BadBoard("the board's id is a %s, not text: is this a cribboard?" % type(value).__name__)
    if not BOARD_ID.match(value):
        raise BadBoard("the board's id %s is not hex digits: is this a cribboard?" % shown(value, 24))
    return value


def printable(text):
    """`text` with its control characters as \\xNN, whatever its length."""
    return _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()), text)


def plain(value, limit=SHORT):
    """Board text as printable plain text: control characters as \\xNN, cut at `limit` characters."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[:limit] + "..."
    return printable(text)


def shown(value, limit=SHORT):
    """Board text for a rich console string: plain() with rich markup escaped ('[/]' stays text)."""
    return escape(plain(value, limit))


def mathtext(value, limit=SHORT):
    """Board text for a matplotlib label: plain(), with '$' escaped so mathtext never parses it."""
    return plain(value, limit).replace("$", r"\$")
