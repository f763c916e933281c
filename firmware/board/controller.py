# Input edges + now_ms -> game events, proposals, card entry and menus: the board's decision logic.
# No I/O and no clock of its own: the app hands in edges and the time, and gives a `host` that
# commits events (game + journal) and knows the match; docs/keys.md is the key grammar in prose.
from board import edges
from board.sensors import GAME
from cribbage.cards import RANKS, SUITS, format_card, pip
from cribbage.errors import CribError

# What is waiting for OK (UNDO says no).
P_PEG = 1  # a peg proposed by a tap or keyed points: its hole blinks
P_EVENT = 2  # another event (undo, a zero hand, muggins, next match) shown on the display
P_LINK = 3  # an event proposed by the laptop over the link
P_GUARD = 4  # MENU+UNDO held: new match or reset; MENU cycles the choice

GUARD_CHOICES = ("new match", "reset board")
MENU_ITEMS = (
    ("brightness", "Brightness"),
    ("auto_ok_ms", "Auto OK ms"),
    ("play", "Play assist"),
    ("form", "Game form"),
    ("fmt", "Match format"),
    ("games", "Games"),
    ("to", "Points to win"),
    ("muggins", "Muggins"),
    ("three", "3-hand points"),
    ("tracks", "Sides' tracks"),
    ("watchdog", "Watchdog"),
)
MATCH_SETTINGS = ("form", "fmt", "games", "to", "muggins", "three")  # used at the next new match
_DIGITS = "A23456789T"  # rank keys as digits: A = 1 .. 9, T = 0 (or 10 alone)
_SENSOR_FAULTS = ("", "No sensor chain", "Sensor noise", "Sensors silent")  # by edges.FAULT_*
MAX_CARDS = 6  # more than any hand; the game says what is wrong with the count


class Pending:
    def __init__(self, kind, ev, note, side=-1, hole=0, now=0):
        self.kind = kind
        self.ev = ev
        self.note = note
        self.side = side
        self.hole = hole
        self.t0 = now
        self.choice = 0


