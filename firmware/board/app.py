# The board application: wires HAL, journal, game, controller, render and display; asyncio tasks and step().
"""Entry points (the HAL engineer's main.py and the simulator call these):

    from board import app
    app.run(hal, board_def, settings=None)   # blocks: asyncio tasks until the app stops
        hal        a HAL from hal.rp2.make / sim.hal.make (docs/hal.md)
        board_def  boardfile.load(...) result
        settings   a board.settings.Settings, or None: loaded from hal.storage_dir/settings.json

    a = app.App(hal, board_def, settings=None)  # builds everything, replays the journal
    a.step(now_ms)                              # one deterministic pass: scan, apply, save, draw
    a.scan(now_ms); a.apply(now_ms); a.draw(now_ms); a.save(now_ms)   # the parts, as the tasks run them
    a.match                                     # the cribbage.game.Match in force (read only)
    a.journal, a.settings, a.controller, a.render

Tests (tests/both/test_board_*.py) and `make sim --script` drive App.step with a hand-advanced clock;
run() runs the same parts as asyncio tasks: scan+apply every scan_ms, draw every frame_ms, save and
the link every few tens of ms. No task exists before asyncio.run; a new event loop is made in
`finally` so a soft reboot starts clean (Hinch's app skeleton).
"""

import asyncio
import gc
import json

