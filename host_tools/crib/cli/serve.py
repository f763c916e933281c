# `crib serve`: the room's live scoreboard in a browser, read from the history (crib/web/serve.py serves it);
# with --tables, the remote tables too; `crib table new` makes one on a running server, `crib table save`
# keeps a finished one in the history, `crib table verify` checks it again.
import http.client
import json
import os
import urllib.error
import urllib.request
from typing import Annotated

import typer

from crib.cli import club, common
from crib.cli.common import CLUB, Command, Group
from crib.link import share
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


class ServerError(Exception):
    """The server refused (status: its HTTP status) or did not answer (status None); the text says which."""

    def __init__(self, text, status=None):
        super().__init__(text)
        self.status = status


def _request(url, body=None, token=None, timeout=10):
    """The server's JSON answer to a POST of `body` (None: a GET), a seat's `token` sent as its bearer;
    ServerError when it refuses or cannot be reached."""
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = "Bearer " + token
    req = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            said = json.loads(e.read()).get("error")
        except ValueError:
            said = None
        raise ServerError("%s refused: %s" % (url, said or e.reason), e.code) from None
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as e:
        raise ServerError("cannot reach %s: %s" % (url, getattr(e, "reason", e))) from None


def _post(url, body=None):
    """The server's JSON answer to a POST of `body` (None: a GET), or a clear failure."""
    try:
        return _request(url, body)
    except ServerError as e:
        common.fail(str(e))


@table_app.command("new", cls=Command)
def table_new(
    server: Annotated[
        str, typer.Option(help="the club server, as crib serve printed it")
    ] = "http://127.0.0.1:8121",
    fill: Annotated[
        list[str] | None,
        typer.Option(
            help="the board's opponent takes a seat: beginner, expected, top (again for each seat to fill)"
        ),
    ] = None,
    form: Annotated[
        str, typer.Option(help="six (two players), three (three-handed) or four (2 v 2 partners)")
    ] = "six",
):
    """Make a table on the server: prints its code and page to share."""
    from crib.tables.fairdeal import shape
    from crib.tables.game import FORM_CHOICES

    fill = list(fill or [])
    for level in fill:
        if level not in LEVELS:
            common.fail("--fill is one of %s, not %r" % (", ".join(LEVELS), level))
    if form not in FORM_CHOICES:
        common.fail("--form is one of %s, not %r" % (", ".join(FORM_CHOICES), form))
    seats = shape(form)[0]
    if len(fill) >= seats:
        common.fail("a %s table has %d seats: fill %d at most, one is yours" % (form, seats, seats - 1))
    base = server.rstrip("/")
    got = _post(base + "/api/tables", {"form": form})
    for level in fill:
        _post("%s/api/tables/%s/fill" % (base, got["code"]), {"level": level})
    common.console.print(got["code"], highlight=False)
    common.console.print("page: %s%s" % (base, got["page"]), highlight=False)


Server = Annotated[str, typer.Option(help="the club server, as crib serve printed it")]


@table_app.command("save", cls=Command)
def table_save(
    code: Annotated[str, typer.Argument(help="the table's code")],
    server: Server = "http://127.0.0.1:8121",
    db_path: club.DbPath = None,
):
    """Keep a finished table's game in the history under its players' names, checked, with its proof."""
    from crib.tables import record

    base = server.rstrip("/")
    got = _post("%s/api/tables/%s/record" % (base, code))
    con = common.open_db(db_path, readonly=False)
    try:
        game, checked = record.save(con, got, base)
    except record.RecordError as e:
        common.fail("table %s does not check: %s" % (code, e))
    finally:
        con.close()
    names = got["names"]  # the table's own, in full (the history's are the board's, twelve letters)
    sides = len(game["final"])  # a side a seat, but 2 v 2: partners (seats 0 and 2, 1 and 3) score as one
    said = ", ".join(
        "%s %d" % (" & ".join(names[side::sides]), score) for side, score in enumerate(game["final"])
    )
    common.console.print(
        "table %s: %s, kept as game %d; the deal checked (%d cards against the seed)"
        % (code, said, game["id"], checked),
        highlight=False,
    )


