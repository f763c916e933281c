# Scripts for the simulator (--script FILE): timed key presses, hole taps and expectations, parsed up front.
#
# One step a line, `#` starts a comment. A line may start with a delay: `+MS` waits MS ms of sim time
# after the previous line has finished (its keys released), `@MS` waits until MS ms after the start.
#   key NAME...            press board keys one after another: A 2..9 T J Q K S H D C OK UNDO MENU
#                          (10 is T; case does not matter)
#   cards 5H JD TS ...     each card as its rank key then its suit key
#   hold NAME... MS        hold keys together for MS ms (a long press; MENU UNDO 2000 = guarded reset)
#   tap SIDE HOLE          tap a hole: SIDE is a side's name (red) or number from 1; HOLE 1..120,
#                          start, or game
#   wait MS                the same as a line holding only +MS
#   wait display TEXT      until the display shows TEXT (a laptop's proposal, say); the next line's
#                          delay counts from then
#   unplug / plug          the sensor chain reads all ones (unplugged) / works again
#   log TEXT               a note in the sim's log
#   laptop LINE            LINE arrives on the USB link as a laptop sends it (a headless run's link)
#   expect display TEXT    the display now shows TEXT somewhere (checked when the line is reached)
#   expect score N N [N]   at the end: each side's front peg in the current game
#   expect game K N N [N]  at the end: the front pegs that finished game K (1..)
#   expect match N N [N]   at the end: match points
#   expect winner SIDE     at the end: the match winner
#   quit                   stop at once, as a power cut: the end-of-script checks are skipped

# Key aliases and the final expectations are written where used: a module-level name is one more
# interned name in the sim ([name budget]).


class ScriptError(ValueError):
    pass


def side_index(token, side_names):
    """A side named by name (red), first letter (r) or number from 1 -> 0-based index."""
    t = token.lower()
    for i in range(len(side_names)):
        name = side_names[i].lower()
        if t == name or t == name[:1]:
            return i
    if t.isdigit() and 1 <= int(t) <= len(side_names):
        return int(t) - 1
    raise ScriptError("no side %r (sides: %s, or 1..%d)" % (token, " ".join(side_names), len(side_names)))


def hole_number(token):
    """1..120 for a track hole, 0 for the start holes, 121 for the game hole."""
    t = token.lower()
    if t in ("start", "s", "0"):
        return 0
    if t in ("game", "g", "121"):
        return 121
    if t.isdigit() and 1 <= int(t) <= 120:
        return int(t)
    raise ScriptError("no hole %r (1..120, start or game)" % (token,))


def key_name(token, key_names):
    name = {"10": "T", "ENTER": "OK", "SCORE": "OK", "BACK": "UNDO"}.get(token.upper(), token.upper())
    if name not in key_names:
        raise ScriptError("no key %r" % (token,))
    return name


def _ints(tokens, n_min, n_max, what):
    if not n_min <= len(tokens) <= n_max:
        raise ScriptError("%s needs %d..%d numbers" % (what, n_min, n_max))
    for t in tokens:
        if not t.isdigit():
            raise ScriptError("%s: %r is not a number" % (what, t))
    return tuple(int(t) for t in tokens)


