# `crib show GAME`: one game deal by deal, every score with its reason and cards, itemised counts.
from rich.table import Table
from rich.text import Text

from crib.untrusted import plain

KIND_WORDS = {"hand": "hand", "crib": "crib", "play": "play", "go": "go / last", "heels": "his heels",
              "muggins": "muggins", "penalty": "penalty", "manual": "pegged", "last": "three for last",
              "fix": "correction"}
SIDE_STYLES = ("red", "blue", "green")


def item_text(items):
    """An itemised count ([[reason, ..., points], ...] from the core) as 'fifteen 2, pair 2'."""
    parts = []
    for it in items or []:
        if isinstance(it, (list, tuple)) and it:
            words = [str(x) for x in it[:-1] if not isinstance(x, list)]
            parts.append("%s %s" % (" ".join(words) or "?", it[-1]))
        else:
            parts.append(str(it))
    return ", ".join(parts)


def deals(scores):
    """Scores grouped by deal number, in order: [(deal_no, [rows])]."""
    out = []
    for r in scores:
        if not out or out[-1][0] != r["deal_no"]:
            out.append((r["deal_no"], []))
        out[-1][1].append(r)
    return out


def show_game(console, game, scores):
    names = game["names"]
    head = "Game %d (board %s, match %d game %d, %s to %d): %s" % (
        game["id"], plain(game["board"]), game["match_no"], game["game_no"], plain(game["form"]),
        game["target"], " v ".join(plain(n) for n in names))
    console.print(Text(head, style="bold"))
    for deal_no, rows in deals(scores):
        t = Table("seq", "side", "for", "points", "peg", "cards | starter", "itemised",
                  title="deal %d" % deal_no, title_justify="left")
        for r in rows:
            side = r["side"]
            pts = "%+d" % r["points"] if r["kind"] == "fix" else str(r["points"])
            t.add_row(str(r["seq"]), Text(plain(names[side]), style=SIDE_STYLES[side % 3]),
                      Text(KIND_WORDS.get(r["kind"], plain(r["kind"]))), pts, str(r["front"]),
                      Text(r["cards"]), Text(plain(item_text(r["items"]), 400)))
        console.print(t)
    if game["over"]:
        w = names[game["winner"]]
        skunk = [lab for lab in game["skunk"] if lab]
        console.print(Text("%s won %s%s" % (plain(w), "-".join(str(f) for f in game["final"]),
                                       " (%s)" % ", ".join(skunk) if skunk else "")))
    else:
        console.print("not finished: %s" % "-".join(str(f) for f in game["final"]))
    if game["flagged"]:
        for f in game["flag"].split("\n"):
            console.print(Text("FLAG: " + plain(f, 400), style="bold yellow"))
