# The board application: the wiring (HAL, Commit, controller, render, display, link), the view drawn from
# the match, and the asyncio tasks. Decisions are the controller's, commits board/store/commit.py's.
"""Entry points (the HAL engineer's main.py and the simulator call these):

    from board import app
    a = app.App(hal, board_def, settings=None)  # builds everything, replays the journal
        hal        a HAL from hal.rp2.make / sim.hal.make (docs/hal.md)
        board_def  boardfile.load(...) result
        settings   a board.settings.Settings, or None: loaded from hal.storage_dir/settings.json
    app.run(a)                                  # blocks: asyncio tasks until the app stops
    a.step(now_ms)                              # one deterministic pass: scan, apply, save, draw
    a.scan(now_ms); a.apply(now_ms); a.draw(now_ms); a.save(now_ms)   # the parts, as the tasks run them
    a.match                                     # the cribbage.game.Match in force (read only)
    a.book, a.journal, a.settings, a.controller, a.render

Tests (tests/board/test_board_*.py) and `make sim --script` drive App.step with a hand-advanced clock;
run() runs the same parts as asyncio tasks: scan+apply and the link every scan_ms, draw every
frame_ms, save every save_ms. No task exists before asyncio.run; a new event loop is made in
`finally` so a soft reboot starts clean (Hinch's app skeleton).
"""

import asyncio
import gc

from board import display, edges, render
from board.controller import Controller
from board.edges import sensors
from board.edges.keys import Keys
from board.render import anims
from board.render.power import Limiter
from board.settings import Settings, tracks_for
from board.store.commit import Commit, setup_of
from board.store.journal import Journal

# MicroPython only (gc.mem_free is its API): a collect at calm points keeps the heap tidy there, and
# CPython's collector needs no help (a full collect per event would only slow the tests).
_CALM_GC = hasattr(gc, "mem_free")

FIRMWARE = "0.1.0"
JOURNAL = "/journal.log"
SETTINGS = "/settings.json"


