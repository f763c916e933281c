# `crib score` and `crib advise`: the core's counting and discard advice on hands typed at the laptop.
import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from crib.advise import THROWN, advice, crib_table, print_ranked
from crib.cli.common import HANDS, Command
from crib.score import print_itemised, score_stream
from cribbage.errors import CribError
from cribbage.show import score_show

app = typer.Typer()


def _fail(command, msg):
    Console(stderr=True, highlight=False).print("[bold red]crib %s:[/] %s" % (command, escape(msg)))
    raise typer.Exit(2)


@app.command("score", cls=Command, rich_help_panel=HANDS)
def score(
    cards: Annotated[
        list[str] | None, typer.Argument(help="the hand's cards, e.g. 5H 5C 5S JD (none: read stdin)")
    ] = None,
    starter: Annotated[
        str | None, typer.Option("--starter", "-s", help="the starter (turn-up) card, e.g. 5D")
    ] = None,
    crib: Annotated[bool, typer.Option("--crib", help="score a crib: only 5-card flushes")] = False,
    five_card: Annotated[bool, typer.Option("--five-card", help="five-card game: hands of 3")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="JSON (one object a line from stdin)")] = False,
    speak: Annotated[bool, typer.Option("--speak", help="say the count aloud")] = False,
):
    """Count a hand or crib with its starter: every fifteen, pair, run, flush and nobs, then the total.

    With no cards: read one hand a line from stdin, the starter last, an optional trailing word crib.
    Prints one total a line; a bad line is reported on stderr with its number, the rest still scored.
    Example lines: "5H 5C 5S JD 5D", "2H 4H 6H 8H KH crib". Exit status 1 if any line was bad.
    """
    if not cards:
        bad = score_stream(sys.stdin, sys.stdout, sys.stderr, crib, five_card, as_json)
        sys.stdout.flush()
        if bad:
            raise typer.Exit(1)
        return
    if starter is None:
        # Like a stdin line: the last card is the starter, but only when the count says so: with
        # one card short (5H 5C 5S JD) the last card would silently become the starter.
        want = 3 if five_card else 4
        if len(cards) != want + 1:
            _fail(
                "score",
                "%d cards: give the hand's %d cards and the starter last (%d cards), or the starter "
                "with --starter" % (len(cards), want, want + 1),
            )
        cards, starter = cards[:-1], cards[-1]
    try:
        show = score_show(cards, starter, crib, five_card)
    except CribError as e:
        _fail("score", str(e))
    if as_json:
        sys.stdout.write(json.dumps(show.to_dict()) + "\n")
    else:
        print_itemised(show, Console(highlight=False))
    if speak:
        from crib.speech import Speaker, show_words

        speaker = Speaker()
        speaker.say(show_words(show))
        speaker.wait()


@app.command("advise", cls=Command, rich_help_panel=HANDS)
def advise(
    cards: Annotated[list[str] | None, typer.Argument(help="the dealt cards, e.g. 5H 5C 5S JD 4C 6D")] = None,
    dealer: Annotated[
        bool | None, typer.Option("--dealer/--pone", help="whose crib: yours (dealer) or the opponent's")
    ] = None,
    form: Annotated[
        str, typer.Option("--form", help="game form as the board names it: " + ", ".join(THROWN))
    ] = "six",
    table: Annotated[bool, typer.Option("--crib-table", help="print the crib tables instead")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="JSON: a list best first (or the tables)")] = False,
):
    """Rank every discard of a dealt hand, best first, as the board's advice shows them.

    For each: the exact expected hand over the unseen starters, the crib table's value of the thrown
    cards, and the net (hand + crib as dealer, hand - crib as pone)."""
    if form not in THROWN:
        _fail("advise", "unknown game form %r: one of %s" % (form, ", ".join(THROWN)))
    if table:
        if cards:
            _fail("advise", "--crib-table takes no cards")
        data = crib_table(form)
        if as_json:
            sys.stdout.write(json.dumps(data) + "\n")
        else:
            console = Console(highlight=False)
            for side, entries in data.items():
                console.print("[bold]%s[/]: %s" % (side, "  ".join("%s %.2f" % kv for kv in entries.items())))
        return
    if not cards:
        _fail("advise", "give the dealt cards, e.g. crib advise 5H 5C 5S JD 4C 6D --dealer")
    if dealer is None:
        _fail("advise", "say whose crib it is: --dealer (yours) or --pone (your opponent's)")
    try:
        rows = advice(cards, form, dealer)
    except CribError as e:
        _fail("advise", str(e))
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
    else:
        print_ranked(rows, dealer, Console(highlight=False))
