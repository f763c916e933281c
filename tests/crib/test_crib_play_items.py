# The score sheet names each play point as the core does: a last card is "last card", a go "go" (both
# are a lone point the fold pegs as "go"; the old sheet called every lone point a go).
import json

from crib.history.replay import replay_board
from cribbage import events as E
from cribbage.game import Match
from cribbage.play import Play


def _deal(lays_and_goes):
    """A two-player match (P1 deals) whose first deal's play is `lays_and_goes`: (player, card) or
    (player, "go"); returns the events with their board-completed counts."""
    m = Match(E.setup(names=["Ann", "Bob"]))
    evs = [m.setup, m.apply(E.dealer(0)), m.apply(E.starter("2S"))]
    for p, c in lays_and_goes:
        evs.append(m.apply(E.go(p) if c == "go" else E.lay(p, c)))
    return evs


def _items_by_card(evs):
    games, _orphans, _m = replay_board("b1", list(enumerate(evs)))
    return {row[6]: row[7] for row in games[0].scores if row[3] in ("play", "go")}


def test_last_card_is_labelled_last_card_and_a_go_go():
    # Bob leads: KH, QH, JH make 30; Ann says go, so does Bob (the go's point is Bob's, a go event);
    # the count restarts with Ann: 5C, 4C, 3C (a run of 3), 9D, and Ann's AC is the last card.
    play = [(1, "KH"), (0, "QH"), (1, "JH"), (0, "go"), (1, "go"), (0, "5C"), (1, "4C"), (0, "3C"), (1, "9D")]
    play.append((0, "AC"))
    evs = _deal(play)
    # What the core's own play says for each card, worked out here card by card.
    p = Play(2, 1, 4)
    want = {}
    for seat, c in play:
        if c == "go":
            p.go(seat)
        else:
            awards = p.lay(seat, c)
            if awards:
                want[c] = [[r, n] for _s, r, n in awards]
    items = _items_by_card(evs)
    got = {c: json.loads(i) for c, i in items.items() if c}
    assert got == want
    assert got["AC"] == [["last card", 1]]  # the old sheet said [["go", 1]]
    assert got["3C"] == [["run of 3", 3]]
    assert items[""] == '[["go", 1]]'  # Bob's go, pegged on the go event
