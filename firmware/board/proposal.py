# What waits for OK (UNDO says no): a proposed peg, an event on the display, the laptop's proposal, the
# guarded reset. Made and resolved by the controller; the display and the LEDs read it.

P_PEG = 1  # a peg proposed by a tap or keyed points: its hole blinks
P_EVENT = 2  # another event (undo, a zero hand, muggins, next match) shown on the display
P_LINK = 3  # an event proposed by the laptop over the link
P_GUARD = 4  # MENU+UNDO held: new match or reset; MENU cycles the choice

GUARD_CHOICES = ("new match", "reset board")


class Pending:
    """ev: the event OK commits (None for the guard); note: its words on the display; side/hole: the
    blinking hole of a peg; t0: when it was proposed (auto-OK, the blink's phase); choice: the guard's
    choice or muggins' points; answer(applied, error): told the outcome of a laptop's proposal."""

    def __init__(self, kind, ev, note, side=-1, hole=0, now=0):
        self.kind = kind
        self.ev = ev
        self.note = note
        self.side = side
        self.hole = hole
        self.t0 = now
        self.choice = 0
        self.answer = None

    def is_muggins(self):
        return self.ev is not None and self.ev.get("t") == "muggins"


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
    p.note = "%s: muggins %d?" % (m.names[p.ev["s"]], p.choice)
