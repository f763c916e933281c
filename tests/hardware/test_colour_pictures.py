# The picture of the track under each colour-vision deficiency (tools/colour_pictures.py): the colours
# drawn are the simulated ones, the pegs and the skunk line where the stretch says.
import numpy as np
from matplotlib import image

from tools import colour, colour_pictures

COLOURS = [(255, 32, 0), (32, 80, 255), (160, 255, 128)]


def _has(pixels, rgb):
    """Whether some pixel of the PNG is this colour (to within the PNG's 8 bits)."""
    want = np.array([round(c * 255) for c in rgb])
    return bool((np.abs(pixels[:, :, :3] * 255 - want) <= 1).all(axis=2).any())


def test_the_picture_shows_each_peg_as_each_deficiency_sees_it(tmp_path):
    out = colour_pictures.draw(COLOURS, ["red", "blue", "green"], str(tmp_path / "track.png"))
    pixels = image.imread(out)
    assert pixels.shape[1] > pixels.shape[0] > 300
    for vision in colour_pictures.VISIONS:
        for bright in colour_pictures.SHOWN_LEVELS:
            for side in range(3):
                assert _has(pixels, colour_pictures.seen_rgb(colour.led_rgb(COLOURS[side], bright), vision))
    # a red that protanopia turns olive: the simulated colour is drawn, not the LED's own
    red = colour_pictures.seen_rgb((255, 32, 0), "normal")
    olive = colour_pictures.seen_rgb((255, 32, 0), "protanopia")
    assert red[0] > 0.9 > red[1] + 0.5 and abs(olive[0] - olive[1]) < 0.2


def test_the_stretch_lights_the_back_and_front_pegs_and_the_skunk_line():
    lit = [colour_pictures.hole_led(1, h, COLOURS, 128) for h in range(colour_pictures.HOLES)]
    assert lit[colour_pictures.BACK] == lit[colour_pictures.FRONT] == colour.led_rgb(COLOURS[1], 128)
    assert lit[colour_pictures.SKUNK] == colour.skunk_rgb(128)
    others = set(range(colour_pictures.HOLES)) - {
        colour_pictures.BACK,
        colour_pictures.FRONT,
        colour_pictures.SKUNK,
    }
    assert all(lit[h] == colour.UNLIT for h in others)
