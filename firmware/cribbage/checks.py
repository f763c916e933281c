# Is this event allowed now? Every check made before anything changes; the answer is a record.
"""The one validator. validate(m, ev, trusted, dry) words every refusal and returns the record an
event makes; journaled(m, ev) is the boot replay's shortcut for the journal's own lays, goes, shows,
starters and deals: it asks the same predicates (each rule stated once, as a function that returns
why not, or None) and writes the record straight into the match's log, with no record made first
(a boot replays hundreds). What the shortcut does not take, validate decides."""

from cribbage import const
from cribbage.cards import JACK, format_card, format_cards, parse_card
from cribbage.errors import CribError
from cribbage.events import KINDS, WHYS
from cribbage.forms import MAX_NAME
from cribbage.show import score_show

# ---- record types: written by tools/gen/records.py from cribbage/records.py; do not edit ----
_CUT = const(1)
_DEALER = const(2)
_PEG = const(3)
_FIX = const(4)
_STARTER = const(5)
_SHOW = const(6)
_LAY = const(7)
_GO = const(8)
_MUG = const(9)
_DEAL = const(10)
_GAME = const(11)
_END = const(12)
_NAME = const(13)
_ADVICE = const(14)
_NONE = const(255)
_SHIFT = const(8)
_MASK = const(255)
# ---- end of the record types ----

# Largest legal single peg for each reason (docs/rules.md): a hand or crib 29; one card in the play at most
# 12 (double pair royal) + 2 (fifteen or 31) + 1 (last card) = 15; a go 1; his heels exactly 2.
MAX = {"hand": 29, "crib": 29, "play": 15, "go": 1, "heels": 2, "muggins": 29, "penalty": 29, "manual": 29}
NO_HAND = (19, 25, 26, 27)  # no five cards count these
MAX_FIVE_HAND = 20  # five-card: 3 cards and the starter, best 5-5-5 with a 5 turned
NO_FIVE_HAND = (16, 17, 18, 19)  # nor do 3 cards and a starter (every one tried)
# The records of the events that carry nothing, made once.
_END_REC = bytes((_END,))
_GAME_REC = bytes((_GAME,))
_DEAL_REC = bytes((_DEAL,))


def _int(ev, key, lo, hi, what):
    v = ev.get(key)
    if type(v) is not int or not lo <= v <= hi:  # type() also keeps out True/False
        raise CribError("%s must be %d..%d, not %r" % (what, lo, hi, v))
    return v


def _who(m, p):
    # A player as the board names them (their side's name), never the 0-based number of the core.
    return m.names[p % m.sides]


def _side(m, ev):
    s = _int(ev, "s", 0, m.sides - 1, "side")
    if s in m.places:
        raise CribError("%s is out: the game goes on without them" % m.names[s])
    return s


def _closed(m):
    # Why nothing of a deal can happen now, or None.
    if m._d < 0:
        return "cut for the first deal first"
    if m.game_over:
        return "game over: %s won; nothing scores after it" % m.names[m.places[0]]
    return None


def _in_game(m):
    why = _closed(m)
    if why is not None:
        raise CribError(why)


def _before_dealer(m):
    if m._d >= 0:
        raise CribError("the first dealer is already known: undo the cut to cut again")


def _seen_in_deal(m, c):
    # Card c is the starter or was laid already in this deal's play: the boot replay's shortcut
    # leaves such a lay to the play itself, which refuses it (a record with a good checksum and such
    # a card is refused, not folded).
    if c == m.starter:
        return True
    for a in m._acts:  # noqa: SIM110 (any() of a generator allocates); seat * 64 + card a lay
        if a >= 0 and a & 63 == c:
            return True
    return False


