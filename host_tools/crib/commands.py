# The board-facing `crib` commands: ports, link, sync, watch, games, show, stats, plot, export, deploy, sim.
import json
import sys

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from crib import ports, share
from crib.client import LinkError
from crib.store import address, db
from crib.untrusted import shown

PORT_HELP = "auto | DEVICE | id:SERIAL | socket://HOST:PORT (the simulator), as mpremote takes"
DB_HELP = "the history database (default: per-user data folder, or $CRIB_DB)"

console = Console()
err = Console(stderr=True)


def _fail(msg, code=1):
    # Messages quote the board's words (a refusal, an id): shown as text, never as markup or codes.
    err.print("[bold red]crib:[/] %s" % shown(msg, 400))
    raise typer.Exit(code)


def plural(n, word):
    """'1 game', '2 games'."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _out_file(out):
    """`out` if its folder exists (so a write cannot fail half way with a traceback), else a clear error."""
    import os

    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        _fail("no folder %s for %s: make it first, or give another --out" % (folder, out), 2)
    if os.path.isdir(out):
        _fail("%s is a folder: give --out a file name" % out, 2)
    return out


def _client(port, timeout):
    # Through the board's hub (share.py): watch, sync, follow and name share one board.
    try:
        c = share.connect(port, timeout)
    except ports.PortError as e:
        _fail(str(e), 2)
    except LinkError as e:
        _fail(str(e), 3)
    return c


def _told(client):
    """`client`, saying on the console when its sync waits its turn behind another crib's."""
    client.on_wait = console.print
    return client


def _db(path, readonly=True):
    try:
        return db.connect(path, readonly)
    except db.DbError as e:
        _fail(str(e), 4)