def parse_line(line, key_names, side_names):
    """One line -> (delay, absolute, verb, args) or None for a blank line; raises ScriptError."""
    line = line.split("#", 1)[0].strip()
    if not line:
        return None
    words = line.split()
    delay, absolute = 0, False
    if words[0][:1] in "+@":
        if not words[0][1:].isdigit():
            raise ScriptError("bad delay %r" % (words[0],))
        delay, absolute = int(words[0][1:]), words[0][:1] == "@"
        words = words[1:]
        if not words:
            return (delay, absolute, "wait", ())
    verb, rest = words[0].lower(), words[1:]
    if verb == "key":
        if not rest:
            raise ScriptError("key needs key names")
        args = tuple(key_name(t, key_names) for t in rest)
    elif verb == "cards":
        keys = []
        for card in rest:
            rank, suit = card[:-1], card[-1:]
            keys.append(key_name(rank, key_names))
            if suit.upper() not in ("S", "H", "D", "C"):
                raise ScriptError("card %r has no suit S H D C" % (card,))
            keys.append(key_name(suit, key_names))
        if not keys:
            raise ScriptError("cards needs cards")
        verb, args = "key", tuple(keys)
    elif verb == "hold":
        if len(rest) < 2 or not rest[-1].isdigit():
            raise ScriptError("hold needs key names and a time in ms")
        args = (tuple(key_name(t, key_names) for t in rest[:-1]), int(rest[-1]))
    elif verb == "tap":
        if len(rest) != 2:
            raise ScriptError("tap needs a side and a hole")
        args = (side_index(rest[0], side_names), hole_number(rest[1]))
    elif verb == "wait" and rest[:1] == ["display"] and len(rest) > 1:
        args = ("display", " ".join(rest[1:]))
    elif verb == "wait":
        delay += _ints(rest, 1, 1, "wait")[0]
        verb, args = "wait", ()
    elif verb in ("unplug", "plug", "quit"):
        args = ()
    elif verb == "log" or verb == "laptop":
        args = (" ".join(rest),)
    elif verb == "expect":
        if not rest:
            raise ScriptError("expect what?")
        what = rest[0].lower()
        n = len(side_names)
        if what == "display":
            text = " ".join(rest[1:])
            if len(text) >= 2 and text[:1] == text[-1:] and text[:1] in "\"'":
                text = text[1:-1]  # quoted, to keep spaces at its ends
            args = ("display", text)
        elif what in ("score", "match"):
            args = (what, _ints(rest[1:], 2, n, what))
        elif what == "game":
            nums = _ints(rest[1:], 3, n + 1, what)
            args = ("game", nums)
        elif what == "winner":
            if len(rest) != 2:
                raise ScriptError("expect winner needs one side")
            args = ("winner", side_index(rest[1], side_names))
        else:
            raise ScriptError("expect %r? (display, score, game, match, winner)" % (what,))
    else:
        raise ScriptError("unknown step %r" % (verb,))
    return (delay, absolute, verb, args)


def parse(text, key_names, side_names, name="script"):
    """A whole script in a string -> list of steps; the error names the file and line."""
    steps = []
    for n, line in enumerate(text.split("\n"), 1):
        step = _parse_at(line, key_names, side_names, name, n)
        if step is not None:
            steps.append(step)
    return steps


def _parse_at(line, key_names, side_names, name, n):
    try:
        return parse_line(line, key_names, side_names)
    except ScriptError as e:
        raise ScriptError("%s:%d: %s" % (name, n, e))


class Script:
    """A script file read a line at a time, so a long match costs the heap one line, not a list.

    The whole file is checked when opened (errors name the line); next() -> the next step or None.
    """

    def __init__(self, path, key_names, side_names):
        self.path = path
        self._keys = key_names
        self._sides = side_names
        self.count = 0  # steps in the file
        self.expects = 0
        for step in self._steps():
            self.count += 1
            if step[2] == "expect":
                self.expects += 1
        self.gen = self._steps()
        self.done = 0  # steps handed out

    def _steps(self):
        with open(self.path) as f:
            n = 0
            while True:
                line = f.readline()
                if not line:
                    return
                n += 1
                step = _parse_at(line, self._keys, self._sides, self.path, n)
                if step is not None:
                    yield step

    def next(self):
        for step in self.gen:
            self.done += 1
            return step
        return None

    def finals(self):
        """The end-of-script expectations: (what, values) pairs (read again from the file)."""
        out = []
        for step in self._steps():
            args = step[3]
            if step[2] == "expect" and args and args[0] in ("score", "game", "match", "winner"):
                out.append(args)
        return out


def check(expects, state, side_names):
    """Compare the end state with the script's expectations -> list of failure messages.

    state: dict with "score" (fronts), "games" (list of fronts per finished game), "match"
    (match points), "winner" (side or None).
    """
    bad = []
    for what, want in expects:
        if what == "score":
            got = tuple(state["score"][: len(want)])
            if got != want:
                bad.append("score %s, expected %s" % (_text(got), _text(want)))
        elif what == "match":
            got = tuple(state["match"][: len(want)])
            if got != want:
                bad.append("match points %s, expected %s" % (_text(got), _text(want)))
        elif what == "game":
            k, want_fronts = want[0], want[1:]
            games = state["games"]
            if k < 1 or k > len(games):
                bad.append("game %d never finished (%d games finished)" % (k, len(games)))
            else:
                got = tuple(games[k - 1][: len(want_fronts)])
                if got != want_fronts:
                    bad.append("game %d ended %s, expected %s" % (k, _text(got), _text(want_fronts)))
        elif what == "winner":
            got = state["winner"]
            if got != want:
                name = side_names[got] if got is not None else "nobody"
                bad.append("match winner %s, expected %s" % (name, side_names[want]))
    return bad


def _text(t):
    return " ".join(str(x) for x in t)
