# A match against the board: the seeded deals, the throws, the cards held, the seal, the board's moves.
"""The solo match (docs/bots.md, "Against the board"). The board is player 1 (BOARD), the player is 0.

The set-up carries "solo": [level, seal, salt]: the opponent's level, and the match's seed
sealed with a key the board keeps off the journal (seal = seed ^ pad(key, salt)), so nothing the
journal serves tells a card. A game's seed follows from the match's and its number, a deal's from
its game's and its number, the deal itself from cribbage/deal.py, the first dealer from the game's
seed. The journal holds the seal and every decision, so a power cut resumes the deal exactly.

The events of a solo match besides the usual ones (starter, lay, go, show, muggins, deal, game, name,
dealer, end):
    throw(p, i)   {"t":"throw","p","i":[k, k]}: the places (0..5, in the dealt order) of the cards
                  player p throws to the crib: places, not cards, so the board's throw tells nothing
    reveal(n)     {"t":"seed","n"}: the game's seed, once the game is over: with it every deal of
                  the game can be checked (the laptop's replay)
Not against the board: undo, pegs and corrections by hand, a keyed cut, the advice event; and a check
(Match.check: a laptop's proposal) of anything that would tell about the cards.

A match knows the cards once told the seed: register(solo, seed) on the board that sealed it,
revealed(solo, game_no, n) where a game's seed was revealed. Told, it refuses a lay of a card not
held, a go while a card fits, a starter or a show that is not the deal's, a first dealer not the
seed's; not told (the boot replay of the board's own journal, the laptop before the reveal), it
checks what the events say.

next_move(m) -> the event the board makes now (its throw, lay or go, the player's go when no card
fits, the starter, the counts, the muggins it takes, the reveal), or None while the player is to act.
"""

import hashlib

from cribbage import checks, const
from cribbage.cards import format_card, pip
from cribbage.deal import FORM_DEAL, deal
from cribbage.errors import CribError

# ---- record types: written by tools/gen/records.py from cribbage/records.py; do not edit ----
_STARTER = const(5)
_SHOW = const(6)
_LAY = const(7)
_GO = const(8)
_DEAL = const(10)
_SOLO = const(15)
_NONE = const(255)
_SHIFT = const(8)
_MASK = const(255)
# ---- end of the record types ----

BOARD = 1  # the board's player (and side); the player is 0
LEVELS = ("beginner", "expected", "top")  # cribbage.opponent's, which loads with the board's first move
FORMS = ("six", "six61", "five")
# At a remote table the level is "table" (cribbage/table.py: its cards come from the table, told over the
# link); a hand there is a solo record whose player byte is _HAND: [_SOLO, _HAND, 7, p, the six cards].
_HAND = const(254)
TOP = 0x3FFFFFFF  # seeds, seals and salts: 0 .. 2**30 - 1 (small ints on the board)
_seeds = {}  # seal -> the match's seed (register)
_games = {}  # (seal, game number) -> the game's seed (revealed)


def _h(key, n):
    # 30 bits of the SHA-256 of key (bytes) and the number n.
    d = hashlib.sha256(bytes(key) + (" %d" % n).encode()).digest()
    return (d[0] & 0x3F) << 24 | d[1] << 16 | d[2] << 8 | d[3]


def _seed_of(a, n):
    return _h(("%d" % a).encode(), n)


def _number(v, what):
    if type(v) is not int or not 0 <= v <= TOP:
        raise CribError("%s must be 0..%d, not %r" % (what, TOP, v))
    return v


def make(level, seed, key, salt):
    """The set-up's "solo" for a match at `level` dealt from `seed` (deal.new_seed(), or a seed given
    to deal a match again), sealed with `key` (bytes, the board's own) and `salt` (deal.new_seed());
    the seed is registered."""
    if level not in LEVELS:
        raise CribError("the board's level is one of %s, not %r" % (" ".join(LEVELS), level))
    solo = [level, _number(seed, "the seed") ^ _h(key, _number(salt, "salt")), salt]
    register(solo, seed)
    return solo


def unseal(solo, key):
    """The match's seed from the set-up's "solo" and the key it was sealed with."""
    return solo[1] ^ _h(key, solo[2])


