# `crib serve`: the room's live scoreboard in a browser, read from the history (crib/web/serve.py serves it);
# with --tables, the remote tables too, and `crib table new` makes one on a running server.
import json
import urllib.error
import urllib.request
from typing import Annotated

import typer

from crib.cli import club, common
from crib.cli.common import CLUB, Command, Group
from crib.store import db

app = typer.Typer()
LEVELS = ("beginner", "expected", "top")


@app.command("serve", cls=Command, rich_help_panel=CLUB)
def serve_cmd(
    port: Annotated[int, typer.Option(help="the web page's port")] = 8121,
    host: Annotated[str, typer.Option(help="0.0.0.0 lets phones in the room open it")] = "127.0.0.1",
    db_path: club.DbPath = None,
    tables: Annotated[
        str | None,
        typer.Option(help="host remote tables, their state in this database (a file or a postgresql:// URL)"),
    ] = None,
    tls_cert: Annotated[str | None, typer.Option(help="serve HTTPS with this certificate (PEM)")] = None,
    tls_key: Annotated[str | None, typer.Option(help="the certificate's private key (PEM)")] = None,
):
    """The room's scoreboard in a browser: every board live, the night's standings, printable scorecards.

    It only reads the history: keep the boards syncing (crib sync) and the page follows. With --tables
    it hosts remote tables as well (crib table new makes one)."""
    from crib.web.serve import serve

    try:  # a bad --db is said here, in serve's words, not inside the server
        db.connect(db_path, True).close()
    except db.DbError as e:
        common.fail(str(e))
    if (tls_cert is None) != (tls_key is None):
        common.fail("HTTPS needs both --tls-cert and --tls-key")
    if tables is not None:
        from crib.tables import store

        try:
            store.connect(tables).close()
        except Exception as e:  # the driver's words in one line: a locked file, a refused login
            common.fail("cannot open the tables' database %s: %s" % (tables, str(e).splitlines()[0]))
    scheme = "https" if tls_cert else "http"
    common.console.print("scoreboard: %s://%s:%d/  (Ctrl-C stops it)" % (scheme, host, port))
    serve(
        db_path or db.default_path(), host, port, tables=tables, tls=(tls_cert, tls_key) if tls_cert else None
    )


table_app = typer.Typer(
    cls=Group, help="Remote tables on a club server (crib serve --tables)", no_args_is_help=True
)
app.add_typer(table_app, name="table", rich_help_panel=CLUB)


def _post(url, body):
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            said = json.loads(e.read()).get("error")
        except ValueError:
            said = None
        common.fail("%s refused: %s" % (url, said or e.reason))
    except (urllib.error.URLError, OSError) as e:
        common.fail("cannot reach %s: %s" % (url, getattr(e, "reason", e)))


@table_app.command("new", cls=Command)
def table_new(
    server: Annotated[
        str, typer.Option(help="the club server, as crib serve printed it")
    ] = "http://127.0.0.1:8121",
    fill: Annotated[
        str | None, typer.Option(help="the board's opponent takes a seat: beginner, expected, top")
    ] = None,
):
    """Make a table on the server: prints its code and page to share."""
    if fill is not None and fill not in LEVELS:
        common.fail("--fill is one of %s, not %r" % (", ".join(LEVELS), fill))
    base = server.rstrip("/")
    got = _post(base + "/api/tables", {})
    if fill:
        _post("%s/api/tables/%s/fill" % (base, got["code"]), {"level": fill})
    common.console.print(got["code"], highlight=False)
    common.console.print("page: %s%s" % (base, got["page"]), highlight=False)
