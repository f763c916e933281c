# `crib serve`: the room's live scoreboard in a browser, read from the history (crib/web/serve.py serves it).
from typing import Annotated

import typer

from crib.cli import club, common
from crib.cli.common import CLUB, Command
from crib.store import db

app = typer.Typer()


@app.command("serve", cls=Command, rich_help_panel=CLUB)
def serve_cmd(
    port: Annotated[int, typer.Option(help="the web page's port")] = 8121,
    host: Annotated[str, typer.Option(help="0.0.0.0 lets phones in the room open it")] = "127.0.0.1",
    db_path: club.DbPath = None,
):
    """The room's scoreboard in a browser: every board live, the night's standings, printable scorecards.

    It only reads the history: keep the boards syncing (crib sync) and the page follows."""
    from crib.web.serve import serve

    try:  # a bad --db is said here, in serve's words, not inside the server
        db.connect(db_path, True).close()
    except db.DbError as e:
        common.fail(str(e))
    common.console.print("scoreboard: http://%s:%d/  (Ctrl-C stops it)" % (host, port))
    serve(db_path or db.default_path(), host, port)
