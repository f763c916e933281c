# `crib advise`: every discard of a dealt hand ranked as the board shows it, and the crib tables.
from rich.table import Table

from cribbage.advice import Advisor, crib_entry, hundredths_text
from cribbage.cards import RANKS, format_card, parse_cards

# form -> cards thrown: the forms the board advises in, as it names them
THROWN = {"six": 2, "six61": 2, "five": 2, "three": 1, "four": 1}


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
        if THROWN[form] == 2:
            for a in range(13):
                for b in range(a, 13):
                    entries[RANKS[a] + RANKS[b]] = crib_entry(form, dealer, a * 13 + b) / 100
        else:
            for a in range(13):
                entries[RANKS[a]] = crib_entry(form, dealer, a) / 100
        out[side] = entries
    return out


def print_ranked(rows, dealer, console):
    """The ranked discards as the table `crib advise` prints."""
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
