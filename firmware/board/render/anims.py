# Short LED animations (game won, skunk, a 29 hand, the stink hole) drawn as a pure function of time.
# Each is drawn over the ordinary frame by render.py for `duration` ms after it starts; the frame at
# any moment depends only on the elapsed time, so the app's loop never waits for an animation.
from cribbage import const

WIN = const(1)  # side = winner
SKUNK = const(2)  # side = winner, arg = loser + 4 * skunk line (91 or 61 or 31)
H29 = const(3)  # side = whose 29 hand
STINK = const(4)  # side = whose front peg sits in hole 120
ALL = (WIN, SKUNK, H29, STINK)
NAMES = {WIN: "game won", SKUNK: "skunk", H29: "29 hand", STINK: "stink hole"}

FRAME_MS = const(40)  # 25 frames a second
_COMET_MS = const(1500)
_COMET_TAIL = const(8)
_DURATION = (0, 2000, 3000, 2000, 1500)


def duration(kind):
    return _DURATION[kind]


def _dim(render, led, r, g, b, level):
    # level in 1/256ths of the colour, times the brightness setting
    k = level * render.bright
    render.put(led, r * k >> 16, g * k >> 16, b * k >> 16)


def _comet(render, side, t):
    track = render.board.led_track[side]
    head = 1 + t * 120 // _COMET_MS
    c = render.board.colours[side]
    for k in range(_COMET_TAIL):
        hole = head - k
        if 1 <= hole <= 120:
            _dim(render, track[hole - 1], c[0], c[1], c[2], 256 - k * 32)


def draw(render, kind, side, arg, t):
    """Draw animation kind for side, t ms after it started, over the frame already drawn."""
    board = render.board
    if kind in (WIN, SKUNK):
        if t < _COMET_MS:
            _comet(render, side, t)
        elif (t // 125) & 1:
            render.put(board.led_game, 0, 0, 0)  # the game hole winks as the comet lands
        if kind == SKUNK and t >= _COMET_MS and (t // 250) & 1 == 0:
            loser = arg & 3
            line = arg >> 2
            front = render.front(loser)
            track = board.led_track[loser]
            for hole in range(max(front, 0) + 1, min(line, 121)):
                _dim(render, track[hole - 1], 255, 255, 255, 40)  # how far short they stopped
    elif kind == H29:
        track = board.led_track[side]
        step = t // FRAME_MS
        for hole in range(1 + step % 4, 121, 4):
            _dim(render, track[hole - 1], 255, 170, 0, 160)
    elif kind == STINK:
        track = board.led_track[side]
        if (t // 125) & 1:
            _dim(render, track[119], 110, 140, 0, 256)
        for hole in range(116, 120):
            _dim(render, track[hole - 1], 60, 80, 0, 96)


def earned(match, done, was_over):
    """The animation an applied event earned -> (kind, side, other side, skunk line) or None."""
    m = match
    if m.game_over and not was_over and m.winner is not None:
        for s in range(m.sides):
            label = m.skunk[s]
            if label:
                # how far short the loser stopped: 30 or 60 points below the target, or half of it
                line = m.target // 2 + 1 if label == "lurch" else m.target - (30 if label == "skunk" else 60)
                return SKUNK, m.winner, s, line
        return WIN, m.winner, m.winner, 0
    if done.get("t") == "show" and done.get("n") == 29:
        return H29, done["s"], done["s"], 0
    for side, _n, _why in m.last_pegs:
        if m.front[side] == 120 and m.target == 121:
            return STINK, side, side, 0
    return None
