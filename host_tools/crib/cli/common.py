# What the `crib` commands share: the consoles, the one-line failure, the board and history openers.
import os

import typer
from rich.console import Console

from crib import ports, share
from crib.client import LinkError
from crib.store import db
from crib.untrusted import shown

PORT_HELP = "auto | DEVICE | id:SERIAL | socket://HOST:PORT (the simulator), as mpremote takes"
DB_HELP = "the history database (default: per-user data folder, or $CRIB_DB)"

# Read as common.console at each use, so a test may hand the commands a wider one.
console = Console()
err = Console(stderr=True)


def fail(msg, code=1):
    # Messages quote the board's words (a refusal, an id): shown as text, never as markup or codes.
    err.print("[bold red]crib:[/] %s" % shown(msg, 400))
    raise typer.Exit(code)


def plural(n, word):
    """'1 game', '2 games'."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def out_file(out):
    """`out` if its folder exists (so a write cannot fail half way with a traceback), else a clear error."""
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        fail("no folder %s for %s: make it first, or give another --out" % (folder, out), 2)
    if os.path.isdir(out):
        fail("%s is a folder: give --out a file name" % out, 2)
    return out


def client(port, timeout):
    # Through the board's hub (share.py): watch, sync, follow and name share one board.
    try:
        c = share.connect(port, timeout)
    except ports.PortError as e:
        fail(str(e), 2)
    except LinkError as e:
        fail(str(e), 3)
    return c


def told(c):
    """`c`, saying on the console when its sync waits its turn behind another crib's."""
    c.on_wait = console.print
    return c


def open_db(path, readonly=True):
    try:
        return db.connect(path, readonly)
    except db.DbError as e:
        fail(str(e), 4)
