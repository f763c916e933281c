# What `crib serve` lets hold a socket: connections capped under the file limit, a deadline for each
# request's head with the oldest half-sent one dropped first, and a log that a flood cannot fill.
import collections
import logging
import time

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    import resource
except ImportError:  # not on Windows: no file limit to read, the default cap holds
    resource = None

HEAD_S = 10.0  # a request's line and headers must all arrive within this
# Only a head this late is dropped for a newcomer: a room of pages opening at once all wait a moment.
STALE_S = 1.0
RESERVED_FILES = 32  # kept for the server itself: the history, the log, the event loop, the listening socket
# Connections the loop takes at once (the listen backlog): they hold files before the gate sees them, so
# a few such bursts are kept free below the file limit as well.
BACKLOG = 32
BURSTS = 3
MAX_CONNECTIONS = 2000
DEFAULT_FILES = 1024


def file_limit():
    """The open-file limit, the soft limit first raised to the hard one (a room of phones needs many)."""
    if resource is None:
        return DEFAULT_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        want = hard if hard != resource.RLIM_INFINITY else max(soft, MAX_CONNECTIONS + RESERVED_FILES)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else MAX_CONNECTIONS + RESERVED_FILES


class Gate:
    """The server's connections: at most `cap` open, and those still sending a request's head, oldest first.

    A connection past the cap takes the place of the oldest one still sending its head (a client that
    asks at once is never kept out by sockets that never finish asking); with none of those, it is
    closed. Past `waiting_cap` heads under way, the oldest is dropped once it is `stale_s` late. A
    head not finished within `head_s` closes its connection."""

    def __init__(self, cap=None, head_s=HEAD_S, waiting_cap=None, stale_s=STALE_S, clock=time.monotonic):
        if cap is None:
            cap = max(8, min(MAX_CONNECTIONS, file_limit() - RESERVED_FILES - BURSTS * BACKLOG))
        self.cap = cap
        self.head_s = head_s
        self.waiting_cap = waiting_cap or max(4, cap // 8)
        self.stale_s = stale_s
        self.clock = clock
        self.waiting = collections.OrderedDict()  # protocol -> (since, its deadline's timer), oldest first
        self.refused = self.dropped = self.late = 0

    def protocol(self):
        """The uvicorn HTTP protocol class that keeps to this gate (uvicorn.Config(http=...))."""
        gate = self

        class GatedH11(H11Protocol):
            def connection_made(self, transport):
                super().connection_made(transport)
                if len(self.connections) > gate.cap and not gate.drop_oldest():
                    gate.refused += 1
                    transport.abort()
                    return
                gate.wait_head(self)

            def data_received(self, data):
                super().data_received(data)
                if self.transport.is_closing():
                    gate.done(self)
                elif self.conn.their_state is h11.IDLE:
                    gate.wait_head(self)  # part of a head, or the next request of a kept-alive connection
                else:
                    gate.done(self)

            def connection_lost(self, exc):
                gate.done(self)
                super().connection_lost(exc)

        return GatedH11

    def wait_head(self, proto):
        if proto in self.waiting:
            return
        now = self.clock()
        self.waiting[proto] = (now, proto.loop.call_later(self.head_s, self._late, proto))
        while len(self.waiting) > self.waiting_cap and self.drop_oldest(now - self.stale_s):
            pass

    def done(self, proto):
        got = self.waiting.pop(proto, None)
        if got is not None:
            got[1].cancel()

    def drop_oldest(self, since=None):
        """Close the connection that has waited longest for its head (if it waited from before `since`);
        False if there is none."""
        if not self.waiting:
            return False
        proto, (at, timer) = next(iter(self.waiting.items()))
        if since is not None and at > since:
            return False
        del self.waiting[proto]
        timer.cancel()
        self.dropped += 1
        proto.transport.abort()
        return True

    def _late(self, proto):
        if self.waiting.pop(proto, None) is not None:
            self.late += 1
            proto.transport.abort()


class Quiet(logging.Filter):
    """Each kind of log line `burst` times a `window` at most; the next one after says how many were held."""

    def __init__(self, burst=5, window=60.0, clock=time.monotonic, kinds=256):
        super().__init__()
        self.burst, self.window, self.clock, self.kinds = burst, window, clock, kinds
        self.seen = {}  # (logger, message template) -> [window start, lines in it]

    def filter(self, record):
        key = (record.name, str(record.msg)[:120])
        now = self.clock()
        got = self.seen.get(key)
        if got is None or now - got[0] >= self.window:
            if len(self.seen) >= self.kinds:
                self.seen.clear()
            held = got[1] - self.burst if got is not None and got[1] > self.burst else 0
            self.seen[key] = [now, 1]
            if held:
                record.msg = "(%d more like this were held back) %s" % (held, record.msg)
            return True
        got[1] += 1
        if got[1] == self.burst:
            record.msg = "%s (more like this are held back for %d s)" % (record.msg, self.window)
        return got[1] <= self.burst


def log_config(level="WARNING"):
    """A logging.config dict for uvicorn: every logger's lines through one Quiet filter to stderr."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"quiet": {"()": Quiet}},
        "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["quiet"],
                "formatter": "plain",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": [], "level": level, "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": level},
    }