def register(app):
    """Add the commands to the `crib` typer app (cli.py calls this once)."""
    link_app = typer.Typer(
        help="talk to the board's link directly (hello, state, events, subscribe)", no_args_is_help=True
    )
    app.add_typer(link_app, name="link")

    @app.command("ports")
    def ports_cmd(timeout: float = typer.Option(2.0, help="seconds to wait for each board's hello")):
        """List the boards plugged in over USB (Raspberry Pi vendor id 0x2E8A) and the running simulators,
        each with its board id (asked through its hub: a crib watching it is not disturbed)."""
        found = ports.boards()
        sims = ports.simulators()
        if not found and not sims:
            console.print(
                "no board found (USB vendor 2e8a) and no simulator on socket://127.0.0.1:%s "
                "(make sim starts one)"
                % "..".join(str(p) for p in sorted({ports.SIM_PORTS[0], ports.SIM_PORTS[-1]})),
                markup=False,
            )
            raise typer.Exit(1)
        for p in found:
            console.print("%s  %s" % (ports.describe(p), _board_id(p.device, timeout)), markup=False)
        for url in sims:
            console.print("%s  %s  the simulator (make sim)" % (url, _board_id(url, timeout)), markup=False)

    def _board_id(target, timeout):
        """'board ID' from the board's hello, or why there is none (busy, at the REPL prompt, ...)."""
        try:
            c = share.connect(target, timeout)
        except (ports.PortError, LinkError) as e:
            return "(no board id: %s)" % shown(str(e), 200)
        try:
            return "board %s" % shown(c.hello["board"])
        finally:
            c.close()

    @link_app.command("hello")
    def link_hello(
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
        timeout: float = typer.Option(2.0, help="seconds to wait for each answer"),
    ):
        """The board's protocol and firmware version, id and game form."""
        c = _client(port, timeout)
        console.print_json(json.dumps(c.hello))

    @link_app.command("state")
    def link_state(
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP), timeout: float = typer.Option(2.0)
    ):
        """The current derived state of the board's match, as JSON."""
        c = _client(port, timeout)
        try:
            console.print_json(json.dumps(c.state()))
        except LinkError as e:
            _fail(str(e), 3)

    @link_app.command("events")
    def link_events(
        start: int = typer.Option(0, "--from", help="first sequence number"),
        limit: int = typer.Option(64, help="events a page (1..64)"),
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
        timeout: float = typer.Option(2.0),
    ):
        """Events from a sequence number, one JSON line each (every page until the end)."""
        c = _client(port, timeout)
        try:
            for page in c.iter_pages(start, limit):
                for item in page["events"]:
                    sys.stdout.write(json.dumps(item, separators=(",", ":")) + "\n")
        except LinkError as e:
            _fail(str(e), 3)

    @link_app.command("subscribe")
    def link_subscribe(
        start: int = typer.Option(None, "--from", help="replay from this seq first"),
        seconds: float = typer.Option(None, help="stop after this long (default: Ctrl-C)"),
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
        timeout: float = typer.Option(2.0),
    ):
        """Print the board's pushes (events, proposal verdicts) as JSON lines as they happen."""
        import time

        c = _client(port, timeout)
        end = None if seconds is None else time.monotonic() + seconds
        try:
            c.subscribe(start)
            while end is None or time.monotonic() < end:
                push = c.next_push(0.5)
                if push is not None:
                    sys.stdout.write(json.dumps(push, separators=(",", ":")) + "\n")
                    sys.stdout.flush()
        except KeyboardInterrupt:
            pass
        except LinkError as e:
            _fail(str(e), 3)

    @link_app.command("propose")
    def link_propose(
        event: str = typer.Argument(..., help='the event, e.g. {"t":"fix","s":0,"n":-2}'),
        note: str = typer.Option("", help="a few words for the board's display"),
        wait: float = typer.Option(60.0, help="seconds to wait for OK/UNDO on the board"),
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
        timeout: float = typer.Option(2.0),
    ):
        """Ask the board for a change (a correction): it applies only when a player presses OK."""
        try:
            ev = json.loads(event)
        except ValueError:
            _fail("the event is not JSON: %s" % event)
        _propose_and_wait(ev, note, wait, port, timeout)

    def _propose_and_wait(ev, note, wait, port, timeout):
        # The board shows the proposal in its own words and applies it only on OK there.
        c = _client(port, timeout)
        try:
            pid = c.request("propose", event=ev, note=note).get("pending")
        except LinkError as e:
            _fail(str(e), 3)
        console.print(
            "request %s is on the board's display: press OK there to apply, UNDO to refuse" % shown(pid)
        )
        import time

        end = time.monotonic() + wait
        try:
            while time.monotonic() < end:
                push = c.next_push(0.5)
                if push and push.get("push") == "pending" and push.get("pid") == pid:
                    why = ": %s" % push["error"] if push.get("error") else ""
                    console.print(shown("%s%s" % (push.get("status"), why), 200))
                    raise typer.Exit(0 if push.get("status") == "applied" else 1)
            c.request("cancel", pending=pid)
        except LinkError as e:
            _fail("%s (the request may still be on the board's display: OK there applies it)" % e, 3)
        _fail("nobody answered on the board within %.0f s: request withdrawn" % wait, 1)

    @app.command("name")
    def name_cmd(
        player: int = typer.Argument(..., help="the player as the board numbers them: 1 for P1, 2 for P2"),
        name: str = typer.Argument(..., help="1-12 letters, digits or ASCII signs (the display's font)"),
        wait: float = typer.Option(60.0, help="seconds to wait for OK/UNDO on the board"),
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
        timeout: float = typer.Option(2.0),
    ):
        """Name a player on the board: shown on its display and kept in the history from that game on,
        once a player presses OK there (UNDO refuses)."""
        from cribbage import events

        if player < 1:
            _fail("players are numbered from 1 (P1), not %d" % player)
        _propose_and_wait(events.name(player - 1, name), "crib name", wait, port, timeout)

    @app.command("sync")
    def sync_cmd(
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
        db_path: str = typer.Option(None, "--db", help=DB_HELP),
        timeout: float = typer.Option(2.0, help="seconds to wait for each answer"),
        follow: bool = typer.Option(
            False,
            "--follow",
            help="then keep the history current as the board plays (Ctrl-C stops; for crib serve)",
        ),
    ):
        """Copy the board's new events into the history and replay every game with the core."""
        from crib.replay import rebuild
        from crib.sync import sync

        con = _db(db_path, readonly=False)
        c = _client(port, timeout)
        board = c.hello["board"]
        cols = (
            TextColumn("sync %s" % shown(board)),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("events"),
            TimeRemainingColumn(),
        )
        with Progress(*cols, console=err, transient=False) as bar:
            task = bar.add_task("sync", total=None)
            c.on_wait = bar.console.print  # another crib's sync of this board goes first

            def progress(done, end, start=[None]):  # noqa: B006 (first call's seq, kept across calls)
                if start[0] is None:
                    start[0] = done
                bar.update(task, total=max(0, end - start[0]), completed=max(0, done - start[0]))

            try:
                report = sync(c, con, progress=progress)
            except LinkError as e:
                # what arrived is replayed now: the games are current whatever the next try brings
                stored = getattr(e, "report", None)
                if stored is not None:
                    rebuild(con, board, stored.changed)
                _fail("%s (what arrived is kept: run crib sync again to resume)" % e, 3)
            except KeyboardInterrupt:
                _fail("interrupted (what arrived is kept: run crib sync again to resume)", 130)
        console.print(shown(str(report), 400))
        games, orphans, _m = rebuild(con, board, report.changed)  # the matches that changed only
        flagged = [g for g in games if g.flags]
        console.print("%s replayed with the core, %d flagged" % (plural(len(games), "game"), len(flagged)))
        if orphans:
            console.print(
                "[yellow]%s before the first match set-up could not be replayed[/]"
                % plural(len(orphans), "event")
            )
        for g in flagged:
            for f in g.flags:
                console.print("[yellow]flag[/] match %d game %d: %s" % (g.match_no, g.game_no, shown(f, 200)))
        if follow:
            from crib.follow import follow as follow_board

            console.print("following the board: Ctrl-C stops")
            try:
                follow_board(c, con, say=console.print, reopen=lambda: _told(share.connect(port, timeout)))
            except KeyboardInterrupt:
                pass
            except LinkError as e:
                _fail("%s (what arrived is kept: run crib sync --follow again)" % e, 3)

    @app.command("watch")
    def watch_cmd(
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP), timeout: float = typer.Option(2.0)
    ):
        """Show the board live in the terminal: pegs, scores, match points, the last count."""
        from crib.watch import watch

        c = _client(port, timeout)

        try:
            watch(c, console, reopen=lambda: share.connect(port, timeout))
        except KeyboardInterrupt:
            pass
        except LinkError as e:
            _fail("%s" % e, 3)

    @app.command("games")
    def games_cmd(db_path: str = typer.Option(None, "--db", help=DB_HELP)):
        """The games in the history, oldest first: when, who, the score, the winner and any skunk."""
        from crib.report import when

        con = _db(db_path)
        # Oldest first by when each game was played, whichever board it was on (ids break ties).
        rows = sorted(
            ((db.game_times(con, g)[0], g) for g in db.games(con)), key=lambda x: (x[0] or 0, x[1]["id"])
        )
        flagged = any(g["flagged"] for _t, g in rows)
        boards = len({g["board"] for _t, g in rows}) > 1  # a club's history: which board played it
        t = Table(
            "game",
            "played",
            *(["board"] if boards else []),
            "players",
            "score",
            "winner",
            "skunk",
            "deals",
            "match",
            *(["flag"] if flagged else []),
            box=box.SIMPLE_HEAD,
            pad_edge=False,
        )
        for col in t.columns[:4]:
            col.no_wrap = True
        for start, g in rows:
            winner = shown(g["names"][g["winner"]]) if g["winner"] is not None else "(open)"
            skunk = ",".join(x for x in g["skunk"] if x)
            t.add_row(
                str(g["id"]),
                when(start),
                *([shown(g["board"])] if boards else []),
                " v ".join(shown(n) for n in g["names"]),
                "-".join(str(f) for f in g["final"]),
                winner,
                skunk,
                str(g["deals"]),
                "%d, game %d" % (g["match_no"], g["game_no"]),
                *(["FLAGGED" if g["flagged"] else ""] if flagged else []),
            )
        console.print(t)

    @app.command("show")
    def show_cmd(
        game: int = typer.Argument(..., help="game id (see crib games)"),
        db_path: str = typer.Option(None, "--db", help=DB_HELP),
    ):
        """One game deal by deal, every score itemised."""
        from crib.report import show_game

        con = _db(db_path)
        g = db.game(con, game)
        if g is None:
            where = address.describe(db_path or db.default_path())
            _fail("no game %d in %s (see crib games)" % (game, where))
        from crib.replay import replay_board

        # The deals' dealers and starters come from replaying the board's events with the core.
        games, _o, _m = replay_board(g["board"], list(db.events(con, g["board"])))
        same = next((x for x in games if x.first_seq == g["first_seq"]), None)
        info = same.deal_info if same is not None else {}
        coach = same.discards if same is not None else []
        show_game(console, g, db.scores(con, game), info, db.game_times(con, g), coach)

    @app.command("stats")
    def stats_cmd(
        db_path: str = typer.Option(None, "--db", help=DB_HELP),
        best: int = typer.Option(5, help="how many best hands to list"),
        as_json: bool = typer.Option(False, "--json", help="the figures as JSON"),
        plot: str = typer.Option(None, "--plot", help="also draw the players side by side (PNG)"),
    ):
        """Per player and head to head: games, wins, skunks, first deal, averages as dealer and pone,
        hand counts, 24/28/29s, streaks, margins, counting accuracy, best hands."""
        from crib import statsview

        con = _db(db_path)
        if as_json:
            statsview.print_json(con, sys.stdout, best)
        else:
            statsview.print_tables(console, con, best)
        if plot:
            from crib.plot import plot_stats

            path = plot_stats(statsview.as_json(con, best), _out_file(plot))
            err.print("wrote %s" % shown(path, 400))

    @app.command("plot")
    def plot_cmd(
        game: int = typer.Argument(..., help="game id (see crib games)"),
        out: str = typer.Option(None, "--out", "-o", help="PNG file (default: crib-game-N.png)"),
        db_path: str = typer.Option(None, "--db", help=DB_HELP),
    ):
        """The pegging graph of a game: each side's score by deal, with the skunk lines (PNG)."""
        from crib.plot import plot_game

        con = _db(db_path)
        g = db.game(con, game)
        if g is None:
            _fail("no game %d (see crib games)" % game)
        from crib.replay import replay_board

        games, _o, _m = replay_board(g["board"], list(db.events(con, g["board"])))
        info = next((x.deal_info for x in games if x.first_seq == g["first_seq"]), {})
        path = plot_game(
            g,
            db.scores(con, game),
            _out_file(out or "crib-game-%d.png" % game),
            dealers={d: v[0] for d, v in info.items()},
        )
        console.print("wrote %s" % shown(path, 400))

    @app.command("export")
    def export_cmd(
        as_csv: bool = typer.Option(False, "--csv", help="one row per score"),
        as_json: bool = typer.Option(False, "--json", help="games with scores and events"),
        out: str = typer.Option("-", "--out", "-o", help="file (default: standard output)"),
        db_path: str = typer.Option(None, "--db", help=DB_HELP),
    ):
        """Export the history as CSV or JSON (default: by the --out file's extension, else CSV)."""
        from crib import export

        if as_csv and as_json:
            _fail("say --csv or --json, not both")
        if not as_csv and not as_json:
            as_json = out.lower().endswith(".json")
            as_csv = not as_json
        con = _db(db_path)
        write = export.write_csv if as_csv else export.write_json
        if out == "-":
            write(con, sys.stdout)
            return
        try:
            n = export.write_file(_out_file(out), lambda f: write(con, f))
        except KeyboardInterrupt:
            _fail("interrupted: %s is left as it was" % out, 130)
        except OSError as e:
            _fail("cannot write %s (%s): it is left as it was" % (out, e.strerror or e), 2)
        console.print("wrote %d %s to %s" % (n, "rows" if as_csv else "games", shown(out, 400)))

    from crib.tools import repo_root

    if repo_root() is None:
        # A pip-installed crib has no firmware or tools/ beside it: it does not offer what it cannot do.
        return

    @app.command("deploy", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def deploy_cmd(
        ctx: typer.Context,
        port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
        dry_run: bool = typer.Option(False, "--dry-run", help="list what it would copy"),
    ):
        """Compile and copy the firmware to the board (the same as `make deploy`; tools/deploy.py's options
        such as --full and --no-reset pass through)."""
        from crib.tools import deploy

        raise typer.Exit(deploy(port, (["--dry-run"] if dry_run else []) + list(ctx.args)))

    @app.command("sim", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def sim_cmd(
        ctx: typer.Context,
        link_port: int = typer.Option(7373, "--link", help="TCP port of the sim's link on 127.0.0.1"),
        headless: bool = typer.Option(False, help="no board drawing (scripts, CI)"),
    ):
        """Run the board firmware in the simulator, its link on socket://127.0.0.1:PORT."""
        from crib.tools import sim

        console.print("link: crib sync --port socket://127.0.0.1:%d" % link_port)
        raise typer.Exit(sim(link_port, headless, list(ctx.args)))