def check(solo, form):
    """The set-up's "solo" checked (forms.make_setup): a new list, or CribError."""
    if not isinstance(solo, (list, tuple)) or len(solo) != 3:
        raise CribError("solo is [level, seal, salt], not %r" % (solo,))
    level = solo[0]
    if level == "table":  # ["table", the bridge's tag for its table, 0]: the six-card game
        if form != "six" or solo[2] != 0:
            raise CribError("at a table: the six-card game, and ['table', tag, 0]")
    elif level not in LEVELS:
        raise CribError("the board's level is one of %s, not %r" % (" ".join(LEVELS), level))
    elif form not in FORMS:
        raise CribError("against the board: the six-card or the five-card game, not %r" % (form,))
    return [level, _number(solo[1], "seal"), _number(solo[2], "salt")]


def register(solo, seed):
    """Tell the matches of this set-up's "solo" their seed (the board that sealed it)."""
    _seeds[solo[1]] = seed


def revealed(solo, game_no, n):
    """Tell the matches of this set-up's "solo" the seed revealed for game `game_no`."""
    _games[(solo[1], game_no)] = n


def match_seed(m):
    """The seed solo match m was dealt from, where this board sealed it (register), else None: told
    once the match is over, so it can be keyed to deal the match again."""
    return _seeds.get(m.setup["solo"][1])


def game_seed(m):
    """The seed of solo match m's game in force, or None when m is not told it."""
    solo = m.setup["solo"]
    if solo[0] == "table":
        return None  # (dealt by the table: no seed)
    s = _seeds.get(solo[1])
    if s is not None:
        return _seed_of(s, m.game_no)
    return _games.get((solo[1], m.game_no))


def throw(p, places):
    return {"t": "throw", "p": p, "i": list(places)}


def reveal(n):
    return {"t": "seed", "n": n}


def event_of(b, i):
    """The event of the solo record at b[i] (records.event_of)."""
    if b[i + 1] == _NONE:
        return {"t": "seed", "n": b[i + 3] << 24 | b[i + 4] << 16 | b[i + 5] << 8 | b[i + 6]}
    if b[i + 1] == _HAND:
        return {"t": "hand", "p": b[i + 3], "cards": list(b[i + 4 : i + 10])}
    return {"t": "throw", "p": b[i + 1], "i": list(b[i + 3 : i + 3 + b[i + 2]])}


# ---- the deal in force ----------------------------------------------------------------------------


def dealt(m):
    """(hands, crib, starter) of solo match m's deal in force (cribbage.deal.deal), or None: m is
    not told the seed, or no dealer yet (at a table: the hands the table told, cribbage/table.py)."""
    if m.setup["solo"][0] == "table":
        from cribbage import table

        return table.dealt(m)
    g = game_seed(m)
    if g is None or m.dealer is None:
        return None
    return deal_of(g, m.deal_no, m.form, m.dealer)


def deal_of(game_seed, deal_no, form, dealer):
    """(hands, crib, starter) of deal `deal_no` of the game whose seed is `game_seed` (a revealed
    one: the laptop deals a finished game again), `dealer` the player who dealt it."""
    return deal(_seed_of(game_seed, deal_no), form, dealer)


def _records(m):
    # (chunk, index) of each record of the deal in force, oldest first (from its checkpoint: undo is
    # refused against the board, so the last checkpoint is the deal's or the game's start).
    log = m._log
    p = log.norm(m._cps[-1][0])
    while p < log.end:
        yield log.chunks[p >> _SHIFT], p & _MASK
        p = log.after(p, m.players, m.hand_size)


def thrown(m):
    """The places each player threw to the crib this deal ([] before their throw)."""
    out = [[] for _ in range(m.players)]
    for b, i in _records(m):
        if b[i] == _SOLO and b[i + 1] < _HAND:
            out[b[i + 1]] = list(b[i + 3 : i + 3 + b[i + 2]])
        elif b[i] == _SOLO and b[i + 1] == _HAND and b[i + 3]:
            out[1] = [4, 5]  # at a table: the other seat's six, told at the show, its throw last
    return out


