# `crib ports`, `name`, `sync` (and --follow), `watch` and `crib link ...`: the commands that talk to a board.
import json
import sys
import time
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from crib.cli import common
from crib.cli.common import BOARD, Command, Group, Port, Timeout, fail, plural
from crib.link import ports, share
from crib.link.client import LinkError
from crib.untrusted import shown

app = typer.Typer()
link_app = typer.Typer(
    cls=Group,
    help="talk to the board's link directly (hello, state, events, subscribe)",
    no_args_is_help=True,
)


@app.command("ports", cls=Command, rich_help_panel=BOARD)
def ports_cmd(timeout: Annotated[float, typer.Option(help="seconds to wait for each board's hello")] = 2.0):
    """List the boards plugged in over USB and the running simulators, each with its board id.

    Boards are found by the Raspberry Pi vendor id (0x2E8A); each id is asked through the board's hub,
    so a crib watching it is not disturbed."""
    found = ports.boards()
    sims = ports.simulators()
    if not found and not sims:
        common.console.print(
            "no board found (USB vendor 2e8a) and no simulator on socket://127.0.0.1:%s "
            "(make sim starts one)"
            % "..".join(str(p) for p in sorted({ports.SIM_PORTS[0], ports.SIM_PORTS[-1]})),
            markup=False,
        )
        raise typer.Exit(1)
    for p in found:
        common.console.print("%s  %s" % (ports.describe(p), _board_id(p.device, timeout)), markup=False)
    for url in sims:
        common.console.print(
            "%s  %s  the simulator (make sim)" % (url, _board_id(url, timeout)), markup=False
        )


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


@link_app.command("hello", cls=Command)
def link_hello(port: Port = "auto", timeout: Timeout = 2.0):
    """The board's protocol and firmware version, id and game form."""
    c = common.client(port, timeout)
    common.console.print_json(json.dumps(c.hello))


@link_app.command("state", cls=Command)
def link_state(port: Port = "auto", timeout: Timeout = 2.0):
    """The current derived state of the board's match, as JSON."""
    c = common.client(port, timeout)
    try:
        common.console.print_json(json.dumps(c.state()))
    except LinkError as e:
        fail(str(e), 3)


@link_app.command("events", cls=Command)
def link_events(
    start: Annotated[int, typer.Option("--from", help="first sequence number")] = 0,
    limit: Annotated[int, typer.Option(help="events a page (1..64)")] = 64,
    port: Port = "auto",
    timeout: Timeout = 2.0,
):
    """Events from a sequence number, one JSON line each (every page until the end)."""
    c = common.client(port, timeout)
    try:
        for page in c.iter_pages(start, limit):
            for item in page["events"]:
                sys.stdout.write(json.dumps(item, separators=(",", ":")) + "\n")
    except LinkError as e:
        fail(str(e), 3)


@link_app.command("subscribe", cls=Command)
def link_subscribe(
    start: Annotated[int | None, typer.Option("--from", help="replay from this seq first")] = None,
    seconds: Annotated[float | None, typer.Option(help="stop after this long (default: Ctrl-C)")] = None,
    port: Port = "auto",
    timeout: Timeout = 2.0,
):
    """Print the board's pushes (events, proposal verdicts) as JSON lines as they happen."""
    c = common.client(port, timeout)
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
        fail(str(e), 3)


Wait = Annotated[float, typer.Option(help="seconds to wait for OK/UNDO on the board")]


@link_app.command("propose", cls=Command)
def link_propose(
    event: Annotated[str, typer.Argument(help='the event, e.g. {"t":"fix","s":0,"n":-2}')],
    note: Annotated[str, typer.Option(help="a few words for the board's display")] = "",
    wait: Wait = 60.0,
    port: Port = "auto",
    timeout: Timeout = 2.0,
):
    """Ask the board for a change (a correction): it applies only when a player presses OK."""
    try:
        ev = json.loads(event)
    except ValueError:
        fail("the event is not JSON: %s" % event)
    _propose_and_wait(ev, note, wait, port, timeout)


