# Input edges + now_ms -> events committed, proposals, card entry and menus: the board's decision logic.
# No I/O and no clock of its own. docs/keys.md is the key grammar in prose; the contract is below. The
# package is the controller whole: what keyed cards, numbers and a lone OK do in each phase of the deal
# is keyed.py (a base class), the cards and digits being keyed entry.py, and the menu (menu.py) and the
# discard advice (advising.py) are loaded the first time a player asks for them.
from board import deal, display, edges
from board.controller.entry import Entry
from board.controller.keyed import Keyed
from board.deal import GUARD_CHOICES, P_EVENT, P_GUARD, P_LINK, P_PEG, Pending
from board.display import ROWS
from board.edges.sensors import GAME
from board.store.commit import setup_of
from board.ticks import diff
from cribbage import const
from cribbage.cards import RANKS, SUITS
from cribbage.errors import CribError

# OK and UNDO are not taken this long after a laptop's proposal appears, is replaced or withdrawn:
# a press meant for the one the player was reading must not answer another.
_LINK_READ_MS = const(1500)  # tests/link/test_board_link.py READ_MS says the same


class Controller(Keyed):
    """What a key press, a tap or a sensor fault means now, and what it does.

    Made with (everything it uses, nothing else):
        key_names  the board file's key names, by key index
        book       board.store.commit.Commit: .match (read only here), .apply(ev) -> the completed event
                   (CribError: refused, nothing changed), .warning, .new_match(setup), .last(),
                   .note(text) (the question, with the games no laptop has stored)
        settings   board.settings.Settings: read; the menu's OK .cycle(name, now); the guard's .reset()
        tracks()   the physical track of each side, by side (a tuple the app keeps)
        log(text)  the console
    Called by the app, in this order each pass:
        handle(edge, now)   each input edge (board/edges/); tick(now) once: auto-OK, fading messages
    and by the app's other parts:
        say(*lines)         a message over the prompt (reports, errors)
        offer_link(ev, note, now, answer) / withdraw_link()   the link pump: the laptop's proposal;
                            answer(applied, error) hears how it ended
        (the link's `table` op, board/link/table.py, commits a remote table's moves through `book`
        and asks say() and the solo plug-in's news to show them: docs/remote.md)
        fault, stuck, menu, pending, message, page, entry, num_side, advising, skip, key_names,
        tracks()            read by the display (display.rows), by name, never written from outside
        blinking()          the proposed peg whose hole blinks (deal.Pending), or None
        changes             bumps whenever what is shown may have changed (the app redraws then)
    The menu and the name entry (menu.py beside this) and the discard advice (advising.py) are loaded
    the first time a player asks for them (_open, _long), not at boot: with the code in RAM their code
    is heap from then on; a load with no room says so and changes nothing (docs/memory.md). Neither
    writes the controller's fields: the menu's functions answer what a key does to the menu and the
    controller keeps the result; the advice keeps its own state, keys cards through the entry's methods
    and asks say() and commit() for the rest.
    Faults are codes (`fault`: edges.FAULT_*, `stuck`: a bitmap of keys), worded by the display.
    Split by idea: keys, taps, proposals and their answers here; what keyed cards, numbers and a lone
    OK do in each phase of the deal in its base class controller.keyed.Keyed (_rank, _suit, _ok,
    _use_cards, _score_show, _ok_alone), which has no state or contract of its own.
    """

    message_ms = 10000  # an error or a count stays this long unless a key clears it

    def __init__(self, key_names, book, settings, tracks, log):
        self.key_names = key_names
        self.book = book
        self.settings = settings
        self.tracks = tracks
        self.log = log
        self.pending = None  # deal.Pending waiting for OK
        self.entry = Entry()  # cards and numbers being keyed
        self.num_side = 0  # the side keyed points go to (MENU cycles it)
        self.menu = -1  # index in board.controller.menu.MENU while the menu is open
        self.message = []  # lines shown over the prompt: errors, counts, reports
        self.page = 0  # the page shown of a message longer than the display (MENU turns it)
        self.now = 0  # the time of the edge or tick in hand
        self._message_t0 = 0
        self.fault = 0  # the sensor chain's fault code (edges.FAULT_*), 0 when it reads sensibly
        self.stuck = 0  # keys reported stuck and not yet released, bit i = key i
        self._held = 0
        self._long_used = 0  # keys whose long press acted: their release does nothing
        self.skip = None  # (game_no, deal_no, level, match.count): how far went by hand (deal.level)
        self.changes = 0  # bumps whenever something shown may have changed
        self._link_t = None  # when a laptop's proposal last appeared, changed or went (_LINK_READ_MS)
        # board.controller.advising.Advising once advice was first asked for (_long), or in a match
        # against the board board.controller.solo.Solo (tick): the plug-in that takes the keys while on
        self.advising = None

    # ---- edges ------------------------------------------------------------------------------

    def handle(self, edge, now):
        kind = edge >> 10
        code = edge & 1023
        self.now = now
        self.changes += 1
        if kind == edges.TAP:
            self._tap(code, now)
            return
        if kind == edges.SENSOR_FAULT:
            self.fault = code
            self.log("sensor chain fault %d: taps ignored" % code)
            return
        if kind == edges.SENSOR_OK:
            self.fault = 0
            self.log("sensor chain reads sensibly again")
            return
        name = self.key_names[code]
        bit = 1 << code
        if kind == edges.PRESS:
            self._held |= bit
            if name != "MENU" or self._pages() < 2:
                self.message = []  # any key clears a message, but MENU turns a long one's pages
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
            self.stuck |= bit
            self.entry.reset()  # whatever the jammed key typed is not meant
            self.log("key %s stuck down: ignored until released" % name)
        elif kind == edges.UNSTUCK:
            self.stuck &= ~bit

    def tick(self, now):
        """Timeouts: auto-OK of a proposed peg, messages fading."""
        self.now = now
        p = self.pending
        auto = self.settings["auto_ok_ms"]
        if p is not None and p.kind == P_PEG and auto and diff(now, p.t0) >= auto:
            self._confirm(now)
            self.changes += 1
        if self.message and diff(now, self._message_t0) >= self.message_ms:
            self.message = []
            self.changes += 1
        a = self.advising
        if a is None and "solo" in self.book.match.setup:
            # Against the board: its code (controller/solo.py, cribbage/solo.py, the opponent) loads
            # now, not at boot, and takes the keys as the advice does (docs/memory.md).
            try:
                from board.controller import solo

                a = self.advising = solo.start(self)
            except MemoryError:
                self.say("Out of memory:", "no solo loaded")
                return
        if a is not None and a.on and a.tick(self, now):
            self.changes += 1  # the board moved (or is to): shown

    def say(self, *lines):
        self.message = list(lines)
        self.page = 0
        self._message_t0 = self.now
        self.changes += 1

    # ---- what is shown ----------------------------------------------------------------------

    def _pages(self):
        # How many pages the message shown now takes (0: none shown; a proposal or the menu is over it).
        if not self.message or self.pending is not None or self.menu >= 0:
            return 0
        large = display.large_print(self.settings)
        if large is not None:
            return large.pages(self.message)  # big rows take 3 of the 8: other pages
        return display.page(self.message, ROWS - self.book.match.sides - 2, 0)[1]

    def blinking(self):
        p = self.pending
        return p if p is not None and p.kind == P_PEG else None

    # ---- keys -------------------------------------------------------------------------------

    def _unread(self, name, now):
        """OK or UNDO so soon after a laptop's proposal appeared, changed or went that it may have
        been meant for the one before: ignored, and said so (True) rather than silently."""
        t = self._link_t
        if t is None or diff(now, t) >= _LINK_READ_MS:
            return False
        self.log("%s ignored: the laptop's proposal changed %d ms before" % (name, diff(now, t)))
        p = self.pending
        if p is not None and p.kind == P_LINK:
            p.choice = 1  # the display asks the player to read it first
        else:
            self.say("%s ignored:" % name, "the laptop's", "proposal went")
        return True

    def _press(self, name, now):
        if name == "OK" and self._unread(name, now):
            return  # maybe meant for a proposal the laptop has just replaced or withdrawn
        if self.menu >= 0:
            from board.controller import menu  # loaded when the menu opened (_open)

            if menu._press(self.menu, name, self.settings, now):
                self._naming(0)  # "Player names": each side's name keyed in turn, from the first
            return
        p = self.pending
        if p is not None:
            if name == "OK":
                self._confirm(now)
            elif p.ev is None and p.choice == 0 and self.settings["solo"] and RANKS.find(name) >= 0:
                from board.controller import solo  # the guarded new match against the board: a seed

                solo.seed_key(self, p, RANKS.find(name))
            elif name != "UNDO" and name != "MENU":
                # UNDO and MENU act on release (UNDO says no): a reminder now would outlive the proposal.
                self.say("OK = yes", "UNDO = no")
            return
        if self.entry.name is not None:
            from board.controller import menu  # a name being keyed: the menu's "Player names" started it

            side = menu._entry(self, name, now)
            if side >= 0:
                self._naming(side)
            return
        if self.advising is not None and self.advising.on:
            self.advising.handle(self, name, False)  # board/controller/advising.py: nothing there is pegged
            return
        r = RANKS.find(name) if len(name) == 1 else -1
        s = SUITS.find(name) if len(name) == 1 else -1
        m = self.book.match
        if (r >= 0 or s >= 0) and (m.game_over or m.match_over):
            # After the game (or match) is won, keyed cards and points mean nothing: say what OK does.
            self.entry.reset()
            self.say(
                "Match is over:" if m.match_over else "Game is over:", "not taken"
            )  # the prompt says what OK does
        elif r >= 0:
            self._rank(r)
        elif s >= 0:
            self._suit(s, now)
        elif name == "OK":
            self._ok(now)

    def _short(self, name, now):
        if self.menu >= 0:
            from board.controller import menu

            self.menu = menu._short(self.menu, name)
            return
        p = self.pending
        if name == "UNDO" and self._unread(name, now):
            return
        if p is not None:
            if name == "UNDO":
                self.pending = None  # UNDO says no: a laptop's proposal hears it refused
                if p.answer is not None:
                    p.answer(False, "refused on the board", p.pid)
            elif p.kind == P_GUARD:
                p.choice = (p.choice + 1) % len(GUARD_CHOICES)
                p.side = -1  # (a seed keyed is dropped with the choice)
                p.note = self.book.note(GUARD_CHOICES[p.choice] + "?")
            elif p.ev is not None and p.ev.get("t") == "muggins":
                # MENU turns the pages of what was missed (.hole: the page); past the last, the next
                # side claims.
                m = self.book.match
                if p.hole + 1 < display.page(display.muggins_lines(m, p), ROWS - m.sides - 2, 0)[1]:
                    p.hole += 1
                else:
                    p.hole = 0
                    deal.next_claimant(m, p)
            return
        if name == "MENU" and self._pages() > 1:
            self.page += 1  # a count longer than the display: MENU turns its pages
            self._message_t0 = now
            return
        if self.advising is not None and self.advising.on:
            self.advising.handle(self, name, True)
            return
        if self.entry.active():
            if name == "UNDO":
                self.entry.backspace()
            elif self.entry.name is not None:
                self.entry.reset()  # MENU leaves the naming: the name being keyed is not saved
            elif self.entry.numbering():
                self.num_side = (self.num_side + 1) % self.book.match.sides
            return
        if name == "UNDO":
            self._offer_undo()
        elif deal.context(self.book.match, self.settings, self.skip) == "lay":
            m = self.book.match  # MENU in the play: the player to lay says go
            player = m.play_seats[m.play.turn]
            count = m.play.count
            if self.commit({"t": "go", "p": player}):
                self.say(*display.play_lines(m, player, -1, count))
        else:
            self._open()

    def _open(self):
        """Open the menu, its code (menu.py) loaded the first time: with the code in RAM it is heap
        from then on, not from boot. No room for it: said, and nothing changes."""
        try:
            from board.controller.menu import MENU  # noqa: F401
        except MemoryError:
            self.say("Out of memory:", "no menu loaded")  # ([name budget]: not a short string)
            return
        self.menu = 0

    def _naming(self, side):
        """Key side's name next (the menu's "Player names", then side by side after each OK); past the
        last side, done. It starts as the side's name once renamed, else empty: OK alone keeps it."""
        m = self.book.match
        self.menu = -1
        self.entry.reset()
        if side < m.sides:
            self.num_side = side
            n = m.names[side]
            self.entry.name = n.encode() if n != m.setup["names"][side] else b""

    def _long(self, name, bit, now):
        if name != "MENU" and name != "UNDO":
            return
        other = self.key_names.index("UNDO" if name == "MENU" else "MENU")
        if self._held & (1 << other):
            # The guarded chord: both keys held long. Their releases must not act as well.
            self._long_used |= bit | (1 << other)
            self.entry.reset()
            self.menu = -1
            # (against the board, digits keyed now are the new match's seed: solo.seed_key)
            q = GUARD_CHOICES[0] + "?"
            note = self.book.note(q)
            if self.settings["solo"]:
                # The games not synced on their own rows: "key a seed 1 game not synced" read as seed 1.
                note = "new match? or key a seed" if note == q else "new match, seed?" + note[len(q) :]
            self.pending = Pending(P_GUARD, None, note)
        elif name == "MENU":
            self._long_used |= bit
            a = self.advising
            starter = deal.context(self.book.match, self.settings, self.skip) == "starter"
            if self.settings["advice"] and self.pending is None and self.menu < 0 and starter:
                if a is None:
                    # The advice's code and tables (advising.py, cribbage/advice.py) are loaded the
                    # first time it is asked for, not at boot (docs/memory.md).
                    try:
                        from board.controller.advising import Advising

                        a = Advising()
                    except MemoryError:
                        self.say("Out of memory:", "no advice loaded")
                        return
                    self.advising = a
                self.entry.reset()  # the deal's cards are keyed for advice, not as the starter
                a.start(self.book.match)
            elif self.pending is None and (a is None or not a.on):
                self._open()

    # ---- taps and proposals -----------------------------------------------------------------

    def _tap(self, code, now):
        m = self.book.match
        track = code >> 7
        hole = code & 127
        if m.game_over or m.match_over:
            # A peg moved after the game is won scores nothing: say so, and what OK does.
            self.say(
                "Match is over:" if m.match_over else "Game is over:", "not taken"
            )  # the prompt says what OK does
            return
        self.menu = -1  # the game goes on: a peg closes the menu
        if hole == GAME:  # the game hole: for the side furthest ahead
            side = 0
            for s in range(m.sides):
                if m.front[s] > m.front[side]:
                    side = s
            hole = m.target
        else:
            tracks = self.tracks()
            side = len(tracks) - 1
            while side >= 0 and tracks[side] != track:
                side -= 1  # the side pegging on this track, or -1
            if side < 0:
                self.say("No side pegs", "on that track")  # a peg in the track the game leaves dark
                return
            if hole == 0:
                return  # a peg set back in its start hole: a new game's pegs, not a score
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

    def propose_peg(self, side, n, hole, now):
        m = self.book.match
        if n > 29:
            self.say("+%d: too far" % n, "29 at most")
            return
        why = deal.why(m, side, self.skip)
        try:
            m.check({"t": "peg", "s": side, "n": n, "why": why})
        except CribError as e:
            # Said now, not after OK: no hand makes 19, a go is 1, ... (the proposal would only fail).
            p = self.pending
            if p is not None and p.kind == P_PEG and p.side == side:
                self.pending = None  # the peg moved on from the hole it proposed
            self.say(*display.wrap(str(e.args[0]) if e.args else "refused"))
            return
        self.pending = deal.peg(m, side, n, hole, why, now)

    def _offer_undo(self):
        m = self.book.match
        sk = self.skip
        lvl = deal.level(m, sk)
        if sk is not None and lvl and m.count == sk[3]:
            # The last thing done was a skip (no event): it is undone alone, not the event before it.
            what = "on to the show" if lvl == 2 else "starter skipped"
            self.pending = Pending(P_EVENT, {"t": "skip"}, "Undo " + what + "?")
            return
        if not self.book.match.count:
            self.say("Nothing to undo")
            return
        last = display.describe(self.book.match, self.book.last())
        self.pending = Pending(P_EVENT, {"t": "undo"}, "Undo " + last + "?")

    def offer_link(self, ev, note, now, answer, pid=0):
        """The laptop proposed ev (link `propose`, request `pid`): shown once nothing else waits, in the
        board's own words ("P2 +29 to 55?"), the laptop's note only beside them; OK applies it, UNDO
        refuses; answer(applied, error, pid) hears which. One the laptop has replaced (another pid)
        is replaced on the display. -> True when it is shown now."""
        p = self.pending
        if p is not None and (p.kind != P_LINK or p.pid == pid):
            return False
        m = self.book.match
        if ev.get("t") == "undo":
            words = "undo " + display.describe(m, self.book.last()) + "?"
        else:
            words = display.ask(m, ev)
        p = Pending(P_LINK, ev, words, now=now)
        p.answer = answer
        p.aside = note or None
        p.pid = pid
        self.pending = p
        self._link_t = now
        self.changes += 1
        return True

    def withdraw_link(self, now=None):
        """The laptop cancelled its proposal: it stops waiting for OK (nothing to answer)."""
        if self.pending is not None and self.pending.kind == P_LINK:
            self.pending = None
            self._link_t = now
            self.changes += 1

    def _confirm(self, now):
        p = self.pending
        self.pending = None
        if p is None:
            return
        if p.kind == P_GUARD or p.ev.get("t") == "_new":
            # (a laptop's new match at a table brings its set-up: board/link/table.py)
            setup = p.ev.get("setup") if p.ev is not None else None
            try:  # the flash can fail here too: said, and the match in force stays (Commit.new_match)
                if p.kind == P_GUARD and p.choice == 1:
                    self.settings.reset()
                if setup is None:
                    setup = setup_of(self.settings)
                    if self.settings["solo"]:
                        from board.controller import solo  # against the board: the deal's seed, sealed

                        setup = solo.setup_of(self, setup, p.side if p.kind == P_GUARD else -1)
                self.book.new_match(setup)
                self.advising = None  # the advice, or the board's play: made again as the match asks
            except (CribError, OSError) as e:
                self.say(*display.wrap(str(e.args[0]) if isinstance(e, CribError) else "Flash error"))
                if p.answer is not None:
                    p.answer(False, self.message[0], p.pid)
                return
            if p.answer is not None:
                p.answer(True, None, p.pid)
            self.skip = None
            if p.kind == P_GUARD:
                self.entry.reset()
                self.say(GUARD_CHOICES[p.choice] + ":", "done")
            return
        if p.ev.get("t") == "skip":
            # Back one level: from the show to the play on the holes (no starter yet), else none. The
            # next UNDO undoes the last event (-1: no skip to undo alone).
            m = self.book.match
            sk = self.skip
            back = 1 if sk is not None and sk[2] == 2 and m.starter is None else 0
            self.skip = (sk[0], sk[1], back, -1) if sk is not None and back else None
            if back or m.starter is not None:
                self.say("Peg the play" if back else "The play again")
            return  # back at the starter the prompt says it ("Starter? OK=skip" showed twice)
        done = self.commit(p.ev)
        if p.answer is not None:
            p.answer(done is not None, self.message[0] if done is None else None, p.pid)
        if done is not None and done.get("t") != "undo":
            self.pending = deal.muggins(self.book.match) or self.pending  # the points a show missed

    def commit(self, ev, keep=False):
        """Commit ev (board/store/commit.py); a refusal goes on the display and changes nothing."""
        try:
            done = self.book.apply(ev)
        except CribError as e:
            self.say(*display.wrap(str(e.args[0]) if e.args else "refused"))
            if not keep:
                self.entry.reset()
            return None
        if self.book.warning:
            self.say(self.book.warning, "but saved")  # the record landed before its error: in force
        self.entry.reset()
        return done
