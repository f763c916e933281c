# A cribbage match as the fold of its events: pegs, deal, show order, play, game end, match points.
"""The game and the match (docs/design.md, rule 3: the event log is the truth).

    from cribbage import events
    from cribbage.game import Match

    m = Match(events.setup(form="six", fmt="acc", games=3, muggins=False, names=["Ann", "Bob"]))
    m.apply(events.cut(["5H", "9C"]))     # player 0 cut low: deals first
    m.apply(events.starter("JD"))         # his heels: the dealer pegs 2 at once
    m.apply(events.lay(1, "7S"))          # the play, card by card (player 1 leads)
    done = m.apply(events.hand(1, "7S 3S 4S 5S"))   # counted by the board: done["n"] == 11
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
    lay(player, card, claim=None) {"t":"lay","p","c",["claim"]}; apply() adds "n" (the points the
                           card made, go and last card included; pegged by the layer).
    go(player)             {"t":"go","p"}; apply() adds "n" (0 or 1) and "s" (the side it scored for).
    muggins(side, n=None)  {"t":"muggins","s",["n"]} take missed points (muggins on only)
    name(side, text)       {"t":"name","s","name"} a side's name from now on (1..12 printable ASCII
                           characters: the display's font); nothing else changes; undone like any
    {"t":"advice","p","cards"} the cards dealt to player p, keyed for discard advice before the starter
                           (six, or five): pegs nothing; the laptop's coach reads the discard from it
    undo()                 {"t":"undo"} takes back the last event still in force (any kind)
    Against the board: setup(..., solo=solo.make(level, seed, key, salt)) and the events of
                           cribbage/solo.py (throw, seed), its rules and the board's moves (next_move);
                           that module loads only for such a match. No undo there.
    next_deal() {"t":"deal"}   next_game() {"t":"game"} (loser deals)   end_match() {"t":"end"}
    The set-up and "game" may carry "at" (Unix seconds): when the board started them, once a laptop
    told it the time (docs/protocol.md, hello); the fold ignores it.

    m.apply(ev, trusted=False) -> the completed event dict (journal that one). Refused input raises
        CribError with a message for the display and changes nothing. trusted=True (replaying the
        board's own checksummed journal): its plain lays, goes, shows, starters and deals are taken
        with their recorded "n" by the validator's shortcut (checks.journaled: the play is not run,
        only rebuilt when read), anything else is checked in full; the event is returned as given.
    m.check(ev) -> the completed event, without applying it.
    m.undone -> the event the last undo took back (a dict), m.last_pegs -> [(side, points, why)]
        that the last event pegged ("last" = five-card three for last, "fix" = correction).
    m.count -> events in force; m.effective_events() -> those events, oldest first (last=True: the last one).
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
    last_show (side, kind, cards, starter, points, claim or None) or None; show_items() ->
    [(kind, points, cards)] its itemised count (cribbage.show), show_spoken() -> "fifteen two, ..."
    muggins_due (side that missed, points) or None

Rules as folded: docs/rules.md, "Rules as folded" (the choices the rules leave open).
"""

from cribbage import records as R
from cribbage.checks import journaled, validate
from cribbage.errors import CribError
from cribbage.fold import Fold
from cribbage.forms import check_setup
from cribbage.records import FIX, MUG, PEG
from cribbage.show import score_show


def replay(events, trusted=True):
    """The Match made by a set-up followed by its events (as read back from a journal)."""
    m = None
    for ev in events:
        if m is None:
            m = Match(ev)
        else:
            m.apply(ev, trusted)
    return Match() if m is None else m


