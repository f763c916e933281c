# `crib stats` as tables (per player, by role, head to head, hand counts, best hands) or as JSON.
import json

from rich.table import Table

from crib.stats import TOP_HANDS, best_hands, collect
from crib.untrusted import shown


def as_json(con, best=5):
    players, h2h = collect(con)
    order = sorted(players.values(), key=lambda s: (-s.games, s.name))
    return {
        "players": [s.as_dict() for s in order],
        "head_to_head": [
            {
                "players": h["players"],
                "games": h["games"],
                "wins": [h["wins"][k] for k in sorted(h["wins"])],
                "skunks": [h["skunks"][k] for k in sorted(h["skunks"])],
            }
            for _k, h in sorted(h2h.items())
        ],
        "best_hands": best_hands(con, best),
    }


def print_json(con, out, best=5):
    json.dump(as_json(con, best), out, indent=1)
    out.write("\n")


def _pct(wins, games):
    return "%.0f%% of %d" % (100.0 * wins / games, games) if games else "-"


def print_tables(console, con, best=5):
    data = as_json(con, best)
    t = Table(
        "player",
        "games",
        "wins",
        "win %",
        "skunks given",
        "skunked",
        "as 1st dealer",
        "as 1st pone",
        "streaks (best/worst/now)",
        "margin won/lost",
        title="players",
    )
    for p in data["players"]:
        t.add_row(
            shown(p["name"]),
            str(p["games"]),
            str(p["wins"]),
            "%.0f" % (100 * p["win_rate"]),
            "%d (%d double)" % (p["skunks_given"], p["double_skunks_given"]),
            "%d (%d double)" % (p["skunked"], p["double_skunked"]),
            _pct(p["first_dealer"]["wins"], p["first_dealer"]["games"]),
            _pct(p["first_pone"]["wins"], p["first_pone"]["games"]),
            "%d / %d / %+d" % (p["longest_win_streak"], p["longest_losing_streak"], p["current_streak"]),
            "%.1f / %.1f" % (p["avg_margin_won"], p["avg_margin_lost"]),
        )
    console.print(t)
    a = Table(
        "player",
        "hand avg",
        "hand as dealer",
        "hand as pone",
        "crib avg",
        "play as dealer",
        "play as pone",
        "24s",
        "28s",
        "29s",
        "best",
        "points missed",
        "muggins taken",
        title="points (averages per hand, crib and whole deal's play)",
    )
    for p in data["players"]:
        top = p["hands_24_28_29"]
        missed = "%d in %d keyed" % (p["points_missed"], p["keyed_claims"]) if p["keyed_claims"] else "-"
        a.add_row(
            shown(p["name"]),
            "%.2f" % p["hand_avg"],
            "%.2f" % p["hand_avg_dealer"],
            "%.2f" % p["hand_avg_pone"],
            "%.2f" % p["crib_avg"],
            "%.2f" % p["play_avg_dealer"],
            "%.2f" % p["play_avg_pone"],
            *[str(top[str(k)]) for k in TOP_HANDS],
            str(p["best"]),
            missed,
            str(p["muggins_taken"]),
        )
    console.print(a)
    if data["head_to_head"]:
        h = Table("players", "games", "wins", "skunks", title="head to head")
        for x in data["head_to_head"]:
            h.add_row(
                " v ".join(shown(n) for n in x["players"]),
                str(x["games"]),
                "%d-%d" % tuple(x["wins"]),
                "%d-%d" % tuple(x["skunks"]),
            )
        console.print(h)
    d = Table("player", *[str(n) for n in range(30) if n not in (19, 25, 26, 27)], title="hand counts")
    for p in data["players"]:
        dist = p["hand_distribution"]
        d.add_row(
            shown(p["name"]), *[str(dist.get(str(n), "")) for n in range(30) if n not in (19, 25, 26, 27)]
        )
    console.print(d)
    if data["best_hands"]:
        b = Table("points", "player", "kind", "cards | starter", "game", title="best hands")
        for x in data["best_hands"]:
            b.add_row(str(x["points"]), shown(x["name"]), x["kind"], x["cards"], str(x["game"]))
        console.print(b)