def told(m):
    """Whether this deal's game seed is in the journal already (the reveal)."""
    for b, i in _records(m):  # noqa: SIM110 (any() of a generator allocates)
        if b[i] == _SOLO and b[i + 1] == _NONE:
            return True
    return False


def kept(m, p, d=None):
    """The cards player p kept this deal (dealt and not thrown; all dealt before the throw), or None."""
    d = d or dealt(m)
    if d is None:
        return None
    gone = thrown(m)[p]
    hand = d[0][p]
    return [hand[k] for k in range(len(hand)) if k not in gone]


def held(m, p, d=None):
    """The cards player p holds now (kept and not laid), or None when m is not told the seed."""
    cards = kept(m, p, d)
    if cards is None:
        return None
    seats = m.play_seats
    for a in m._acts:  # seat * 64 + card for a lay
        if a >= 0 and seats[a >> 6] == p and a & 63 in cards:
            cards.remove(a & 63)
    return cards


def crib(m, d=None):
    """The crib's cards this deal (both throws), or None."""
    d = d or dealt(m)
    if d is None:
        return None
    th = thrown(m)
    return [d[0][p][k] for p in range(m.players) for k in th[p]]


# ---- the checks (checks.validate hands a solo match's events here) ----------------------------------


def validate(m, ev, t, entry, trusted, dry):
    """The record of ev in solo match m, as checks.validate answers, or CribError."""
    if t == "throw" or t == "seed" or t == "hand" and m.setup["solo"][0] == "table":
        keys = ("p", "i") if t == "throw" else ("n",) if t == "seed" else ("p", "cards")
    elif entry is None:
        if type(t) is not str:
            raise CribError("an event is a dict with a text 't', not %r" % (ev,))
        raise CribError("unknown event %r" % (t,))
    elif t in ("lay", "go", "show", "starter", "dealer", "deal", "game", "muggins", "name", "end"):
        keys = entry[1]  # the usual events, checked as in any match and then against the deal
    else:
        raise CribError("%s: not against the board" % t)
    # (a check never answers these)
    if dry and t in ("throw", "seed", "lay", "go", "show", "starter", "dealer", "hand"):
        raise CribError("against the board: played on the board")
    if not trusted:
        for k in ev:
            if k != "t" and k not in keys:
                raise CribError("a %s event takes no %r" % (t, k))
    if m.match_over and t != "seed":
        raise CribError("the match is over: start a new match")
    if t == "throw":
        return _throw(m, ev)
    if t == "seed":
        if m._d < 0 or not m.game_over:
            raise CribError("a game's seed is told once the game is over")
        if told(m):
            raise CribError("this game's seed is told already")
        n = _number(ev.get("n"), "a seed")
        g = game_seed(m)
        if g is not None and n != g:
            raise CribError("not this game's seed")
        return bytes((_SOLO, _NONE, 4, n >> 24, n >> 16 & 255, n >> 8 & 255, n & 255))
    if t == "hand":
        from cribbage import table

        return table.hand(m, ev)
    rec = entry[0](m, ev, trusted, dry)
    if trusted:
        return rec
    # Why the record the usual check made of a t event cannot be in this deal (worded without a hidden
    # card), or None: the cards are checked when m is told the seed.
    why = None
    if (t == "lay" or t == "go" or t == "starter") and m.setup["solo"][0] == "table":
        from cribbage import table  # at a table: checked as they come

        why = table.why(m, t, rec)
    elif t == "dealer":
        g = game_seed(m)
        if g is not None and rec[1] != _seed_of(g, 0) % m.players:
            why = "the board cut: %s deals" % m.names[_seed_of(g, 0) % m.players % m.sides]
    elif t == "deal":
        if m.phase() != "deal":
            why = "the hands and the crib count first"
    elif t == "game":
        if not told(m):
            why = "the game's seed is told first"
    elif t == "starter":
        for places in thrown(m):
            if not places:
                raise CribError("the crib first: two cards each")
        d = dealt(m)
        if d is not None and rec[1] != d[2]:
            why = "not this deal's starter"
    elif t == "lay" or t == "go" or t == "show":
        d = dealt(m)
        if d is None:
            pass
        elif t == "show":
            cards = crib(m, d) if rec[2] else kept(m, m.next_shower(), d)
            if sorted(rec[5:]) != sorted(cards or ()):
                why = "not the cards of this %s" % ("crib" if rec[2] else "hand")
        else:
            cards = held(m, rec[1], d) or []
            if t == "lay" and rec[2] not in cards:
                why = "%s is not in %s's hand" % (format_card(rec[2]), m.names[rec[1] % m.sides])
            elif t == "go":
                for c in cards:
                    if m.play.count + pip(c) <= 31:
                        why = "%s can lay a card: no go" % m.names[rec[1] % m.sides]
    if why is not None:
        raise CribError(why)
    return rec


