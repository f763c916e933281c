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


def drain(ring):
    """Empty a board.edges ring: its edges as (kind, code) pairs, oldest first."""
    from board import edges

    out = []
    while len(ring):
        e = ring.get()
        out.append((edges.kind_of(e), edges.code_of(e)))
    return out