def _shown_twice(m, cards):
    # Why these card numbers cannot be shown together, or None: a card twice, the starter, or a
    # card shown already this deal.
    for i in range(len(cards)):
        c = cards[i]
        if c == m.starter:
            return "%s is the starter, not in a hand" % format_card(c)
        if c in m.shown_cards:
            return "%s was already shown this deal" % format_card(c)
        if cards.index(c) < i:
            return "%s keyed twice" % format_card(c)
    return None


def validate(m, ev, trusted, dry):
    """The record of ev if match m allows it now, else CribError. Changes nothing.

    trusted: ev comes from the board's own journal, whose keys were checked when it was written;
    dry: lays and goes are tried on a copy of the play, so that check() is as exact as apply().
    """
    t = ev.get("t") if type(ev) is dict else None
    entry = _CHECKS.get(t) if type(t) is str else None
    if "solo" in m.setup:
        from cribbage import solo  # a match against the board: its events and rules

        return solo.validate(m, ev, t, entry, trusted, dry)
    if entry is None:
        if type(t) is not str:
            raise CribError("an event is a dict with a text 't', not %r" % (ev,))
        if t == "setup":
            raise CribError("a set-up starts a new match: Match(setup)")
        raise CribError("unknown event %r" % (t,))
    check, keys = entry
    # A trusted journal was written by this code: its keys were checked when it was made.
    if not trusted and len(ev) > 1:
        for k in ev:
            if k != "t" and k not in keys:
                raise CribError("a %s event takes no %r" % (t, k))
    if m.match_over:
        raise CribError("the match is over: undo, or start a new match")
    return check(m, ev, trusted, dry)


def _end(m, ev, trusted, dry):
    return _END_REC


def name(m, ev, trusted, dry):
    # ([name budget] docs/memory.md: "name", not "_name": the firmware interns that name already.)
    # A side's new name: 1..MAX_NAME printable ASCII characters. The display's font is ASCII, and
    # MicroPython interns every character a loop takes from a str: the bytes are read instead, and
    # anything else is refused before one is made.
    s = _int(ev, "s", 0, m.sides - 1, "side")
    text = ev.get("name")
    if type(text) is not str:
        raise CribError("a name is text, not %r" % (text,))
    raw = text.encode()
    for c in raw:
        if c < 32 or c > 126:
            raise CribError("a name takes letters, digits and ASCII signs only")
    if not 1 <= len(raw) <= MAX_NAME or not text.strip():
        raise CribError("a name is 1..%d characters" % MAX_NAME)
    return bytes((_NAME, s, len(raw))) + raw


def advice(m, ev, trusted, dry):
    # The cards dealt to a player, keyed for discard advice before the starter: kept in the journal
    # for the coach (the laptop compares the discard with the best). Pegs nothing, changes nothing.
    # ([name budget] docs/memory.md: "advice" is a name the firmware interns already.)
    p = _int(ev, "p", 0, m.players - 1, "player")
    if m._d < 0 or m.game_over or m.starter is not None:
        raise CribError("the dealt cards are keyed before the starter")
    cards = ev.get("cards")
    n = m.hand_size + (2 if m.players == 2 else 1)
    if not isinstance(cards, (list, tuple)) or len(cards) != n:
        raise CribError("%d cards are dealt to a player" % n)
    cards = [parse_card(c) for c in cards]
    for i in range(n):
        if cards[i] in cards[:i]:
            raise CribError("%s twice: one pack, each card once" % format_card(cards[i]))
    return bytes([_ADVICE, p, n] + cards)


def _dealer(m, ev, trusted, dry):
    _before_dealer(m)
    return bytes((_DEALER, _int(ev, "p", 0, m.players - 1, "player")))


def _cut(m, ev, trusted, dry):
    _before_dealer(m)
    cards = ev.get("cards")
    if not isinstance(cards, (list, tuple)) or len(cards) != m.players:
        raise CribError("the cut needs one card for each of the %d players" % m.players)
    cards = [parse_card(c) for c in cards]
    for i in range(len(cards)):
        if cards[i] in cards[:i]:
            raise CribError("%s cut twice: one pack, each card once" % format_card(cards[i]))
    return bytes([_CUT] + cards)


