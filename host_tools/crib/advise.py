# `crib advise`: every discard of a dealt hand ranked as the board shows it, and the crib tables.
import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cribbage.advice import Advisor, crib_entry, hundredths_text
from cribbage.cards import RANKS, format_card, parse_cards
from cribbage.errors import CribError

# form -> cards thrown: the forms the board advises in, as it names them
_THROWN = {"six": 2, "six61": 2, "five": 2, "three": 1, "four": 1}


def advice(cards, form="six", dealer=True):
    """The ranked discards as dicts, best first: discard, keep, hand, crib, net (two decimals)."""
    a = Advisor()
    a.advise(parse_cards(cards), form, dealer)
    out = []
    for rank in range(a.count):
        thrown, kept, hand, crib, net = a.shown(rank)
        out.append(
            {
                "discard": [format_card(c) for c in thrown],
                "keep": [format_card(c) for c in kept],
                "hand": hand / 100,
                "crib": crib / 100,
                "net": net / 100,
            }
        )
    return out


def crib_table(form="six"):
    """{"dealer": {"A2": 4.2, ...}, "pone": {...}}: keys rank letters, lower rank first."""
    out = {}
    for side, dealer in (("dealer", True), ("pone", False)):
        entries = {}
        if _THROWN[form] == 2:
            for a in range(13):
                for b in range(a, 13):
                    entries[RANKS[a] + RANKS[b]] = crib_entry(form, dealer, a * 13 + b) / 100
        else:
            for a in range(13):
                entries[RANKS[a]] = crib_entry(form, dealer, a) / 100
        out[side] = entries
    return out


def _show(rows, dealer, console):
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for name in ("#", "discard", "keep", "hand", "crib", "net"):
        table.add_column(name, justify="right" if name in ("#", "hand", "crib", "net") else "left")
    for i, r in enumerate(rows, 1):
        crib = hundredths_text(round(r["crib"] * 100))
        table.add_row(
            str(i),
            " ".join(r["discard"]),
            " ".join(r["keep"]),
            "%.2f" % r["hand"],
            ("+" if dealer else "-") + crib,
            "%.2f" % r["net"],
        )
    console.print(
        "discards ranked, best first (%s: the crib is %s)"
        % ("dealer" if dealer else "pone", "yours" if dealer else "your opponent's")
    )
    console.print(table)


def advise(
    cards: Annotated[list[str] | None, typer.Argument(help="the dealt cards, e.g. 5H 5C 5S JD 4C 6D")] = None,
    dealer: Annotated[
        bool | None, typer.Option("--dealer/--pone", help="whose crib: yours (dealer) or the opponent's")
    ] = None,
    form: Annotated[
        str, typer.Option("--form", help="game form as the board names it: " + ", ".join(_THROWN))
    ] = "six",
    table: Annotated[bool, typer.Option("--crib-table", help="print the crib tables instead")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="JSON: a list best first (or the tables)")] = False,
):
    """Rank every discard of a dealt hand: exact expected hand over the unseen starters, the crib
    table's value of the thrown cards, and the net (hand + crib as dealer, hand - crib as pone)."""
    if form not in _THROWN:
        _fail("unknown game form %r: one of %s" % (form, ", ".join(_THROWN)))
    if table:
        if cards:
            _fail("--crib-table takes no cards")
        data = crib_table(form)
        if as_json:
            sys.stdout.write(json.dumps(data) + "\n")
        else:
            console = Console(highlight=False)
            for side, entries in data.items():
                console.print("[bold]%s[/]: %s" % (side, "  ".join("%s %.2f" % kv for kv in entries.items())))
        return
    if not cards:
        _fail("give the dealt cards, e.g. crib advise 5H 5C 5S JD 4C 6D --dealer")
    if dealer is None:
        _fail("say whose crib it is: --dealer (yours) or --pone (your opponent's)")
    try:
        rows = advice(cards, form, dealer)
    except CribError as e:
        _fail(str(e))
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
    else:
        _show(rows, dealer, Console(highlight=False))


def _fail(msg):
    Console(stderr=True, highlight=False).print("[bold red]crib advise:[/] %s" % escape(msg))
    raise typer.Exit(2)


def register(app):
    """Add `crib advise` to the typer app (cli.py calls this once)."""
    app.command("advise")(advise)
