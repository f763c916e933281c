# The pure cribbage core: cards, show, play, game. No I/O or clock; runs on MicroPython and CPython.

# MicroPython's compiler folds const(x) into the code; CPython has no micropython module, and there
# const(x) is just x. Written here once for every firmware module (the core and the board import it).
try:
    from micropython import const
except ImportError:
    const = int  # type: ignore
