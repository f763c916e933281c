# Share bench: `crib sync` of a 100-game history with the board's port opened directly and through its hub.
"""The hub (crib/link/share.py) stands between every crib and the board: each line the board sends is read
by the hub, sorted to its crib and written again on a Unix socket. This measures what that costs a
sync, the heaviest traffic: the same history (sim/matchgen.py, seed 1) served by the board's link
code on the MicroPython unix port (sim/linkserver.py), synced into an empty SQLite history once
with the port opened by crib itself and once through a hub (the hub started by the sync, as the first
crib on a board starts one). One run each; the wall time includes the hub's start for the second.
"""

import os
import random
import tempfile
import time

from boards import LinkServer, write_journal

from crib.history.sync import sync
from crib.link import ports, share
from crib.link.client import LinkClient
from crib.store import db
from sim.matchgen import history

GAMES = 100


def _sync(dbpath, open_client):
    con = db.connect(dbpath)
    t0 = time.perf_counter()
    client = open_client()
    rep = sync(client, con)
    wall = time.perf_counter() - t0
    client.close()
    con.close()
    return rep.added, wall


def main():
    tmp = tempfile.mkdtemp(prefix="bench-share-")
    os.environ["XDG_RUNTIME_DIR"] = tmp  # the hub's socket here, not beside the user's
    journal = write_journal(os.path.join(tmp, "journal.log"), history(random.Random(1), GAMES))
    with LinkServer(journal) as server:

        def direct():
            c = LinkClient(ports.open_port(server.url, 10.0), timeout=10.0)
            c.connect()
            return c

        n_direct, t_direct = _sync(os.path.join(tmp, "direct.sqlite3"), direct)
        n_hub, t_hub = _sync(os.path.join(tmp, "hub.sqlite3"), lambda: share.connect(server.url, 10.0))
    assert n_direct == n_hub, (n_direct, n_hub)
    print(
        "crib sync of %d games, %d events, from the link code on the MicroPython unix port:" % (GAMES, n_hub)
    )
    print("  port opened by crib      %6.2f s  %7.0f events/s" % (t_direct, n_direct / t_direct))
    print(
        "  through the board's hub  %6.2f s  %7.0f events/s  (x%.2f)"
        % (t_hub, n_hub / t_hub, t_hub / t_direct)
    )


if __name__ == "__main__":
    main()
