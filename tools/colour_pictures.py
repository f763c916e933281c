"""A picture of the track's pegs as a colour-blind player sees them: each deficiency, each brightness."""

import argparse
import json
import os

from tools import colour

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD = os.path.join(ROOT, "hardware", "board.json")
VISIONS = ("normal",) + tuple(colour.DEFICIENCIES)
SHOWN_LEVELS = (255, 128, 64, 32)
HOLES = 12  # a stretch of each side's track
BACK, FRONT, SKUNK = 3, 8, 10  # where the pegs and the skunk line sit in the stretch


def srgb(linear):
    """sRGB (0..1) for a screen, from linear light (an LED's duty cycle is linear)."""
    return tuple(12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055 for c in linear)


def seen_rgb(led, vision):
    """What a screen shows for LED bytes, as seen with vision ("normal" or a deficiency)."""
    linear = tuple(c / 255 for c in led)
    return srgb(linear if vision == "normal" else colour.simulate(linear, vision))


def hole_led(side, hole, colours, bright):
    """The LED bytes of a hole of side's stretch: its pegs, the skunk line, or unlit."""
    if hole in (BACK, FRONT):
        return colour.led_rgb(colours[side], bright)
    if hole == SKUNK:
        return colour.skunk_rgb(bright)
    return colour.UNLIT


def draw(colours, names, out, levels=SHOWN_LEVELS):
    """Write the PNG out: a row a brightness level, a column normal vision and each deficiency."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(levels), len(VISIONS), figsize=(3.2 * len(VISIONS), 1.5 * len(levels)))
    for r, bright in enumerate(levels):
        for k, vision in enumerate(VISIONS):
            ax = axes[r][k]
            ax.set_facecolor((0.16, 0.13, 0.10))  # the board's face
            for side in range(len(colours)):
                for hole in range(HOLES):
                    face = seen_rgb(hole_led(side, hole, colours, bright), vision)
                    y = len(colours) - 1 - side
                    ax.add_patch(plt.Circle((hole, y), 0.34, facecolor=face, edgecolor=(0.45, 0.42, 0.38)))
            ax.set_xlim(-0.8, HOLES - 0.2)
            ax.set_ylim(-0.7, len(colours) - 0.3)
            ax.set_aspect("equal")
            ax.set_xticks([])
            ax.set_yticks(range(len(colours)))
            ax.set_yticklabels(list(reversed(names)) if k == 0 else [])
            if r == 0:
                ax.set_title(vision)
            if k == 0:
                ax.set_ylabel("brightness %d" % bright)
    fig.suptitle(
        "side colours %s: back peg, front peg, skunk line" % " ".join(str(tuple(c)) for c in colours)
    )
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    plt.close(fig)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", help="the PNG to write")
    ap.add_argument("--board", default=BOARD, help="the board file whose side colours are drawn")
    args = ap.parse_args(argv)
    with open(args.board) as f:
        sides = json.load(f)["sides"]
    names = sides.get("names") or ["side %d" % (i + 1) for i in range(len(sides["colours"]))]
    print(draw([tuple(c) for c in sides["colours"]], names, args.out))


if __name__ == "__main__":
    main()
