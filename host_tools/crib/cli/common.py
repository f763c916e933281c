# What the `crib` commands share: the consoles, the one-line failure, the board and history openers.
import os
from typing import Annotated

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

from crib.link import ports, share
from crib.link.client import LinkError
from crib.store import db
from crib.untrusted import shown

PORT_HELP = "auto | DEVICE | id:SERIAL | socket://HOST:PORT (the simulator), as mpremote takes"
DB_HELP = "the history database (default: per-user data folder, or $CRIB_DB)"

# The options many commands take, declared once.
Port = Annotated[str, typer.Option("--port", "-p", help=PORT_HELP)]
Timeout = Annotated[float, typer.Option(help="seconds to wait for each answer")]
DbPath = Annotated[str | None, typer.Option("--db", help=DB_HELP)]

# The panels of `crib --help`, one a subject.
BOARD = "The board"
HISTORY = "The history"
CLUB = "A club night"
HANDS = "Hands"
BOTS = "The opponent and bots"
FIRMWARE = "The firmware"

# Read as common.console at each use, so a test may hand the commands a wider one.
console = Console()
err = Console(stderr=True)


class _NoValueShown:
    # typer shows a type after every option, <bool> after a flag and after --help too: they take none.
    def get_help_option(self, ctx):
        opt = super().get_help_option(ctx)
        if opt is not None:
            opt.metavar = ""
        return opt


class Command(_NoValueShown, TyperCommand):
    """Every crib command (typer's cls=): its flags show no value in its help, and a database that
    fails under it (locked, a full disk, a damaged page, a role that may not write) is one line and
    exit 4, never a traceback; the failed transaction changed nothing."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for p in self.params:
            if getattr(p, "is_flag", False) and p.metavar is None:
                p.metavar = ""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except Exception as e:
            said = db.trouble(e, ctx.params.get("db_path"))
            if said is None:
                raise
            err.print("[bold red]crib:[/] %s" % shown(said, 400))
            raise typer.Exit(4) from None


class Group(_NoValueShown, TyperGroup):
    """Every crib group of commands (typer's cls=): `crib`, `crib link`, `crib club`."""


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
