# Large print's big rows on a FrameBuffer: the 8x8 font scaled w wide and 3 high (docs/accessibility.md).
# Loaded by a HAL's display at its first big row, never at boot with large print off.
import framebuf

_glyph = bytearray(8)  # one character of the 8x8 font, drawn once and read back a row at a time
_cell = framebuf.FrameBuffer(_glyph, 8, 8, framebuf.MONO_HLSB)


def scale(s):
    """The width scale of a big row: its first character is \\x01, \\x02 or \\x03 (compared, not
    indexed: indexing would intern it, docs/memory.md)."""
    return 1 if s < "\x02" else 2 if s < "\x03" else 3


def draw(fb, row, col, s):
    """Draw the big row s (its first character the width scale w, board/large.py) on fb from text row
    `row`, column col, over 3 text rows: each character 8w x 24 px, each pixel of its glyph a w x 3
    block, a run of set pixels one fill_rect. Nothing is allocated but each character's slice."""
    w = scale(s)
    y0 = row * 8
    x = col * 8
    for i in range(1, len(s)):
        _cell.fill(0)
        _cell.text(s[i : i + 1], 0, 0, 1)
        for y in range(8):
            bits = _glyph[y]
            at = x
            while bits:
                if bits & 0x80:
                    n = 0
                    while bits & 0x80:
                        n += 1
                        bits = (bits << 1) & 0xFF
                    fb.fill_rect(at, y0 + 3 * y, n * w, 3, 1)
                    at += n * w
                else:
                    bits = (bits << 1) & 0xFF
                    at += w
        x += 8 * w
