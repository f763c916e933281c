# The boot replay's shortcut: the common journal events checked in a few steps, the rest left to checks.
"""Match.apply(ev, trusted=True) asks record(m, ev) first. For a plain journal line of a lay, go,
show, starter or deal that checks.validate would take as it is, record writes the very bytes
validate would make straight into the match's log and returns where; for anything else it returns
-1 and writes nothing, and validate decides (and words the refusal). So the shortcut never takes
what validate refuses nor makes another record: each function tests the same conditions validate
tests for a trusted event, in one expression (on MicroPython every call, dict lookup and temporary
costs, and a boot replays hundreds of these); anything unusual (a claim, a card as text, a bad
value) takes the long way. Tests that need a loop (a card laid or shown twice) are checks' own
predicates, called here, not restated. tests/both/test_game_trusted.py holds them side by side.

Its heap is counted too: no tables or buffers, few functions, names the firmware interns already
([name budget] docs/memory.md).
"""

from cribbage.cards import JACK
from cribbage.checks import seen_in_deal, shown_before

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just x
    const = int  # type: ignore

# The record types as constants the compiler folds into the code (the values: cribbage/records.py).
# ---- record types: written by bench/gen_records.py from cribbage/records.py; do not edit ----
_STARTER = const(5)
_SHOW = const(6)
_LAY = const(7)
_GO = const(8)
_DEAL = const(10)
_NONE = const(255)
_SHIFT = const(8)
_MASK = const(255)
# ---- end of the record types ----


def record(m, ev):
    """The position in m's log where ev's record is now written, if ev is a plain journal line
    that checks.validate would take as it is (the same bytes as validate's record); else -1, and
    nothing is written."""
    t = ev.get("t")
    if t == "lay":
        return _lay(m, ev)
    if t == "show":
        return _show(m, ev)
    if t == "go":
        return _go(m, ev)
    if t == "starter":
        return _starter(m, ev)
    if t == "deal" and m._d >= 0 and not m.game_over and not m.match_over:  # checks._deal
        p = m._log.add(1)
        m._log.chunks[p >> _SHIFT][p & _MASK] = _DEAL
        return p
    return -1


def _player_in_play(m, p):
    # checks._player_in_play and the match not over: a lay or go is taken now from player p.
    return (
        type(p) is int
        and m._d >= 0
        and not m.game_over
        and not m.match_over
        and m.starter is not None
        and not m.shown
        and p in m._seats
    )


def _lay(m, ev):
    # checks._lay, trusted with "n": no claim, a card number, the points 0..15 the card made.
    n = ev.get("n")
    c = ev.get("c")
    if (
        type(n) is int
        and 0 <= n <= 15
        and type(c) is int
        and 0 <= c < 52
        and "claim" not in ev
        and _player_in_play(m, ev.get("p"))
        and not seen_in_deal(m, c)
    ):
        # (Few locals: [frame rule] docs/memory.md.)
        i = m._log.add(5)
        b = m._log.chunks[i >> _SHIFT]  # records.Log
        i &= _MASK
        b[i] = _LAY
        b[i + 1] = ev["p"]
        b[i + 2] = c
        b[i + 3] = _NONE
        b[i + 4] = n
        return m._log.end - 5
    return -1


def _go(m, ev):
    # checks._go, trusted with "n": 0, or 1 for side "s".
    n = ev.get("n")
    s = ev.get("s") if n == 1 else _NONE
    if (
        (n == 0 or n == 1 and type(s) is int and 0 <= s < m.sides)
        and type(n) is int
        and _player_in_play(m, ev.get("p"))
    ):
        i = m._log.add(4)
        b = m._log.chunks[i >> _SHIFT]
        i &= _MASK
        b[i] = _GO
        b[i + 1] = ev["p"]
        b[i + 2] = s
        b[i + 3] = n
        return m._log.end - 4
    return -1


def _show(m, ev):
    # checks._show, trusted with "n": no claim, the side and kind whose turn it is, card numbers.
    n = ev.get("n")
    s = ev.get("s")
    if not (
        type(n) is int
        and 0 <= n <= 29
        and type(s) is int
        and "claim" not in ev
        and _show_turn(m, s, ev)
        and _ints(m, ev)
        and not shown_before(m, ev["cards"])
    ):
        return -1
    i = len(ev["cards"])
    i = m._log.add(5 + i)
    b = m._log.chunks[i >> _SHIFT]
    i &= _MASK
    b[i] = _SHOW
    b[i + 1] = s
    b[i + 2] = 1 if ev["k"] == "crib" else 0
    b[i + 3] = n
    b[i + 4] = _NONE
    s = ev["cards"]
    b[i + 5] = s[0]
    b[i + 6] = s[1]
    b[i + 7] = s[2]
    if len(s) == 3:
        return m._log.end - 8
    b[i + 8] = s[3]
    return m._log.end - 9


def _show_turn(m, s, ev):
    # checks._in_game, _side and _show_turn (and the starter is turned): it is the turn of s's
    # hand or crib (ev["k"]).
    if m._d < 0 or m.game_over or m.match_over or m.starter is None or s in m.places:
        return False
    i = m._show_order(m.shown)  # as next_show: -1 when the show is over, players for the crib
    if i < 0 or ev.get("k") != ("crib" if i == m.players else "hand"):
        return False
    return s == ((m._d + 1 + i) % m.players if i < m.players else m._d) % m.sides


def _ints(m, ev):
    # The show's cards are a list of card numbers, as many as its hand or crib has.
    cards = ev.get("cards")
    if type(cards) is not list or len(cards) != (4 if ev["k"] == "crib" else m.hand_size):
        return False
    for c in cards:  # noqa: SIM110 (all() of a generator allocates)
        if type(c) is not int or not 0 <= c < 52:
            return False
    return True


def _starter(m, ev):
    # checks._starter: a card number; a jack if heels were pegged already.
    c = ev.get("c")
    if (
        type(c) is int
        and 0 <= c < 52
        and m._d >= 0
        and not m.game_over
        and not m.match_over
        and m.starter is None
        and not m.shown
        and (not m.heels or c >> 2 == JACK)
    ):
        p = m._log.add(2)
        b = m._log.chunks[p >> _SHIFT]
        b[p & _MASK] = _STARTER
        b[(p & _MASK) + 1] = c
        return p
    return -1
