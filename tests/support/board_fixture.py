# The reference board definition for tests, loaded once per interpreter.
from board.boarddef import boardfile

_cache = []


def root():
    here = __file__ if "/" in __file__ else "./" + __file__
    return here.rsplit("/", 1)[0] + "/../.."


def reference():
    """boardfile.Board of hardware/board.json (shared: do not mutate)."""
    if not _cache:
        _cache.append(boardfile.load(root() + "/hardware/board.json"))
    return _cache[0]
