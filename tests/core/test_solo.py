# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The match against the board: seeded deals, the throws and the board's moves as events, the laptop's checks.
from soloplay import new_match, play, player_move

from check import message, raises
from cribbage import events, solo
from cribbage.cards import parse_card
from cribbage.errors import CribError
from cribbage.events import from_line, to_line
from cribbage.forms import skunk_label
from cribbage.game import replay
from cribbage.show import score_show


def _lines(m, done):
    return [to_line(m.setup)] + [to_line(ev) for ev in done]


def _forget():
    # The laptop's view: no seed registered (the board's own registry is this module's global).
    solo._seeds.clear()
    solo._games.clear()


def _at_play(seed):
    # A match just past its starter (the play's first lay to come).
    m = new_match(seed)
    play(m, stop=lambda m: m.phase() == "play")
    return m


def test_every_deal_is_a_permutation_of_one_deck():
    for form, dealt_each in (("six", 6), ("five", 5)):
        for seed in (1, 2, 3):
            m = new_match(seed, form=form)
            seen = []

            def stop(m, seen=seen, dealt_each=dealt_each):
                if m.phase() == "starter" and not solo.thrown(m)[1] and m.dealer is not None:
                    hands, crib, starter = solo.dealt(m)
                    cards = list(hands[0]) + list(hands[1]) + [starter]
                    assert len(hands[0]) == len(hands[1]) == dealt_each and not crib
                    assert len(set(cards)) == 2 * dealt_each + 1, cards
                    assert all(0 <= c < 52 for c in cards)
                    seen.append(tuple(cards))
                return False

            play(m, stop=stop)
            assert len(seen) == m.deal_no >= 3  # every deal of the game was looked at
            assert len(set(seen)) == len(seen)  # and no two deals alike


def test_the_same_seed_deals_the_same_game():
    a = new_match(5150, key=b"one key", salt=1)
    b = new_match(5150, key=b"another key", salt=2)
    assert a.setup["solo"][1] != b.setup["solo"][1]  # sealed apart
    assert solo.unseal(a.setup["solo"], b"one key") == solo.unseal(b.setup["solo"], b"another key") == 5150
    da = [to_line(ev) for ev in play(a)]
    db = [to_line(ev) for ev in play(b)]
    assert da == db
    c = new_match(5151)
    assert [to_line(ev) for ev in play(c)] != da


def test_a_game_against_the_board_played_to_its_end():
    m = new_match(77, level="top")
    done = play(m)
    assert m.game_over and m.match_over
    w = m.winner
    assert m.front[w] == 121 and m.front[1 - w] < 121
    assert m.skunk[1 - w] == skunk_label(m.front[1 - w], 121, "games")
    assert done[0] == {"t": "dealer", "p": done[0]["p"]}
    assert done[-1] == {"t": "seed", "n": solo.game_seed(m)}
    assert sum(1 for ev in done if ev["t"] == "throw") == 2 * m.deal_no
    board_lays = [ev for ev in done if ev["t"] == "lay" and ev["p"] == solo.BOARD]
    assert board_lays and all("n" in ev for ev in board_lays)
    # Every show counted by the board is its cards' count, with the starter of its deal.
    starter = None
    for ev in done:
        if ev["t"] == "starter":
            starter = ev["c"]
        elif ev["t"] == "show":
            assert ev["n"] == score_show(ev["cards"], starter, ev["k"] == "crib", False).total


def test_the_throws_tell_places_not_cards():
    m = new_match(31)
    play(m, stop=lambda m: m.starter is not None)
    lines = [to_line(ev) for ev in m.effective_events()]
    throws = [from_line(line) for line in lines if '"throw"' in line]
    assert len(throws) == 2
    for ev in throws:
        assert sorted(ev) == ["i", "p", "t"] and all(0 <= k < 6 for k in ev["i"])


def test_the_board_counts_and_takes_muggins():
    m = new_match(88, muggins=True)
    done = play(m, claim=0)  # the player claims nothing for every hand and crib
    shows = [ev for ev in done if ev["t"] == "show" and ev["s"] == 0]
    taken = [ev for ev in done if ev["t"] == "muggins"]
    missed = [ev["n"] for ev in shows if ev["n"]]
    assert shows and all(ev["claim"] == 0 for ev in shows)
    # every missed count the board took (but a last one after the board went out)
    assert [ev["s"] for ev in taken] == [solo.BOARD] * len(taken)
    assert len(missed) - 1 <= len(taken) <= len(missed)
    assert [ev["n"] for ev in taken] == missed[: len(taken)]
    board_shows = [ev for ev in done if ev["t"] == "show" and ev["s"] == 1]
    assert all("claim" not in ev for ev in board_shows)


