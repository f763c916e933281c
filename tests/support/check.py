# Assertion helpers that work the same under pytest and the MicroPython runner.


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised; fail unless it is exc_type."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


def message(exc):
    return exc.args[0] if exc.args else ""


def edge(e):
    """A board.edges edge (kind * 1024 + code) -> (kind, code)."""
    return (e >> 10, e & 1023)


def drain(ring):
    """Empty a board.edges ring: its edges as (kind, code) pairs, oldest first."""
    out = []
    while len(ring):
        out.append(edge(ring.get()))
    return out
