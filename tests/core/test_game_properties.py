# Properties of the game fold over random event sequences: lines round-trip, undo is exact,
# a refused event changes nothing, and a journal replayed from its lines is the live match.
from game_kit import state
from hypothesis import given
from hypothesis import strategies as st

from cribbage import events as E
from cribbage.cards import pip
from cribbage.errors import CribError
from cribbage.game import Match, replay

FORMS = ("six", "six61", "three", "four", "five")
WHYS = ("hand", "crib", "play", "go", "heels", "muggins", "penalty", "manual")


def random_event(draw, m):
    """An event that is often, but not always, allowed now."""
    kind = draw(
        st.sampled_from(
            (
                "cut",
                "dealer",
                "peg",
                "show-peg",
                "show-peg",
                "fix",
                "starter",
                "lay",
                "lay",
                "lay",
                "lay",
                "go",
                "deal",
                "game",
                "undo",
                "undo",
                "muggins",
                "muggins",
                "claim-lay",
                "claim-lay",
                "win",
                "win",
                "win",
            )
        )
    )
    side = draw(st.integers(0, m.sides))  # one past the last side now and then
    if kind == "cut":
        return E.cut(draw(st.lists(st.integers(0, 51), min_size=m.players, max_size=m.players, unique=True)))
    if kind == "dealer":
        return E.dealer(draw(st.integers(0, m.players - 1)))
    if kind == "peg":
        return E.peg(side, draw(st.integers(-1, 31)), draw(st.sampled_from(WHYS)))
    if kind == "show-peg":
        nxt = m.next_show()
        if nxt is None:
            return E.peg(side, 4, "hand")
        return E.peg(nxt[0], draw(st.integers(0, 29)), nxt[1])
    if kind == "win":
        return E.peg(side % m.sides, 29, "manual")
    if kind == "fix":
        return E.fix(side, draw(st.integers(-30, 30)))
    if kind == "starter":
        return E.starter(draw(st.integers(0, 51)))
    if kind in ("lay", "claim-lay", "go"):
        player = draw(st.integers(0, m.players - 1))
        if m.play is not None and m.play.turn is not None and draw(st.booleans()):
            player = m.play_seats[m.play.turn]
        if kind == "go":
            return E.go(player)
        claim = draw(st.integers(0, 4)) if kind == "claim-lay" else None
        card = draw(st.integers(0, 51))
        if m.play is not None and draw(st.integers(0, 3)):
            # Mostly a card that can be laid: not laid yet, not the starter, fits under 31.
            laid = [c for _s, c in m.play.laid]
            fits = [c for c in range(52) if c not in laid and c != m.starter and m.play.count + pip(c) <= 31]
            if fits:
                card = draw(st.sampled_from(fits))
        return E.lay(player, card, claim)
    if kind == "muggins":
        return E.muggins(side, draw(st.one_of(st.none(), st.integers(1, 5))))
    if kind == "deal" and draw(st.integers(0, 19)) == 0:
        return E.end_match()  # now and then, but not so often that most matches stop at once
    return {"deal": E.next_deal(), "game": E.next_game(), "undo": E.undo()}[kind]


@given(st.data())
def test_random_event_sequences(data):
    form = data.draw(st.sampled_from(FORMS))
    setup = E.setup(
        form=form,
        fmt=data.draw(st.sampled_from(("acc", "points", "games", "lurch"))),
        muggins=data.draw(st.booleans()),
        three=data.draw(st.sampled_from(("all", "cont"))),
    )
    m = Match(setup)
    journal = [E.to_line(m.setup)]
    history = [state(m)]  # history[k]: the state with k events in force
    for _ in range(data.draw(st.integers(1, 200))):
        ev = random_event(data.draw, m)
        before = state(m)
        try:
            checked = m.check(ev)
        except CribError:
            checked = None
        assert state(m) == before, ev  # check() changes nothing
        try:
            done = m.apply(ev)
        except CribError:
            assert state(m) == before, ev  # a refused event changes nothing
            assert checked is None, ("check() took what apply() refused", ev)
            continue
        assert checked is not None, ("check() refused what apply() took", ev)
        if done["t"] != "undo":
            assert checked == done, ev  # the link asks check() what apply() will do
        line = E.to_line(done)
        assert E.to_line(E.from_line(line)) == line and E.from_line(line) == done
        journal.append(line)
        if done["t"] == "undo":
            assert state(m) == history[m.count], "undo is exactly the state before"
            del history[m.count + 1 :]
        else:
            assert m.count == len(history)
            history.append(state(m))
    # The journal read back, trusted or recounted, is the live match.
    for trusted in (True, False):
        again = replay([E.from_line(line) for line in journal], trusted)
        assert state(again) == state(m)
        assert again.effective_events() == m.effective_events()
    # The events in force alone (no undos) make the same match.
    assert state(replay([m.setup] + m.effective_events())) == state(m)
