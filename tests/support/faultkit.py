# Faults on cue for the commit tests: a call that raises the first times, a journal file whose write fails.


class Once:
    """fn, but the first `times` calls raise exc (after running fn when after=True)."""

    def __init__(self, fn, exc, after=False, times=1):
        self.fn = fn
        self.exc = exc
        self.after = after
        self.times = times

    def __call__(self, *args, **kw):
        if self.times <= 0:
            return self.fn(*args, **kw)
        self.times -= 1
        if self.after:
            self.fn(*args, **kw)
        raise self.exc


class FailingFile:
    """The journal's open file, whose next write fails before the data lands (at="write") or whose
    next flush fails after it landed (at="flush")."""

    def __init__(self, f, exc, at):
        self.f = f
        self.exc = exc
        self.at = at

    def _fail(self, at):
        if self.at == at and self.exc is not None:
            exc = self.exc
            self.exc = None
            raise exc

    def write(self, data):
        self._fail("write")
        return self.f.write(data)

    def flush(self):
        self.f.flush()
        self._fail("flush")

    def fileno(self):
        return self.f.fileno()

    def close(self):
        self.f.close()