@table_app.command("verify", cls=Command)
def table_verify(
    code: Annotated[str, typer.Argument(help="the table's code")],
    db_path: club.DbPath = None,
):
    """Check a table game kept in the history again: the deal from its proof, the events from its moves."""
    from crib.tables import record

    con = common.open_db(db_path, readonly=True)
    try:
        checked = record.verify(con, code)
    except record.RecordError as e:
        common.fail("table %s does not check: %s" % (code, e))
    finally:
        con.close()
    common.console.print("table %s checks: %d cards against the seed" % (code, checked), highlight=False)


class _SeatApi:
    """The table's API for a seat, as crib.tables.bridge.Bridge asks it (its errors in the bridge's words)."""

    LONG_POLL = 30  # seconds: above the server's 20 s hold of a long poll

    def __init__(self, base, code):
        self.base = base
        self.code = code
        self.token = None

    def _ask(self, path, body=None, token=None, timeout=10):
        from crib.tables import bridge

        try:
            return _request("%s/api/tables/%s%s" % (self.base, self.code, path), body, token, timeout)
        except ServerError as e:
            if e.status is None or e.status >= 500:
                raise bridge.Unreachable(str(e)) from None
            raise bridge.Refusal(e.status, str(e)) from None

    def table(self):
        return self._ask("")  # what anyone with the code sees: the seats, the form, the phase

    def join(self, name):
        got = self._ask("/join", {"name": name})
        return got["seat"], got["token"]

    def view(self, after=None):
        if after is None:
            return self._ask("/seat", token=self.token)
        return self._ask("/seat?after=%d" % after, token=self.token, timeout=self.LONG_POLL)

    def move(self, seq, move):
        return self._ask("/moves", {"seq": seq, "move": move}, token=self.token)

    def record(self):
        return self._ask("/record")


@app.command("play", cls=Command, rich_help_panel=CLUB)
def play_cmd(
    code: Annotated[str, typer.Argument(help="the table's code")],
    server: Server = "http://127.0.0.1:8121",
    port: common.Port = "auto",
    name: Annotated[str | None, typer.Option(help="your name at the table (default: your login)")] = None,
    db_path: club.DbPath = None,
    timeout: common.Timeout = 2.0,
):
    """Take a seat at a table with the board: its hand on its display, your throw and lays on its keypad.

    The seat is kept in your data folder: run it again after a drop (the laptop asleep, the board
    unplugged, the server restarted) and it takes the same seat back and goes on from there. At the end
    the game is kept in the history with its proof (crib table verify CODE checks it again)."""
    import getpass

    import platformdirs

    from crib.link import ports
    from crib.link.client import LinkError
    from crib.tables import bridge, record

    base = server.rstrip("/")
    if not 1 <= len(code) <= 32 or not code.isalnum():
        common.fail("%r is not a table's code" % code)
    folder = os.path.join(platformdirs.user_data_dir(db.APP, appauthor=False), "tables")

    def seat_for(board, holds):
        # The board's own seat file: two boards on this laptop at one table are two seats.
        st = bridge.open_seat(folder, base, code, board, holds)
        if not st.data.get("token"):
            st.save(
                server=base,
                code=code,
                name=name or st.data.get("name") or (getpass.getuser() or "board")[:24],
            )
        return st

    say = lambda text: common.console.print(text, highlight=False, markup=False, soft_wrap=True)  # noqa: E731
    b = bridge.Bridge(
        code,
        _SeatApi(base, code),
        lambda: share.connect(port, timeout),
        seat_for,
        name,
        say,
        link_errors=(LinkError, ports.PortError, OSError),
    )
    try:
        got, views = b.run()
    except bridge.BridgeError as e:
        common.fail("table %s: %s" % (code, e))
    except KeyboardInterrupt:
        say("stopped: run crib play %s again to take the seat back" % code)
        raise typer.Exit(130) from None
    con = common.open_db(db_path, readonly=False)
    try:
        game, checked = record.save(con, got, base, b.state.data["seat"], b.state.data["share"], views)
    except record.RecordError as e:
        common.fail("table %s does not check: %s" % (code, e))
    finally:
        con.close()
    b.state.save(saved=game["id"])
    names = got["names"]
    winner = names[got["winner"]] if got.get("winner") is not None else "nobody"
    say(
        "table %s is over: %s %d, %s %d, %s wins; kept as game %d, the deal checked (%d cards against "
        "the seed)"
        % (code, names[0], got["scores"][0], names[1], got["scores"][1], winner, game["id"], checked)
    )