from board import anims, display, edges, render, sensors
from board.controller import P_LINK, P_PEG, Controller, wrap
from board.journal import Journal
from board.keys import Keys
from board.power import Limiter
from board.settings import Settings, tracks_for
from cribbage import events
from cribbage.errors import CribError
from cribbage.game import Match

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
    link_lines = 8  # link requests answered a pass, at most: a sync moves on, the pass stays short

    def __init__(self, hal, board_def, settings=None):
        self.hal = hal
        self.board = board_def
        self.now = hal.ticks_ms()
        self.ticks_diff = hal.ticks_diff
        if settings is None:
            settings = Settings(hal.storage_dir + SETTINGS).load()
        self.settings = settings
        if settings.problem:
            hal.log(settings.problem)
        self.ring = edges.Ring(32)
        self.keys = Keys(len(board_def.key_names), self.ring)
        self.sensors = sensors.from_board(board_def, self.ring)
        self._raw = bytearray(board_def.sensor_bits // 8)
        self.render = render.Render(board_def, Limiter(board_def.power, board_def.led_count))
        self.controller = Controller(self, list(board_def.key_names))
        self.journal = Journal(hal.storage_dir + JOURNAL)
        self.match = Match(self._setup())  # replaced by the journal's match in boot()
        self._loading = None
        self.recent = []  # the last few events done, newest last (for the undo prompt)
        self.link = None
        self._shown = None  # display rows on the glass
        self._shown_changes = -1
        self._dog = None
        self._tracks = tracks_for(2, 0, board_def.sides)
        self._tracks_key = -1
        self.errors = 0
        self._gc_due = False  # an event was committed: collect at the next save pass
        self.boot()

    # ---- journal and match ------------------------------------------------------------------

    def _replay(self, line):
        # json.loads, not events.from_line: that words any failure as a bad line, a MemoryError too, and
        # the journal sets a refused record aside with all after it (a replay in a full heap did).
        ev = json.loads(line)
        if type(ev) is not dict:
            raise CribError("not an event: %r" % (line[:40],))
        if ev.get("t") == "setup":
            # Into the match object in force, in place: its old state is garbage before the replay
            # builds the new one, so a rebuild after a failed commit (a MemoryError, mostly) needs
            # room for one match, not two; and whoever holds the object sees the rebuilt state.
            m = self._loading = self.match
            m.__init__(ev)
            self.recent = []
            return
        if self._loading is None:
            raise CribError("journal starts without a set-up")
        self._loading.apply(ev, trusted=True)
        self._remember(ev)

    def boot(self):
        """Replay the journal into a match (a new match when there is none)."""
        self._loading = None
        report = self.journal.open(self._replay)
        self.hal.log(str(report))
        if not report.ok:
            self.controller.say("Journal: lost", "%d records" % report.dropped)
        if self._loading is None:
            self.new_match()
        else:
            self.match = self._loading
            self._loading = None
            self._sync_link()

    def _setup(self):
        s = self.settings
        return events.setup(
            form=s["form"], fmt=s["fmt"], games=s["games"], to=s["to"], muggins=s["muggins"], three=s["three"]
        )

    def new_match(self):
        """Start a new match with the current settings; the journal keeps only its set-up line."""
        m = Match(self._setup())
        self.journal.compact([events.to_line(m.setup)])
        self.match = m
        self.recent = []
        self._sync_link()

    def reset_board(self):
        """Settings back to their defaults (saved now) and a new match."""
        fresh = Settings(self.settings.path)
        self.settings.values = fresh.values
        self.settings.dirty = True
        self.settings.save()
        self.new_match()

    def commit(self, ev):
        """Apply ev to the match and append it to the journal before anything shows it as done.

        CribError (refused) changes nothing. Any other failure before the record is confirmed (a
        MemoryError in the game, which may leave the match part-changed; the flash write failing,
        before or after its record landed) is answered by rebuilding the match from the journal, the
        truth at the next boot: the event is then wholly in (its record landed) or wholly out, and
        the display says which. A failure after the record is confirmed (the link push, the
        animation, a compaction) is logged: the event stands, and nothing is retried.
        """
        if self._loading is not None:
            # The replay after the last failed commit did not finish: ev was made from a match that
            # is not the journal's. Replay first; the players see the true state and key ev again.
            self._rebuild()
            raise CribError("Reloaded: not saved")
        m = self.match
        was_over = m.game_over
        seq = self.journal.next_seq
        done = line = None
        try:
            done = m.apply(ev)
            line = events.to_line(done)
            seq = self.journal.append(line)
        except CribError:
            raise
        except Exception as e:
            # Before: the error went on up, the match kept what apply had done (a deal's new dealer)
            # and the journal did not, and the next starter was journalled after no deal at all.
            self.hal.log("commit failed: %r" % (e,))
            why = "Out of memory" if isinstance(e, MemoryError) else "Flash error"
            self._gc_due = True  # the save pass collects, and replays once more if this replay fails
            self._rebuild()
            if self.journal.next_seq <= seq:
                raise CribError(why + ": not saved")
            self.controller.say(why, "but saved")  # the write landed before its error: it is in force
            return done
        try:
            if self.link is not None:
                self.link.appended(seq, line)  # a subscribed laptop hears it without a re-read
            self._remember(done)
            self._celebrate(done, was_over)
            if self.journal.needs_compaction:
                self._compact()
        except Exception as e:  # on flash and in the match: it stands (the link re-reads the journal)
            self.hal.log("saved, then: %r" % (e,))
        self._gc_due = True
        return done

    def _rebuild(self):
        """The match rebuilt in place from the journal after a failed commit; CribError if even that
        fails: the journal then stays closed (no record is written while the match may differ from
        it), and the next save pass (after a collection) and the next commit replay first; a restart
        replays it in an empty heap."""
        try:
            self.boot()
        except Exception as e:
            self.journal.close()
            self._loading = self.match
            self.hal.log("commit failed: %r" % (e,))
            raise CribError("Not saved: restart the board")

    def _remember(self, ev):
        if ev.get("t") == "undo":
            if self.recent:
                self.recent.pop()
            return
        self.recent.append(ev)
        if len(self.recent) > 8:
            self.recent.pop(0)

    def _compact(self):
        lines = [events.to_line(self.match.setup)]
        for ev in self.match.effective_events():
            lines.append(events.to_line(ev))
        self.journal.compact(lines)

    def describe_last(self):
        ev = self.recent[-1] if self.recent else None
        if ev is None:
            effective = self.match.effective_events()
            ev = effective[-1] if effective else {"t": "?"}
        return display.describe(self.match, ev)

    def _celebrate(self, done, was_over):
        """Start the animation the event earned (frame = f(time): it never holds up input)."""
        got = anims.earned(self.match, done, was_over)
        if got is not None:
            kind, side, other, line = got
            self.render.animate(kind, self.track_of(side), self.track_of(other) + 4 * line, self.now)

    # ---- what the controller asks of its host -----------------------------------------------

    def log(self, msg):
        self.hal.log(msg)

    def keys_stuck(self):
        return self.keys.stuck != 0

    def tracks(self):
        """Physical track of each side (cached: the frame path must not allocate)."""
        key = self.match.sides * 8 + self.settings["tracks"]
        if key != self._tracks_key:
            self._tracks_key = key
            self._tracks = tracks_for(self.match.sides, self.settings["tracks"], self.board.sides)
        return self._tracks

    def track_of(self, side):
        return self.tracks()[side]

    def side_of_track(self, track):
        t = self.tracks()
        for s in range(len(t)):
            if t[s] == track:
                return s
        return -1

    def show_lines(self, done):
        return display.show_lines(self.match, done)

    def link_verdict(self, applied, error=None):
        if self.link is not None:
            self.link.resolve(applied, error)

    # ---- the parts of one pass --------------------------------------------------------------

    def scan(self, now):
        """Read keys and sensors into debounced edges (no allocation)."""
        self.keys.update(self.hal.keys.scan(), now)
        self.hal.sensors.readinto(self._raw)
        self.sensors.update(self._raw, now)

    def apply(self, now):
        """Turn waiting edges into game events, proposals and menu actions; True if any came."""
        self.now = now
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
        p = self.controller.pending
        if p is not None and p.kind == P_PEG:
            v[render.PEND_SIDE] = tracks[p.side]
            v[render.PEND_HOLE] = p.hole
            v[render.PEND_T0] = p.t0
        else:
            v[render.PEND_SIDE] = -1
        v[render.BRIGHT] = self.settings["brightness"]

    def draw(self, now):
        """LED frame and display text, each written only when it changed."""
        self._fill_view(now)
        if self.render.update(now):
            self.hal.leds.write(self.render.frame)
        ctl = self.controller
        if ctl.changes != self._shown_changes:
            self._shown_changes = ctl.changes
            rows = display.rows(self.match, ctl, self.settings)
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
        sim's heap_seen) reads it now, when what is held is what the board needs."""
        if _CALM_GC:
            gc.collect()
            seen = getattr(self.hal, "heap_seen", None)
            if seen is not None:
                seen()

    def save(self, now):
        """Deferred writes: settings after a quiet spell; the link's traffic; a gc after an event."""
        if self._gc_due:
            self._gc_due = False
            self.calm_gc()
            if self._loading is not None:  # a failed commit's replay did not finish: once more now
                try:
                    self._rebuild()
                    self.controller.say(*wrap("Reloaded: not saved"))
                except CribError:
                    pass
        if self.settings.due(now):
            self.settings.save()
        if self.link is not None:
            self._pump_link(now)

    def step(self, now):
        """One whole pass, as the tasks would run it: the harness and the sim's --script use it."""
        self.scan(now)
        self.apply(now)
        self.save(now)
        self.draw(now)

    # ---- the USB link (a placeholder until the link issue wires it fully) -------------------

    def start_link(self):
        if getattr(self.hal, "link", None) is None:
            return
        try:
            from board.link import Link
        except ImportError:
            return
        self.link = Link(
            self.journal,
            self.match,
            board_id=self.hal.board_uid(),  # the chip's id, not board.json's name that boards share
            firmware=FIRMWARE,
            form=self.settings["form"],
            settings=self.settings,
        )
        self._host = getattr(self.hal.link, "session", 0)  # changes when a laptop comes or goes

    def _sync_link(self):
        if self.link is not None:
            self.link.match = self.match

    def _pump_link(self, now):
        hal = self.hal
        link = self.link
        if link is None:
            return
        for _ in range(self.link_lines):
            line = hal.link.read_line()
            host = getattr(hal.link, "session", 0)
            if host != self._host:
                # A laptop came or went while reading: the last one's subscription ends before the
                # new one's first line is answered (a pending proposal stays: protocol.md).
                self._host = host
                link.disconnect()
            if line is None:
                break
            for out in link.handle(line, now):
                hal.link.write(out)
        for out in link.pushes():
            hal.link.write(out)
        p = link.pending
        ctl = self.controller
        if p is not None:
            if ctl.pending is None:
                ctl.offer_link(p["event"], p.get("note"), now)  # shown once nothing else waits
        elif ctl.pending is not None and ctl.pending.kind == P_LINK:
            ctl.pending = None  # the laptop cancelled it
            ctl.changes += 1

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

    def _draw_feed(self, now):
        self.draw(now)
        if self._dog is not None:
            self._dog.feed()

    async def main(self):
        loop = asyncio.get_event_loop()
        loop.set_exception_handler(self._on_exception)
        if self.settings["watchdog"]:
            self._dog = self.hal.watchdog(8000)
        self.start_link()
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


def run(hal, board_def, settings=None):
    """Run the board until the loop stops (main.py's call)."""
    app = App(hal, board_def, settings)
    try:
        asyncio.run(app.main())
    finally:
        # MicroPython keeps the exception handler on its one Loop: left set, it would hold the whole
        # app (~100 KB) after the board stops (Ctrl-C for mpremote, the sim's end of script).
        asyncio.new_event_loop().set_exception_handler(None)
    return app
