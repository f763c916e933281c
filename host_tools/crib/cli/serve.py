# `crib serve`: the room's live scoreboard in a browser, read from the history (crib/serve.py serves it).
import typer

from crib.cli import club, common
from crib.store import db

app = typer.Typer()


@app.command("serve")
def serve_cmd(
    port: int = typer.Option(8121, help="the web page's port"),
    host: str = typer.Option("127.0.0.1", help="0.0.0.0 lets phones in the room open it"),
    db_path: str = typer.Option(None, "--db", help=club.DB_HELP),
):
    """The room's scoreboard in a browser: every board live, the night's standings, printable scorecards.

    It only reads the history: keep the boards syncing (crib sync) and the page follows."""
    from crib.serve import serve

    club.open_db(db_path).close()  # a bad --db is said here, not inside the server
    common.console.print("scoreboard: http://%s:%d/  (Ctrl-C stops it)" % (host, port))
    serve(db_path or db.default_path(), host, port)
