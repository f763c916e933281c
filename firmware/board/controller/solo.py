# Against the board on the board: the player's keys, the board's moves in turn, what the display shows.
"""Loaded when the match in force is against the board or at a remote table (Controller.tick), never at
boot: with it come cribbage.solo, and with the board's first decision cribbage.opponent (at a table,
cribbage.table instead: its cards come over the link, board/link/table.py; docs/memory.md). The Solo it
makes takes the controller's `advising` place, the plug-in that takes the keys while `on`: the
controller hands it each key (handle), each pass (tick), and the display asks it for its rows (rows).
It writes none of the controller's fields: it keys cards into the controller's entry and asks say(),
commit() and the controller's own OK and menu for the rest. The keys are docs/keys.md's ("Against
the board"); the board's sealing key is a file beside the journal (KEY), never in it.
"""

import os
import sys

from board import _drop, display
from board.controller.entry import DIGIT_RANKS
from board.ticks import diff
from cribbage import const, solo
from cribbage.cards import RANKS, SUITS, format_card, pip
from cribbage.deal import new_seed
from cribbage.show import score_show

KEY = "solo.key"  # beside the journal: the board's sealing key (16 bytes)
_PAUSE_MS = const(900)  # the board waits this long before each of its moves, so the last one can be read


def key(c, make=False):
    """The board's sealing key read from flash, or None; with make, one made (os.urandom) and written
    when there is none (a temp file renamed: a power cut leaves none or the whole key)."""
    path = c.book.journal.path
    path = path[: path.rfind("/") + 1] + KEY
    try:
        with open(path, "rb") as f:
            k = f.read()
        if len(k) == 16:
            return k
    except OSError:
        pass
    if not make:
        return None
    k = os.urandom(16)
    with open(path + ".tmp", "wb") as f:
        f.write(k)
    os.rename(path + ".tmp", path)
    return k


def setup_of(c, setup, seed=-1):
    """The new match's set-up against the board at the settings' level: the seed keyed at the guarded
    new match (seed_key), else a fresh one; sealed."""
    seed = seed if seed >= 0 else new_seed()
    setup["solo"] = solo.make(solo.LEVELS[c.settings["solo"] - 1], seed, key(c, True), new_seed())
    setup["names"][solo.BOARD] = "Board"
    return setup


def seed_key(c, p, r):
    """A rank key at the guarded new match, the setting against the board on: a digit of the seed the
    match deals from (A=1..9, T=0; p.side holds it, -1 while none is keyed), so a match can be dealt
    again: the same seed and the same choices deal and play the same match (docs/keys.md)."""
    n = (p.side if p.side > 0 else 0) * 10 + (r + 1) % 10
    why = ""  # (the question stands over any message: a refusal is said in it)
    if r >= DIGIT_RANKS:
        why = " (A=1..9, T=0)"
    elif n > solo.TOP:
        why = " (too big)"  # (seeds are 0 .. 2**30 - 1)
    else:
        p.side = n
    q = "new match, seed %d?" % p.side if p.side >= 0 else "new match?"
    p.note = c.book.note(q + why)


def drop_throw():
    """Forget what only the board's throw needs, the advice and its tables (14 KB of the Pico's heap with
    the code in RAM), once the board has thrown: they go back to the heap at the next gc, so the play and
    the show keep that room, and load again at the next throw (docs/memory.md, "Loaded when first
    used"). Not while the advising plug-in (loaded by a match before) holds the advice: a second copy
    would come."""
    if "board.controller.advising" in sys.modules:
        return
    from cribbage import opponent  # (loaded by the throw)

    opponent._advisor = None
    _drop("cribbage.advice", "cribbage.cribtables", "cribbage.showtotal", "cribbage.showtables")


def start(c):
    """The plug-in for a match against the board. On MicroPython the link's names are interned first, its
    code loaded and forgotten at once, unless the link runs already: a laptop plugged in during or after
    the game then finds its names in place. Interned later, they take a new name pool, one 7.7 KB block
    on the Pico, which a game's heap, in pieces after the throws' tables came and went, does not always
    have: the link would not load and the game could not be synced ([link names] docs/memory.md)."""
    if sys.implementation.name == "micropython" and "board.link" not in sys.modules:
        fresh = [m for m in ("board.jsonscan", "board.link.pages", "board.link") if m not in sys.modules]
        try:
            __import__("board.link")
        except MemoryError:
            pass  # (the game goes on: the link will try again at a laptop's first line)
        _drop(*fresh)
    return Solo(c.settings)