def _game(m, ev, trusted, dry):
    if m._d < 0:
        raise CribError("cut for the first deal first")
    if not m.game_over:
        raise CribError("the game is not over yet")
    return _GAME_REC


def _deal(m, ev, trusted, dry):
    _in_game(m)
    return _DEAL_REC


def _fix(m, ev, trusted, dry):
    _in_game(m)
    s = _side(m, ev)
    d = _int(ev, "n", -m.target, m.target, "a correction")
    if d == 0:
        raise CribError("a correction of 0 changes nothing")
    new = m.front[s] + d
    if not 0 <= new <= m.target:
        raise CribError("a correction of %d would put %s at %d" % (d, m.names[s], new))
    return bytes((_FIX, s, d + 128))


def _peg(m, ev, trusted, dry):
    _in_game(m)
    s = _side(m, ev)
    why = ev.get("why", "manual")
    if why not in MAX:
        raise CribError("a peg is for %s, not %r" % (", ".join(WHYS), why))
    n = ev.get("n")
    if type(n) is not int:
        raise CribError("points must be a whole number, not %r" % (n,))
    if n < 0:
        raise CribError("a peg never goes back: use a correction for %d" % n)
    hi = MAX_FIVE_HAND if why == "hand" and m.five else MAX[why]
    lo = 0 if why == "hand" or why == "crib" else 2 if why == "heels" else 1
    if not lo <= n <= hi:
        if why == "heels":
            raise CribError("his heels is 2, not %d" % n)
        raise CribError("%d is not a %s score: %d..%d" % (n, why, lo, hi))
    if why == "hand" or why == "crib":
        if n in NO_HAND or m.five and why == "hand" and n in NO_FIVE_HAND:
            raise CribError("no %s counts %d" % (why, n))
        _turn(m, s, why)
    elif why == "play" or why == "go":
        if m.shown:
            raise CribError("the play is over: the show has begun")
    elif why == "heels":
        dealer_side = m._d % m.sides
        if s != dealer_side:
            raise CribError("his heels goes to the dealer, %s" % m.names[dealer_side])
        if m.heels:
            raise CribError("his heels is pegged once a deal")
        if m.starter is not None and m.starter >> 2 != JACK:
            raise CribError("the starter %s is not a jack: no heels" % format_card(m.starter))
    elif why == "muggins" and not m.muggins:
        raise CribError("muggins is off")
    return bytes((_PEG, s, n, WHYS.index(why)))


def _not_turn(m, s, kind):
    # Why side s's hand or crib (kind) does not count now, or None. (The show's place is an index,
    # not next_show()'s tuple: the boot replay asks this for every show.)
    if m._d < 0 or m.game_over:  # _closed's test, here too: the boot replay asks this at every show
        return _closed(m)
    i = m._show_order(m.shown)  # -1 when the show is over; the players' hands, then the crib
    if i < 0:
        return "the show of this deal is over: next deal"
    if (
        kind != ("crib" if i == m.players else "hand")
        or s != ((m._d + 1 + i) % m.players if i < m.players else m._d) % m.sides
    ):
        nxt = m.next_show()
        return "out of order: %s's %s counts next, not %s's %s" % (m.names[nxt[0]], nxt[1], m.names[s], kind)
    return None


def _turn(m, s, kind):
    why = _not_turn(m, s, kind)
    if why is not None:
        raise CribError(why)


def _not_countable(m, s, kind):
    # Why side s's hand or crib cannot be counted from its cards now, or None.
    if m.starter is None:
        return "turn the starter before counting from cards"
    return _not_turn(m, s, kind)