def _throw(m, ev):
    checks._in_game(m)
    if m.starter is not None or m.shown:
        raise CribError("the crib is thrown before the starter")
    p = checks._int(ev, "p", 0, m.players - 1, "player")
    if m.setup["solo"][0] == "table" and (p or dealt(m) is None):
        raise CribError("%s throws at the table" % m.names[p] if p else "the table deals first")
    places = ev.get("i")
    size = FORM_DEAL[m.form][1]
    if type(places) is not list or len(places) != 2:
        raise CribError("a throw is two places in the hand, not %r" % (places,))
    for k in places:
        if type(k) is not int or not 0 <= k < size:
            raise CribError("a place in the hand is 0..%d, not %r" % (size - 1, k))
    if places[0] == places[1]:
        raise CribError("two cards to the crib, not one twice")
    if thrown(m)[p]:
        raise CribError("%s has thrown to the crib already" % m.names[p % m.sides])
    return bytes([_SOLO, p, 2] + sorted(places))


# ---- the board's moves ------------------------------------------------------------------------------


def next_move(m):
    """The event the board makes now in solo match m (see the module's docstring), or None."""
    return _move(m, True)


def due(m):
    """Whether the board has a move to make now (next_move would give one), without its search."""
    return _move(m, False) is not None


def _move(m, think):
    if m.setup["solo"][0] == "table":
        from cribbage import table

        return table.move(m)
    g = game_seed(m)
    if g is None or (m.match_over and told(m)):
        return None
    if m.dealer is None:
        return None if m.game_no > 1 else {"t": "dealer", "p": _seed_of(g, 0) % m.players}
    d = dealt(m)
    assert d is not None
    if m.game_over:
        return None if told(m) else reveal(g)
    due = m.muggins_due
    if due is not None and due[0] != BOARD:
        return {"t": "muggins", "s": BOARD}
    phase = m.phase()
    if phase == "starter":
        th = thrown(m)
        if not th[BOARD]:
            if not think:
                return True
            from cribbage import opponent

            hand = list(d[0][BOARD])
            cards = opponent.discard(
                m.setup["solo"][0], hand, m.dealer == BOARD, m.front[BOARD], m.front[0], m.target, m.form
            )
            assert cards is not None
            return throw(BOARD, sorted([hand.index(c) for c in cards]))
        return None if not th[0] else {"t": "starter", "c": d[2]}
    if phase == "play":
        play = m.play
        p = m.play_seats[play.turn]
        cards = held(m, p, d)
        assert cards is not None
        if p != BOARD:
            for c in cards:
                if play.count + pip(c) <= 31:
                    return None  # the player's lay
            return {"t": "go", "p": p}
        if not think:
            return True
        from cribbage import opponent

        seen = [d[2]] + [d[0][BOARD][k] for k in thrown(m)[BOARD]]
        c = opponent.lay(
            m.setup["solo"][0],
            cards,
            list(play.current),
            play.count,
            [c for _s, c in play.laid],
            seen,
            m.front[BOARD],
            m.front[0],
            m.target,
            m.hand_size,
        )
        return {"t": "go", "p": p} if c is None else {"t": "lay", "p": p, "c": c}
    if phase == "show":
        side, kind = m.next_show()
        if side != BOARD and m.muggins:
            return None  # the player counts (their claim: muggins)
        cards = crib(m, d) if kind == "crib" else kept(m, m.next_shower(), d)
        return {"t": "show", "s": side, "k": kind, "cards": cards}
    return None
