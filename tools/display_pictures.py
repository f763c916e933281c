"""Pictures of the OLED in normal and large print: a few screens of a deal, drawn by the real HAL."""

# Run as `python -m tools.display_pictures [OUT_DIR]` (default docs/pictures): it runs itself on the
# MicroPython unix port, where the scripted deal's rows (board.display.rows) are drawn by hal.rp2's
# Display on a real 128 x 64 FrameBuffer (the 8x8 font and the big rows as the Pico draws them), and
# writes display-normal.png and display-large.png from the frames it prints, with Pillow.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) if hasattr(os, "path") else "."
SCALE = 3  # screen pixels an OLED pixel
GAP = 24
LIT = (120, 200, 255)  # the blue-white of a lit SSD1306 pixel
DARK = (8, 10, 14)


def _screens(large):
    """(caption, rows) of each screen of a scripted deal (MicroPython: the fake HAL's board app)."""
    from scenario import Scenario

    from board import display

    out = []

    def grab(s, caption):
        a = s.app
        out.append((caption, display.rows(a.match, a.settings, a.controller, a._colours)))

    s = Scenario(large=large)
    s.keys("4 H T D OK")  # the cut: P1 deals
    s.cards("5S")
    grab(s, "the play: the count")
    s.cards("5H TH")
    grab(s, "a lay that scores")
    s.press("OK")
    s.press("OK")
    s.cards("5H 5C 4C 6D")
    s.press("OK")
    grab(s, "a hand's count, page 1")
    s.press("MENU")
    grab(s, "... page 2")
    s.press("OK")
    s.tap(0, 6)
    grab(s, "a tapped peg")
    s.close()
    s = Scenario(large=large, form="three")
    s.keys("3 OK")
    for side, points in ((0, 45), (1, 101), (2, 88)):
        while s.app.match.front[side] < points:
            s.peg(side, min(20, points - s.app.match.front[side]))
    s.press("OK")
    grab(s, "three players")
    s.close()
    return out


def _frames():
    # On MicroPython: each screen drawn on a FrameBuffer by hal.rp2's Display; a line a screen:
    # "mode|caption|hex of the 1024-byte frame".
    import framebuf
    import rp2fakes

    class Oled(framebuf.FrameBuffer):
        def __init__(self):
            self.buf = bytearray(1024)
            super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)

        def show(self):
            pass

    rp2fakes.install()
    Display = rp2fakes.hal_module("rp2").Display
    rp2fakes.uninstall()
    for large in (False, True):
        for caption, rows in _screens(large):
            oled = Oled()
            d = Display(oled, print)
            d.fill(0)
            for i in range(len(rows)):
                d.text(i, 0, rows[i])
            d.show()
            print("%s|%s|%s" % ("large" if large else "normal", caption, oled.buf.hex()))


def draw(frames, out):
    """Write out (a PNG) from [(caption, 1024-byte frame)]: the screens two a row, captioned."""
    from PIL import Image, ImageDraw

    w, h = 128 * SCALE, 64 * SCALE
    cols = 2
    rows = (len(frames) + cols - 1) // cols
    img = Image.new("RGB", (cols * (w + GAP) + GAP, rows * (h + 2 * GAP) + GAP), (255, 255, 255))
    pen = ImageDraw.Draw(img)
    for n, (caption, frame) in enumerate(frames):
        x0 = GAP + (n % cols) * (w + GAP)
        y0 = GAP + (n // cols) * (h + 2 * GAP)
        pen.rectangle((x0, y0, x0 + w - 1, y0 + h - 1), fill=DARK)
        for y in range(64):
            for x in range(128):
                if frame[(y // 8) * 128 + x] & (1 << (y % 8)):  # MONO_VLSB, as the SSD1306's frame
                    px, py = x0 + x * SCALE, y0 + y * SCALE
                    pen.rectangle((px, py, px + SCALE - 2, py + SCALE - 2), fill=LIT)  # a dot, as the glass
        pen.text((x0, y0 + h + 4), caption, fill=(0, 0, 0))
    img.save(out)


def main(argv):
    import subprocess

    from tools import unixport

    out_dir = argv[0] if argv else os.path.join(ROOT, "docs", "pictures")
    env = unixport.env(unixport.FIRMWARE, unixport.SUPPORT, ROOT)
    got = subprocess.run(
        [unixport.MICROPYTHON, "-X", "heapsize=8m", os.path.abspath(__file__)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if got.returncode:
        raise SystemExit("the screens on MicroPython failed:\n" + got.stdout + got.stderr)
    frames = {"normal": [], "large": []}
    for line in got.stdout.splitlines():
        if line.count("|") == 2:
            mode, caption, hexed = line.split("|")
            frames[mode].append((caption, bytes.fromhex(hexed)))
    for mode in frames:
        path = os.path.join(out_dir, "display-%s.png" % mode)
        draw(frames[mode], path)
        print("wrote %s (%d screens)" % (path, len(frames[mode])))


if __name__ == "__main__":
    if sys.implementation.name == "micropython":
        _frames()
    else:
        main(sys.argv[1:])
