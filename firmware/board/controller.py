# Input edges + now_ms -> game events, proposals, card entry and menus: the board's decision logic.
# No I/O and no clock of its own: the app hands in edges and the time, and gives a `host` that
# commits events (game + journal) and knows the match; docs/keys.md is the key grammar in prose.
from board import edges, phases
from board.entry import Entry
from board.sensors import GAME
from board.settings import MENU
from cribbage.cards import RANKS, SUITS
from cribbage.errors import CribError

# What is waiting for OK (UNDO says no).
P_PEG = 1  # a peg proposed by a tap or keyed points: its hole blinks
P_EVENT = 2  # another event (undo, a zero hand, muggins, next match) shown on the display
P_LINK = 3  # an event proposed by the laptop over the link
P_GUARD = 4  # MENU+UNDO held: new match or reset; MENU cycles the choice

GUARD_CHOICES = ("new match", "reset board")
_SENSOR_FAULTS = ("", "No sensor chain", "Sensor noise", "Sensors silent")  # by edges.FAULT_*


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
        self.entry = Entry()  # cards and numbers being keyed
        self.num_side = 0  # the side keyed points go to (MENU cycles it)
        self.menu = -1  # index in settings.MENU while the menu is open
        self.message = []  # lines shown over the prompt: errors, counts, reports
        self._message_t0 = 0
        self.status = ""  # a lasting fault: sensors unplugged, a key stuck
        self._held = 0
        self._long_used = 0  # keys whose long press acted: their release does nothing
        self.skip = None  # (game_no, deal_no) in which the players went on to the show by hand
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
            self.entry.reset()  # whatever the jammed key typed is not meant
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
                key = MENU[self.menu][0]
                self.host.settings.cycle(key, now)
            return
        if self.pending is not None:
            if name == "OK":
                self._confirm(now)
            elif name != "UNDO" and name != "MENU":
                # UNDO and MENU act on release (UNDO says no): a reminder now would outlive the proposal.
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
                self.menu = (self.menu + 1) % len(MENU)
            else:
                self.menu = -1
            return
        p = self.pending
        if p is not None:
            if name == "UNDO":
                self._cancel()
            elif p.kind == P_GUARD:
                p.choice = (p.choice + 1) % len(GUARD_CHOICES)
                p.note = self.host.new_match_note(GUARD_CHOICES[p.choice] + "?")
            elif p.ev.get("t") == "muggins":
                self._next_claimant(p)
            return
        if self.entry.active():
            if name == "UNDO":
                self.entry.backspace()
            elif self.entry.numbering():
                self.num_side = (self.num_side + 1) % self.host.match.sides
            return
        if name == "UNDO":
            self._offer_undo()
        elif phases.context(self) == "lay":
            phases.go(self, now)
        else:
            self.menu = 0

    def _long(self, name, bit, now):
        if name != "MENU" and name != "UNDO":
            return
        other = self.key_names.index("UNDO" if name == "MENU" else "MENU")
        if self._held & (1 << other):
            # The guarded chord: both keys held long. Their releases must not act as well.
            self._long_used |= bit | (1 << other)
            self.entry.reset()
            self.menu = -1
            self.pending = Pending(P_GUARD, None, self.host.new_match_note(GUARD_CHOICES[0] + "?"))
        elif name == "MENU":
            self._long_used |= bit
            if self.pending is None:
                self.menu = 0

    # ---- keying cards and numbers -----------------------------------------------------------

    def _rank(self, r):
        fresh = not self.entry.active()
        refused = self.entry.rank_key(r)
        if refused:
            self.say(*refused)
        elif fresh:
            self.num_side = phases.default_side(self)

    def _suit(self, s, now):
        c, refused = self.entry.suit_key(s)
        if refused:
            self.say(*refused)
        if c >= 0:
            ctx = phases.context(self)
            if ctx == "starter" or ctx == "lay":
                phases.use_cards(self, ctx, now)

    def _ok(self, now):
        e = self.entry
        if e.claiming:
            phases.score_show(self, now)
            return
        n = e.number()
        if n >= 0:
            phases.keyed_number(self, n, now)
        elif e.rank >= 0:
            self.say("Finish the card:", "key its suit")
        elif e.cards:
            phases.use_cards(self, phases.context(self), now)
        else:
            phases.ok_alone(self, now)

    def _tap(self, code, now):
        m = self.host.match
        track = code >> 7
        hole = code & 127
        if m.game_over or m.match_over:
            return
        self.menu = -1  # the game goes on: a peg closes the menu
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
        self.propose_peg(side, hole - front, hole, now)

    def _leader(self):
        m = self.host.match
        best = 0
        for s in range(m.sides):
            if m.front[s] > m.front[best]:
                best = s
        return best

    def propose_peg(self, side, n, hole, now):
        m = self.host.match
        if n > 29:
            self.say("+%d: too far" % n, "29 at most")
            return
        why = phases.why(self, side)
        ev = {"t": "peg", "s": side, "n": n, "why": why}
        try:
            m.check(ev)
        except CribError as e:
            # Said now, not after OK: no hand makes 19, a go is 1, ... (the proposal would only fail).
            p = self.pending
            if p is not None and p.kind == P_PEG and p.side == side:
                self.pending = None  # the peg moved on from the hole it proposed
            self.say(*wrap(str(e.args[0]) if e.args else "refused"))
            return
        note = "%s +%d %s" % (m.names[side], n, why)
        self.pending = Pending(P_PEG, ev, note, side, hole, now)

    def propose(self, ev, note):
        """An event that waits for OK on the display (UNDO says no)."""
        self.pending = Pending(P_EVENT, ev, note)

    def context(self):
        return phases.context(self)

    def _offer_undo(self):
        m = self.host.match
        if not m.count:
            self.say("Nothing to undo")
            return
        self.pending = Pending(P_EVENT, {"t": "undo"}, "Undo " + self.host.describe_last() + "?")

    def offer_muggins(self, now):
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
            self.entry.reset()
            self.skip = None
            self.say(GUARD_CHOICES[p.choice] + ":", "done")
            return
        if p.ev.get("t") == "_new":
            self.host.new_match()
            self.skip = None
            return
        done = self.commit(p.ev)
        if p.kind == P_LINK:
            self.host.link_verdict(done is not None, self.message[0] if done is None else None)
        if done is not None and done.get("t") != "undo":
            self.offer_muggins(now)

    def _cancel(self):
        p = self.pending
        self.pending = None
        if p is not None and p.kind == P_LINK:
            self.host.link_verdict(False, "refused on the board")

    def commit(self, ev, keep=False):
        """Apply ev through the host; a refusal goes on the display and changes nothing."""
        try:
            done = self.host.commit(ev)
        except CribError as e:
            text = str(e.args[0]) if e.args else "refused"
            self.say(*wrap(text))
            if not keep:
                self.entry.reset()
            return None
        self.entry.reset()
        return done


def wrap(text, width=16, rows=4):
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
