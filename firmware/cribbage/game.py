# A cribbage match as the fold of its events: pegs, deal, show order, play, game end, match points.
"""The game and the match (DESIGN rule 3: the event log is the truth).

    from cribbage import events
    from cribbage.game import Match

    m = Match(events.setup(form="six", fmt="acc", games=3, muggins=False, names=["Ann", "Bob"]))
    m.apply(events.cut(["5H", "9C"]))     # player 0 cut low: deals first
    m.apply(events.starter("JD"))         # his heels: the dealer pegs 2 at once
    m.apply(events.lay(1, "7S"))          # the play, card by card (player 1 leads)
    done = m.apply(events.hand(1, "2S 3S 4S 5S"))   # counted by the board; done["n"] is the count
    m.apply(events.peg(0, 8, "hand"))     # or pegged by hand, without keying the cards
    m.apply(events.undo())

Set-up: `events.setup(form, fmt, games, to, muggins, names, three)` -> dict {"t": "setup", ...}
    form  "six" (six-card to 121, default) | "six61" | "three" (three-handed) | "four"
          (partners: players 0,2 are side 0, players 1,3 side 1) | "five" (five-card to 61)
    fmt   "acc" (2/3/3, a fixed number of `games`, default) | "points" (1/2/3, first to `to`)
          | "games" (best of `games`, odd) | "lurch" (1, lurch 2, first to `to`)
    games default 3, to default 5, muggins False, names one per side (<= 12 chars),
    three "all" (winner takes all) | "cont" (continued play for second place).
    Match(setup) takes that dict (or None: all defaults); `m.setup` is the complete dict to journal
    as the first line. Players are 0..players-1 in seating (= playing) order; a player's side is
    player % sides.

Events: plain dicts with "t", built by cribbage.events, one compact JSON line each
(events.to_line / events.from_line). Cards are ints (cribbage.cards); constructors also take "5H".
    cut(cards)             {"t":"cut","cards":[..]} one card per player; lowest rank deals, a tie
                           for lowest cuts again (cut_tie). Or dealer(p) {"t":"dealer","p":p}.
    peg(side, n, why)      {"t":"peg","s","n","why"} why: hand crib play go heels muggins penalty manual
    fix(side, delta)       {"t":"fix","s","n"} a correction (may be negative), not a penalty
    starter(card)          {"t":"starter","c"} a jack pegs his heels (2) to the dealer automatically
    hand/crib(side, cards, claim=None)  {"t":"show","s","k":"hand"|"crib","cards",["claim"]}
                           scored by cribbage.show; apply() adds "n" (the count). With muggins the
                           player's claim is pegged and the shortfall becomes claimable (muggins_due).
    lay(player, card, claim=None) {"t":"lay","p","c",["claim"]}   go(player) {"t":"go","p"}
    muggins(side, n=None)  {"t":"muggins","s",["n"]} take missed points (muggins on only)
    undo()                 {"t":"undo"} takes back the last event still in force (any kind)
    next_deal() {"t":"deal"}   next_game() {"t":"game"} (loser deals)   end_match() {"t":"end"}

    m.apply(ev, trusted=False) -> the completed event dict (journal that one). Refused input raises
        CribError with a message for the display and changes nothing. trusted=True (replaying the
        board's own checksummed journal) takes a show's "n" as recorded instead of recounting it.
    m.check(ev) -> the completed event, without applying it.
    m.undone -> the event the last undo took back (a dict), m.last_pegs -> [(side, points, why)]
        that the last event pegged ("last" = five-card three for last, "fix" = correction).
    m.count -> events in force; m.effective_events() -> those events, oldest first.
    replay(events, trusted=True) -> the Match of [setup, event, ...] (e.g. a journal read back).

Derived state (read only):
    players, sides, target, names, form, fmt, muggins, hand_size
    front[side], back[side]      0 = start holes .. target; a peg past the target stops on it
    to_go(side)                  points still needed
    dealer (player or None before the cut), dealer_side, crib_side, deal_no (1.. in each game),
    game_no (1..), cut_cards, cut_tie
    starter (card or None), heels (pegged this deal)
    next_show() -> (side, "hand"|"crib") or None; next_shower() -> player or None
    play (a cribbage.play.Play or None; created at the starter), play_seats (player of each seat)
    phase() -> "cut" "starter" "play" "show" "deal" "game over" "match over"
    active (players still in the game), out (sides in the order they reached the target)
    game_over, winner (side or None), skunk[side] ("", "skunk", "double", "lurch")
    match_points[side], wins[side], results (one per finished game: (winner, out, gains, skunk,
    fronts)), match_over, match_winner (side, or None when level)
    last_show (side, kind, cards, starter, points, claim or None) or None; show_items()
    muggins_due (side that missed, points) or None
"""
from cribbage.cards import JACK, format_card, format_cards, parse_card
from cribbage.errors import CribError
from cribbage.events import KINDS, WHYS
from cribbage.forms import (
    FORMS,
    both_double,
    check_setup,
    game_points,
    leader_of,
    match_decided,
    skunk_label,
)
from cribbage.play import Play

