# `crib plot GAME`: the pegging graph of one game (each side's score by deal, skunk lines) as a PNG.
import matplotlib

matplotlib.use("Agg")  # files only: no display needed, works over ssh and in CI

import matplotlib.pyplot as plt  # noqa: E402

from crib.untrusted import mathtext  # noqa: E402

SIDE_COLOURS = ("#d62728", "#1f77b4", "#2ca02c")  # red, blue, green: the board's usual peg colours


def by_deal(game, scores):
    """Per side, the front peg at the end of each deal: x = [0, 1, ..., deals], y per side."""
    sides = len(game["names"])
    deals = max(1, game["deals"])
    ys = [[0] + [None] * deals for _ in range(sides)]
    for r in scores:
        d = min(max(r["deal_no"], 1), deals)
        ys[r["side"]][d] = r["front"]
    for y in ys:  # a deal where a side scored nothing keeps the previous score
        for d in range(1, deals + 1):
            if y[d] is None:
                y[d] = y[d - 1]
    return list(range(deals + 1)), ys


def skunk_lines(target, form):
    """(score, label) of the lines a loser must pass (docs/rules.md: End of a game)."""
    if target == 121:
        return [(91, "skunk line (91)"), (61, "double skunk (61)")]
    return [(31, "skunk line (31)")]


def plot_game(game, scores, path, dpi=100, dealers=None):
    """Write the pegging graph PNG of one game to path; returns path. `dealers` {deal_no: side} marks
    who dealt each deal (a letter under the axis in the dealer's colour)."""
    x, ys = by_deal(game, scores)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=dpi)
    for side, y in enumerate(ys):
        name = mathtext(game["names"][side])  # a '$' in a name is a dollar, not mathtext
        won = " (won)" if game.get("winner") == side else ""
        ax.plot(x, y, "-o", color=SIDE_COLOURS[side % 3], linewidth=2, markersize=4, label=name + won)
    for score, label in skunk_lines(game["target"], game.get("form", "")):
        ax.axhline(score, color="grey", linestyle="--", linewidth=1)
        ax.text(0.1, score + 1.5, label, color="grey", fontsize=8)
    ax.axhline(game["target"], color="black", linewidth=1)
    ax.text(0.1, game["target"] + 1.5, "game hole (%d)" % game["target"], fontsize=8)
    ax.set_xlim(0, x[-1] + 0.5)
    ax.set_ylim(0, game["target"] + 10)
    ax.set_xticks(x)
    ax.set_xlabel("deal")
    ax.set_ylabel("front peg (points)")
    for deal, side in sorted((dealers or {}).items()):
        if 1 <= deal <= x[-1] and side is not None:
            ax.axvspan(deal - 1, deal, color=SIDE_COLOURS[side % 3], alpha=0.06, linewidth=0)
            ax.text(deal - 0.5, 2, "D", ha="center", fontsize=7, color=SIDE_COLOURS[side % 3])
    title = "Game %d: %s" % (game["id"], " v ".join(mathtext(n) for n in game["names"]))
    if game.get("over"):
        title += ", %s" % "-".join(str(f) for f in game["final"])
        labels = {"skunk": "skunked", "double": "double skunked", "lurch": "lurched"}
        for side, lab in enumerate(game.get("skunk") or []):
            if lab:
                title += ": %s %s" % (mathtext(game["names"][side]), labels.get(lab, lab))
    if dealers:
        ax.set_xlabel("deal (shaded and D: who dealt)")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(0.0, 0.93))
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
    return path


def plot_stats(data, path, dpi=100):
    """`crib stats --plot`: each player's win rate, averages by hand, crib and play as dealer and pone,
    and hand-count histogram, side by side; returns path."""
    players = data["players"]
    names = [mathtext(p["name"]) for p in players]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8), dpi=dpi)
    figures = (
        ("hand as dealer", "hand_avg_dealer"),
        ("hand as pone", "hand_avg_pone"),
        ("crib", "crib_avg"),
        ("play as dealer", "play_avg_dealer"),
        ("play as pone", "play_avg_pone"),
    )
    width = 0.8 / max(1, len(players))
    for i, p in enumerate(players):
        xs = [k + i * width for k in range(len(figures))]
        ax1.bar(
            xs,
            [p[key] for _l, key in figures],
            width,
            color=SIDE_COLOURS[i % 3] if i < 3 else None,
            label="%s (won %d of %d)" % (names[i], p["wins"], p["games"]),
        )
    ax1.set_xticks([k + width * (len(players) - 1) / 2 for k in range(len(figures))])
    ax1.set_xticklabels([lab for lab, _k in figures], fontsize=8)
    ax1.set_ylabel("average points")
    ax1.set_title("Averages per hand, crib and deal's play")
    ax1.legend(fontsize=8)
    hand_histogram(ax2, players, names)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
    return path


def hand_histogram(ax, players, names):
    """Each player's hand counts 0..29 as bars side by side (a share of their hands, so players with
    more games compare fairly)."""
    width = 0.8 / max(1, len(players))
    for i, p in enumerate(players):
        dist = {int(k): v for k, v in p["hand_distribution"].items()}
        total = sum(dist.values()) or 1
        xs = [n + i * width for n in range(30)]
        ax.bar(
            xs,
            [100.0 * dist.get(n, 0) / total for n in range(30)],
            width,
            color=SIDE_COLOURS[i % 3] if i < 3 else None,
            label="%s (%d hands)" % (names[i], sum(dist.values())),
        )
    ax.set_xticks(range(0, 30, 2))
    ax.set_xlabel("hand count")
    ax.set_ylabel("% of hands")
    ax.set_title("Hand counts")
    ax.legend(fontsize=8)
