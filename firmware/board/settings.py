# Board settings (brightness, peg winks, auto-OK, play, match set-up, sides, watchdog, sound), saved deferred.
# Saved as one JSON object in storage_dir/settings.json through a temp file and a rename (WLED's
# lesson: never edit a file in place on flash). A change only marks the settings dirty; the app's
# save task writes them after quiet_ms so a run of menu presses costs one flash write (aioble's
# deferred save). A file with an unknown version or a bad value is reported and the defaults kept.
import json
import os

from board.ticks import diff

VERSION = 1

# name -> (default, allowed values); the menu (board/controller/menu.py) cycles through the allowed values
# in this order.
SPEC = {
    "brightness": (96, (16, 32, 64, 96, 128, 192, 255)),
    "cue": (False, (False, True)),  # peg winks: each side's front peg winks its side's number (render.CUE)
    "auto_ok_ms": (0, (0, 2000, 4000, 8000)),  # 0: a proposal waits for OK
    "play": (True, (True, False)),  # the play assistant: lay cards on the keypad
    "form": ("six", ("six", "six61", "three", "four", "five")),
    "fmt": ("acc", ("acc", "points", "games", "lurch")),  # docs/rules.md: ACC is the default
    "games": (3, (1, 3, 5, 7, 9)),
    "to": (5, (3, 5, 7, 9)),
    "muggins": (False, (False, True)),
    "three": ("all", ("all", "cont")),
    "tracks": (0, (0, 1, 2)),  # which tracks the sides use when a game has fewer sides than tracks
    "watchdog": (False, (False, True)),
    "advice": (False, (False, True)),  # discard advice (held MENU before the starter; controller/advising.py)
    "sound": (False, (False, True)),  # the board file's piezo: a beep a point, a tune (board/sound.py)
    "large": (False, (False, True)),  # large print: scores, counts and points in big digits (board/large.py)
    "solo": (0, (0, 1, 2, 3)),  # against the board: off, or the board's level (cribbage.solo.LEVELS, from 1)
}
MATCH_SETTINGS = ("form", "fmt", "games", "to", "muggins", "three", "solo")  # used at the next new match
ORDER = (
    "brightness",
    "cue",
    "auto_ok_ms",
    "play",
    "form",
    "fmt",
    "games",
    "to",
    "muggins",
    "three",
    "tracks",
    "watchdog",
    "advice",
    "sound",
    "large",
    "solo",
)


def defaults(board=None):
    """Every setting's default; board: a dict of the board file's own defaults over SPEC's."""
    d = {name: SPEC[name][0] for name in ORDER}
    if board:
        d.update(board)
    return d


def check(name, value):
    """Why value is not allowed for setting name, or "" when it is."""
    if name not in SPEC:
        return "unknown setting %r" % (name,)
    allowed = SPEC[name][1]
    for a in allowed:
        if value == a and type(value) is type(a):
            return ""
    return "%s must be one of %s, not %r" % (name, ", ".join([str(a) for a in allowed]), value)


def tracks_for(sides, choice, track_count):
    """The physical track of each side: choice 0 uses the first tracks, 1 skips track 2, 2 skips 1."""
    if sides >= track_count:
        return tuple(range(sides))
    options = ((0, 1), (0, 2), (1, 2)) if track_count == 3 else ((0, 1),)
    return options[choice % len(options)]


class Settings:
    quiet_ms = 3000  # write this long after the last change

    def __init__(self, path=None, board=None):
        self.path = path  # None: not persisted (tests)
        self.board = board  # the board file's defaults ({"large": True}), kept by a reset too
        self.values = defaults(board)
        self.dirty = False
        self._changed_at = 0
        self.problem = ""  # what was wrong with the saved file, for the log

    def __getitem__(self, name):
        return self.values[name]

    def set(self, name, value, now=0):
        """Change one setting (refused with ValueError and nothing changed when not allowed)."""
        why = check(name, value)
        if why:
            raise ValueError(why)
        if self.values[name] != value:
            self.values[name] = value
            self.dirty = True
            self._changed_at = now

    def cycle(self, name, now=0):
        """The next allowed value of a setting (the menus' OK); returns it."""
        allowed = SPEC[name][1]
        i = 0
        for k, a in enumerate(allowed):
            if a == self.values[name]:
                i = k
        value = allowed[(i + 1) % len(allowed)]
        self.set(name, value, now)
        return value

    def load_saved(self):
        """Read the saved settings; anything unreadable keeps the defaults and says why in .problem."""
        self.values = defaults(self.board)
        self.problem = ""
        if not self.path:
            return self
        try:
            with open(self.path) as f:
                data = json.load(f)
        except OSError as e:
            if e.args[0] != 2:  # not ENOENT (never saved): the flash would not read it
                self.problem = "settings unreadable (flash error %d): defaults used" % e.args[0]
            return self
        except ValueError:
            self.problem = "settings file unreadable: defaults used"
            return self
        if not isinstance(data, dict) or data.get("v") != VERSION:
            self.problem = "settings version %r unknown: defaults used" % (
                data.get("v") if isinstance(data, dict) else None,
            )
            return self
        for name in ORDER:
            if name in data:
                why = check(name, data[name])
                if why:
                    self.problem = why + ": default used"
                else:
                    self.values[name] = data[name]
        return self

    def reset(self):
        """Every setting back to its default, saved now (the guarded "reset board")."""
        self.values = defaults(self.board)
        self.dirty = True
        self.save()

    def due(self, now):
        """True when a deferred save should happen now."""
        return self.dirty and diff(now, self._changed_at) >= self.quiet_ms

    def save(self):
        self.dirty = False
        if not self.path:
            return
        data = {"v": VERSION}
        for name in ORDER:
            data[name] = self.values[name]
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps(data))
        os.rename(tmp, self.path)  # atomic on littlefs and POSIX: the old file or the new one