# Compact records of the events in force, kept in one bytearray so a match fits a small heap.
_CUT = 1  # cut, card per player
_DEALER = 2  # dealer, player
_PEG = 3  # peg, side, points, why
_FIX = 4  # fix, side, delta + 128
_STARTER = 5  # starter, card
_SHOW = 6  # show, side, kind, points, claim (255: none), cards...
_LAY = 7  # lay, player, card, claim (255: none)
_GO = 8  # go, player
_MUG = 9  # muggins, side, points
_DEAL = 10
_GAME = 11
_END = 12
_NONE = 255

# Largest legal single peg for each reason (RULES): a hand or crib 29; one card in the play at most
# 12 (double pair royal) + 2 (fifteen or 31) + 1 (last card) = 15; a go 1; his heels exactly 2.
_MAX = {"hand": 29, "crib": 29, "play": 15, "go": 1, "heels": 2, "muggins": 29, "penalty": 29, "manual": 29}
_NO_HAND = (19, 25, 26, 27)  # no five cards count these
_MAX_FIVE_HAND = 20  # five-card: 3 cards and the starter, best 5-5-5 with a 5 turned

_KEYS = {
    "cut": ("cards",),
    "dealer": ("p",),
    "peg": ("s", "n", "why"),
    "fix": ("s", "n"),
    "starter": ("c",),
    "show": ("s", "k", "cards", "n", "claim"),
    "lay": ("p", "c", "claim"),
    "go": ("p",),
    "muggins": ("s", "n"),
    "deal": (),
    "game": (),
    "end": (),
    "undo": (),
}


def _int(ev, key, lo, hi, what):
    v = ev.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise CribError("%s must be %d..%d, not %r" % (what, lo, hi, v))
    return v


def count_show(cards, starter, is_crib, five=False):
    """Points of a hand or crib with the starter, from the shared scorer (cribbage.show)."""
    from cribbage.show import score_show  # pyright: ignore[reportMissingImports]

    r = score_show(cards, starter, is_crib, five)
    return r if isinstance(r, int) else r[0]


def replay(events, trusted=True):
    """The Match made by a set-up followed by its events (as read back from a journal)."""
    m = None
    for ev in events:
        if m is None:
            m = Match(ev)
        else:
            m.apply(ev, trusted)
    return Match() if m is None else m


