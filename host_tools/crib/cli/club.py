# `crib club ...`: the director's commands for a club night (register, schedule, standings, scorecards, pots).
import difflib
import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape as markup_escape
from rich.table import Table

from crib import club
from crib.cli import common
from crib.cli.common import Command, Group
from crib.store import clubdb, db
from crib.untrusted import printable

app = typer.Typer(
    cls=Group, help="a club night: players, boards, rounds, standings, scorecards", no_args_is_help=True
)
DB_HELP = "the history database the boards sync into (default: per-user data folder, or $CRIB_DB)"
DbPath = Annotated[str | None, typer.Option("--db", help=DB_HELP)]
Night = Annotated[int | None, typer.Option(help="the night's number (default: the latest)")]
AsJson = Annotated[bool, typer.Option("--json", help="rows as JSON")]


def escape(text):
    """Text for a rich console string: a name a director typed, a board's words (markup and control
    characters shown as text)."""
    return markup_escape(printable(str(text)))


def open_db(path, readonly=True):
    """The history, or a one-line failure in the club's words."""
    try:
        return db.connect(path, readonly)
    except db.DbError as e:
        _fail(str(e))


def _fail(msg):
    Console(stderr=True).print("[bold red]crib club:[/] %s" % escape(msg))
    raise typer.Exit(1)


