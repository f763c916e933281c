# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# What a player reads after a count (issue 11): every item reachable, lines that add up, the cards
# of each fifteen, what a muggins claim missed, who won a game or match and by how much.
from scenario import Scenario

KINDS = ("15s", "15", "pair", "pairs", "run", "runs", "flush", "nobs")  # the first word of a kind's row


def _show_first_hand(s, hand, starter="5S", **kw):
    s.keys("A OK")  # player 1 deals: P2's hand counts first
    s.cards(starter)
    s.keys("OK")  # the play pegged on the holes: on to the show
    s.cards(hand)
    s.keys("OK")


def _pages(s):
    """Every page of the message on the display, MENU turning them, until the first comes back."""
    seen = [s.screen()]
    for _ in range(12):
        s.press("MENU")
        if s.screen() == seen[0]:
            return seen
        seen.append(s.screen())
    raise AssertionError("the pages never came back to the first")


def _amount(row):
    word = row.split()[-1] if row.split() else ""
    return int(word) if word.isdigit() else 0


def test_a_five_line_count_is_all_on_the_board_and_adds_up():
    # 4C 6C JS 4D, starter 5S: 15s x3 6, pair 2, runs x2 of 3 6, nobs 1 = 15. The display showed the
    # first three kinds under "P2 hand 15": nobs was cut off and the lines added up to 14.
    s = Scenario()
    try:
        _show_first_hand(s, "4C 6C JS 4D")
        assert s.app.match.front[1] == 15
        screens = _pages(s)
        assert len(screens) >= 2 and "MENU=more 1/" in screens[0]
        rows = []
        for screen in screens:
            body = screen.splitlines()[3:7]
            assert body[0] == "P2 hand 15"  # the head on every page
            rows += [r for r in body[1:] if r.strip()]
        kinds = [r for r in rows if r.split()[0] in KINDS and _amount(r)]
        assert sum(_amount(r) for r in kinds) == 15, kinds
        assert any(r.startswith("nobs") for r in kinds)
        # Which cards made each fifteen: JS 5S, 4C 6C 5S, 6C 4D 5S.
        assert "15 JS 5S" in rows and "15 4C 6C 5S" in rows and "15 6C 4D 5S" in rows
        assert "nobs JS" in rows
        assert "P1 hand: cards" in screens[0]  # the prompt still says what comes next
    finally:
        s.close()


def test_a_double_run_of_four_three_handed_is_reachable():
    # Three players (3 rows for a message): "P3 hand 12 / 15 2 / pair 2" lost the double run of 4.
    s = Scenario(form="three")
    try:
        s.keys("2 OK")  # P2 deals: P3 counts first
        s.cards("AS")
        s.keys("OK")
        s.cards("4H 5H 6H 6D")  # 15 2, pair 2, runs x2 of 4 8 = 12 ... with AS: A-4? no: 15s x1
        s.keys("OK")
        total = s.app.match.front[2]
        screens = _pages(s)
        rows = []
        for screen in screens:
            rows += [r for r in screen.splitlines()[5:7] if r.strip()]
        assert any(r.startswith("runs x2 of") for r in rows), rows
        assert sum(_amount(r) for r in rows if r.split()[0] in KINDS) == total
    finally:
        s.close()


def test_muggins_reveals_what_was_missed():
    # It showed only "P1: muggins 2?".
    s = Scenario(muggins=True)
    try:
        _show_first_hand(s, "4C 6C JS 4D")
        s.keys("A 3 OK")  # P2 claims 13 of 15
        assert s.app.match.front[1] == 13
        seen = []
        for _ in range(8):
            seen.append(s.screen())
            s.press("MENU")
        text = "\n".join(seen)
        assert "P1: muggins 2?" in seen[0]
        assert "claimed 13" in text and "nobs JS" in text and "15 4C 6C 5S" in text
        assert "OK=yes MENU=more" in seen[0]
        s.keys("OK")
        assert s.app.match.front == [2, 13]
    finally:
        s.close()


def _deal_keyed(s, points):
    """One deal pegged with keyed points, no cards: points[side] for each hand, 0 for the crib."""
    m = s.app.match
    s.keys("OK OK")  # no starter keyed: the play on the holes, then on to the show
    while not m.game_over and m.next_show() is not None:
        side, kind = m.next_show()
        s.key_points(points[side] if kind == "hand" else 0)
    if not m.game_over:
        s.keys("OK")  # next deal


def test_a_won_game_names_the_winner_by_how_much_and_takes_no_cards():
    # It showed "3-0 / OK = next game": never who won or by how much.
    s = Scenario()
    try:
        s.keys("A OK")
        m = s.app.match
        while not m.game_over:
            _deal_keyed(s, (29, 4))
        said = s.said()
        assert m.winner == 0 and m.front[1] < 61
        assert "P1 wins game 1" in said and "by %d" % (121 - m.front[1]) in said
        assert "double skunk" in said and "+3: match 3-0" in said  # ACC: a double skunk is 3
    finally:
        s.close()


def test_a_won_match_names_the_winner_and_the_match_points():
    # It showed "Match over", never who won.
    s = Scenario(games=1)
    try:
        s.keys("A OK")
        m = s.app.match
        while not m.match_over:
            _deal_keyed(s, (4, 24))
        said = s.said()
        assert m.match_winner == 1
        assert "P2 wins match" in said and "match points %d-%d" % tuple(m.match_points) in said
        assert "last game by %d" % (121 - m.front[0]) in said and "double skunk" in said
        assert "OK = new match" in s.screen()
    finally:
        s.close()


def test_a_claim_too_high_keeps_the_claim_and_undo_leaves_it_first():
    # After "the hand counts 15: 20 is too many" the claim was dropped and the next UNDO deleted a card.
    s = Scenario(muggins=True)
    try:
        _show_first_hand(s, "4C 6C JS 4D")
        s.keys("2 T OK")
        assert "20 is too many" in s.said() and s.app.match.front == [0, 0]
        e = s.app.controller.entry
        assert e.claiming and len(e.cards) == 4
        s.press("UNDO")
        assert not e.claiming and len(e.cards) == 4  # the claim went, the cards stay
        s.keys("OK")  # count again: the claim is asked for again
        s.keys("A 5 OK")
        assert s.app.match.front == [0, 15]
    finally:
        s.close()


def test_a_three_card_crib_is_refused_before_your_count():
    s = Scenario(muggins=True)
    try:
        s.keys("A OK")
        s.cards("2C")
        s.keys("OK")  # the play on the holes: on to the show
        s.key_points(0)  # P2's hand
        s.key_points(0)  # P1's hand
        assert s.app.match.next_show() == (0, "crib")
        s.cards("4C 6C JS")
        s.keys("OK")
        assert "Your count?" not in s.screen() and "not 3" in s.said()
        assert not s.app.controller.entry.claiming
    finally:
        s.close()