def _no_starter(m, c):
    # Why card c cannot be turned as the starter now, or None.
    if m._d < 0 or m.game_over:  # _closed's test, here too: the boot replay asks this at every starter
        return _closed(m)
    if m.starter is not None:
        return "the starter is already %s" % format_card(m.starter)
    if m.shown:
        return "the show has begun: too late for the starter"
    if m.heels and c >> 2 != JACK:
        return "his heels was pegged but %s is not a jack" % format_card(c)
    return None


def _starter(m, ev, trusted, dry):
    c = parse_card(ev.get("c"))
    why = _no_starter(m, c)
    if why is not None:
        raise CribError(why)
    return bytes((_STARTER, c))


def _not_in_play(m, p):
    # Why player p (a seat of the match) cannot lay or say go now, or None. A player who went out
    # during this play (three-handed continued play) still lays the cards in hand, for the count;
    # what they would score is not pegged.
    if m._d < 0 or m.game_over:  # _closed's test, here too: the boot replay asks this at every lay
        return _closed(m)
    if m.starter is None:
        return "turn the starter before the play"
    if m.shown:
        return "the play is over: the show has begun"
    if p not in m._seats:
        return "%s is out of this game" % _who(m, p)
    return None


def _player_in_play(m, ev):
    p = _int(ev, "p", 0, m.players - 1, "player")
    why = _not_in_play(m, p)
    if why is not None:
        raise CribError(why)
    return p


def _play_seat(m, ev):
    # The player laying or saying go, their seat and the play, if it is their turn.
    p = _player_in_play(m, ev)
    seats = m._seats
    seat = seats.index(p)
    play = m.play
    assert play is not None
    if play.over:
        raise CribError("the play is over: count the hands")
    turn = play.turn
    if turn is not None and turn != seat:
        raise CribError("not %s's turn: %s to play" % (_who(m, p), _who(m, seats[turn])))
    return p, seat, play


def _go(m, ev, trusted, dry):
    # (The journal's own go, with what it scored, is taken by journaled(): the play is not run.)
    p, seat, play = _play_seat(m, ev)
    if play.count <= 21:
        raise CribError("%s cannot say go at %d: any card fits" % (_who(m, p), play.count))
    side = n = _NONE
    if dry or "n" in ev:
        side, n = _NONE, 0
        for s, _r, pts in m.rebuilt_play().go(seat):
            if s is not None:
                side, n = m._seats[s] % m.sides, pts
        if "n" in ev and (ev["n"] != n or n and ev.get("s") != side):
            raise CribError("this go scores %d, not %r" % (n, ev["n"]))
        if not dry:
            side = n = _NONE  # counted again by the play itself as it is applied
    return bytes((_GO, p, side, n))


def _lay(m, ev, trusted, dry):
    claim = ev.get("claim")
    if claim is not None:
        if not m.muggins:
            raise CribError("a claimed count is for muggins, which is off")
        claim = _int(ev, "claim", 0, MAX["play"], "points claimed")
    # (The journal's own lay, with the points it made, is taken by journaled(): the play is not run.)
    p, seat, play = _play_seat(m, ev)
    if not play.cards_left[seat]:
        raise CribError("%s has no cards left" % _who(m, p))
    c = parse_card(ev.get("c"))
    if c == m.starter:
        raise CribError("%s is the starter, not in a hand" % format_card(c))
    n = _NONE
    if dry or claim is not None or "n" in ev:
        total = 0
        for _s, _r, pts in m.rebuilt_play().lay(seat, c):
            total += pts
        if "n" in ev and ev["n"] != total:
            raise CribError("%s scores %d, not %r" % (format_card(c), total, ev["n"]))
        if claim is not None and claim > total:
            raise CribError("%s scores %d, not %d" % (format_card(c), total, claim))
        if dry:
            n = total  # applied for real, the play counts it again as it lays the card
    return bytes((_LAY, p, c, _NONE if claim is None else claim, n))