def _propose_and_wait(ev, note, wait, port, timeout):
    # The board shows the proposal in its own words and applies it only on OK there.
    c = common.client(port, timeout)
    try:
        pid = c.request("propose", event=ev, note=note).get("pending")
    except LinkError as e:
        fail(str(e), 3)
    common.console.print(
        "request %s is on the board's display: press OK there to apply, UNDO to refuse" % shown(pid)
    )
    end = time.monotonic() + wait
    try:
        while time.monotonic() < end:
            push = c.next_push(0.5)
            if push and push.get("push") == "pending" and push.get("pid") == pid:
                why = ": %s" % push["error"] if push.get("error") else ""
                common.console.print(shown("%s%s" % (push.get("status"), why), 200))
                raise typer.Exit(0 if push.get("status") == "applied" else 1)
        c.request("cancel", pending=pid)
    except LinkError as e:
        fail("%s (the request may still be on the board's display: OK there applies it)" % e, 3)
    fail("nobody answered on the board within %.0f s: request withdrawn" % wait, 1)


@app.command("name", cls=Command, rich_help_panel=BOARD)
def name_cmd(
    player: Annotated[int, typer.Argument(help="the player as the board numbers them: 1 for P1, 2 for P2")],
    name: Annotated[str, typer.Argument(help="1-12 letters, digits or ASCII signs (the display's font)")],
    wait: Wait = 60.0,
    port: Port = "auto",
    timeout: Timeout = 2.0,
):
    """Name a player on the board, once a player presses OK there (UNDO refuses).

    The name is shown on the board's display and kept in the history from that game on."""
    from cribbage import events

    if player < 1:
        fail("players are numbered from 1 (P1), not %d" % player)
    _propose_and_wait(events.name(player - 1, name), "crib name", wait, port, timeout)


@app.command("sync", cls=Command, rich_help_panel=BOARD)
def sync_cmd(
    port: Port = "auto",
    db_path: common.DbPath = None,
    timeout: Timeout = 2.0,
    follow: Annotated[
        bool,
        typer.Option(
            "--follow", help="then keep the history current as the board plays (Ctrl-C stops; for crib serve)"
        ),
    ] = False,
):
    """Copy the board's new events into the history and replay every game with the core."""
    from crib.history.replay import rebuild
    from crib.history.sync import sync

    con = common.open_db(db_path, readonly=False)
    c = common.client(port, timeout)
    board = c.hello["board"]
    cols = (
        TextColumn("sync %s" % shown(board)),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("events"),
        TimeRemainingColumn(),
    )
    with Progress(*cols, console=common.err, transient=False) as bar:
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
            fail("%s (what arrived is kept: run crib sync again to resume)" % e, 3)
        except KeyboardInterrupt:
            fail("interrupted (what arrived is kept: run crib sync again to resume)", 130)
    console = common.console
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
        from crib.history.follow import follow as follow_board

        console.print("following the board: Ctrl-C stops")
        try:
            follow_board(c, con, say=console.print, reopen=lambda: common.told(share.connect(port, timeout)))
        except KeyboardInterrupt:
            pass
        except LinkError as e:
            fail("%s (what arrived is kept: run crib sync --follow again)" % e, 3)


@app.command("watch", cls=Command, rich_help_panel=BOARD)
def watch_cmd(
    port: Port = "auto",
    timeout: Timeout = 2.0,
    speak: Annotated[bool, typer.Option("--speak", help="say each score aloud as it is pegged")] = False,
):
    """Show the board live in the terminal: pegs, scores, match points, the last count."""
    from crib.watch import watch

    c = common.client(port, timeout)
    say = None
    if speak:
        from crib.speech import Speaker

        say = Speaker().say
    try:
        watch(c, common.console, reopen=lambda: share.connect(port, timeout), speak=say)
    except KeyboardInterrupt:
        pass
    except LinkError as e:
        fail("%s" % e, 3)


app.add_typer(link_app, name="link", rich_help_panel=BOARD)
