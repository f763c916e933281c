# `crib duel`: games between the opponent's levels and bots on the line protocol (docs/bots.md).
import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from crib.cli import common
from crib.cli.common import BOTS, Command
from crib.duel.game import FORMS
from crib.duel.run import duel as run_duel

app = typer.Typer()


def _fail(msg):
    Console(stderr=True, highlight=False).print("[bold red]crib duel:[/] %s" % escape(msg))
    raise typer.Exit(2)


def _print(out, console):
    a, b = out["players"]
    lo, hi = out["interval95"]
    console.print(
        "[bold]%s[/] against [bold]%s[/]: %d games (%d deal sequences, seats swapped), %s to %d"
        % (escape(a), escape(b), out["games"], out["sequences"], out["form"], out["target"])
    )
    console.print(
        "  wins %d - %d: %.1f%% (95%% interval %.1f%% .. %.1f%%)"
        % (out["wins"][0], out["wins"][1], 100 * out["win_rate"], 100 * lo, 100 * hi)
    )
    console.print("  points a deal %.2f - %.2f over %d deals" % (*out["points_per_deal"], out["deals"]))
    console.print(
        "  skunks %d - %d, double skunks %d - %d"
        % (out["skunks"][0], out["skunks"][1], out["double_skunks"][0], out["double_skunks"][1])
    )
    if any(out["forfeits"]):
        console.print("  [red]games lost by breaking the protocol %d - %d[/]" % tuple(out["forfeits"]))
        for r in out["forfeit_reasons"][:5]:
            console.print(
                "    game %d, %s: %s"
                % (r["game"] + 1, escape(out["players"][r["player"]]), escape(r["reason"]))
            )
    console.print("  %.1f s, %.1f games a second" % (out["seconds"], out["games_per_second"]))


@app.command("duel", cls=Command, rich_help_panel=BOTS)
def duel(
    player_a: Annotated[
        str, typer.Argument(help="level:beginner | level:expected | level:top | a bot's command line")
    ],
    player_b: Annotated[str, typer.Argument(help="the other player, the same way")],
    games: Annotated[
        int, typer.Option("--games", "-n", help="games to play, even: each deal sequence twice")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="the deals' seed: the same seed, the same deals")] = 1,
    form: Annotated[str, typer.Option("--form", help="game form: " + " or ".join(FORMS))] = "six",
    timeout: Annotated[float, typer.Option("--timeout", help="seconds a bot has for each answer")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="the figures as one JSON object")] = False,
):
    """Play games between two players, each the board's opponent at a level or an external bot.

    Duplicate format: every deal sequence is played twice, the seats (and so the cards) swapped, to
    cut the luck. A bot that answers late, wrongly or not at all loses that game, and the duel goes
    on. Prints wins, the 95% interval of the first player's share, points a deal and skunks."""
    if games < 2 or games % 2:
        _fail("--games must be an even number of at least 2 (each deal sequence is played twice)")
    if form not in FORMS:
        _fail("unknown form %r: the duel plays %s" % (form, " or ".join(FORMS)))
    if timeout <= 0:
        _fail("--timeout must be more than 0 seconds")
    cols = (TextColumn("duel"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    show_bar = games >= 20 and common.err.is_terminal
    try:
        if show_bar:
            with Progress(*cols, console=common.err, transient=True) as bar:
                task = bar.add_task("duel", total=games)
                out = run_duel(player_a, player_b, games // 2, seed, form, timeout, lambda: bar.advance(task))
        else:
            out = run_duel(player_a, player_b, games // 2, seed, form, timeout)
    except ValueError as e:
        _fail(str(e))
    if as_json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        _print(out, Console(highlight=False))