def _show(m, ev, trusted, dry):
    kind = ev.get("k")
    if kind not in KINDS:
        raise CribError("a show is of a hand or the crib, not %r" % (kind,))
    s = _side(m, ev)
    why = _not_countable(m, s, kind)
    if why is not None:
        raise CribError(why)
    size = 4 if kind == "crib" else m.hand_size
    cards = ev.get("cards")
    if not isinstance(cards, (list, tuple)) or len(cards) != size:
        n = len(cards) if isinstance(cards, (list, tuple)) else 0
        raise CribError("a %s is %d cards without the starter, not %d" % (kind, size, n))
    cards = [parse_card(c) for c in cards]
    why = _shown_twice(m, cards)
    if why is not None:
        raise CribError(why)
    _against_play(m, cards, kind)
    # Counted again even from the journal (its own shows are taken by journaled(), uncounted), by the
    # itemised count the board already holds: the fast total's table comes only with the advice.
    counted = score_show(cards, m.starter, kind == "crib", m.five).total
    n = ev.get("n")
    if n is not None and n != counted:
        shown = format_cards(cards) + " " + format_card(m.starter)
        raise CribError("%s counts %d, not %r" % (shown, counted, n))
    claim = ev.get("claim")
    if claim is not None:
        if not m.muggins:
            raise CribError("a claimed count is for muggins, which is off")
        claim = _int(ev, "claim", 0, 29, "points claimed")
        if claim > counted:
            raise CribError("the %s counts %d: %d is too many" % (kind, counted, claim))
    return bytes([_SHOW, s, KINDS.index(kind), counted, _NONE if claim is None else claim] + cards)


def _against_play(m, cards, kind):
    # Cards laid in the play belong to the hand of the player who laid them, never to the crib.
    play = m.play
    if play is None:
        return
    who = m.next_shower() if kind == "hand" else None
    for seat, c in play.laid:
        p = m._seats[seat]
        if p == who and c not in cards:
            raise CribError("%s laid %s in the play: not in this hand" % (_who(m, p), format_card(c)))
        if p != who and c in cards:
            raise CribError("%s was laid by %s in the play" % (format_card(c), _who(m, p)))


def _muggins(m, ev, trusted, dry):
    _in_game(m)
    if not m.muggins:
        raise CribError("muggins is off")
    if m.muggins_due is None:
        raise CribError("no missed points to claim")
    s = _side(m, ev)
    missed_by, due = m.muggins_due
    if s == missed_by:
        raise CribError("%s cannot claim their own missed points" % m.names[s])
    n = _int(ev, "n", 1, due, "points claimed") if "n" in ev else due
    return bytes((_MUG, s, n))


# ---- the boot replay's shortcut ----------------------------------------------------------------
# The journal's own lays, goes, shows, starters and deals carry what they scored, so the play is not
# run for them: each is taken when the predicates above find nothing against it and its values fit
# their record, and its record is written in place. The index arithmetic is records.Log's (the const
# copies of its SHIFT and MASK); [frame rule] docs/memory.md: few locals.


def journaled(m, ev):
    """Where in m's log ev's record is now written, if ev is a plain journal line of a lay, go, show,
    starter or deal that validate would take as it is (the same bytes as validate's record); else -1,
    nothing is written, and validate decides and words the refusal."""
    if m.match_over:
        return -1
    t = ev.get("t")
    if t == "lay":
        return _lay_journaled(m, ev)
    if t == "show":
        return _show_journaled(m, ev)
    if t == "go":
        return _go_journaled(m, ev)
    if t == "starter":
        return _starter_journaled(m, ev)
    if t == "deal" and _closed(m) is None:
        p = m._log.add(1)
        m._log.chunks[p >> _SHIFT][p & _MASK] = _DEAL
        return p
    return -1


