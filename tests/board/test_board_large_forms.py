# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Large print in every game form: the same keys and taps played in normal and in large print give the
# same game, and every screen of large print keeps the bottom row normal print has (what the keys do
# now), its big rows fit their width with the two rows under each left blank, and the scores it shows
# (big or small) are the match's.
from scenario import Scenario

from board import settings

# The cut, the starter, lays (some refused: a screen too), the play skipped, hands keyed and counted
# (some refused), taps proposed and confirmed, an undo asked and kept: no MENU, whose pages differ.
STEPS = (
    "2 OK",
    "5S",
    "5H",
    "TH",
    "5C",
    "6C",
    "KH",
    "OK",
    "5H TH 5C 6C",
    "OK",
    "AH 2H 3H 4H",
    "OK",
    "OK",
    "tap 0 6",
    "OK",
    "tap 1 4",
    "UNDO",
    "UNDO",
    "UNDO",
    "OK",
)


def _act(s, step):
    if step.startswith("tap "):
        _w, side, n = step.split()
        s.tap(int(side), s.app.match.front[int(side)] + int(n))
    elif step[0] in "ATJQK23456789" and len(step.split()[0]) == 2 and step != "OK":
        s.cards(step)
    else:
        s.keys(step)


def _check(normal, large, step):
    n, g = normal.hal.display, large.hal.display
    assert normal.app.match.front == large.app.match.front, step
    assert g.rows[7] == n.rows[7] and not g.big[7], (step, n.rows, g.rows)
    r = 0
    while r < 7:
        w = g.big[r]
        if w:
            assert len(g.rows[r].rstrip()) <= 16 // w, (step, g.rows[r], w)
            assert r + 2 < 7 and not g.big[r + 1] and not g.big[r + 2], (step, g.rows)
            assert not g.rows[r + 1].strip() and not g.rows[r + 2].strip(), (step, g.rows)
            r += 3
        else:
            r += 1
    m = large.app.match
    if g.big[1] and g.rows[0].split()[-1].endswith(m.names[-1]):  # the scores big under the names
        assert [int(x.lstrip(">")) for x in g.rows[1].split()] == list(m.front), (step, g.rows)


def test_every_form_plays_the_same_in_large_print_and_keeps_its_prompt():
    for form in settings.SPEC["form"][1]:
        normal = Scenario(form=form)
        large = Scenario(form=form, large=True)
        try:
            for step in STEPS:
                _act(normal, step)
                _act(large, step)
                _check(normal, large, "%s: %s" % (form, step))
        finally:
            normal.close()
            large.close()
