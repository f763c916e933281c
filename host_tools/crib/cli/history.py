# `crib games`, `show`, `stats`, `plot`, `export` and `stakes`: the commands that read the synced history.
import sys
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from crib.cli import common
from crib.cli.common import HISTORY, Command, DbPath, fail
from crib.history import stakes
from crib.store import address, db
from crib.untrusted import shown

app = typer.Typer()


@app.command("games", cls=Command, rich_help_panel=HISTORY)
def games_cmd(db_path: DbPath = None):
    """The games in the history, oldest first: when, who, the score, the winner and any skunk."""
    from crib.history.report import when

    con = common.open_db(db_path)
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
    common.console.print(t)


Game = Annotated[int, typer.Argument(help="game id (see crib games)")]


@app.command("show", cls=Command, rich_help_panel=HISTORY)
def show_cmd(game: Game, db_path: DbPath = None):
    """One game deal by deal, every score itemised."""
    from crib.history.replay import replay_board
    from crib.history.report import show_game

    con = common.open_db(db_path)
    g = db.game(con, game)
    if g is None:
        where = address.describe(db_path or db.default_path())
        fail("no game %d in %s (see crib games)" % (game, where))
    # The deals' dealers and starters come from replaying the board's events with the core.
    games, _o, _m = replay_board(g["board"], list(db.events(con, g["board"])))
    same = next((x for x in games if x.first_seq == g["first_seq"]), None)
    info = same.deal_info if same is not None else {}
    coach = same.discards if same is not None else []
    show_game(common.console, g, db.scores(con, game), info, db.game_times(con, g), coach)


@app.command("stats", cls=Command, rich_help_panel=HISTORY)
def stats_cmd(
    db_path: DbPath = None,
    best: Annotated[int, typer.Option(help="how many best hands to list")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="the figures as JSON")] = False,
    plot: Annotated[
        str | None, typer.Option("--plot", help="also draw the players side by side (PNG)")
    ] = None,
):
    """The figures per player and head to head, from games and wins to the best hands.

    Games, wins, skunks, first deal, averages as dealer and pone, hand counts, 24/28/29s, streaks,
    margins, counting accuracy, best hands."""
    from crib.history import statsview

    con = common.open_db(db_path)
    if as_json:
        statsview.print_json(con, sys.stdout, best)
    else:
        statsview.print_tables(common.console, con, best)
    if plot:
        from crib.history.plot import plot_stats

        path = plot_stats(statsview.as_json(con, best), common.out_file(plot))
        common.err.print("wrote %s" % shown(path, 400))


@app.command("plot", cls=Command, rich_help_panel=HISTORY)
def plot_cmd(
    game: Game,
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="PNG file (default: crib-game-N.png)")
    ] = None,
    db_path: DbPath = None,
):
    """The pegging graph of a game: each side's score by deal, with the skunk lines (PNG)."""
    from crib.history.plot import plot_game
    from crib.history.replay import replay_board

    con = common.open_db(db_path)
    g = db.game(con, game)
    if g is None:
        fail("no game %d (see crib games)" % game)
    games, _o, _m = replay_board(g["board"], list(db.events(con, g["board"])))
    info = next((x.deal_info for x in games if x.first_seq == g["first_seq"]), {})
    path = plot_game(
        g,
        db.scores(con, game),
        common.out_file(out or "crib-game-%d.png" % game),
        dealers={d: v[0] for d, v in info.items()},
    )
    common.console.print("wrote %s" % shown(path, 400))


@app.command("export", cls=Command, rich_help_panel=HISTORY)
def export_cmd(
    as_csv: Annotated[bool, typer.Option("--csv", help="one row per score")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="games with scores and events")] = False,
    out: Annotated[str, typer.Option("--out", "-o", help="file (default: standard output)")] = "-",
    db_path: DbPath = None,
):
    """Export the history as CSV or JSON (default: by the --out file's extension, else CSV)."""
    from crib.history import export

    if as_csv and as_json:
        fail("say --csv or --json, not both")
    if not as_csv and not as_json:
        as_json = out.lower().endswith(".json")
        as_csv = not as_json
    con = common.open_db(db_path)
    write = export.write_csv if as_csv else export.write_json
    if out == "-":
        write(con, sys.stdout)
        return
    try:
        n = export.write_file(common.out_file(out), lambda f: write(con, f))
    except KeyboardInterrupt:
        fail("interrupted: %s is left as it was" % out, 130)
    except OSError as e:
        fail("cannot write %s (%s): it is left as it was" % (out, e.strerror or e), 2)
    common.console.print("wrote %d %s to %s" % (n, "rows" if as_csv else "games", shown(out, 400)))


@app.command("stakes", cls=Command, rich_help_panel=HISTORY)
def stakes_cmd(
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help="NAME=VALUE: per_game, per_point, skunk, double, unit (kept on this laptop)"
        ),
    ] = None,
    db_path: DbPath = None,
):
    """A stakes ledger: what each finished game cost its loser, and each pair of players' balance.

    A game costs per game and per point short, times the skunk or double skunk multiplier."""
    from crib.history.report import when
    from crib.history.stats import key

    console = Console(highlight=False)
    path = stakes.settings_path(db_path)
    try:
        st = stakes.change(path, set_) if set_ else stakes.load(path)
    except (ValueError, OSError) as e:
        Console(stderr=True).print("[bold red]crib:[/] %s" % shown(str(e), 200))
        raise typer.Exit(2) from None
    try:
        con = db.connect(db_path, readonly=True)
    except db.DbError as e:
        Console(stderr=True).print("[bold red]crib:[/] %s" % shown(str(e), 400))
        raise typer.Exit(4) from None
    unit = shown(st["unit"])
    console.print(
        "stakes: %s%g a game, %s%g a point short, skunk x%g, double skunk x%g (%s)"
        % (unit, st["per_game"], unit, st["per_point"], st["skunk"], st["double"], shown(path, 200))
    )
    rows = stakes.ledger(con, st)
    t = Table("game", "played", "winner", "loser", "score", "skunk", "pays", "balance", title="ledger")
    final = {}
    for g, win, lose, pay, pair, bal in rows:
        names = {key(win): win, key(lose): lose}
        final[pair] = (names[pair[0]], names[pair[1]], bal)
        who = (
            "%s owes %s %s%.2f" % (shown(names[pair[1]]), shown(names[pair[0]]), unit, bal)
            if bal >= 0
            else "%s owes %s %s%.2f" % (shown(names[pair[0]]), shown(names[pair[1]]), unit, -bal)
        )
        t.add_row(
            str(g["id"]),
            when(db.game_times(con, g)[0]),
            shown(win),
            shown(lose),
            "-".join(str(f) for f in g["final"]),
            g["skunk"][1 - g["winner"]],
            "%s%.2f" % (unit, pay),
            who,
        )
    console.print(t)
    for a, b, bal in final.values():
        owes, to = (b, a) if bal >= 0 else (a, b)
        console.print("%s owes %s %s%.2f" % (shown(owes), shown(to), unit, abs(bal)))
