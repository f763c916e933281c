# The colour-vision check of side colours (tools/colour.py): CIEDE2000 against Sharma's
# published test data, the simulation against its matrices, and a known bad pair caught.
import pytest

from tools import colour

# Sharma, Wu & Dalal 2005, table 1: (L, a, b) pairs and the CIEDE2000 difference to 4 places.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0009), 7.1792),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0010), 7.1792),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0011), 7.2195),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0012), 7.2195),
    ((50.0, -0.0010, 2.4900), (50.0, 0.0009, -2.4900), 4.8045),
    ((50.0, -0.0010, 2.4900), (50.0, 0.0011, -2.4900), 4.7461),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 3.2972, 0.0), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 1.8634, 0.5757), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_matches_sharmas_published_pairs_both_ways(lab1, lab2, expected):
    assert colour.delta_e00(lab1, lab2) == pytest.approx(expected, abs=5e-5)
    assert colour.delta_e00(lab2, lab1) == pytest.approx(expected, abs=5e-5)


def test_lab_of_white_and_black_and_srgb_red():
    assert colour.lab((1.0, 1.0, 1.0)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert colour.lab((0.0, 0.0, 0.0)) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert colour.lab((1.0, 0.0, 0.0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.05)


def test_each_simulation_keeps_grey_grey_and_merges_red_and_green_for_red_green_deficiencies():
    for deficiency in colour.DEFICIENCIES:
        grey = colour.simulate((0.5, 0.5, 0.5), deficiency)
        assert grey == pytest.approx((0.5, 0.5, 0.5), abs=2e-3), deficiency
    red, green = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)
    normal = colour.delta_e00(colour.lab(red), colour.lab(green))
    for deficiency in ("protanopia", "deuteranopia"):
        seen = colour.delta_e00(
            colour.lab(colour.simulate(red, deficiency)), colour.lab(colour.simulate(green, deficiency))
        )
        assert seen < normal / 2, deficiency


def test_pure_red_and_green_at_low_brightness_fail_with_a_message_naming_them():
    found = colour.problems([(255, 0, 0), (0, 255, 0)], ["red", "green"], levels=(16,))
    pairs = {(d, a, b) for d, _, a, b, _ in found}
    assert ("deuteranopia", "red", "green") in pairs
    lines = colour.describe(found)
    assert any("red and green look alike with deuteranopia at brightness 16" in s for s in lines)


def test_well_apart_colours_pass_and_the_minimum_is_what_decides():
    bright = [(255, 255, 255)]
    assert colour.problems(bright, levels=(255,)) == []  # white against dark track and dim skunk line
    assert colour.problems(bright, levels=(255,), minimum=200) != []


def test_the_led_bytes_are_the_renderers():
    assert colour.led_rgb((255, 0, 64), 96) == (96, 0, 24)
    assert colour.skunk_rgb(255) == (39, 39, 39)


def test_the_reference_boards_side_colours_pass_at_every_checked_brightness():
    import json
    from pathlib import Path

    board = json.loads((Path(__file__).parents[2] / "hardware" / "board.json").read_text())
    sides = board["sides"]
    assert tuple(b for b in colour.BRIGHTNESS_LEVELS if b >= 64) == colour.CHECKED_LEVELS
    assert colour.problems([tuple(c) for c in sides["colours"]], sides["names"]) == []
    # the old pure red, blue and green fail where the new ones pass
    assert colour.problems([(255, 0, 0), (0, 64, 255), (0, 255, 0)]) != []


def test_the_checked_levels_are_the_boards_brightness_settings():
    from board import settings

    assert settings.SPEC["brightness"][1] == colour.BRIGHTNESS_LEVELS