class Solo:
    """The board's side of a match against it, and the player's keys (docs/keys.md)."""

    rank = -1  # (the display pages the advice's ranked options when >= 0: never here)

    def __init__(self, settings):
        self.settings = settings  # (large print: the player's cards big, read at arm's length)
        self.on = True
        self.t = None  # when the board's next move came due (ticks), None while the player is to act
        self.lost = False  # the key to the match's seal is not on this board
        self.news = []  # what was done last in the deal, in the play's words (the rows show it)
        self.reading = False  # a count on the display in the show: the board waits for a key

    def start(self, match):
        """Held MENU before the starter asks for the advice: not against the board."""

    def show(self, match):
        return None  # (no kept hand to score at OK: the board counts every hand)

    # ---- each pass: the board's move, once due ------------------------------------------------------

    def tick(self, c, now):
        """Each pass (Controller.tick): the board's move once due; -> True when the display is to show
        something new."""
        m = c.book.match
        if "solo" not in m.setup:
            self.on = False  # a new match, not against the board
            return False
        if solo.game_seed(m) is None and not self.lost and m.setup["solo"][0] != "table":
            # After a boot: the seed given back by the key (the journal holds it sealed). (At a table
            # the cards come from the table, over the link: board/link/table.py.)
            k = key(c)
            if k is None:
                self.lost = True
                c.say("No solo key:", "hold MENU+UNDO", "for a new match")
                return True
            solo.register(m.setup["solo"], solo.unseal(m.setup["solo"], k))
        if self.lost or c.pending is not None or c.menu >= 0:
            return False
        phase = m.phase()
        was = self.reading
        self.reading = bool(c.message) and phase == "show"
        if self.reading:
            # A count being read: the next waits for a key (or the message to fade); the prompt says so.
            return not was
        if c.entry.active():
            # The player is keying their throw: the board's own throw waits for it, as its commit would
            # clear the cards keyed so far (Controller.commit).
            self.t = None
            return False
        if not solo.due(m):
            self.t = None
            if phase == "deal":
                self.news = []  # the deal is counted: its play is not the next deal's news
            return False
        if self.t is None:
            self.t = now
            return True  # the prompt says the board is to move
        if diff(now, self.t) < _PAUSE_MS:
            return False
        self.t = None
        count = m.play.count if m.play is not None else 0
        try:
            ev = solo.next_move(m)  # the opponent's code and tables load with its first decision
        except MemoryError:
            self.t = now  # tried again after a pause; nothing changed
            c.say("Out of memory:", "the board cannot", "move yet")
            return True
        if isinstance(ev, dict) and ev["t"] == "throw":
            drop_throw()
        done = c.commit(ev) if ev is not None else None
        if done is not None:
            self._tell(c, m, done, count)
        return True

    def _tell(self, c, m, done, count):
        # What the board did: a count and the seed as a message (paged), the rest in the rows (news).
        t = done["t"]
        news = None
        if t == "lay":
            news = display.play_lines(m, done["p"], done["c"], count + pip(done["c"]))
        elif t == "go":
            news = display.play_lines(m, done["p"], -1, count)
        elif t == "show":
            c.say(*display.show_lines(m, done))
        elif t == "throw":
            news = ["%s threw 2" % m.names[solo.BOARD]]
        elif t == "starter":
            news = ["starter " + format_card(done["c"]) + (" heels +2" if m.last_pegs else "")]
        elif t == "dealer":
            news = ["%s deals" % m.names[done["p"]]]
        elif t == "muggins":
            c.say("%s: muggins" % m.names[solo.BOARD], "+%d" % done["n"])
        elif t == "seed":
            # (with it a laptop can check the game's deals; with the match's, keyed, it is dealt again)
            n = solo.match_seed(m) if m.match_over else None
            c.say("Game's seed:", str(done["n"]), *(() if n is None else ("Match's seed:", str(n))))
        if news is not None:
            self.news = news
            if m.game_over:
                c.say(*news)  # the winning point: who won, at once
            else:
                c.say()  # a message standing ("new match: done") gives way: the rows say it

    # ---- the player's keys ----------------------------------------------------------------------

    def handle(self, c, name, released):
        """A key (c: the controller): pressed (released False), or MENU/UNDO released."""
        m = c.book.match
        e = c.entry
        if released:
            if name == "MENU":
                c._open()  # the menu, as anywhere (the guarded new match among its ways out)
            elif e.active():
                e.backspace()
            else:
                c.say("No undo against", "the board")
            return
        phase = m.phase()
        mine = self._mine(m, phase)
        if name == "OK":
            if phase in ("deal", "game over", "match over"):
                if solo.due(m):
                    return  # the game's seed is told first (the key cleared the count): the journal
                    # keeps it for the laptop's check, and the next game or match would skip it
                c._ok(c.now)  # the next deal or game, or a new match (the controller's own OK)
            elif mine and phase == "starter":
                self._throw(c, m)
            elif mine and phase == "show":
                self._claim(c, m)
            elif phase == "show":
                pass  # the count read (the key cleared it): the board counts the next
            else:
                c.say("The board", "is to move")
            return
        r = RANKS.find(name) if len(name) == 1 else -1
        s = SUITS.find(name) if len(name) == 1 else -1
        if not mine or r < 0 and s < 0:
            if r >= 0 or s >= 0:
                c.say("The board", "is to move")
            return
        if phase == "show":  # the player's count of their hand or crib (muggins): digits
            refused = e.rank_key(r) if r >= 0 else ("Digits: A=1..9", "T=0")
            if refused:
                c.say(*refused)
            return
        if r >= 0:
            e.rank_key(r, True)
            return
        card, refused = e.suit_key(s)
        if refused:
            c.say(*refused)
        if card < 0:
            return
        held = solo.held(m, 0)
        if card not in held:
            e.backspace()  # the card just keyed
            c.say(format_card(card) + " is not", "in your hand")
        elif phase == "play":
            count = m.play.count + pip(card)
            if c.commit({"t": "lay", "p": 0, "c": card}):
                self.news = display.play_lines(m, 0, card, count)
                if m.game_over:
                    c.say(*self.news)
        elif len(e.cards) > 2:
            e.backspace()
            c.say("2 to the crib:", "OK throws them")

    def _mine(self, m, phase):
        # Whether the player is to act now: their throw, a lay (a card of theirs fits), their count.
        if solo.dealt(m) is None or m.muggins_due is not None:
            return False
        if phase == "starter":
            return m.dealer is not None and not solo.thrown(m)[0]
        if phase == "play":
            play = m.play
            if m.play_seats[play.turn] != 0:
                return False
            for x in solo.held(m, 0) or ():  # noqa: SIM110 (any() of a generator allocates)
                if play.count + pip(x) <= 31:
                    return True
            return False
        return phase == "show" and m.muggins and m.next_show()[0] == 0

    def _throw(self, c, m):
        cards = c.entry.cards
        if len(cards) != 2:
            c.say("Key 2 cards", "for the crib")
            return
        d = solo.dealt(m)
        assert d is not None  # (the player is to throw: the match is told its seed)
        hand = list(d[0][0])
        c.commit(solo.throw(0, [hand.index(x) for x in cards]))

    def _claim(self, c, m):
        side, kind = m.next_show()
        cards = solo.crib(m) if kind == "crib" else solo.kept(m, 0)
        n = c.entry.number()
        if n < 0:
            n = score_show(cards, m.starter, kind == "crib", m.five).total  # OK alone: the board's count
        done = c.commit({"t": "show", "s": side, "k": kind, "cards": cards, "claim": n})
        if done is not None:
            c.say(*display.show_lines(m, done))

    # ---- the display ------------------------------------------------------------------------------

    def rows(self, match, entry, context):
        """(body rows, hint) for the display: the player's cards and what to key."""
        m = match
        if "solo" not in m.setup or self.lost:
            return None
        held = solo.held(m, 0)
        if held is None:
            return None
        phase = m.phase()
        mine = self._mine(m, phase)
        body = []
        hint = None
        news = self.news[:1]
        large = display.large_print(self.settings)
        if phase == "starter":
            held = sorted(held)
            body = [display.cards_text(held[:3]), display.cards_text(held[3:])]
            # large print: three cards a row in 16 x 24 px, the news left out for them
            body = [large.big(r) for r in body] if large else news + body
            if mine:
                keyed = display.cards_text(entry.cards)
                body.append("crib: " + keyed + ("_" if len(entry.cards) < 2 else ""))
                hint = "key 2, OK=throw"
        elif phase == "play":
            play = m.play
            now = play.current[-3:]
            count = "%d: " % play.count + display.cards_text(now) if now else "count 0"
            if large:
                # the hand big on top (three cards 16 x 24 px, four 8 x 24), the count and the last move
                # under it (a body led by "count" would be that count alone, big: board/large.py)
                body = [large.big(display.cards_text(sorted(held)))] if held else []
                body += [count] + self.news[:1]
            else:
                body = self.news[:2] + [count, "hand " + display.cards_text(sorted(held))]
            if mine:
                hint = "%s lays: a card" % m.names[0]
        elif phase == "show" and not mine and not m.shown:
            body = self.news[:2]  # the play's last card and what it scored, until the first count
        elif phase == "match over" and solo.match_seed(m) is not None:
            # The match's seed stays on its result, not only in the message that told it (which any
            # key clears, OK at the win's count too): so the match can be keyed and dealt again.
            body = display.result_lines(m)[: display.ROWS - m.sides - 3] + ["seed %d" % solo.match_seed(m)]
        elif phase == "show" and mine:
            side, kind = m.next_show()
            body = ["your %s? digits" % kind, "OK alone: count"]
            if entry.digits or entry.rank >= 0:
                body.append("= %d" % entry.number())
            hint = "OK=claim"
        if not mine and (solo.due(m) or m.setup["solo"][0] == "table"):
            # (while a count is read the board waits: a key, or the count fading, goes on; at a table the
            # other seat is to move while the board waits for the table)
            hint = "OK = next count" if self.reading else "%s to move" % m.names[solo.BOARD]
        return (body, hint) if body or hint else None
