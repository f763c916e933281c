# Pictures of each circuit board (PNG), drawn from the geometry KiCad's pcbnew reads back from the
# .kicad_pcb (kicad_pcb.geometry): copper of each side, holes, mounting holes and keep-outs, pin-1 dots
# and the title block, outline, references of the big parts.
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, Rectangle  # noqa: E402

COLOURS = {"F.Cu": "#c83737", "B.Cu": "#3771c8", "In2.Cu": "#c8a037"}
LABELLED = ("U", "M", "J", "Q", "F")


def render(geom_path, png_path, side="F", dpi=200):
    with open(geom_path) as f:
        g = json.load(f)
    x0, y0, x1, y1 = g["rect"]
    w, h = x1 - x0, y1 - y0
    scale = 0.06
    fig = plt.figure(figsize=(max(4, w * scale), max(2, h * scale) + 0.4))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.add_patch(Rectangle((x0, y0), w, h, facecolor="#1d5a2c", edgecolor="#e0e0a0", linewidth=0.8))
    other = "B.Cu" if side == "F" else "F.Cu"
    for layer in (other, "In2.Cu", side + ".Cu"):
        alpha = 1.0 if layer == side + ".Cu" else 0.35
        for lay, ax0, ay0, ax1, ay1, width, _ in g["tracks"]:
            if lay == layer:
                ax.plot(
                    [ax0, ax1],
                    [ay0, ay1],
                    color=COLOURS[layer],
                    linewidth=width * 72 / 25.4 * fig.dpi / 72 * 0 + max(0.3, width * 2.2),
                    alpha=alpha,
                    solid_capstyle="round",
                )
    for p in g["pads"]:
        on = p["side"] == side or p["drill"]
        a, b, c, d = p["box"]
        colour = "#d4aa00" if on else "#6a8aa8"
        if p["round"]:
            ax.add_patch(
                Circle(((a + c) / 2, (b + d) / 2), (c - a) / 2, color=colour, alpha=1 if on else 0.5)
            )
        else:
            ax.add_patch(Rectangle((a, b), c - a, d - b, color=colour, alpha=1 if on else 0.5))
        if p["drill"]:
            ax.add_patch(Circle((p["x"], p["y"]), p["drill"] / 2, color="#202020"))
    for x, y, _ in g["vias"]:
        ax.add_patch(Circle((x, y), 0.3, color="#c0c0c0"))
        ax.add_patch(Circle((x, y), 0.15, color="#202020"))
    for x, y, d in g.get("holes", ()):  # the M3 mounting holes and their 3.5 mm keep-out
        ax.add_patch(Circle((x, y), 3.5, fill=False, edgecolor="#e0e0a0", linewidth=0.5, linestyle="--"))
        ax.add_patch(Circle((x, y), d / 2, color="#202020"))
    for kind, s, text, (a, b, c, d) in g.get("silk", ()):  # the title and the pin-1 dots of this side
        if s == side and kind == "dot":
            ax.add_patch(Circle(((a + c) / 2, (b + d) / 2), (c - a) / 2, color="white"))
        elif s == side and kind == "text":
            ax.text((a + c) / 2, (b + d) / 2, text, color="white", fontsize=6, ha="center", va="center")
    for part in g["parts"]:
        if part["ref"].startswith(LABELLED) and (part["side"] == side or part["ref"].startswith(("J", "M"))):
            ax.text(part["x"], part["y"], part["ref"], color="white", fontsize=5, ha="center", va="center")
    ax.set_xlim(x0 - 1, x1 + 1)
    ax.set_ylim(y1 + 1, y0 - 1)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.savefig(png_path, dpi=dpi, facecolor="#202020")
    plt.close(fig)
