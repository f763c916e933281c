# The state of a match and the fold that moves it on by one record: cheap, no checks, no copies.
from cribbage import const
from cribbage import records as R
from cribbage.cards import JACK
from cribbage.events import KINDS, WHYS
from cribbage.forms import FORMS, both_double, game_points, leader_of, match_decided, skunk_label
from cribbage.play import Play

# The record types as constants the compiler folds into the code (the values: cribbage/records.py).
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
_NONE = const(255)
_SHIFT = const(8)
_MASK = const(255)
# ---- end of the record types ----

_DEALS_KEPT = const(3)  # deal checkpoints kept (undo refolds from the last one before it)

_SKUNKS = ("", "skunk", "double", "lurch")


class Fold:
    """Match state (read by the board) and `_do`, which applies one record already checked."""

    def __init__(self, setup):
        # [map rule] docs/memory.md: one name more than the match needs, so that its map of names is
        # never full (every method looked up on the match would scan a full one).
        self._room = None
        self.setup = s = setup
        self.form = s["form"]
        self.players, self.sides, self.target, self.hand_size, self.five = FORMS[self.form]
        self.fmt = s["fmt"]
        self.games = s["games"]
        self.to = s["to"]
        self.muggins = s["muggins"]
        self.names = s["names"]
        self.three = s["three"]
        self._log = R.Log()
        self._cps = []
        self.count = 0
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
        self._play = None
        self._stale = False  # _play is behind _acts (a trusted replay does not run the play)
        self._seats = []
        self.leader = 0  # the seat that leads this deal's play (set at the starter)
        self._acts = []  # the play so far: seat * 64 + card for a lay, -1 - seat for a go
        self.muggins_due = None

    @property
    def play(self):
        """The play of this deal (cribbage.play.Play), or None before the starter."""
        if self._stale:
            self._play = self.rebuilt_play()
            self._stale = False
        return self._play

    def rebuilt_play(self):
        """A new Play with this deal's lays and goes so far (a copy to try a move on, or the
        play itself after a trusted replay, which records their points and skips the play)."""
        seats = self._seats
        play = Play(len(seats), self.leader, self.hand_size, self.five)
        for a in self._acts:
            if a >= 0:
                play.lay(a >> 6, a & 63)
            else:
                play.go(-1 - a)
        return play

    # ---- checkpoints: the state after a deal or game boundary, for undo ------------------------

    def _checkpoint(self, game_start, end):
        # end: where the record just applied ends in the log (the log runs on when refolding).
        # The state is packed into bytes: a match keeps one a game and the last deals'. They
        # are written in place, in the order _restore reads them (a list built up piece by piece
        # made a dozen temporary lists at every deal).
        cps = self._cps
        if game_start:
            # Deal checkpoints of a finished game are dropped: undo past a game start refolds it.
            while len(cps) > 1 and not cps[-1][2]:
                cps.pop()
        elif len(cps) > _DEALS_KEPT and not cps[-_DEALS_KEPT][2]:
            # Only the last deals' (the refold makes them again): an undo further back refolds from
            # the game's start, and a long game keeps no checkpoint a deal on the heap.
            del cps[-_DEALS_KEPT]
        sides = self.sides
        places = self.places
        v = bytearray(6 * sides + 11 + len(places))
        for s in range(sides):
            v[s] = self.front[s]
            v[sides + s] = self.back[s]
        i = 2 * sides
        v[i] = self._d + 1
        v[i + 1] = self.deal_no
        v[i + 2] = self.game_no
        v[i + 3] = len(places)
        active = 0
        for p in self.active:
            active |= 1 << p
        v[i + 4] = active
        i += 5
        for p in places:
            v[i] = p
            i += 1
        for s in range(sides):
            v[i + s] = _SKUNKS.index(self.skunk[s])
            v[i + sides + 2 * s] = self.match_points[s] >> 8
            v[i + sides + 2 * s + 1] = self.match_points[s] & 255
            v[i + 3 * sides + s] = self.wins[s]
        i += 4 * sides
        v[i] = len(self.results)
        v[i + 1] = 1 if self.game_over else 0
        v[i + 2] = 0 if self.winner is None else self.winner + 1
        v[i + 3] = 1 if self.match_over else 0
        v[i + 4] = 0 if self.match_winner is None else self.match_winner + 1
        v[i + 5] = 1 if self.cut_tie else 0
        cps.append((end, self.count, game_start, v, self.last_show, self.cut_cards, self.names))

    def _restore(self, cp):
        _end, self.count, _game_start, b, self.last_show, self.cut_cards, self.names = cp
        sides = self.sides
        self.front = list(b[0:sides])
        self.back = list(b[sides : 2 * sides])
        i = 2 * sides
        self._d = b[i] - 1
        self.deal_no, self.game_no, nplaces, active = b[i + 1], b[i + 2], b[i + 3], b[i + 4]
        self.active = [p for p in range(self.players) if active >> p & 1]
        i += 5
        self.places = list(b[i : i + nplaces])
        i += nplaces
        self.skunk = [_SKUNKS[x] for x in b[i : i + sides]]
        i += sides
        self.match_points = [b[i + 2 * s] << 8 | b[i + 2 * s + 1] for s in range(sides)]
        i += 2 * sides
        self.wins = list(b[i : i + sides])
        i += sides
        nres, over, winner, mover, mwinner, tie = b[i : i + 6]
        self.results = self.results[:nres]
        self.game_over = over == 1
        self.winner = None if winner == 0 else winner - 1
        self.match_over = mover == 1
        self.match_winner = None if mwinner == 0 else mwinner - 1
        self.cut_tie = tie == 1
        self._new_deal()

    # ---- the fold ----------------------------------------------------------------------------

    def _show_order(self, idx):
        # The index of the next show from idx (-1: the show is over): hands from the dealer's left
        # round to the dealer (index players - 1), then the crib (index players); players already
        # out (three-handed continued play) count nothing. (An index, not a tuple: no allocation.)
        n = self.players
        while idx <= n:
            if ((self._d + 1 + idx) % n if idx < n else self._d) in self.active:
                return idx
            idx += 1
        return -1

    def _next_active(self, p):
        for k in range(1, self.players + 1):
            q = (p + k) % self.players
            if q in self.active:
                return q
        return p

    def _do(self, p):
        # p: the record's position in the log (for checkpoints). Each branch is one short call, so
        # this, the hottest function, keeps its frame small ([frame rule] docs/memory.md).
        b = self._log.chunks[p >> _SHIFT]  # records.Log
        i = p & _MASK
        t = b[i]
        if t != _MUG:
            self.muggins_due = None
        if t == _LAY:
            self._do_lay(b, i)
        elif t == _SHOW:
            self._do_show(b, i)
        elif t == _GO:
            self._do_go(b, i)
        elif t == _STARTER:
            self._do_starter(b[i + 1])
        else:
            self._do_rare(b, i, p)

    def _do_rare(self, b, i, p):
        # The other records, ~1 in 10 of a journal (each branch inline in _do would enlarge its frame).
        t = b[i]
        if t == _DEAL:
            self._d = self._next_active(self._d)
            self.deal_no += 1
            self._new_deal()
            self._checkpoint(False, p + 1)
        elif t == _PEG:
            why = WHYS[b[i + 3]]
            if why == "hand" or why == "crib":
                self.shown = self._show_order(self.shown) + 1
            elif why == "heels":
                self.heels = True
            self._score(b[i + 1], b[i + 2], why)
        elif t == _MUG:
            self.muggins_due = None
            self._score(b[i + 1], b[i + 2], "muggins")
        elif t == _FIX:
            self._do_fix(b[i + 1], b[i + 2] - 128)
        elif t == _GAME:
            self._do_next_game(p + 1)
        elif t == _CUT:
            n = self.players
            self._do_cut(b[i + 1 : i + 1 + n], p + 1 + n)
        elif t == _DEALER:
            self._first_dealer(b[i + 1], p + 2)
        elif t == _END:
            self.match_over = True
            self.match_winner = leader_of(self.match_points)
        elif t == _NAME:
            # A new list: the set-up's stays as journalled, and a checkpoint keeps the names it saw.
            names = list(self.names)
            names[b[i + 1]] = bytes(b[i + 3 : i + 3 + b[i + 2]]).decode()
            self.names = names

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
        winner = self.places[0]
        gains = game_points(self.fmt, self.three, self.places, self.skunk, self.sides)
        for s in range(self.sides):
            self.match_points[s] += gains[s]
        self.wins[winner] += 1
        self.results.append((winner, tuple(self.places), tuple(gains), tuple(self.skunk), tuple(self.front)))
        over, w = match_decided(
            self.fmt, self.games, self.to, self.match_points, self.wins, len(self.results), winner
        )
        if over:
            self.match_over = True
            self.match_winner = w

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
        self._seats = list(self.active)
        # Fixed now: in three-handed continued play a player can go out during the play, and the
        # player left of the dealer then is no longer the one who led (a rebuild must agree).
        self.leader = self._seats.index(self._next_active(self._d))
        # The play is made when first read (see play): a trusted replay never reads it.
        self._play = None
        self._stale = True
        if c >> 2 == JACK and not self.heels:
            self.heels = True
            self._score(self._d % self.sides, 2, "heels")

    def _do_lay(self, b, i):
        # b[i + 4]: the points the lay made, recorded when it was first applied; _NONE until then.
        # A card scores 2 or more (fifteen, pair, run, 31), the last card or a go 1, never both:
        # a lone point is pegged as a go. (No locals: the calls fill the frame.)
        if b[i + 4] == _NONE:
            self._play_act(b, i)
        else:
            self._stale = True
        self._acts.append(self._seats.index(b[i + 1]) * 64 + b[i + 2])
        if not b[i + 4]:
            return
        if b[i + 3] == _NONE:
            self._score(b[i + 1] % self.sides, b[i + 4], "go" if b[i + 4] == 1 else "play")
        else:
            self._claimed(b[i + 1] % self.sides, b[i + 4], b[i + 3], "go" if b[i + 4] == 1 else "play")

    def _play_act(self, b, i):
        # A lay or go applied live: the play runs it (refusing, before any change, what it does
        # not allow) and its points are recorded in the log, for the next replay.
        play = self.play
        assert play is not None
        seat = self._seats.index(b[i + 1])
        if b[i] == _LAY:
            total = 0
            for _s, _reason, n in play.lay(seat, b[i + 2]):
                total += n
            b[i + 4] = total
            return
        side, n = _NONE, 0
        for s, _reason, pts in play.go(seat):
            if s is not None:
                side, n = self._seats[s] % self.sides, pts
        b[i + 2] = side
        b[i + 3] = n

    def _claimed(self, side, total, claim, why):
        # Muggins: the claim is pegged; what it fell short by is for the others to take.
        self._score(side, claim, why)
        if total > claim and not self.game_over:
            self.muggins_due = (side, total - claim)

    def _do_go(self, b, i):
        # b[i + 2], b[i + 3]: who the go scored for and how much, recorded when first applied.
        if b[i + 3] == _NONE:
            self._play_act(b, i)
        else:
            self._stale = True
        self._acts.append(-1 - self._seats.index(b[i + 1]))
        if b[i + 3]:
            self._score(b[i + 2], b[i + 3], "go")

    def _do_show(self, b, i):
        # last_show is made with no locals in this frame: the tuple fills it.
        self.shown = self._show_order(self.shown) + 1
        self.last_show = (
            b[i + 1],
            KINDS[b[i + 2]],
            (b[i + 5], b[i + 6], b[i + 7], b[i + 8])
            if b[i + 2] or self.hand_size == 4
            else (b[i + 5], b[i + 6], b[i + 7]),  # a five-card hand: three cards
            self.starter,
            b[i + 3],
            None if b[i + 4] == _NONE else b[i + 4],
        )
        self.shown_cards.extend(self.last_show[2])
        if b[i + 4] == _NONE:
            self._score(b[i + 1], b[i + 3], self.last_show[1])
        else:
            self._claimed(b[i + 1], b[i + 3], b[i + 4], self.last_show[1])

    def _do_fix(self, side, delta):
        new = self.front[side] + delta
        self.front[side] = new
        if self.back[side] > new:
            self.back[side] = new
        self.last_pegs.append((side, delta, "fix"))
        if new >= self.target:
            self._out(side)
