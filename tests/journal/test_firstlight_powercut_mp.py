# Power cuts and the first light (board/render/firstlight.py), on real littlefs: a board's session (scores,
# an ack, a compaction, a new match, its cut and a score) cut at every flash program and erase (whole, and
# half done). After each cut the first light, from the seq mark alone, lights nothing or exactly the pegs
# of the match the next boot replays from the journal, in the colours the app draws them; never another
# state's pegs.
import gc

import lfsjournal as lfs
import vfs
from cutblockdev import CutBlockDev
from scenario import Scenario, lit_rgb

from board.render import firstlight

BLOCK_COUNT = 24
MOUNT = "/flcut"
SCRIPT = (
    ("peg", 1, 7),
    ("peg", 0, 12),
    ("ack",),
    ("peg", 1, 5),
    ("compact",),
    ("peg", 0, 3),
    ("new",),
    ("dealer",),
    ("peg", 1, 4),
)


class _Leds:
    def __init__(self):
        self.frames = []

    def write(self, frame):
        self.frames.append(bytes(frame))


class _Hal:
    """What the first light asks of the HAL's module (hal.rp2): its LED chains and its storage."""

    STORAGE = MOUNT

    def __init__(self):
        self.leds = _Leds()

    def make_leds(self, board_def):
        self.leds.write(bytes(3 * board_def.led_count))  # dark, as hal.rp2's are made
        return self.leds


def _run(s, steps):
    """The script's steps on the board s: the Commit's calls the controller and the link make."""
    book = s.app.book
    for step in steps:
        if step[0] == "peg":
            book.apply({"t": "peg", "s": step[1], "n": step[2], "why": "manual"})
        elif step[0] == "dealer":
            book.apply({"t": "dealer", "p": 1})
        elif step[0] == "ack":
            book.journal.ack(book.journal.next_seq - 1)
        elif step[0] == "compact":
            book._compact()
        else:
            book.new_match(s.app.match.setup)


def _first_light(board):
    """The frame the first light wrote, or None when it wrote only the dark one."""
    hal = _Hal()
    frames = firstlight.show(board, hal).frames
    return frames[-1] if len(frames) > 1 else None


def _pegs(s):
    """{LED: (r, g, b)} of the pegs the booted board s shows, as its renderer colours them."""
    a = s.app
    a.draw(s.hal.now)
    r = a.render
    out = {}
    m = a.match
    for side in range(m.sides):
        t = a.tracks()[side]
        for level, hole in ((0, m.front[side]), (1, m.back[side])):
            o = 12 * t + 3 * level
            out[r.hole_led(t, hole, level)] = (r.colours[o], r.colours[o + 1], r.colours[o + 2])
    return out


def test_the_first_light_after_a_power_cut_at_every_flash_operation_is_the_journals_pegs_or_nothing():
    dev = lfs.fresh(BLOCK_COUNT, MOUNT)
    s = Scenario(storage_dir=MOUNT)
    s.keys("A OK")  # the dealer cut
    s.app.journal.close()
    image = bytes(dev.mem)
    # the uncut session: how many flash operations it makes
    dev = CutBlockDev(lfs.BLOCK_SIZE, BLOCK_COUNT, bytearray(image))
    lfs.mount(dev, MOUNT)
    s = Scenario(storage_dir=MOUNT)
    dev.reset_counts()
    _run(s, SCRIPT)
    ops = dev.ops
    s.app.journal.close()
    booted = Scenario(storage_dir=MOUNT)
    assert lit_rgb(_first_light(s.board)) == _pegs(booted), "the uncut session"
    booted.app.journal.close()
    lit = dark = 0
    for half in (False, True):
        for k in range(ops):
            gc.collect()
            dev = CutBlockDev(lfs.BLOCK_SIZE, BLOCK_COUNT, bytearray(image))
            lfs.mount(dev, MOUNT)
            s = Scenario(storage_dir=MOUNT)
            dev.reset_counts()
            dev.cut_after = k
            dev.half = half
            try:
                _run(s, SCRIPT)
            except Exception:
                if not dev.dead:
                    raise
            try:
                s.app.journal.close()
            except OSError:
                pass
            dev = CutBlockDev(lfs.BLOCK_SIZE, BLOCK_COUNT, dev.mem)  # power back
            lfs.mount(dev, MOUNT)
            label = "cut at op %d of %d (half %s)" % (k + 1, ops, half)
            frame = _first_light(s.board)
            booted = Scenario(storage_dir=MOUNT)
            if frame is None:
                dark += 1
            else:
                lit += 1
                assert lit_rgb(frame) == _pegs(booted), label
            booted.app.journal.close()
    vfs.umount(MOUNT)
    assert lit and dark, (lit, dark)
    print(
        "first light after a cut at each of %d operations x 2: %d lit the journal's pegs, %d dark"
        % (ops, lit, dark)
    )
