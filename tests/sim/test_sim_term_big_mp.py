# The sim's terminal draws large print's big rows (sim/term.py big_rows) from the FrameBuffer the
# Pico's HAL draws them on (hal/bigtext.py): 3 rows of 16, braille dots where the glass is lit.
from sim import term


def _dots(ch):
    return bin(ord(ch) - 0x2800).count("1") if ch != " " else 0


def test_a_two_wide_row_is_braille_where_the_glass_is_lit():
    rows = term.big_rows("11", 2)  # two 16 x 24 px ones: 2 columns each, nothing beyond
    assert len(rows) == 3 and all(len(r) == 16 for r in rows)
    assert all(r[4:] == " " * 12 for r in rows)
    assert sum(_dots(ch) for r in rows for ch in r[:4]) > 10
    assert rows == term.big_rows("11      ", 2)  # trailing spaces draw nothing


def test_the_middle_of_a_digit_one_is_lit_top_to_bottom():
    rows = term.big_rows("1", 3)  # 24 x 24 px: 3 columns
    lit_rows = [any(_dots(ch) for ch in r[:3]) for r in rows]
    assert lit_rows == [True, True, True]


def test_an_8_px_wide_row_is_its_text_on_the_middle_row():
    assert term.big_rows("100 101 110", 1) == [" " * 16, "100 101 110     ", " " * 16]
