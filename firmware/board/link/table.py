# The link's `table` op (docs/protocol.md): a laptop bridging the board to a remote table feeds it the cards.
"""Loaded with the first `table` request (Link._op_table), never at boot nor for a board that does not
play at a table. What the table says (the dealer and the player's six, the starter, the other seat's
lays, the goes, the other seat's cards at the show) is applied at once through the Commit, checked by
the core as any event (cribbage/table.py): no key press, as the other seat's press was made at its own
table. A new table match is the one move that waits for OK on the board (a laptop's proposal).

Each move names where it falls (the deal, and in the play the act's place: `at`, the lays and goes
before it), so a move a bridge sends again after a reconnect is answered `replayed` and applied once;
the `state`'s "table" (table.state) says what the board has, so a bridge sends only what it lacks.
"""

from board.link import LinkError, _field, _is_int
from cribbage import events, solo
from cribbage.errors import CribError
from cribbage.forms import make_setup


def _cards(move, name, n):
    cards = move.get(name)
    if type(cards) is not list or len(cards) != n:
        raise LinkError("type", "'%s' must be %d cards" % (name, n))
    for i in range(n):
        c = cards[i]
        if not _is_int(c) or not 0 <= c < 52:
            raise LinkError("range", "a card is 0..51, not %r" % (c,))
        if c in cards[:i]:
            raise LinkError("range", "card %d twice in '%s'" % (c, name))
    return cards


def _int(move, name, lo, hi):
    v = _field(move, name, "int", required=True)
    if v is None or not lo <= v <= hi:
        raise LinkError("range", "'%s' must be %d..%d" % (name, lo, hi))
    return v


def op(link, req):
    move = _field(req, "move", "dict", required=True) or {}
    t = move.get("t")
    c = link.controller
    if c is None:
        raise LinkError("refused", "no board app to play at a table")
    m = c.book.match
    if t == "new":
        return _new(link, c, m, move)
    if "solo" not in m.setup or m.setup["solo"][0] != "table":
        raise LinkError("refused", "no table match in force: 'new' first")
    if t not in ("hand", "starter", "lay", "go", "show"):
        raise LinkError(
            "range", "unknown table move %r: new, hand, starter, lay, go or show" % (str(t)[:12],)
        )
    from cribbage import table

    d = _int(move, "deal", 1, 99)
    evs = None
    if t == "hand":
        evs = _hand(m, table, d, _int(move, "dealer", 0, 1), _cards(move, "cards", 6))
    elif d < m.deal_no:
        evs = []  # a deal the board has played on from: this move is in it already
    elif d > m.deal_no:
        raise LinkError("range", "the board is at deal %d: deal %d's hand first" % (m.deal_no, d))
    elif t == "starter":
        card = _int(move, "c", 0, 51)
        evs = _same(m.starter, card, "starter") if m.starter is not None else [events.starter(card)]
    elif t == "lay" or t == "go":
        at = _int(move, "at", 0, 63)
        if t == "lay":
            a, ev = 1, events.lay(1, _int(move, "c", 0, 51))
        else:
            a = _int(move, "p", 0, 1)
            ev = events.go(a)
        acts = table.state(m)["acts"]
        if at < len(acts):
            evs = _same(acts[at], [a, ev.get("c", -1)], "act %d of deal %d" % (at, d))
        elif at > len(acts):
            raise LinkError(
                "range", "the board has %d acts of deal %d's play: act %d next" % (len(acts), d, len(acts))
            )
        else:
            evs = [ev]
    else:  # show: the other seat's four kept cards, and the crib
        kept = _cards(move, "hand", 4)
        crib = _cards(move, "crib", 4)
        h = table.hands(m)
        six = kept + [b for b in crib if b not in h[0]]
        if h[1]:
            evs = _same(list(h[1]), six, "the show")
        elif sorted([b for b in crib if b in h[0]]) != sorted(solo.crib(m) or ()) or len(six) != 6:
            raise LinkError("refused", "the crib holds %s's throw and two of the other seat's" % m.names[0])
        else:
            evs = [{"t": "hand", "p": 1, "cards": six}]
    return _apply(c, m, table, evs)


def _same(had, got, what):
    # A move the board has already: the same one is a replay (nothing applied), another is refused.
    if had != got:
        raise LinkError("refused", "%s was another: %r, not %r" % (what, had, got))
    return []


def _hand(m, table, d, dealer, cards):
    # The events that give the player deal d's six: the first dealer, or the next deal, first.
    if m.dealer is None:
        if d != 1:
            raise LinkError("range", "the board is before the first deal: deal 1's hand first")
        return [events.dealer(dealer), {"t": "hand", "p": 0, "cards": cards}]
    evs = []
    if d == m.deal_no + 1 and m.phase() == "deal":
        evs.append(events.next_deal())
        if dealer == m.dealer:
            raise LinkError("refused", "deal %d is dealt by the other seat: the deal goes round" % d)
    elif d < m.deal_no:
        return []
    elif d != m.deal_no:
        raise LinkError("range", "the board is at deal %d (%s), not %d" % (m.deal_no, m.phase(), d))
    elif dealer != m.dealer:
        raise LinkError("refused", "deal %d is dealt by %s" % (d, m.names[m.dealer]))
    else:
        had = table.hands(m)[0]
        if had:
            return _same(list(had), cards, "deal %d's hand" % d)
    evs.append({"t": "hand", "p": 0, "cards": cards})
    return evs


def _apply(c, m, table, evs):
    # Each event through the Commit (journaled before it is told); a refusal of the first changes
    # nothing; the display shows what came, in the play's words (the solo plug-in's news).
    for ev in evs:
        count = m.play.count if m.play is not None else 0
        try:
            done = c.book.apply(ev)
        except CribError as e:
            raise LinkError("refused", str(e.args[0]) if e.args else "refused")
        a = c.advising  # the solo plug-in says what came, in the play's words (as the board's own moves)
        if a is not None and a.on and hasattr(a, "news"):
            a._tell(c, m, done, count)
        if a is None or done["t"] == "hand" or done["t"] == "deal":
            c.say()  # (nothing to say but the hand: the display draws it anew)
    return {"replayed": not evs, "table": table.state(m)}


def _new(link, c, m, move):
    # A new table match, proposed: it starts when the player presses OK on the board. The match of this
    # tag in force, under way or over, is a replay: a table's game is played once, never wiped by another.
    tag = _int(move, "tag", 0, solo.TOP)
    names = move.get("names")
    if m.setup.get("solo") == ["table", tag, 0]:
        from cribbage import table

        return {"replayed": True, "table": table.state(m)}
    try:
        setup = make_setup("six", "games", 1, None, False, names, "all", ["table", tag, 0])
    except CribError as e:
        raise LinkError("refused", str(e.args[0]))
    if link.pending is not None:
        raise LinkError("busy", "request %d is waiting for a key press on the board" % link.pending["pid"])
    link._pid += 1
    link.pending = {
        "pid": link._pid,
        "event": {"t": "_new", "setup": setup},
        "note": "vs " + setup["names"][1],
    }
    return {"pending": link._pid}
