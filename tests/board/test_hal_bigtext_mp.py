# The Pico's display draws large print's big rows (hal.rp2.Display, hal/bigtext.py) on a real
# FrameBuffer: each pixel of the 8x8 font's glyph a w x 3 block, nothing outside the row's 3 text rows.
import framebuf
import rp2fakes


class Oled(framebuf.FrameBuffer):
    """The SSD1306 driver's part the HAL uses: a 128 x 64 mono FrameBuffer and show()."""

    def __init__(self):
        self.buf = bytearray(128 * 64 // 8)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.shows = 0

    def show(self):
        self.shows += 1


def _glyph(ch):
    buf = bytearray(8)
    fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_HLSB)
    fb.text(ch, 0, 0, 1)
    return [[fb.pixel(x, y) for x in range(8)] for y in range(8)]


def _display():
    rp2fakes.install()
    try:
        return rp2fakes.hal_module("rp2").Display(Oled(), print)
    finally:
        rp2fakes.uninstall()


def test_a_big_row_is_the_font_scaled_w_wide_and_3_high():
    for mark, w, text in (("\x01", 1, "121 45"), ("\x02", 2, "count 15"), ("\x03", 3, "+12")):
        d = _display()
        oled = d._oled
        d.fill(0)
        d.text(2, 0, mark + text)  # text rows 2, 3 and 4: y 16..39
        lit = 0
        for i in range(len(text)):
            g = _glyph(text[i : i + 1])
            for y in range(24):
                for x in range(8 * w):
                    want = g[y // 3][x // w]
                    assert oled.pixel(8 * w * i + x, 16 + y) == want, (text, i, x, y)
                    lit += want
        assert lit > 0
        for y in list(range(16)) + list(range(40, 64)):  # nothing above or below the row
            for x in range(128):
                assert not oled.pixel(x, y), (text, x, y)


def test_small_text_is_still_the_font_at_its_own_size():
    d = _display()
    oled = d._oled
    d.text(0, 1, "P1")
    g = _glyph("P")
    for y in range(8):
        for x in range(8):
            assert oled.pixel(8 + x, y) == g[y][x]
