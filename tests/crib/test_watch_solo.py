# crib watch's words for the events of a match against the board: who threw, never what.
from crib.watch import describe


def test_crib_watch_words_the_events_of_a_match_against_the_board():
    names = ["Ann", "Board"]
    assert describe({"t": "throw", "p": 1, "i": [0, 4]}, names) == "Board throws to the crib"
    assert describe({"t": "seed", "n": 12345}, names) == "the game's seed 12345"
