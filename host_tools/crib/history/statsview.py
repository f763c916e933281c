# `crib stats` as tables (per player, by role, head to head, hand counts, best hands) or as JSON.
import json

from rich.table import Table

from crib.history.stats import TOP_HANDS, best_hands, collect
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


def _avg(p, key, n, fmt="%.2f"):
    # An average over nothing (no hand as pone yet, no game lost) is "-", not a count of 0.
    return fmt % p[key] if p[n] else "-"


# (label, how to show it from a player's dict): one row each, one column per player, so two to
# four players fit an 80-column terminal.
FIGURES = (
    ("games", lambda p: str(p["games"])),
    ("wins", lambda p: "%d (%.0f%%)" % (p["wins"], 100 * p["win_rate"])),
    ("won as first dealer", lambda p: _pct(p["first_dealer"]["wins"], p["first_dealer"]["games"])),
    ("won as first pone", lambda p: _pct(p["first_pone"]["wins"], p["first_pone"]["games"])),
    ("skunks given", lambda p: "%d (%d double)" % (p["skunks_given"], p["double_skunks_given"])),
    ("skunked", lambda p: "%d (%d double)" % (p["skunked"], p["double_skunked"])),
    (
        "streaks: best, worst, now",
        lambda p: "%d, %d, %+d" % (p["longest_win_streak"], p["longest_losing_streak"], p["current_streak"]),
    ),
    (
        "margin won / lost by",
        lambda p: (
            "%s / %s"
            % (_avg(p, "avg_margin_won", "wins", "%.1f"), _avg(p, "avg_margin_lost", "losses", "%.1f"))
        ),
    ),
    ("hand avg", lambda p: "%s (%d hands)" % (_avg(p, "hand_avg", "hands"), p["hands"])),
    (
        "  as dealer / pone",
        lambda p: (
            "%s / %s" % (_avg(p, "hand_avg_dealer", "hands_dealer"), _avg(p, "hand_avg_pone", "hands_pone"))
        ),
    ),
    ("crib avg", lambda p: "%s (%d cribs)" % (_avg(p, "crib_avg", "cribs"), p["cribs"])),
    (
        "play a deal as dealer / pone",
        lambda p: (
            "%s / %s"
            % (_avg(p, "play_avg_dealer", "play_deals_dealer"), _avg(p, "play_avg_pone", "play_deals_pone"))
        ),
    ),
    ("24 / 28 / 29 hands", lambda p: " / ".join(str(p["hands_24_28_29"][str(k)]) for k in TOP_HANDS)),
    ("best hand", lambda p: str(p["best"])),
    ("points missed (keyed claims)", lambda p: "%d (%d)" % (p["points_missed"], p["keyed_claims"])),
    ("muggins taken", lambda p: str(p["muggins_taken"])),
    (
        "discards: points lost a deal",
        lambda p: "%s (%d keyed)" % (_avg(p, "discard_lost_avg", "discards"), p["discards"]),
    ),
)


def print_tables(console, con, best=5):
    data = as_json(con, best)
    players = data["players"]
    if not players:
        console.print("no games in the history yet: crib sync first")
        return
    t = Table("", *[shown(p["name"]) for p in players], title="players")
    for label, fmt in FIGURES:
        t.add_row(label, *[fmt(p) for p in players])
    console.print(t)
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
    counts = sorted({int(k) for p in players for k in p["hand_distribution"]})
    if counts:
        d = Table("hand", *[shown(p["name"]) for p in players], title="hand counts (how many hands)")
        for n in counts:
            d.add_row(str(n), *[str(p["hand_distribution"].get(str(n), "")) for p in players])
        console.print(d)
    if data["best_hands"]:
        b = Table("points", "player", "kind", "cards | starter", "game", title="best hands")
        for x in data["best_hands"]:
            b.add_row(str(x["points"]), shown(x["name"]), x["kind"], x["cards"], str(x["game"]))
        console.print(b)