class Match(Fold):
    def __init__(self, setup=None):
        Fold.__init__(self, check_setup(setup))
        self.undone = None
        self._quick = None  # how to undo the last event at once, when it was a score alone

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

    def next_show(self):
        """(side, "hand" | "crib") that counts next in the show, or None."""
        p = self.next_shower()
        if p is None:
            return None
        return p % self.sides, "crib" if self._show_order(self.shown) == self.players else "hand"

    def next_shower(self):
        """The player whose hand (or crib) counts next, or None."""
        if self._d < 0 or self.game_over:
            return None
        idx = self._show_order(self.shown)
        if idx < 0:
            return None
        return (self._d + 1 + idx) % self.players if idx < self.players else self._d

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

    def _last_scored(self):
        last = self.last_show
        if last is None:
            return None
        side, kind, cards, starter, _n, _claim = last
        return score_show(list(cards), starter, kind == "crib", self.five)

    def show_items(self):
        """The itemised count of last_show: [(kind, points, cards)] in counting order, or None.

        kind: "fifteen", "pair", "run", "flush", "nobs" (cribbage.show); counted when asked, so a
        replay never pays for it."""
        scored = self._last_scored()
        return None if scored is None else [tuple(item) for item in scored.items]

    def show_spoken(self):
        """last_show as players say it ("fifteen two, fifteen four and a pair is six"), or None."""
        scored = self._last_scored()
        return None if scored is None else scored.spoken()

    def effective_events(self, last=False):
        """The events in force (undone ones left out), oldest first, as dicts; with last, only the
        last of them (or None): the undo prompt's, one dict made, not one per event."""
        log = self._log
        players, hand = self.players, self.hand_size
        p = 0
        q = -1
        out = []
        while p < log.end:
            if last:
                q = p
            else:
                b, i = log.at(p)
                out.append(R.event_of(b, i, players, hand))
            p = log.after(p, players, hand)
        if last:
            if q < 0:
                return None
            b, i = log.at(q)
            return R.event_of(b, i, players, hand)
        return out

    # ---- applying events ----------------------------------------------------------------------

    def check(self, ev):
        """The completed event if apply(ev) would take it, else CribError; changes nothing."""
        if type(ev) is dict and ev.get("t") == "undo":
            self._check_undo(ev)
            return {"t": "undo"}
        return R.event_of(validate(self, ev, False, True), 0, self.players, self.hand_size)

    def apply(self, ev, trusted=False):
        """Validate then apply one event; returns the completed event (to journal).

        trusted=True (replaying the board's own journal): see the module's docstring.
        """
        if trusted and type(ev) is dict:
            # The journal's own lay, go, show, starter or deal, checked and logged at once
            # (checks.journaled): none can be refused now (no play is run) and none is a score
            # alone (so no quick undo).
            p = journaled(self, ev)
            if p >= 0:
                if self.last_pegs:  # an empty list is kept: one allocation less an event
                    self.last_pegs = []
                self._quick = None
                self.count += 1
                self._do(p)
                return ev
        return self._apply(ev, trusted)

    def _apply(self, ev, trusted):
        if type(ev) is dict and ev.get("t") == "undo":
            self._check_undo(ev)
            self._undo()
            return ev if trusted else {"t": "undo"}
        rec = validate(self, ev, trusted, False)
        log = self._log
        self.last_pegs = []
        quick = None
        t = rec[0]
        if t == PEG or t == FIX or t == MUG:  # noqa: SIM109
            # A score alone is undone without a refold (a slip undone at once is the common undo).
            side = rec[1]
            quick = [0, side, self.front[side], self.back[side], self.shown, self.heels, self.muggins_due]
        b, i, p = log.append(rec)
        if quick is not None:
            quick[0] = p
        self.count += 1
        try:
            self._do(p)
        except CribError:
            # Only the play can refuse here, and it refuses before it changes anything.
            log.truncate(p)
            self.count -= 1
            raise
        # Not when the score ended the game or put a side out: that undo needs the refold.
        self._quick = quick if quick is not None and self.winner is None else None
        return ev if trusted else R.event_of(b, i, self.players, self.hand_size)

    # ---- undo: restore the checkpoint before the event, refold the rest --------------------------

    def _check_undo(self, ev):
        for k in ev:
            if k != "t":
                raise CribError("undo takes no %r" % (k,))
        if not self.count:
            raise CribError("nothing to undo")
        if "solo" in self.setup:
            raise CribError("no undo against the board")

    def _undo(self):
        log = self._log
        players, hand = self.players, self.hand_size
        q = self._quick
        self._quick = None
        if q is not None:
            p = q[0]
            b, i = log.at(p)
            self.undone = R.event_of(b, i, players, hand)
            _p, side, self.front[side], self.back[side], self.shown, self.heels, self.muggins_due = q
            log.truncate(p)
            self.count -= 1
            self.last_pegs = []
            return
        cps = self._cps
        if cps[-1][0] == log.end:
            cps.pop()  # the checkpoint the undone event made
        cp = cps[-1]
        p = last = log.norm(cp[0])
        while p < log.end:
            last = p
            p = log.after(p, players, hand)
        b, i = log.at(last)
        self.undone = R.event_of(b, i, players, hand)
        self._restore(cp)
        log.truncate(last)
        p = log.norm(cp[0])
        while p < last:
            self.count += 1
            self._do(p)
            p = log.after(p, players, hand)
        self.last_pegs = []
