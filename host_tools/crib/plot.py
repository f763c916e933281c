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


def plot_game(game, scores, path, dpi=100):
    """Write the pegging graph PNG of one game to path; returns path."""
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
    title = "Game %d: %s" % (game["id"], " v ".join(mathtext(n) for n in game["names"]))
    if game.get("over"):
        title += ", %s" % "-".join(str(f) for f in game["final"])
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
    return path