class Controller:
    message_ms = 10000  # an error or a count stays this long unless a key clears it

    def __init__(self, host, key_names):
        self.host = host
        self.key_names = key_names
        self.pending = None
        self.cards = []  # cards keyed so far
        self.rank = -1  # a rank keyed, waiting for its suit
        self.digits = []  # rank keys read as digits (points, a claim, a player number)
        self.num_side = 0  # the side keyed points go to (MENU cycles it)
        self.claiming = False  # muggins: the cards are keyed, now the player's own count
        self.menu = -1  # index in MENU_ITEMS while the menu is open
        self.message = []  # lines shown over the prompt: errors, counts, reports
        self._message_t0 = 0
        self.status = ""  # a lasting fault: sensors unplugged, a key stuck
        self._held = 0
        self._long_used = 0  # keys whose long press acted: their release does nothing
        self._skip = None  # (game_no, deal_no) in which the players went on to the show by hand
        self.changes = 0  # bumps whenever something shown may have changed

    # ---- edges ------------------------------------------------------------------------------

    def handle(self, edge, now):
        kind = edge >> 10
        code = edge & 1023
        self.changes += 1
        if kind == edges.TAP:
            self._tap(code, now)
            return
        if kind == edges.SENSOR_FAULT:
            self.status = _SENSOR_FAULTS[code]
            self.host.log("sensor chain fault: " + self.status + "; taps ignored")
            return
        if kind == edges.SENSOR_OK:
            if self.status in _SENSOR_FAULTS:
                self.status = ""
            self.host.log("sensor chain reads sensibly again")
            return
        name = self.key_names[code]
        bit = 1 << code
        if kind == edges.PRESS:
            self._held |= bit
            self._clear_message()
            self._press(name, now)
        elif kind == edges.RELEASE:
            self._held &= ~bit
            if self._long_used & bit:
                self._long_used &= ~bit
            elif name == "MENU" or name == "UNDO":
                self._short(name, now)
        elif kind == edges.LONG:
            self._long(name, bit, now)
        elif kind == edges.STUCK:
            self._held &= ~bit
            self._long_used &= ~bit
            self.status = "Key %s stuck" % name
            self.host.log("key %s stuck down: ignored until released" % name)

    def tick(self, now):
        """Timeouts: auto-OK of a proposed peg, messages fading."""
        p = self.pending
        auto = self.host.settings["auto_ok_ms"]
        if p is not None and p.kind == P_PEG and auto and self.host.ticks_diff(now, p.t0) >= auto:
            self._confirm(now)
            self.changes += 1
        if self.message and self.host.ticks_diff(now, self._message_t0) >= self.message_ms:
            self.message = []
            self.changes += 1
        if self.status.startswith("Key") and not self._stuck_any():
            self.status = ""
            self.changes += 1

    def _stuck_any(self):
        return self.host.keys_stuck()

    def say(self, *lines):
        self.message = list(lines)
        self._message_t0 = self.host.now

    def _clear_message(self):
        self.message = []

    # ---- keys -------------------------------------------------------------------------------

    def _press(self, name, now):
        if self.menu >= 0:
            if name == "OK":
                key = MENU_ITEMS[self.menu][0]
                self.host.settings.cycle(key, now)
            return
        if self.pending is not None:
            if name == "OK":
                self._confirm(now)
            else:
                self.say("OK = yes", "UNDO = no")
            return
        r = RANKS.find(name) if len(name) == 1 else -1
        s = SUITS.find(name) if len(name) == 1 else -1
        if r >= 0:
            self._rank(r)
        elif s >= 0:
            self._suit(s, now)
        elif name == "OK":
            self._ok(now)

    def _short(self, name, now):
        if self.menu >= 0:
            if name == "MENU":
                self.menu = (self.menu + 1) % len(MENU_ITEMS)
            else:
                self.menu = -1
            return
        p = self.pending
        if p is not None:
            if name == "UNDO":
                self._cancel()
            elif p.kind == P_GUARD:
                p.choice = (p.choice + 1) % len(GUARD_CHOICES)
                p.note = GUARD_CHOICES[p.choice] + "?"
            elif p.ev.get("t") == "muggins":
                self._next_claimant(p)
            return
        if self.entering():
            if name == "UNDO":
                self._backspace()
            elif self.digits or (self.rank >= 0 and not self.cards):
                self.num_side = (self.num_side + 1) % self.host.match.sides
            return
        if name == "UNDO":
            self._offer_undo()
        elif self.context() == "lay":
            self._go(now)
        else:
            self.menu = 0

    def _long(self, name, bit, now):
        if name != "MENU" and name != "UNDO":
            return
        other = self.key_names.index("UNDO" if name == "MENU" else "MENU")
        if self._held & (1 << other):
            # The guarded chord: both keys held long. Their releases must not act as well.
            self._long_used |= bit | (1 << other)
            self._reset_entry()
            self.menu = -1
            self.pending = Pending(P_GUARD, None, GUARD_CHOICES[0] + "?")
        elif name == "MENU":
            self._long_used |= bit
            if self.pending is None:
                self.menu = 0

    # ---- keying cards and numbers -----------------------------------------------------------

    def entering(self):
        return bool(self.cards) or self.rank >= 0 or bool(self.digits) or self.claiming

    def _reset_entry(self):
        self.cards = []
        self.rank = -1
        self.digits = []
        self.claiming = False

    def _rank(self, r):
        if self.digits or self.claiming:
            if r >= len(_DIGITS):
                self.say("Digits: A=1..9", "T=0")
            elif len(self.digits) >= 2:
                self.say("2 digits at most")
            else:
                self.digits.append(r)
            return
        if self.rank >= 0 and not self.cards and self.rank < len(_DIGITS) and r < len(_DIGITS):
            self.digits = [self.rank, r]  # two ranks in a row: a number, e.g. 1 2 = 12 points
            self.rank = -1
            return
        if self.rank < 0 and not self.cards:
            self.num_side = self._default_side()
        self.rank = r

    def _suit(self, s, now):
        if self.rank < 0:
            if not self.digits:
                self.say("Key the rank", "first, then suit")
            return
        c = self.rank * 4 + s
        self.rank = -1
        if c in self.cards:
            self.say(format_card(c) + " twice:", "not taken")
            return
        if len(self.cards) >= MAX_CARDS:
            self.say("%d cards at most" % MAX_CARDS)
            return
        self.cards.append(c)
        ctx = self.context()
        if ctx == "starter" or ctx == "lay":
            self._use_cards(ctx, now)

    def _backspace(self):
        if self.digits:
            self.digits.pop()
        elif self.rank >= 0:
            self.rank = -1
        elif self.claiming:
            self.claiming = False
        elif self.cards:
            self.cards.pop()

    def number(self):
        """The keyed digits as a number (T alone is 10), or -1."""
        d = self.digits
        if not d and self.rank >= 0 and not self.cards and self.rank < len(_DIGITS):
            d = [self.rank]
        if not d:
            return -1
        if len(d) == 1:
            return 10 if d[0] == 9 else d[0] + 1
        return ((d[0] + 1) % 10) * 10 + (d[1] + 1) % 10

    def _ok(self, now):
        if self.claiming:
            self._score_show(now)
            return
        n = self.number()
        if n >= 0:
            self._keyed_number(n, now)
        elif self.rank >= 0:
            self.say("Finish the card:", "key its suit")
        elif self.cards:
            self._use_cards(self.context(), now)
        else:
            self._ok_alone(now)

    def context(self):
        """What keyed cards are for now: cut, starter, lay, show, or None."""
        m = self.host.match
        ph = m.phase()
        skipped = self._skip == (m.game_no, m.deal_no)
        if ph == "cut":
            return "cut"
        if ph == "starter":
            return "show" if skipped else "starter"
        if ph == "play":
            return "show" if skipped or not self.host.settings["play"] else "lay"
        if ph == "show":
            return "show"
        return None

    def _use_cards(self, ctx, now):
        m = self.host.match
        cards = self.cards
        if ctx == "cut":
            self._commit({"t": "cut", "cards": list(cards)}, keep=True)
            if m.cut_tie:
                self.say("A tie: cut again")
        elif ctx == "starter":
            self._commit({"t": "starter", "c": cards[0]})
        elif ctx == "lay":
            player = m.play_seats[m.play.turn]
            count = m.play.count + pip(cards[0])
            if self._commit({"t": "lay", "p": player, "c": cards[0]}):
                self._play_message(player, cards[0], count)
        elif ctx == "show":
            if m.muggins:
                self.claiming = True  # the player's own count first, then the board's
                self.digits = []
            else:
                self._score_show(now)
        else:
            self._reset_entry()
            self.say("No cards now:", self.prompt())

    def _score_show(self, now):
        m = self.host.match
        nxt = m.next_show()
        if nxt is None:
            self._reset_entry()
            self.say("No show now")
            return
        side, kind = nxt
        ev = {"t": "show", "s": side, "k": kind, "cards": list(self.cards)}
        if self.claiming and self.digits:
            ev["claim"] = self.number()
        self.claiming = False
        self.digits = []
        done = self._commit(ev, keep=True)
        if done:
            self.say(*self.host.show_lines(done))
            self._offer_muggins(now)

    def _keyed_number(self, n, now):
        m = self.host.match
        self._reset_entry()
        if m.phase() == "cut":
            if 1 <= n <= m.players:
                self._commit({"t": "dealer", "p": n - 1})
            else:
                self.say("Dealer: 1..%d" % m.players)
            return
        side = self.num_side
        hole = min(m.front[side] + n, m.target)
        self._propose_peg(side, n, hole, now)

    def _ok_alone(self, now):
        m = self.host.match
        ph = m.phase()
        if ph == "cut":
            self.say("Key a card each,", "OK; or 1-%d OK" % m.players, "names the dealer")
        elif ph == "starter" or ph == "play":
            if self._skip == (m.game_no, m.deal_no):
                self.say("Peg the show:", "tap, or key cards")
            else:
                self._skip = (m.game_no, m.deal_no)
                self.say("On to the show")
        elif ph == "show":
            side, kind = m.next_show()
            laid = self.laid_cards()
            if laid:
                # The hand's cards were keyed in the play: score them, or start the entry with them.
                self.cards = laid
                if len(laid) == m.hand_size:
                    self._use_cards("show", now)
                return
            self.pending = Pending(
                P_EVENT, {"t": "peg", "s": side, "n": 0, "why": kind}, "%s %s 0?" % (m.names[side], kind)
            )
        elif ph == "deal":
            self._commit({"t": "deal"})
        elif ph == "game over":
            self._commit({"t": "game"})
        else:
            self.pending = Pending(P_EVENT, {"t": "_new"}, "New match?")

    def laid_cards(self):
        """Cards the player whose hand counts next laid in this deal's play (the crib: none)."""
        m = self.host.match
        nxt = m.next_show()
        if nxt is None or nxt[1] != "hand" or m.play is None:
            return []
        who = m.next_shower()
        seats = m.play_seats
        return [c for seat, c in m.play.laid if seats[seat] == who]

    def _go(self, now):
        m = self.host.match
        player = m.play_seats[m.play.turn]
        count = m.play.count
        if self._commit({"t": "go", "p": player}):
            self._play_message(player, -1, count)

    def _play_message(self, player, card, count):
        m = self.host.match
        got = 0
        for _s, n, _why in m.last_pegs:
            got += n
        what = format_card(card) if card >= 0 else "go"
        line = "%s %s" % (m.names[m.side_of(player)], what)
        if got:
            line += " +%d" % got
        play = m.play
        lines = [line, "count %d" % count]
        if play is not None and play.count != count:
            lines.append("new count" if not play.over else "play over")
        elif play is not None and play.over:
            lines.append("play over")
        self.say(*lines)

    # ---- taps and proposals -----------------------------------------------------------------

    def _default_side(self):
        m = self.host.match
        nxt = m.next_show()
        if nxt is not None and self.context() == "show":
            return nxt[0]
        if m.play is not None and m.play.turn is not None and m.phase() == "play":
            return m.side_of(m.play_seats[m.play.turn])
        return 0

    def _why(self, side):
        m = self.host.match
        ph = m.phase()
        skipped = self._skip == (m.game_no, m.deal_no)
        if ph == "show" or (skipped and (ph == "starter" or ph == "play")):
            nxt = m.next_show()
            if nxt is not None and nxt[0] == side:
                return nxt[1]
            return "manual"
        if ph == "starter" or ph == "play":
            return "play"
        return "manual"

    def _tap(self, code, now):
        m = self.host.match
        track = code >> 7
        hole = code & 127
        if m.game_over or m.match_over:
            return
        if hole == GAME:
            side = self._leader()
            hole = m.target
        else:
            side = self.host.side_of_track(track)
            if side < 0 or hole == 0:
                return
        front = m.front[side]
        if hole <= front:
            return  # a peg set behind the front peg: the back peg resting, not a score
        if hole > m.target:
            self.say("Past the game", "hole: not taken")
            return
        p = self.pending
        if p is not None:
            if p.kind != P_PEG:
                self.say("OK or UNDO first")
                return
            if p.side != side:
                self._confirm(now)  # the next player has moved on: the last score stands
        self._propose_peg(side, hole - front, hole, now)

    def _leader(self):
        m = self.host.match
        best = 0
        for s in range(m.sides):
            if m.front[s] > m.front[best]:
                best = s
        return best

    def _propose_peg(self, side, n, hole, now):
        m = self.host.match
        if n > 29:
            self.say("+%d: too far" % n, "29 at most")
            return
        why = self._why(side)
        note = "%s +%d %s" % (m.names[side], n, why)
        self.pending = Pending(P_PEG, {"t": "peg", "s": side, "n": n, "why": why}, note, side, hole, now)

    def _offer_undo(self):
        m = self.host.match
        if not m.count:
            self.say("Nothing to undo")
            return
        self.pending = Pending(P_EVENT, {"t": "undo"}, "Undo " + self.host.describe_last() + "?")

    def _offer_muggins(self, now):
        m = self.host.match
        if m.muggins_due is None:
            return
        missed_by, n = m.muggins_due
        p = Pending(P_EVENT, {"t": "muggins", "s": (missed_by + 1) % m.sides}, "")
        p.choice = n
        self._muggins_note(p)
        self.pending = p

    def _next_claimant(self, p):
        m = self.host.match
        missed_by = m.muggins_due[0]
        s = (p.ev["s"] + 1) % m.sides
        if s == missed_by:
            s = (s + 1) % m.sides
        p.ev["s"] = s
        self._muggins_note(p)

    def _muggins_note(self, p):
        m = self.host.match
        p.note = "%s: muggins %d?" % (m.names[p.ev["s"]], p.choice)

    def offer_link(self, ev, note, now):
        """The laptop proposed ev (link `propose`): show it, OK applies, UNDO refuses."""
        if self.pending is None:
            self.pending = Pending(P_LINK, ev, note or "Laptop: %s?" % ev.get("t"), now=now)
            self.changes += 1
            return True
        return False

    def _confirm(self, now):
        p = self.pending
        self.pending = None
        if p is None:
            return
        if p.kind == P_GUARD:
            if p.choice == 0:
                self.host.new_match()
            else:
                self.host.reset_board()
            self._reset_entry()
            self._skip = None
            self.say(GUARD_CHOICES[p.choice] + ":", "done")
            return
        if p.ev.get("t") == "_new":
            self.host.new_match()
            self._skip = None
            return
        done = self._commit(p.ev)
        if p.kind == P_LINK:
            self.host.link_verdict(done is not None, self.message[0] if done is None else None)
        if done is not None and done.get("t") != "undo":
            self._offer_muggins(now)

    def _cancel(self):
        p = self.pending
        self.pending = None
        if p is not None and p.kind == P_LINK:
            self.host.link_verdict(False, "refused on the board")

    def _commit(self, ev, keep=False):
        """Apply ev through the host; a refusal goes on the display and changes nothing."""
        try:
            done = self.host.commit(ev)
        except CribError as e:
            text = str(e.args[0]) if e.args else "refused"
            self.say(*_wrap(text))
            if not keep:
                self._reset_entry()
            return None
        self._reset_entry()
        return done

    # ---- what the display asks for ----------------------------------------------------------

    def prompt(self):
        """One short line: what the keypad does now."""
        m = self.host.match
        ph = m.phase()
        ctx = self.context()
        if ph == "cut":
            return "Cut: a card each"
        if ctx == "starter":
            return "Starter? OK=skip"
        if ctx == "lay":
            return "%s lays MENU=go" % m.names[m.side_of(m.play_seats[m.play.turn])]
        if ctx == "show":
            side, kind = m.next_show()
            return "%s %s: cards" % (m.names[side], kind)
        if ph == "deal":
            return "OK = next deal"
        if ph == "game over":
            return "OK = next game"
        return "Match over"


def _wrap(text, width=16, rows=4):
    """Text cut into display rows at spaces."""
    out = []
    line = ""
    for word in text.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line[:width])
            line = word
    if line:
        out.append(line[:width])
    return out[:rows]