class App:
    scan_ms = 5
    frame_ms = 20
    save_ms = 100

    def __init__(self, hal, board_def, settings=None):
        self.hal = hal
        self.board = board_def
        self.now = hal.ticks_ms()
        if settings is None:
            settings = Settings(hal.storage_dir + SETTINGS, {"large": board_def.large_print}).load_saved()
        self.settings = settings
        if settings.problem:
            hal.log(settings.problem)
        self.ring = edges.Ring(32)
        self.keys = Keys(len(board_def.key_names), self.ring)
        self.sensors = sensors.from_board(board_def, self.ring)
        self._raw = bytearray(board_def.sensor_bits // 8)
        self.render = render.Render(board_def, Limiter(board_def.wiring.power, board_def.led_count))
        self.journal = Journal(hal.storage_dir + JOURNAL)
        log = hal.log  # one bound method for both
        self.book = Commit(self.journal, setup_of(settings), log, self._committed)
        self.match = self.book.match  # one object for the app's life: the Commit refills it in place
        clock = getattr(hal, "time", None)  # a HAL that knows the time of day (the sim: its host's)
        if clock is not None:
            self.book.now = self.now  # the boot's new match is stamped before the first pass sets it
            self.book.clock[0] = clock()
            self.book.clock[1] = self.now
        self._tracks = tracks_for(2, 0, board_def.sides)
        self._tracks_key = -1
        # (the discard advice's code is loaded the first time it is asked for: Controller._long)
        self.controller = Controller(board_def.key_names, self.book, settings, self.tracks, log)
        self.link = None
        self.sound = None  # board.sound.Sound once a sound is due (a piezo in the board file, sound on)
        self._pump = None  # board.link.pump once the link starts
        self._shown = None  # display rows on the glass
        self._shown_changes = -1
        self._colours = board_def.side_names  # the pegs' colour on each track ("red", ...): "P1 red"
        self._dog = None
        self.errors = 0
        self.journal.note = self.note  # pyright: ignore[reportAttributeAccessIssue] (None until set here)
        said = self.book.boot(setup_of(settings)).problem()
        if said is not None:  # set aside, damaged, rolled back, newer firmware: said, then play on
            self.controller.say(*said)

    def _committed(self, seq, line, done, was_over):
        """An event's record is on flash: tell a subscribed laptop, start the animation it earned."""
        if self.link is not None:
            self.link.appended(seq, line)  # a subscribed laptop hears it without a re-read
        if self.hal.piezo is not None and self.settings["sound"]:
            try:
                if self.sound is None:
                    from board.sound import Sound  # loaded when the sound is first on

                    self.sound = Sound(self.hal.piezo)
                self.sound.pegged(self.match, was_over)
            except MemoryError:
                self.hal.log("sound: out of memory")
        got = anims.earned(self.match, done, was_over)
        if got is not None:
            kind, side, other, row = got
            self.render.animate(kind, self.track_of(side), self.track_of(other) + 4 * row, self.now)

    def note(self):
        """What the journal's seq mark says after its seqs (Journal.note): the brightness and the pegs of
        each track as drawn (-1: no side on it), which the next boot lights before the app's code is
        loaded (board/render/firstlight.py)."""
        self._fill_view(self.now)
        v = self.render.view
        return ".%d.%d.%d.%d.%d.%d.%d" % (v[render.BRIGHT], v[0], v[1], v[2], v[3], v[4], v[5])

    def tracks(self):
        """Physical track of each side (cached: the frame path must not allocate)."""
        key = self.match.sides * 8 + self.settings["tracks"]
        if key != self._tracks_key:
            self._tracks_key = key
            self._tracks = tracks_for(self.match.sides, self.settings["tracks"], self.board.sides)
        return self._tracks

    def track_of(self, side):
        return self.tracks()[side]

    # ---- the parts of one pass --------------------------------------------------------------

    def scan(self, now):
        """Read keys and sensors into debounced edges (no allocation); the piezo's tone for now."""
        self.keys.update(self.hal.keys.scan(), now)
        self.hal.sensors.readinto(self._raw)
        self.sensors.update(self._raw, now)
        if self.sound is not None:  # a scan apart at most: a beep's edges are 5 ms late at most
            self.sound.step(now, self.settings["sound"])

    def apply(self, now):
        """Turn waiting edges into game events, proposals and menu actions; True if any came."""
        self.now = self.book.now = now
        ctl = self.controller
        seen = False
        while True:
            e = self.ring.get()
            if e < 0:
                break
            seen = True
            ctl.handle(e, now)
        ctl.tick(now)
        return seen

    def _fill_view(self, now):
        m = self.match
        v = self.render.view
        tracks = self.tracks()
        v[render.SIDES] = self.board.sides
        for t in range(self.board.sides):
            v[render.FRONT + t] = -1
            v[render.POINTS + t] = 0
        for s in range(m.sides):
            t = tracks[s]
            v[render.FRONT + t] = m.front[s]
            v[render.BACK + t] = m.back[s]
            v[render.POINTS + t] = m.match_points[s]
        v[render.DEALER] = -1 if m.dealer_side is None else tracks[m.dealer_side]
        v[render.WINNER] = -1 if m.winner is None else tracks[m.winner]
        p = self.controller.blinking()
        if p is not None:
            v[render.PEND_SIDE] = tracks[p.side]
            v[render.PEND_HOLE] = p.hole
            v[render.PEND_T0] = p.t0
        else:
            v[render.PEND_SIDE] = -1
        v[render.BRIGHT] = self.settings["brightness"]
        v[render.CUE] = self.settings["cue"]

    def draw(self, now):
        """LED frame and display text, each written only when it changed."""
        self._fill_view(now)
        if self.render.update(now):
            self.hal.leds.write(self.render.frame)
        ctl = self.controller
        if ctl.changes != self._shown_changes:
            self._shown_changes = ctl.changes
            rows = display.rows(self.match, self.settings, ctl, self._colours)
            if rows != self._shown:
                self._shown = rows
                d = self.hal.display
                d.fill(0)
                for i in range(len(rows)):
                    d.text(i, 0, rows[i])
                d.show()

    def calm_gc(self):
        """Collect garbage at a calm point (after boot, after a committed event) rather than when an
        allocation in the middle of a pass finds the heap full; a HAL that watches the heap (the
        sim's heap_seen) reads it now, when what is held is what the board needs. The room the next
        commit would take (Commit.ready) is taken here too, after the collection."""
        if _CALM_GC:
            gc.collect()
        self.book.ready()
        if _CALM_GC:
            seen = getattr(self.hal, "heap_seen", None)
            if seen is not None:
                seen()

    def save(self, now):
        """Deferred writes: settings after a quiet spell; the link's traffic; a gc after an event."""
        book = self.book
        if book.collect:
            book.collect = False
            self.calm_gc()
            # the boot checkpoint now and then; not in a heap this full: a boot replays it all instead
            if not _CALM_GC or gc.mem_free() > 16384:
                book.save()
            if book.retry():  # a failed commit's replay did not finish: once more now
                self.controller.say(*display.wrap("Reloaded: not saved"))
        if self.settings.due(now):
            self.settings.save()
            self.book.remember()  # the brightness or the tracks changed: the first light's too
        self.pump(now)

    def pump(self, now):
        """The link's traffic: requests answered, pushes and a records stream's next chunks written.
        Every scan pass, not only the save pass: a sync's round trips take a scan pass, not 100 ms.
        The link's code (heap, with the code in RAM) is loaded when a laptop sends its first
        line (the blank one it opens the port with): the game has that heap until a laptop comes."""
        pump = self._pump
        if pump is None:
            port = getattr(self.hal, "link", None)
            if port is None:
                return
            line = port.read_line()
            if line is None or not self.start_link():
                return
            pump, link = self._pump, self.link
            if pump is None or link is None:  # (start_link set both: for pyright)
                return
            for out in link.handle(line, now):
                port.write(out)
        self._host = pump(self.hal.link, self.link, self.controller, self._host, now)

    def step(self, now):
        """One whole pass, as the tasks would run it: the harness and the sim's --script use it."""
        self.scan(now)
        self.apply(now)
        self.save(now)
        self.draw(now)

    # ---- the USB link ---------------------------------------------------------------------

    def start_link(self):
        """Load the link's code and start it; -> True when it runs. A heap with no room for it is said
        on the display and changes nothing (the laptop's next line tries again)."""
        if getattr(self.hal, "link", None) is None:
            return False
        try:
            from board.link import Link, pump

            self.link = Link(
                self.journal,
                self.match,
                board_id=self.hal.board_uid(),  # the chip's id, not board.json's name that boards share
                firmware=FIRMWARE,
                form=self.settings["form"],
                settings=self.settings,
                clock=self.book.clock,
                controller=self.controller,
            )
        except MemoryError:
            self.link = None
            self.hal.log("link: out of memory")
            self.controller.say("Out of memory:", "no USB link")
            return False
        except ImportError:
            return False
        self._host = getattr(self.hal.link, "session", 0)  # changes when a laptop comes or goes
        self._pump = pump
        return True

    # ---- asyncio ----------------------------------------------------------------------------

    async def _every(self, ms, part):
        hal = self.hal
        while True:
            try:
                part(hal.ticks_ms())
            except Exception as e:  # one bad pass must not stop the board: log it and go on
                self.errors += 1
                hal.log("error in %s: %r" % (getattr(part, "__name__", "task"), e))
            await _sleep_ms(ms)

    def _scan_apply(self, now):
        self.scan(now)
        if self.apply(now):
            self.draw(now)  # a key or a tap is answered in this pass, not at the next frame tick
        self.pump(now)

    def _draw_feed(self, now):
        self.draw(now)
        if self._dog is not None:
            self._dog.feed()

    async def main(self):
        loop = asyncio.get_event_loop()
        loop.set_exception_handler(self._on_exception)
        if self.settings["watchdog"]:
            self._dog = self.hal.watchdog(8000)
        self.calm_gc()  # the journal's replay and the set-up leave garbage: gone before play starts
        tasks = [
            asyncio.create_task(self._every(self.scan_ms, self._scan_apply)),
            asyncio.create_task(self._every(self.frame_ms, self._draw_feed)),
            asyncio.create_task(self._every(self.save_ms, self.save)),
        ]
        await asyncio.gather(*tasks)

    def _on_exception(self, loop, context):
        self.errors += 1
        self.hal.log("uncaught: %r" % (context.get("exception"),))
        self.controller.say("Board error:", "see the log")


async def _sleep_ms(ms):
    if hasattr(asyncio, "sleep_ms"):  # MicroPython: no float per sleep
        await asyncio.sleep_ms(ms)
    else:
        await asyncio.sleep(ms / 1000)


def run(app):
    """Run the board (an App) until the loop stops (start.py's call)."""
    try:
        asyncio.run(app.main())
    finally:
        # MicroPython keeps the exception handler on its one Loop: left set, it would hold the whole
        # app after the board stops (Ctrl-C for mpremote, the sim's end of script).
        asyncio.new_event_loop().set_exception_handler(None)
    return app
