# The boot replay's shortcut: the common journal events checked in a few steps, the rest left to checks.
"""Match.apply(ev, trusted=True) asks RECORD[ev["t"]](m, ev) first: the record of ev (bytes, as
checks.validate makes it) when ev is a plain journal line that validate would take as it is, else
None, and validate then decides (and words the refusal). So a shortcut never takes what validate
refuses nor makes another record: each one tests the same conditions validate tests for a trusted
event, in one expression (on MicroPython every call, dict lookup and temporary costs; a boot replays
hundreds of these). Anything unusual (a claim, a card as text, a bad value) takes the long way.
"""
from cribbage.cards import JACK

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just x
    const = int  # type: ignore

# cribbage.records' record types (test_game_records checks they agree)
_STARTER = const(5)
_SHOW = const(6)
_LAY = const(7)
_GO = const(8)
_NONE = const(255)
_DEAL_REC = b"\x0a"


def _in_play(m, p):
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
    if type(n) is int and 0 <= n <= 15 and type(c) is int and 0 <= c < 52 and "claim" not in ev:
        p = ev.get("p")
        if _in_play(m, p):
            return bytes((_LAY, p, c, _NONE, n))
    return None


def _go(m, ev):
    # checks._go, trusted with "n": 0, or 1 for side "s".
    n = ev.get("n")
    p = ev.get("p")
    if n == 0 and type(n) is int and _in_play(m, p):
        return bytes((_GO, p, _NONE, 0))
    if n == 1 and type(n) is int and _in_play(m, p):
        s = ev.get("s")
        if type(s) is int and 0 <= s < m.sides:
            return bytes((_GO, p, s, 1))
    return None


def _show(m, ev):
    # checks._show, trusted with "n": no claim, the side and kind whose turn it is, card numbers.
    n = ev.get("n")
    s = ev.get("s")
    k = ev.get("k")
    if (
        type(n) is int
        and 0 <= n <= 29
        and type(s) is int
        and "claim" not in ev
        and _turn(m, s, k)
        and _cards_ok(ev.get("cards"), 4 if k == "crib" else m.hand_size)
    ):
        return _show_record(ev, s, n)
    return None


def _turn(m, s, k):
    # checks._in_game, _side and _show_turn (and the starter is turned): s's k counts next.
    if m._d < 0 or m.game_over or m.match_over or m.starter is None or s in m.places:
        return False
    idx, p = m._show_order(m.shown)
    return idx >= 0 and p % m.sides == s and k == ("crib" if idx == m.players else "hand")


def _cards_ok(cards, size):
    if type(cards) is not list or len(cards) != size:
        return False
    for c in cards:  # noqa: SIM110 (all() of a generator allocates)
        if type(c) is not int or not 0 <= c < 52:
            return False
    return True


def _show_record(ev, s, n):
    # One bytearray written in place: the record without temporary tuples or lists.
    cards = ev["cards"]
    rec = bytearray(5 + len(cards))
    rec[0] = _SHOW
    rec[1] = s
    rec[2] = 1 if ev["k"] == "crib" else 0
    rec[3] = n
    rec[4] = _NONE
    rec[5] = cards[0]
    rec[6] = cards[1]
    rec[7] = cards[2]
    if len(cards) == 4:
        rec[8] = cards[3]
    return rec


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
        return bytes((_STARTER, c))
    return None


def _deal(m, ev):
    # checks._deal
    if m._d >= 0 and not m.game_over and not m.match_over:
        return _DEAL_REC
    return None


# event type -> shortcut; the other types (rare in a journal) always go through checks.validate
RECORD = {"lay": _lay, "go": _go, "show": _show, "starter": _starter, "deal": _deal}
