# Pure queries about the deal in force (what keyed cards are for now, whose turn, why a peg scores) and
# the proposals made from it (what waits for OK). Each takes the match (and the settings, and `skip`: how
# far the players went by hand in a deal, see level()), never the controller; the controller decides
# when, and acts on the answers.


def level(m, skip):
    """How far the players went by hand in this deal: 0 not at all, 1 the starter skipped (the play is
    pegged on the holes), 2 on to the show. skip: (game_no, deal_no, level, match.count then)."""
    if skip is None or skip[0] != m.game_no or skip[1] != m.deal_no:
        return 0
    return skip[2]


def context(m, settings, skip):
    """What keyed cards are for now: "cut", "starter", "peg" (the play pegged on the holes, a keyed
    card is still the starter), "lay", "show", or None."""
    ph = m.phase()
    if ph == "cut":
        return "cut"
    lvl = level(m, skip)
    if ph == "starter":
        return "show" if lvl == 2 else "peg" if lvl else "starter"
    if ph == "play":
        return "show" if lvl == 2 or not settings["play"] else "lay"
    if ph == "show":
        return "show"
    return None


def laid_cards(m):
    """Cards the player whose hand counts next laid in this deal's play (the crib: none)."""
    nxt = m.next_show()
    if nxt is None or nxt[1] != "hand" or m.play is None:
        return []
    who = m.next_shower()
    seats = m.play_seats
    return [c for seat, c in m.play.laid if seats[seat] == who]


def default_side(m, ctx):
    """The side keyed points go to unless MENU picks another: the hand counting next, the player to lay."""
    nxt = m.next_show()
    if nxt is not None and (ctx == "show" or ctx == "peg"):
        return nxt[0]  # the hand counting next; the play pegged on the holes: the leader, who shows first
    if m.play is not None and m.play.turn is not None and m.phase() == "play":
        return m.side_of(m.play_seats[m.play.turn])
    return 0


def why(m, side, skip):
    """The reason a peg of side's is journalled with: the show it counts, the play, or manual."""
    ph = m.phase()
    if ph == "show" or (level(m, skip) == 2 and (ph == "starter" or ph == "play")):
        nxt = m.next_show()
        if nxt is not None and nxt[0] == side:
            return nxt[1]
        return "manual"
    if ph == "starter" or ph == "play":
        return "play"
    return "manual"


# ---- what waits for OK (UNDO says no): made and resolved by the controller, read by the display --

P_PEG = 1  # a peg proposed by a tap or keyed points: its hole blinks
P_EVENT = 2  # another event (undo, a zero hand, muggins, next match) shown on the display
P_LINK = 3  # an event proposed by the laptop over the link
P_GUARD = 4  # MENU+UNDO held: new match or reset; MENU cycles the choice

GUARD_CHOICES = ("new match", "reset board")


class Pending:
    """ev: the event OK commits (None for the guard); note: its words on the display; side/hole: the
    blinking hole of a peg; t0: when it was proposed (auto-OK, the blink's phase); choice: the guard's
    choice or muggins' points; answer(applied, error, pid): told the outcome of a laptop's proposal."""

    def __init__(self, kind, ev, note, side=-1, hole=0, now=0):
        self.kind = kind
        self.ev = ev
        self.note = note
        self.side = side
        self.hole = hole
        self.t0 = now
        self.choice = 0
        self.answer = None
        self.aside = None  # a laptop's proposal: the laptop's own note, shown beside the board's words
        self.pid = 0  # a laptop's proposal: its request number on the link (answer names it)


# ---- the proposals, made from the match (pure: the controller decides when) ---------------------


def peg(m, side, n, hole, why, now):
    """A peg of n for side, its hole blinking."""
    ev = {"t": "peg", "s": side, "n": n, "why": why}
    return Pending(P_PEG, ev, "%s +%d %s" % (m.names[side], n, why), side, hole, now)


def muggins(m):
    """The claim of the points a show just missed (the next side claims first), or None."""
    if m.muggins_due is None:
        return None
    missed_by, n = m.muggins_due
    p = Pending(P_EVENT, {"t": "muggins", "s": (missed_by + 1) % m.sides}, "")
    p.choice = n
    _muggins_note(m, p)
    return p


def next_claimant(m, p):
    """MENU on a muggins claim: the next side claims (never the side that missed them)."""
    missed_by = m.muggins_due[0]
    s = (p.ev["s"] + 1) % m.sides
    if s == missed_by:
        s = (s + 1) % m.sides
    p.ev["s"] = s
    _muggins_note(m, p)


def _muggins_note(m, p):
    # "Sophie: muggins 3?" is 18 characters: the name gives way, never the points (the display's 16).
    who = m.names[p.ev["s"]]
    text = "%s: muggins %d?" % (who, p.choice)
    over = len(text) - 16
    p.note = text if over <= 0 else who[: len(who) - over] + text[len(who) :]