def _run(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except club.ClubError as e:
        _fail(str(e))


def _problems(problems):
    for p in problems:
        common.console.print("[yellow]note:[/] %s" % escape(p))


def _in_night(con, n, player):
    """Fail, naming the night's close names, when `player` plays no game of night `n`."""
    seated = set(club.players_of(clubdb.schedule(con, n["id"])))
    if player in seated:
        return
    by_case = {p.casefold(): p for p in seated}
    close = difflib.get_close_matches(player, sorted(seated), n=3, cutoff=0.5)
    if player.casefold() in by_case and by_case[player.casefold()] not in close:
        close.insert(0, by_case[player.casefold()])
    hint = "did you mean %s?" % " or ".join(close) if close else "its players: %s" % ", ".join(sorted(seated))
    _fail("%s is not in night %d (%s): %s" % (player, n["id"], n["name"], hint))


@app.command("night", cls=Command)
def night_cmd(
    name: Annotated[str, typer.Argument(help="the night's name, e.g. 'Tuesday 1 Dec'")],
    players: Annotated[list[str], typer.Option("--player", help="a player of the night (repeat)")],
    boards: Annotated[list[str], typer.Option("--board", help="a board id, table 1 first (repeat)")],
    games: Annotated[int, typer.Option(help="games each player plays")] = 9,
    scoring: Annotated[str, typer.Option(help="game points: " + ", ".join(sorted(club.VARIANTS)))] = "acc",
    draw: Annotated[
        int | None, typer.Option(help="a seat draw from this seed (default: the rotation as listed)")
    ] = None,
    db_path: DbPath = None,
):
    """Register a night and print its rounds: who plays whom on which board."""
    con = open_db(db_path, readonly=False)
    n = _run(clubdb.open_night, con, name, players, boards, games, scoring, draw)
    common.console.print("night %d: %s" % (n, escape(name)))
    _print_schedule(clubdb.schedule(con, n))
    for board in clubdb.unseen(con, clubdb.board_ids(con, boards)):
        common.console.print(
            "[yellow]note:[/] board %s has never synced into this history: check its id "
            "(crib link hello shows it); a new board counts once it syncs" % escape(board)
        )


@app.command("schedule", cls=Command)
def schedule_cmd(
    night: Night = None,
    db_path: DbPath = None,
):
    """The night's rounds again (to reprint the table cards)."""
    con = open_db(db_path)
    n = clubdb.night(con, night)
    if n is None:
        _fail("no club night yet: start one with `crib club night`")
    _print_schedule(clubdb.schedule(con, n["id"]))


@app.command("standings", cls=Command)
def standings_cmd(
    night: Night = None,
    as_json: AsJson = False,
    db_path: DbPath = None,
):
    """Standings in ACC order: game points, games won, spread, head to head.

    The players with no finished game yet come last, with no place (-)."""
    n, rows, problems = _run(clubdb.standings, open_db(db_path), night)
    if as_json:
        print(json.dumps({"night": n["id"], "name": n["name"], "standings": rows, "notes": problems}))
        return
    t = Table(
        "place",
        "player",
        "games",
        "won",
        "lost",
        "points",
        "spread",
        "skunks",
        "skunked",
        title="%s: standings" % escape(n["name"]),
    )
    for r in rows:
        t.add_row(
            "-" if r["place"] is None else str(r["place"]),
            escape(str(r["player"])),
            str(r["games"]),
            str(r["won"]),
            str(r["lost"]),
            str(r["points"]),
            "%+d" % r["spread"],
            str(r["skunks"]),
            str(r["skunked"]),
        )
    common.console.print(t)
    _problems(problems)


@app.command("scorecard", cls=Command)
def scorecard_cmd(
    player: Annotated[str, typer.Argument(help="the player's name as registered")],
    night: Night = None,
    as_json: Annotated[bool, typer.Option("--json", help="lines as JSON")] = False,
    db_path: DbPath = None,
):
    """A player's scorecard as the ACC sheet shows it: opponent, won/lost, spread, running totals."""
    con = open_db(db_path)
    n, found, problems = _run(clubdb.results, con, night)
    _in_night(con, n, player)
    lines = club.scorecard(player, found, n["scoring"])
    if as_json:
        print(json.dumps({"night": n["id"], "player": player, "lines": lines}))
        return
    t = Table(
        "game",
        "board",
        "opponent",
        "W/L",
        "score",
        "spread",
        "points",
        "total",
        "total spread",
        title="%s: %s" % (escape(n["name"]), escape(player)),
    )
    for c in lines:
        score = "%d-%d%s" % (c["score"], c["against"], " " + c["skunk"] if c["skunk"] else "")
        t.add_row(
            str(c["round"]),
            escape(str(c["board"])),
            escape(str(c["opponent"])),
            c["result"],
            score,
            "%+d" % c["spread"],
            str(c["points"]),
            str(c["total"]),
            "%+d" % c["total_spread"],
        )
    common.console.print(t)


@app.command("pots", cls=Command)
def pots_cmd(
    night: Night = None,
    db_path: DbPath = None,
):
    """The night's side-pot hands: 24, 28 and 29 hands and four of a kind."""
    pots = club.side_pots(_run(clubdb.pot_hands, open_db(db_path), night))
    if not pots:
        common.console.print("no pot hands yet")
    for p in pots:
        common.console.print(
            "game %d board %s: %s, %s %s (%s)"
            % (p["round"], escape(str(p["board"])), escape(p["player"]), p["kind"], p["cards"], p["why"])
        )


@app.command("season", cls=Command)
def season_cmd(
    drop_worst: Annotated[int, typer.Option(help="each player's worst nights left out")] = 0,
    as_json: AsJson = False,
    db_path: DbPath = None,
):
    """Season standings over every night in the database."""
    rows = _run(clubdb.season, open_db(db_path), drop_worst)
    if as_json:
        print(json.dumps(rows))
        return
    t = Table("place", "player", "nights", "dropped", "points", "won", "spread", title="season")
    for r in rows:
        t.add_row(
            str(r["place"]),
            escape(str(r["player"])),
            str(r["nights"]),
            str(r["dropped"]),
            str(r["points"]),
            str(r["won"]),
            "%+d" % r["spread"],
        )
    common.console.print(t)


def _print_schedule(rounds):
    t = Table("game", "board", "first seat", "second seat", title="rounds")
    for k, tables in enumerate(rounds, 1):
        for board, a, b in tables:
            t.add_row(str(k), escape(str(board)), escape(a), escape(b))
    common.console.print(t)
