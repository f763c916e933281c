# What a board holds from boot (issue 15: the heap after boot), in a fresh interpreter as on a board: the
# game checks and pegs a show without the fast show total, whose 6.5 KB rank table (cribbage.showtables)
# comes onto the heap with the discard advice only (tests/board/test_board_lazy.py loads that).
import sys

from scenario import Scenario

FAST = ("cribbage.showtotal", "cribbage.showtables")


def test_a_show_is_checked_and_pegged_without_the_fast_total_loaded():
    # Before: cribbage.checks counted a player's show with cribbage.show's fast total, so the rank table
    # was heap from boot on; the board counts with the itemised show, which it holds anyway.
    s = Scenario()
    try:
        assert [name for name in FAST if name in sys.modules] == []
        s.keys("A OK")
        s.cards("5D")
        s.keys("OK")
        s.cards("5H 5S 5C JD")
        s.press("OK")
        assert s.app.match.front[1] == 29 and s.journal()[-1]["n"] == 29
        s.cards("2C 4C 6C 8C")  # player 1: 15s 4, the run 4 5 6 3, a four-card flush 4
        s.press("OK")
        assert s.app.match.front[0] == 11 and s.journal()[-1]["n"] == 11
        assert [name for name in FAST if name in sys.modules] == []
    finally:
        s.close()


def test_the_tables_builders_are_dropped_once_the_tables_are_made():
    # Before: the functions that build a module's tables at its import stayed in its globals, and with
    # the code in RAM (a stock Pico) their bytecode was heap for good.
    from cribbage import advice, show, showtotal

    held = [
        name
        for module, names in (
            (show, ("_fifteen_masks", "_lowest_cards")),
            (showtotal, ("_card_key", "_flush_table")),
            (advice, ("_splits",)),
        )
        for name in names
        if hasattr(module, name)
    ]
    assert held == []
    assert (
        showtotal.show_total(17, 16, 19, 42, 18) == 29
        and len(show._MASKS[5]) == 26
        and advice._FORMS["four"][4]
    )
