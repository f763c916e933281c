# The pure cribbage core: cards, show, play, game. No I/O or clock; runs on MicroPython and CPython.