def _lay_journaled(m, ev):
    # A card number, the points 0..15 it made, no claim.
    n = ev.get("n")
    c = ev.get("c")
    p = ev.get("p")
    if not (
        type(n) is int
        and 0 <= n <= 15
        and type(c) is int
        and 0 <= c < 52
        and type(p) is int
        and "claim" not in ev
        and _not_in_play(m, p) is None
        and not _seen_in_deal(m, c)
    ):
        return -1
    i = m._log.add(5)
    b = m._log.chunks[i >> _SHIFT]
    i &= _MASK
    b[i] = _LAY
    b[i + 1] = p
    b[i + 2] = c
    b[i + 3] = _NONE
    b[i + 4] = n
    return m._log.end - 5


def _go_journaled(m, ev):
    # 0, or 1 point for side "s".
    n = ev.get("n")
    s = ev.get("s") if n == 1 else _NONE
    p = ev.get("p")
    if not (
        (n == 0 or n == 1 and type(s) is int and 0 <= s < m.sides)
        and type(n) is int
        and type(p) is int
        and _not_in_play(m, p) is None
    ):
        return -1
    i = m._log.add(4)
    b = m._log.chunks[i >> _SHIFT]
    i &= _MASK
    b[i] = _GO
    b[i + 1] = p
    b[i + 2] = s
    b[i + 3] = n
    return m._log.end - 4


def _show_journaled(m, ev):
    if not _show_fits(m, ev):
        return -1
    i = len(ev["cards"])
    i = m._log.add(5 + i)
    b = m._log.chunks[i >> _SHIFT]
    i &= _MASK
    b[i] = _SHOW
    b[i + 1] = ev["s"]
    b[i + 2] = 1 if ev["k"] == "crib" else 0
    b[i + 3] = ev["n"]
    b[i + 4] = _NONE
    s = ev["cards"]
    b[i + 5] = s[0]
    b[i + 6] = s[1]
    b[i + 7] = s[2]
    if len(s) == 3:
        return m._log.end - 8
    b[i + 8] = s[3]
    return m._log.end - 9


def _show_fits(m, ev):
    # The side and kind whose turn it is, as many card numbers as it holds, its count, no claim.
    n = ev.get("n")
    s = ev.get("s")
    return (
        type(n) is int
        and 0 <= n <= 29
        and type(s) is int
        and 0 <= s < m.sides
        and "claim" not in ev
        and _not_countable(m, s, ev.get("k")) is None
        and _ints(m, ev)
        and _shown_twice(m, ev["cards"]) is None
    )


def _ints(m, ev):
    # The show's cards are a list of card numbers, as many as its hand or crib ("k") has.
    cards = ev.get("cards")
    if type(cards) is not list or len(cards) != (4 if ev.get("k") == "crib" else m.hand_size):
        return False
    for c in cards:  # noqa: SIM110 (all() of a generator allocates)
        if type(c) is not int or not 0 <= c < 52:
            return False
    return True


def _starter_journaled(m, ev):
    c = ev.get("c")
    if not (type(c) is int and 0 <= c < 52 and _no_starter(m, c) is None):
        return -1
    p = m._log.add(2)
    b = m._log.chunks[p >> _SHIFT]
    b[p & _MASK] = _STARTER
    b[(p & _MASK) + 1] = c
    return p


# event type -> (check, the keys it may carry besides "t")
_CHECKS = {
    "lay": (_lay, ("p", "c", "claim", "n")),
    "peg": (_peg, ("s", "n", "why")),
    "go": (_go, ("p", "s", "n")),
    "show": (_show, ("s", "k", "cards", "n", "claim")),
    "starter": (_starter, ("c",)),
    "deal": (_deal, ()),
    "fix": (_fix, ("s", "n")),
    "muggins": (_muggins, ("s", "n")),
    "game": (_game, ("at",)),  # at: when the board started it (Unix seconds), if it was told the time
    "cut": (_cut, ("cards",)),
    "dealer": (_dealer, ("p",)),
    "end": (_end, ()),
    "name": (name, ("s", "name")),
    "advice": (advice, ("p", "cards")),
}