def test_the_laptop_replays_a_solo_game_and_checks_it_once_the_seed_is_told():
    m = new_match(4711, games=3)
    done = play(m)
    lines = _lines(m, done)
    fronts, points = list(m.front), list(m.match_points)
    _forget()
    blind = replay([from_line(line) for line in lines], trusted=False)
    assert blind.front == fronts and blind.match_points == points and blind.match_over
    assert solo.next_move(blind) is None  # not told: the laptop's match makes no move
    # The reveals, then every check of every deal of every game.
    setup = from_line(lines[0])
    game = 1
    for line in lines:
        ev = from_line(line)
        if ev["t"] == "seed":
            solo.revealed(setup["solo"], game, ev["n"])
            game += 1
    assert game == len(m.results) + 1 >= 3
    told = replay([from_line(line) for line in lines], trusted=False)
    assert told.front == fronts and told.match_points == points
    # A lay of a card the player never held: the blind replay cannot tell, the told one refuses it.
    k = [i for i in range(len(lines)) if '"t":"lay"' in lines[i] and '"p":0' in lines[i]][0]
    first_deal = replay([from_line(line) for line in lines[:k]], trusted=False)
    held = solo.held(first_deal, 0) + solo.held(first_deal, 1) + [first_deal.starter]
    stranger = [c for c in range(52) if c not in held and c not in solo.crib(first_deal)][0]
    bad = from_line(lines[k])
    bad["c"] = stranger
    del bad["n"]
    e = raises(CribError, first_deal.apply, bad)
    assert "not in P1's hand" in message(e)
    _forget()
    blind = replay([from_line(line) for line in lines[:k]], trusted=False)
    blind.apply(bad)  # the laptop takes it until the seed is told
    assert blind.count == first_deal.count + 1


def test_a_match_cut_anywhere_and_replayed_from_its_journal_plays_on_the_same():
    m = new_match(2024, muggins=True)
    lines = _lines(m, play(m, claim=1))
    for k in range(2, len(lines), 7):
        _forget()
        r = replay([from_line(line) for line in lines[:k]], trusted=True)  # the boot: nothing known
        assert solo.next_move(r) is None
        solo.register(r.setup["solo"], solo.unseal(r.setup["solo"], b"the board's key."))
        rest = [to_line(ev) for ev in play(r, claim=1)]
        assert lines[:k] + rest == lines, k


def test_what_a_solo_match_refuses_changes_nothing():
    m = new_match(606)
    play(m, stop=lambda m: m.phase() == "starter" and m.dealer is not None and not solo.thrown(m)[1])
    count = m.count
    for ev, said in (
        (events.undo(), "no undo against the board"),
        (events.peg(0, 2, "manual"), "peg: not against the board"),
        (events.fix(0, 2), "fix: not against the board"),
        ({"t": "advice", "p": 0, "cards": [0, 1, 2, 3, 4, 5]}, "advice: not against the board"),
        (solo.throw(0, [1, 1]), "two cards to the crib, not one twice"),
        (solo.throw(0, [0, 6]), "a place in the hand is 0..5, not 6"),
        (solo.throw(0, [0, 1, 2]), "a throw is two places in the hand"),
        ({"t": "throw", "p": 0, "i": [0, 1], "c": 3}, "a throw event takes no 'c'"),
        (events.starter(solo.dealt(m)[2]), "the crib first: two cards each"),
        (solo.reveal(solo.game_seed(m)), "a game's seed is told once the game is over"),
        (events.next_deal(), "the hands and the crib count first"),
        ({"t": "nonsense"}, "unknown event 'nonsense'"),
    ):
        e = raises(CribError, m.apply, ev)
        assert said in message(e), (ev, message(e))
        assert m.count == count
    m.apply(solo.next_move(m))  # the board's throw
    m.apply(player_move(m))
    e = raises(CribError, m.apply, solo.throw(0, [2, 3]))
    assert "P1 has thrown to the crib already" in message(e)
    starter = solo.dealt(m)[2]
    other = [c for c in range(52) if c != starter][0]
    e = raises(CribError, m.apply, events.starter(other))
    assert message(e) == "not this deal's starter"


def test_a_lay_or_go_the_hand_cannot_make_is_refused():
    m = _at_play(909)
    if m.play.turn != 0:
        m.apply(solo.next_move(m))
    count = m.count
    mine = solo.held(m, 0)
    board = solo.held(m, 1)
    e = raises(CribError, m.apply, events.lay(0, board[0]))
    assert "is not in P1's hand" in message(e)
    e = raises(CribError, m.apply, events.go(0))
    assert "cannot say go" in message(e) or "can lay a card: no go" in message(e)
    assert m.count == count
    m.apply(events.lay(0, mine[0]))
    assert solo.held(m, 0) == mine[1:]


def test_a_check_of_what_would_tell_the_cards_is_refused():
    # Match.check answers a laptop's proposal: against the board it never says whether a card is held.
    m = _at_play(1001)
    for ev in (
        events.lay(1, solo.held(m, 1)[0]),
        events.lay(1, parse_card("AS")),
        events.go(1),
        solo.throw(1, [0, 1]),
        events.show(0, "hand", [0, 1, 2, 3]),
        solo.reveal(1),
    ):
        e = raises(CribError, m.check, ev)
        assert message(e) == "against the board: played on the board", ev
    assert m.check(events.name(0, "Ann")) == {"t": "name", "s": 0, "name": "Ann"}


def test_the_set_up_against_the_board_is_checked():
    good = solo.make("beginner", 3, b"k", 9)
    assert events.setup(solo=good)["solo"] == good
    for form in ("three", "four"):
        e = raises(CribError, events.setup, form=form, names=None, solo=good)
        assert "against the board: the six-card or the five-card game" in message(e)
    for bad, said in (
        (["hard", 1, 2], "the board's level is one of beginner expected top"),
        (["top", -1, 2], "seal must be 0..1073741823"),
        (["top", 1, 2**30], "salt must be 0..1073741823"),
        ({"level": "top"}, "solo is [level, seal, salt]"),
    ):
        e = raises(CribError, events.setup, solo=bad)
        assert said in message(e), message(e)
    e = raises(CribError, solo.make, "top", 2**30, b"k", 1)
    assert "the seed must be 0..1073741823" in message(e)
    line = to_line(events.setup(solo=good))
    assert from_line(line)["solo"] == good
