"""The board's opponent in a table's seat: its share, discard and lay, chosen by cribbage.opponent."""

from crib.tables import fairdeal
from crib.tables.game import TARGET

NAMES = {"beginner": "Board (beginner)", "expected": "Board (expected)", "top": "Board (top)"}


def check_level(level):
    from crib.tables.service import TableError

    if level not in NAMES:
        raise TableError("no opponent level %r: one of %s" % (level, ", ".join(NAMES)))


def name(level, k=1):
    """The opponent's name at a table; the k-th of its level there (k > 1) is numbered: Board 2 (top)."""
    return NAMES[level] if k == 1 else NAMES[level].replace("Board", "Board %d" % k)


def choose(level, table, seat):
    """The move the opponent at `level` makes for `seat` now (the table waits for it).

    Three-handed and 2 v 2: the discard is the core's for the form (cribbage.opponent.discard takes
    the form: one card, the crib the side's own when the seat or its partner deals); the top level's
    look-ahead in the play counts one opponent's cards, so at three or four seats it lays as the
    expected level does (the card scoring most, else the highest); "them" is the leading other side."""
    from cribbage import opponent

    if table.phase == "shares":
        return {"t": "share", "share": fairdeal.new_share()}
    side = table.side(seat)
    me = table.scores[side]
    them = max(s for k, s in enumerate(table.scores) if k != side)
    if table.phase == "discard":
        hand = list(table.held[seat])
        ours = table.side(table.dealer) == side
        throw = opponent.discard(level, hand, ours, me, them, TARGET, form=table.form)
        return {"t": "discard", "cards": [int(c) for c in throw]}
    play = table.play
    seen = [table.starter] + list(table.thrown[seat] or [])
    card = opponent.lay(
        "expected" if level == "top" and table.seats > 2 else level,
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