class Match:
    def __init__(self, setup=None):
        self.setup = s = check_setup(setup)
        self.form = s["form"]
        self.players, self.sides, self.target, self.hand_size, self.five = FORMS[self.form]
        self.fmt = s["fmt"]
        self.games = s["games"]
        self.to = s["to"]
        self.muggins = s["muggins"]
        self.names = s["names"]
        self.three = s["three"]
        self._log = bytearray()
        self._cps = []
        self.count = 0
        self.undone = None
        self.last_pegs = []
        self.game_no = 1
        self.match_points = [0] * self.sides
        self.wins = [0] * self.sides
        self.results = []
        self.match_over = False
        self.match_winner = None
        self.last_show = None
        self.cut_cards = None
        self.cut_tie = False
        self._d = -1  # the dealer, -1 until the cut
        self.deal_no = 0
        self._new_game()
        self._checkpoint(True, 0)

    # ---- derived state ------------------------------------------------------------------------

    @property
    def dealer(self):
        return None if self._d < 0 else self._d

    @property
    def dealer_side(self):
        return None if self._d < 0 else self._d % self.sides

    crib_side = dealer_side

    def side_of(self, player):
        return player % self.sides

    def to_go(self, side):
        return self.target - self.front[side]

    def _show_order(self, idx):
        # Show order from idx: hands from the dealer's left round to the dealer, then the crib;
        # players already out (three-handed continued play) count nothing.
        n = self.players
        while idx <= n:
            p = (self._d + 1 + idx) % n if idx < n else self._d
            if p in self.active:
                return idx, p
            idx += 1
        return -1, -1

    def next_show(self):
        """(side, "hand" | "crib") that counts next in the show, or None."""
        if self._d < 0 or self.game_over:
            return None
        idx, p = self._show_order(self.shown)
        if idx < 0:
            return None
        return p % self.sides, "crib" if idx == self.players else "hand"

    def next_shower(self):
        """The player whose hand (or crib) counts next, or None."""
        if self._d < 0 or self.game_over:
            return None
        p = self._show_order(self.shown)[1]
        return None if p < 0 else p

    @property
    def play_seats(self):
        return self._seats

    def phase(self):
        if self.match_over:
            return "match over"
        if self.game_over:
            return "game over"
        if self._d < 0:
            return "cut"
        if self.shown == 0:
            if self.starter is None:
                return "starter"
            if self.play is not None and not self.play.over:
                return "play"
        return "show" if self.next_show() is not None else "deal"

    @property
    def out(self):
        return self.places

    def show_items(self):
        """The itemised count of last_show from cribbage.show, or None."""
        if self.last_show is None:
            return None
        from cribbage import show  # pyright: ignore[reportAttributeAccessIssue]

        side, kind, cards, starter, _n, _claim = self.last_show
        items = getattr(show, "show_items", None)
        if items is None:
            return None
        return items(list(cards), starter, kind == "crib", self.five)

    def effective_events(self):
        """The events in force (undone ones left out), oldest first, as dicts."""
        b = self._log
        i = 0
        out = []
        while i < len(b):
            out.append(self._event_of(b, i))
            i += self._rec_len(b, i)
        return out

    # ---- applying events ----------------------------------------------------------------------

    def check(self, ev):
        """The completed event if apply(ev) would take it, else CribError; changes nothing."""
        if isinstance(ev, dict) and ev.get("t") == "undo":
            self._check_undo(ev)
            return {"t": "undo"}
        return self._validate(ev, False, True)[1]

    def apply(self, ev, trusted=False):
        """Validate then apply one event; returns the completed event (to journal)."""
        if isinstance(ev, dict) and ev.get("t") == "undo":
            self._check_undo(ev)
            self._undo()
            return {"t": "undo"}
        rec, done = self._validate(ev, trusted, False)
        start = len(self._log)
        self.last_pegs = []
        self._log.extend(rec)
        self.count += 1
        try:
            self._do(self._log, start)
        except CribError:
            # Only the play can refuse here, and it refuses before it changes anything.
            self._log = self._log[:start]
            self.count -= 1
            raise
        return done

    # ---- undo: restore the checkpoint before the event, refold the rest --------------------------

    def _check_undo(self, ev):
        for k in ev:
            if k != "t":
                raise CribError("undo takes no %r" % (k,))
        if not self.count:
            raise CribError("nothing to undo")

    def _undo(self):
        n = len(self._log)
        cps = self._cps
        if cps[-1][0] == n:
            cps.pop()
        cp = cps[-1]
        b = self._log
        i = cp[0]
        last = i
        while i < n:
            last = i
            i += self._rec_len(b, i)
        self.undone = self._event_of(b, last)
        self._restore(cp)
        self._log = b[:last]
        self.last_pegs = []
        i = cp[0]
        while i < last:
            self.count += 1
            self._do(self._log, i)
            i += self._rec_len(self._log, i)
        self.last_pegs = []

    def _checkpoint(self, game_start, end):
        # end: where the record just applied ends in the log (the log may run on when refolding).
        if game_start:
            # Deal checkpoints of a finished game are dropped: undo past a game start refolds it.
            while len(self._cps) > 1 and not self._cps[-1][2]:
                self._cps.pop()
        self._cps.append(
            (
                end,
                self.count,
                game_start,
                tuple(self.front),
                tuple(self.back),
                self._d,
                self.deal_no,
                self.game_no,
                tuple(self.active),
                tuple(self.places),
                self.game_over,
                self.winner,
                tuple(self.skunk),
                tuple(self.match_points),
                tuple(self.wins),
                len(self.results),
                self.match_over,
                self.match_winner,
                self.last_show,
                self.cut_cards,
                self.cut_tie,
            )
        )

    def _restore(self, cp):
        (
            _n,
            self.count,
            _g,
            front,
            back,
            self._d,
            self.deal_no,
            self.game_no,
            active,
            places,
            self.game_over,
            self.winner,
            skunk,
            points,
            wins,
            nres,
            self.match_over,
            self.match_winner,
            self.last_show,
            self.cut_cards,
            self.cut_tie,
        ) = cp
        self.front = list(front)
        self.back = list(back)
        self.active = list(active)
        self.places = list(places)
        self.skunk = list(skunk)
        self.match_points = list(points)
        self.wins = list(wins)
        self.results = self.results[:nres]
        self._new_deal()

    # ---- the fold: one compact record at a time, no checks (they were made before) ----------------

    def _new_game(self):
        self.front = [0] * self.sides
        self.back = [0] * self.sides
        self.active = list(range(self.players))
        self.places = []
        self.game_over = False
        self.winner = None
        self.skunk = [""] * self.sides
        self._new_deal()

    def _new_deal(self):
        self.starter = None
        self.heels = False
        self.shown = 0
        self.shown_cards = []
        self.play = None
        self._seats = []
        self._acts = []
        self.muggins_due = None

    def _rec_len(self, b, i):
        t = b[i]
        if t in (_PEG, _LAY):
            return 4
        if t == _SHOW:
            return 5 + (4 if b[i + 2] else self.hand_size)
        if t == _CUT:
            return 1 + self.players
        if t in (_FIX, _MUG):
            return 3
        if t >= _DEAL:
            return 1
        return 2

    def _do(self, b, i):
        t = b[i]
        if t != _MUG:
            self.muggins_due = None
        if t == _LAY:
            self._do_lay(b[i + 1], b[i + 2], b[i + 3])
        elif t == _GO:
            seat = self._seats.index(b[i + 1])
            play = self.play
            assert play is not None
            awards = play.go(seat)
            self._acts.append(-1 - seat)
            for s, _reason, n in awards:
                if s is not None:
                    self._score(self._seats[s] % self.sides, n, "go")
        elif t == _PEG:
            why = WHYS[b[i + 3]]
            if why == "hand" or why == "crib":
                self.shown = self._show_order(self.shown)[0] + 1
            elif why == "heels":
                self.heels = True
            self._score(b[i + 1], b[i + 2], why)
        elif t == _SHOW:
            self._do_show(b, i)
        elif t == _STARTER:
            self._do_starter(b[i + 1])
        elif t == _MUG:
            self.muggins_due = None
            self._score(b[i + 1], b[i + 2], "muggins")
        elif t == _FIX:
            self._do_fix(b[i + 1], b[i + 2] - 128)
        elif t == _DEAL:
            self._d = self._next_active(self._d)
            self.deal_no += 1
            self._new_deal()
            self._checkpoint(False, i + 1)
        elif t == _GAME:
            self._do_next_game(i + 1)
        elif t == _CUT:
            self._do_cut(b[i + 1 : i + 1 + self.players], i + 1 + self.players)
        elif t == _DEALER:
            self._first_dealer(b[i + 1], i + 2)
        elif t == _END:
            self.match_over = True
            self.match_winner = leader_of(self.match_points)

    def _score(self, side, n, why):
        if n <= 0 or self.game_over or side in self.places:
            return
        f = self.front[side]
        new = f + n
        if new > self.target:
            new = self.target
        self.back[side] = f
        self.front[side] = new
        self.last_pegs.append((side, new - f, why))
        if new == self.target:
            self._out(side)

    def _out(self, side):
        self.places.append(side)
        if len(self.places) == 1:
            self.winner = side
            for s in range(self.sides):
                self.skunk[s] = "" if s == side else skunk_label(self.front[s], self.target, self.fmt)
            if (
                self.sides == 3
                and self.three == "cont"
                and self.fmt != "games"
                and not both_double(side, self.skunk)
            ):
                # Continued play: the other two play on for second place.
                self.active = [p for p in self.active if p % self.sides != side]
                return
        self._finish()

    def _finish(self):
        self.game_over = True
        gains = game_points(self.fmt, self.three, self.places, self.skunk, self.sides)
        for s in range(self.sides):
            self.match_points[s] += gains[s]
        self.wins[self.places[0]] += 1
        self.results.append(
            (self.places[0], tuple(self.places), tuple(gains), tuple(self.skunk), tuple(self.front))
        )
        over, w = match_decided(
            self.fmt, self.games, self.to, self.match_points, self.wins, len(self.results), self.places[0]
        )
        if over:
            self.match_over = True
            self.match_winner = w

    def _next_active(self, p):
        for k in range(1, self.players + 1):
            q = (p + k) % self.players
            if q in self.active:
                return q
        return p

    def _first_dealer(self, p, end):
        self._d = p
        self.deal_no = 1
        self.cut_tie = False
        if self.five:
            # Five-card: the non-dealer pegs three for last at the start of each game.
            self._score(1 - p % 2, 3, "last")
        self._checkpoint(True, end)

    def _do_cut(self, cards, end):
        self.cut_cards = tuple(cards)
        low = min(c >> 2 for c in cards)
        lows = [p for p in range(len(cards)) if cards[p] >> 2 == low]
        if len(lows) == 1:
            self._first_dealer(lows[0], end)
        else:
            self.cut_tie = True
            self._checkpoint(True, end)

    def _do_next_game(self, end):
        # The loser deals first: the first player left of the last dealer on the losing side
        # (the side that came last; three-handed, the lowest score).
        last = self._d
        loser = None
        for s in range(self.sides):
            if s not in self.places and (loser is None or self.front[s] < self.front[loser]):
                loser = s
        if loser is None:
            loser = self.places[-1]
        first = last
        for k in range(1, self.players + 1):
            q = (last + k) % self.players
            if q % self.sides == loser:
                first = q
                break
        self.game_no += 1
        self._new_game()
        self._d = first
        self.deal_no = 1
        if self.five:
            self._score(1 - first % 2, 3, "last")
        self._checkpoint(True, end)

    def _do_starter(self, c):
        self.starter = c
        leader = self._next_active(self._d)
        self._seats = list(self.active)
        self.play = Play(len(self._seats), self._seats.index(leader), self.hand_size, self.five)
        if c >> 2 == JACK and not self.heels:
            self.heels = True
            self._score(self._d % self.sides, 2, "heels")

    def _do_lay(self, p, c, claim):
        seat = self._seats.index(p)
        play = self.play
        assert play is not None
        awards = play.lay(seat, c)
        self._acts.append(seat * 64 + c)
        total = 0
        why = "go"
        for _s, reason, n in awards:
            total += n
            if reason != "go" and reason != "last card":
                why = "play"
        side = p % self.sides
        if claim != _NONE and self.muggins:
            self._score(side, claim, why)
            if total > claim and not self.game_over:
                self.muggins_due = (side, total - claim)
        else:
            self._score(side, total, why)

    def _do_show(self, b, i):
        side, kind, n, claim = b[i + 1], b[i + 2], b[i + 3], b[i + 4]
        cards = tuple(b[i + 5 : i + self._rec_len(b, i)])
        self.shown = self._show_order(self.shown)[0] + 1
        self.shown_cards.extend(cards)
        why = KINDS[kind]
        self.last_show = (side, why, cards, self.starter, n, None if claim == _NONE else claim)
        if claim != _NONE:
            self._score(side, claim, why)
            if n > claim and not self.game_over:
                self.muggins_due = (side, n - claim)
        else:
            self._score(side, n, why)

    def _do_fix(self, side, delta):
        new = self.front[side] + delta
        self.front[side] = new
        if self.back[side] > new:
            self.back[side] = new
        self.last_pegs.append((side, delta, "fix"))
        if new >= self.target:
            self._out(side)

    # ---- validation: every check before anything changes --------------------------------------

    def _name(self, side):
        return self.names[side]

    def _side(self, ev):
        s = _int(ev, "s", 0, self.sides - 1, "side")
        if s in self.places:
            raise CribError("%s is out: the game goes on without them" % self.names[s])
        return s

    def _validate(self, ev, trusted, dry):
        if not isinstance(ev, dict) or not isinstance(ev.get("t"), str):
            raise CribError("an event is a dict with a text 't', not %r" % (ev,))
        t = ev["t"]
        keys = _KEYS.get(t)
        if keys is None:
            if t == "setup":
                raise CribError("a set-up starts a new match: Match(setup)")
            raise CribError("unknown event %r" % (t,))
        for k in ev:
            if k != "t" and k not in keys:
                raise CribError("a %s event takes no %r" % (t, k))
        if self.match_over:
            raise CribError("the match is over: undo, or start a new match")
        if t == "end":
            return bytes((_END,)), {"t": "end"}
        if self._d < 0:
            if t == "cut":
                return self._v_cut(ev)
            if t == "dealer":
                p = _int(ev, "p", 0, self.players - 1, "player")
                return bytes((_DEALER, p)), {"t": "dealer", "p": p}
            raise CribError("cut for the first deal first")
        if t == "cut" or t == "dealer":
            raise CribError("the first dealer is already known: undo the cut to cut again")
        if self.game_over:
            if t == "game":
                return bytes((_GAME,)), {"t": "game"}
            raise CribError("game over: %s won; nothing scores after it" % self.names[self.places[0]])
        if t == "game":
            raise CribError("the game is not over yet")
        if t == "peg":
            return self._v_peg(ev)
        if t == "lay" or t == "go":
            return self._v_play(ev, t, trusted, dry)
        if t == "show":
            return self._v_show(ev, trusted)
        if t == "starter":
            return self._v_starter(ev)
        if t == "muggins":
            return self._v_muggins(ev)
        if t == "fix":
            s = self._side(ev)
            d = _int(ev, "n", -self.target, self.target, "a correction")
            if d == 0:
                raise CribError("a correction of 0 changes nothing")
            new = self.front[s] + d
            if not 0 <= new <= self.target:
                raise CribError("a correction of %d would put %s at %d" % (d, self.names[s], new))
            return bytes((_FIX, s, d + 128)), {"t": "fix", "s": s, "n": d}
        return bytes((_DEAL,)), {"t": "deal"}

    def _v_cut(self, ev):
        cards = ev.get("cards")
        if not isinstance(cards, (list, tuple)) or len(cards) != self.players:
            raise CribError("the cut needs one card for each of the %d players" % self.players)
        cards = [parse_card(c) for c in cards]
        for i in range(len(cards)):
            if cards[i] in cards[:i]:
                raise CribError("%s cut twice: one pack, each card once" % format_card(cards[i]))
        return bytes([_CUT] + cards), {"t": "cut", "cards": cards}

    def _v_peg(self, ev):
        s = self._side(ev)
        why = ev.get("why", "manual")
        if why not in WHYS:
            raise CribError("a peg is for %s, not %r" % (", ".join(WHYS), why))
        hi = _MAX[why]
        if why == "hand" and self.five:
            hi = _MAX_FIVE_HAND
        lo = 0 if why == "hand" or why == "crib" else 1
        if why == "heels":
            lo = 2
        n = ev.get("n")
        if not isinstance(n, int) or isinstance(n, bool):
            raise CribError("points must be a whole number, not %r" % (n,))
        if n < 0:
            raise CribError("a peg never goes back: use a correction for %d" % n)
        if not lo <= n <= hi:
            if why == "heels":
                raise CribError("his heels is 2, not %d" % n)
            raise CribError("%d is not a %s score: %d..%d" % (n, why, lo, hi))
        if why == "hand" or why == "crib":
            if n in _NO_HAND:
                raise CribError("no %s counts %d" % (why, n))
            self._v_show_turn(s, why)
        elif why == "play" or why == "go":
            if self.shown:
                raise CribError("the play is over: the show has begun")
        elif why == "heels":
            if s != self._d % self.sides:
                raise CribError("his heels goes to the dealer, %s" % self.names[self._d % self.sides])
            if self.heels:
                raise CribError("his heels is pegged once a deal")
            if self.starter is not None and self.starter >> 2 != JACK:
                raise CribError("the starter %s is not a jack: no heels" % format_card(self.starter))
        elif why == "muggins" and not self.muggins:
            raise CribError("muggins is off")
        return bytes((_PEG, s, n, WHYS.index(why))), {"t": "peg", "s": s, "n": n, "why": why}

    def _v_show_turn(self, s, kind):
        nxt = self.next_show()
        if nxt is None:
            raise CribError("the show of this deal is over: next deal")
        if nxt != (s, kind):
            raise CribError(
                "out of order: %s's %s counts next, not %s's %s"
                % (self.names[nxt[0]], nxt[1], self.names[s], kind)
            )

    def _v_starter(self, ev):
        if self.starter is not None:
            raise CribError("the starter is already %s" % format_card(self.starter))
        if self.shown:
            raise CribError("the show has begun: too late for the starter")
        c = parse_card(ev.get("c"))
        if self.heels and c >> 2 != JACK:
            raise CribError("his heels was pegged but %s is not a jack" % format_card(c))
        return bytes((_STARTER, c)), {"t": "starter", "c": c}

    def _v_play(self, ev, t, trusted, dry):
        if self.starter is None:
            raise CribError("turn the starter before the play")
        if self.shown:
            raise CribError("the play is over: the show has begun")
        # A player who went out during this play (three-handed continued play) still lays the
        # cards in hand, for the count; what they would score is not pegged.
        p = _int(ev, "p", 0, self.players - 1, "player")
        if p not in self._seats:
            raise CribError("player %d is out of this game" % p)
        seat = self._seats.index(p)
        play = self.play
        assert play is not None
        if play.over:
            raise CribError("the play is over: count the hands")
        turn = play.turn
        if turn is not None and turn != seat:
            raise CribError("not player %d's turn: player %d to play" % (p, self._seats[turn]))
        if t == "go":
            if play.count <= 21:
                raise CribError("player %d cannot say go at %d: any card fits" % (p, play.count))
            if dry:
                self._rebuilt_play().go(seat)
            return bytes((_GO, p)), {"t": "go", "p": p}
        if not play.cards_left[seat]:
            raise CribError("player %d has no cards left" % p)
        c = parse_card(ev.get("c"))
        if c == self.starter:
            raise CribError("%s is the starter, not in a hand" % format_card(c))
        claim = ev.get("claim")
        done = {"t": "lay", "p": p, "c": c}
        if claim is not None:
            if not self.muggins:
                raise CribError("a claimed count is for muggins, which is off")
            claim = _int(ev, "claim", 0, _MAX["play"], "points claimed")
            done["claim"] = claim
        if dry or (claim is not None and not trusted):
            total = 0
            for _s, _r, n in self._rebuilt_play().lay(seat, c):
                total += n
            if claim is not None and claim > total:
                raise CribError("%s scores %d, not %d" % (format_card(c), total, claim))
        return bytes((_LAY, p, c, _NONE if claim is None else claim)), done

    def _rebuilt_play(self):
        # A throwaway copy of the play, to try a lay or go without touching the real one.
        leader = self._seats.index(self._next_active(self._d))
        play = Play(len(self._seats), leader, self.hand_size, self.five)
        for a in self._acts:
            if a >= 0:
                play.lay(a >> 6, a & 63)
            else:
                play.go(-1 - a)
        return play

    def _v_show(self, ev, trusted):
        kind = ev.get("k")
        if kind not in KINDS:
            raise CribError("a show is of a hand or the crib, not %r" % (kind,))
        s = self._side(ev)
        if self.starter is None:
            raise CribError("turn the starter before counting from cards")
        self._v_show_turn(s, kind)
        size = 4 if kind == "crib" else self.hand_size
        cards = ev.get("cards")
        if not isinstance(cards, (list, tuple)) or len(cards) != size:
            n = len(cards) if isinstance(cards, (list, tuple)) else 0
            raise CribError("a %s is %d cards without the starter, not %d" % (kind, size, n))
        cards = [parse_card(c) for c in cards]
        for i in range(size):
            c = cards[i]
            if c in cards[:i]:
                raise CribError("%s twice in one %s" % (format_card(c), kind))
            if c == self.starter:
                raise CribError("%s is the starter: key the %s without it" % (format_card(c), kind))
            if c in self.shown_cards:
                raise CribError("%s was already shown this deal" % format_card(c))
        self._v_against_play(cards, kind)
        n = ev.get("n")
        if trusted and n is not None:
            n = _int(ev, "n", 0, 29, "a show count")
        else:
            counted = count_show(cards, self.starter, kind == "crib", self.five)
            if n is not None and n != counted:
                shown = format_cards(cards) + " " + format_card(self.starter)
                raise CribError("%s counts %d, not %r" % (shown, counted, n))
            n = counted
        done = {"t": "show", "s": s, "k": kind, "cards": cards, "n": n}
        claim = ev.get("claim")
        if claim is not None:
            if not self.muggins:
                raise CribError("a claimed count is for muggins, which is off")
            claim = _int(ev, "claim", 0, 29, "points claimed")
            if claim > n:
                raise CribError("the %s counts %d: %d is too many" % (kind, n, claim))
            done["claim"] = claim
        rec = bytes([_SHOW, s, KINDS.index(kind), n, _NONE if claim is None else claim] + cards)
        return rec, done

    def _v_against_play(self, cards, kind):
        # Cards laid in the play belong to the hand of the player who laid them, never the crib.
        play = self.play
        if play is None:
            return
        who = self.next_shower() if kind == "hand" else None
        for seat, c in play.laid:
            p = self._seats[seat]
            if p == who and c not in cards:
                raise CribError("player %d laid %s in the play: not in this hand" % (p, format_card(c)))
            if p != who and c in cards:
                raise CribError("%s was laid by player %d in the play" % (format_card(c), p))

    def _v_muggins(self, ev):
        if not self.muggins:
            raise CribError("muggins is off")
        if self.muggins_due is None:
            raise CribError("no missed points to claim")
        s = self._side(ev)
        missed_by, due = self.muggins_due
        if s == missed_by:
            raise CribError("%s cannot claim their own missed points" % self.names[s])
        n = _int(ev, "n", 1, due, "points claimed") if "n" in ev else due
        return bytes((_MUG, s, n)), {"t": "muggins", "s": s, "n": n}

    # ---- records back to events (undone, effective_events) --------------------------------------

    def _event_of(self, b, i):
        t = b[i]
        if t == _PEG:
            return {"t": "peg", "s": b[i + 1], "n": b[i + 2], "why": WHYS[b[i + 3]]}
        if t in (_LAY, _SHOW):
            claim = b[i + 3] if t == _LAY else b[i + 4]
            if t == _LAY:
                ev = {"t": "lay", "p": b[i + 1], "c": b[i + 2]}
            else:
                cards = list(b[i + 5 : i + self._rec_len(b, i)])
                ev = {"t": "show", "s": b[i + 1], "k": KINDS[b[i + 2]], "cards": cards, "n": b[i + 3]}
            if claim != _NONE:
                ev["claim"] = claim
            return ev
        if t == _GO:
            return {"t": "go", "p": b[i + 1]}
        if t == _STARTER:
            return {"t": "starter", "c": b[i + 1]}
        if t == _MUG:
            return {"t": "muggins", "s": b[i + 1], "n": b[i + 2]}
        if t == _FIX:
            return {"t": "fix", "s": b[i + 1], "n": b[i + 2] - 128}
        if t == _CUT:
            return {"t": "cut", "cards": list(b[i + 1 : i + 1 + self.players])}
        if t == _DEALER:
            return {"t": "dealer", "p": b[i + 1]}
        return {"t": ("deal", "game", "end")[t - _DEAL]}
