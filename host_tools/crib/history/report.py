# `crib show GAME`: a game as a score sheet: dealer, starter, play and show of each deal, cards as cards.
import time

from rich.table import Table
from rich.text import Text

from crib.untrusted import plain
from cribbage.cards import format_card, format_cards

KIND_WORDS = {
    "hand": "hand",
    "crib": "crib",
    "play": "play",
    "go": "go / last",
    "heels": "his heels",
    "muggins": "muggins",
    "penalty": "penalty",
    "manual": "pegged",
    "last": "three for last",
    "fix": "correction",
}
SIDE_STYLES = ("red", "blue", "green")


def item_parts(it):
    """One item of a count as (reason, points, cards text): the core's [kind, points, [cards]] of a
    show, or [reason, points] of a lay; cards as cards (5H JD), never the core's numbers."""
    if not isinstance(it, (list, tuple)) or not it:
        return str(it), 0, ""
    reason = str(it[0])
    points = next((x for x in it[1:] if isinstance(x, int) and not isinstance(x, bool)), 0)
    cards = next((x for x in it[1:] if isinstance(x, list)), None)
    try:
        text = format_cards(cards) if cards else ""
    except Exception:  # a list that is not cards stays as the board sent it
        text = str(cards)
    return reason, points, text


def item_text(items, sep=", "):
    """An itemised count as 'fifteen 2 (5H JD), pair 2 (5H 5C)'."""
    parts = []
    for it in items or []:
        reason, points, cards = item_parts(it)
        parts.append("%s %d%s" % (reason, points, " (%s)" % cards if cards else ""))
    return sep.join(parts)


def deals(scores):
    """Scores grouped by deal number, in order: [(deal_no, [rows])]."""
    out = []
    for r in scores:
        if not out or out[-1][0] != r["deal_no"]:
            out.append((r["deal_no"], []))
        out[-1][1].append(r)
    return out


SECTIONS = (("the play", ("play", "go", "last", "heels")), ("the show", ("hand", "crib")))


def when(stamp):
    """A laptop time stamp (seconds) as local 'YYYY-MM-DD HH:MM', or '' when unknown."""
    if stamp is None:
        return ""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def deal_heading(deal_no, names, info):
    """'Deal 3: Bob deals, starter 5D' from the replay's (dealer side, starter card)."""
    text = "Deal %d" % deal_no
    if info is not None:
        dealer, starter = info
        if dealer is not None and 0 <= dealer < len(names):
            text += ": %s deals" % plain(names[dealer])
        text += ", starter %s" % (format_card(starter) if starter is not None else "not keyed")
    return text


def coach_line(names, d):
    """'coach: Ann threw 5H JD from 5H 5C 5S JD 4C 6D: 1.32 below the best (throw 4C 6D)'."""
    side = d["side"]
    who = plain(names[side]) if 0 <= side < len(names) else "?"
    verdict = (
        "the best discard"
        if d["lost"] <= 0
        else "%.2f points below the best (throw %s)" % (d["lost"], d["best"])
    )
    return "coach: %s threw %s from %s (%s): %s" % (
        who,
        d["thrown"],
        d["dealt"],
        "own crib" if d["dealer"] else "their crib",
        verdict,
    )


def show_game(console, game, scores, deal_info=None, times=(None, None), discards=()):
    """The game as a score sheet: each deal's dealer and starter, the play's points with why, each
    hand and the crib with its cards and itemised count, and how the game ended."""
    names = game["names"]
    head = "Game %d: %s (%s to %d; board %s, match %d game %d)" % (
        game["id"],
        " v ".join(plain(n) for n in names),
        plain(game["form"]),
        game["target"],
        plain(game["board"]),
        game["match_no"],
        game["game_no"],
    )
    console.print(Text(head, style="bold"))
    if times[0] is not None and times[1] is None:
        console.print(Text("played %s (the board's time, told by crib)" % when(times[0])))
    elif times[0] is not None:
        start, end = when(times[0]), when(times[1])
        span = start if end == start else "%s to %s" % (start, end)
        console.print(Text("played %s (as synced: the board was never told the time)" % span))
    deal_info = deal_info or {}
    for deal_no, rows in deals(scores):
        console.print(Text(deal_heading(deal_no, names, deal_info.get(deal_no)), style="bold underline"))
        t = Table("", "who", "cards", "points", "why", "peg", box=None, pad_edge=False, show_header=False)
        for label, kinds in SECTIONS + (("other", None),):
            chosen = [
                r
                for r in rows
                if (r["kind"] in kinds if kinds else r["kind"] not in SECTIONS[0][1] + SECTIONS[1][1])
            ]
            for n, r in enumerate(chosen):
                side = r["side"]
                pts = "%+d" % r["points"] if r["kind"] == "fix" else str(r["points"])
                word = KIND_WORDS.get(r["kind"], plain(r["kind"]))
                why = item_text(r["items"]) if r["items"] else word
                if r["kind"] in ("hand", "crib"):
                    total = sum(item_parts(i)[1] for i in r["items"]) if r["items"] else r["points"]
                    why = "%s %d%s" % (word, total, ": " + why if r["items"] else "")
                t.add_row(
                    Text(label if n == 0 else "", style="dim"),
                    Text(plain(names[side]), style=SIDE_STYLES[side % 3]),
                    Text(plain(r["cards"])),
                    pts,
                    Text(plain(why, 400)),
                    str(r["front"]),
                )
        console.print(t)
        for d in discards:
            if d["deal"] == deal_no:
                console.print(Text(coach_line(names, d), style="italic"))
    if game["over"]:
        w = names[game["winner"]]
        skunk = [lab for lab in game["skunk"] if lab]
        console.print(
            Text(
                "%s won %s%s"
                % (
                    plain(w),
                    "-".join(str(f) for f in game["final"]),
                    " (%s)" % ", ".join(skunk) if skunk else "",
                ),
                style="bold",
            )
        )
    else:
        console.print("not finished: %s" % "-".join(str(f) for f in game["final"]))
    if game["flagged"]:
        for f in game["flag"].split("\n"):
            console.print(Text("FLAG: " + plain(f, 400), style="bold yellow"))
