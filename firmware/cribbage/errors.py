# The one exception family the core raises, so callers can tell a refused move from a bug.


class CribError(ValueError):
    """Input or a move that the rules refuse; the message says what is wrong."""


class CardError(CribError):
    """A card token or a set of cards that cannot be read."""
