"""The board's opponent in a table's seat: its share, discard and lay, chosen by cribbage.opponent."""

from crib.tables import fairdeal
from crib.tables.game import TARGET

NAMES = {"beginner": "Board (beginner)", "expected": "Board (expected)", "top": "Board (top)"}


def check_level(level):
    from crib.tables.service import TableError

    if level not in NAMES:
        raise TableError("no opponent level %r: one of %s" % (level, ", ".join(NAMES)))


def name(level):
    return NAMES[level]


def choose(level, table, seat):
    """The move the opponent at `level` makes for `seat` now (the table waits for it)."""
    from cribbage import opponent

    if table.phase == "shares":
        return {"t": "share", "share": fairdeal.new_share()}
    me, them = table.scores[seat], table.scores[1 - seat]
    if table.phase == "discard":
        hand = list(table.held[seat])
        throw = opponent.discard(level, hand, table.dealer == seat, me, them, TARGET)
        return {"t": "discard", "cards": [int(c) for c in throw]}
    play = table.play
    seen = [table.starter] + list(table.thrown[seat] or [])
    card = opponent.lay(
        level,
        list(table.held[seat]),
        list(play.current),
        play.count,
        [c for _s, c in play.laid],
        seen,
        me,
        them,
        TARGET,
    )
    return {"t": "lay", "card": int(card)}
