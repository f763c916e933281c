# Game forms, match formats and the set-up of a match: what docs/rules.md makes a setting, checked once.
from cribbage.errors import CribError

# form id -> (players, sides, target, cards in a shown hand, five-card rules)
FORMS = {
    "six": (2, 2, 121, 4, False),
    "six61": (2, 2, 61, 4, False),
    "three": (3, 3, 121, 4, False),
    "four": (4, 2, 121, 4, False),
    "five": (2, 2, 61, 3, True),
}
FORM_NAMES = {
    "six": "six-card to 121",
    "six61": "six-card to 61",
    "three": "three-handed",
    "four": "four-handed partners",
    "five": "five-card to 61",
}
# match format id -> match points for (win, skunk, double skunk); lurch counts as a skunk.
FORMATS = {
    "acc": (2, 3, 3),
    "points": (1, 2, 3),
    "games": (1, 1, 1),
    "lurch": (1, 2, 2),
}
THREE_MODES = ("all", "cont")  # three-handed: winner takes all, or continued play for second place

DEFAULT_GAMES = 3  # ACC qualifying and best-of: games in the match
DEFAULT_TO = 5  # casual and lurch: match points to win
MAX_NAME = 12
# at: when (the board's clock); solo: against the board (cribbage/solo.py)
SETUP_KEYS = ("t", "v", "form", "fmt", "games", "to", "muggins", "names", "three", "at", "solo")
VERSION = 1


def _count(value, what, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise CribError("%s must be a whole number %d..%d, not %r" % (what, lo, hi, value))
    return value


def make_setup(form="six", fmt="acc", games=None, to=None, muggins=False, names=None, three="all", solo=None):
    """The complete set-up dict ({"t": "setup", ...}): the first line of a match journal; with solo, a
    match against the board (cribbage/solo.py, loaded only then)."""
    if form not in FORMS:
        raise CribError("unknown game form %r: one of %s" % (form, ", ".join(sorted(FORMS))))
    if fmt not in FORMATS:
        raise CribError("unknown match format %r: one of %s" % (fmt, ", ".join(sorted(FORMATS))))
    games = _count(DEFAULT_GAMES if games is None else games, "games in the match", 1, 99)
    if fmt == "games" and games % 2 == 0:
        raise CribError("best of N games needs an odd N, not %d" % games)
    to = _count(DEFAULT_TO if to is None else to, "match points to win", 1, 99)
    if muggins not in (True, False):
        raise CribError("muggins is on or off (true/false), not %r" % (muggins,))
    if three not in THREE_MODES:
        raise CribError("three-handed match points: 'all' or 'cont', not %r" % (three,))
    sides = FORMS[form][1]
    if names is None:
        prefix = "T" if form == "four" else "P"
        names = [prefix + str(i + 1) for i in range(sides)]
    if not isinstance(names, (list, tuple)) or len(names) != sides:
        raise CribError("%s needs %d side names, not %r" % (FORM_NAMES[form], sides, names))
    for n in names:
        # Held as the name event holds a new name (checks.name): 1..MAX_NAME printable ASCII, read
        # as bytes (a loop over a str interns each character on MicroPython).
        raw = n.encode() if isinstance(n, str) else b""
        for c in raw:
            if c < 32 or c > 126:
                raise CribError("a name takes letters, digits and ASCII signs only")
        if not 1 <= len(raw) <= MAX_NAME or not n.strip():
            raise CribError("a side name is 1..%d characters, not %r" % (MAX_NAME, n))
    setup = {
        "t": "setup",
        "v": VERSION,
        "form": form,
        "fmt": fmt,
        "games": games,
        "to": to,
        "muggins": muggins,
        "names": list(names),
        "three": three,
    }
    if solo is not None:
        from cribbage import solo as against

        setup["solo"] = against.check(solo, form)
    return setup


def check_setup(setup):
    """A complete set-up from a dict (as read back from a journal line) or None for the defaults."""
    if setup is None:
        return make_setup()
    if not isinstance(setup, dict):
        raise CribError("a set-up is a dict, not %r" % (setup,))
    for key in setup:
        if key not in SETUP_KEYS:
            raise CribError("unknown set-up key %r" % (key,))
    if setup.get("t", "setup") != "setup":
        raise CribError("a set-up has t='setup', not %r" % (setup.get("t"),))
    if setup.get("v", VERSION) != VERSION:
        raise CribError("set-up version %r is not %d: made by another firmware?" % (setup.get("v"), VERSION))
    return make_setup(
        setup.get("form", "six"),
        setup.get("fmt", "acc"),
        setup.get("games"),
        setup.get("to"),
        setup.get("muggins", False),
        setup.get("names"),
        setup.get("three", "all"),
        setup.get("solo"),
    )


def skunk_label(score, target, fmt):
    """How badly a loser with `score` lost: "", "skunk", "double" or "lurch".

    docs/rules.md: End of a game."""
    if fmt == "lurch":
        # Short of half the target: 61 of 121, 31 of 61.
        return "lurch" if score < (target + 1) // 2 else ""
    if target == 121:
        if score < 61:
            return "double"
        return "skunk" if score < 91 else ""
    # 61-point games: skunk below 31, double skunk off.
    return "skunk" if score < 31 else ""


def game_points(fmt, three, places, labels, sides):
    """Match points each side gains from a finished game.

    places: sides in the order they reached the target (one, or two in three-handed continued play);
    labels: skunk label of each side at the moment the winner went out.
    """
    gains = [0] * sides
    winner = places[0]
    if sides == 2:
        loser = 1 - winner
        win, skunk, double = FORMATS[fmt]
        label = labels[loser]
        gains[winner] = double if label == "double" else skunk if label else win
        return gains
    if fmt == "games":
        gains[winner] = 1
        return gains
    # Three-handed (docs/rules.md: Matches and match points): 2 to the first out, +1 if an opponent is
    # skunked (or lurched); with continued play, 1 to second place.
    extra = 0
    for s in range(sides):
        if s != winner and labels[s]:
            extra = 1
    gains[winner] = 2 + extra
    if three == "cont" and len(places) > 1:
        gains[places[1]] = 1
    return gains


def both_double(winner, labels):
    """Three-handed continued play: second place scores nothing if both opponents are double skunked."""
    return all(not (s != winner and labels[s] != "double") for s in range(len(labels)))


def match_decided(fmt, games, to, points, wins, played, last_winner):
    """(over, winner side or None) after `played` finished games with these match points and wins.

    ACC level after its fixed games: no winner (a draw). First to N: when two sides pass N in the
    same game (three-handed continued play), the winner of that game takes the match.
    """
    best = max(points)
    leaders = [s for s in range(len(points)) if points[s] == best]
    if fmt == "games":
        need = games // 2 + 1
        for s in range(len(wins)):
            if wins[s] >= need:
                return True, s
        return False, None
    if fmt == "acc":
        if played >= games:
            return True, leaders[0] if len(leaders) == 1 else None
        return False, None
    if best >= to:
        if len(leaders) > 1 and last_winner in leaders:
            return True, last_winner
        return True, leaders[0] if len(leaders) == 1 else None
    return False, None


def leader_of(points):
    """The side ahead on match points, or None when level (a match stopped early)."""
    best = max(points)
    leaders = [s for s in range(len(points)) if points[s] == best]
    return leaders[0] if len(leaders) == 1 else None
