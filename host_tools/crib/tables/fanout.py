"""The live fan-out between servers on one PostgreSQL database: a stored move NOTIFYs, a listener rings."""

import threading

CHANNEL = "crib_tables"  # the payload: the table's code and the name of the server that stored the move
RETRY_S = 1.0  # a listener that lost its connection connects again after this


def notify(con, code, origin):
    """Tell every server listening that table `code` moved (sent by PostgreSQL when the move commits)."""
    con.execute("SELECT pg_notify($1, $2)", (CHANNEL, "%s %s" % (code, origin)))


class Listener:
    """A thread on its own connection, LISTENing: `ring(code)` for each table another server than `origin`
    moved, and `ring(None)` after a lost connection came back (a move may have been missed: all look)."""

    def __init__(self, url, origin, ring):
        self.url, self.origin, self.ring = url, origin, ring
        self.listening = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="crib-tables-listen", daemon=True)

    def start(self, timeout=10.0):
        """Start listening; True once LISTEN is in force (a move committed after that rings)."""
        self.thread.start()
        return self.listening.wait(timeout)

    def stop(self):
        self.stopping.set()
        self.thread.join(5)

    def _run(self):
        import psycopg

        lost = False
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as con:
                    con.execute("LISTEN %s" % CHANNEL)
                    self.listening.set()
                    if lost:
                        self.ring(None)
                    while not self.stopping.is_set():
                        for note in con.notifies(timeout=1.0):
                            code, _, origin = note.payload.partition(" ")
                            if origin != self.origin:
                                self.ring(code)
            except psycopg.Error:
                lost = True
                self.stopping.wait(RETRY_S)
