# The simulator HAL: the same firmware on the MicroPython unix port, the board drawn in the terminal.
# Input (keyboard, mouse, --script) is poked into the fake key matrix and sensor chain, so the app
# reads it through keys.scan() and sensors.readinto() exactly as on the Pico; the storage is a real
# littlefs in sim-data/flash.img (quitting is a power cut); with --fast the asyncio clock skips idle
# time (parts.warp).
import gc
import select
import sys
import time

from sim import flash, parts

USAGE = """make sim [ARGS="..."]   (sim/launch.py builds the firmware and this folder, then runs main.py)
  --script FILE   play a script of keys, taps and checks (sim/*.script), print the end state
  --headless      no board drawing: log lines and the end state only (tests)
  --fast          skip idle time (default with --headless); --realtime to watch a script
  --data DIR      where the flash image lives (default sim-data); --fresh erases it first
  --link PORT     the USB link on socket://127.0.0.1:PORT (0: none; default 7373 when drawn)
  --board FILE    board definition (default hardware/board.json)
  --press-ms N    how long a key or tap is held (default 60); --long-ms N for !X (default 1500)
  --trace         headless: log the display each time it changes
  --qstr          headless script: print the interned-string pools after boot and at the end
  --heap SIZE     (make sim) the Pico heap to stand for, e.g. 96k (default 200k), scaled to this port
  --code rom|ram  (make sim) the modules in flash as on a board with a ROM partition (default), or
                  loaded into the heap as on a stock Pico (docs/memory.md)
  make sim passes on --heap in bytes, --ratio R, --rom N (the ROM image's size) and --hal N (the sim's HAL's
  heap beyond the Pico's) for the report"""

# A terminal has no key-up: a keypress is the board key held 60 ms, 90 ms between two presses so
# the app sees separate presses; the link on port 7373. Written as numbers where used: a module-level
# name is one more interned name (docs/memory.md [name budget]), and a Pico never loads this module.
_FLAGS = ("--headless", "--fresh", "--trace", "--qstr")
_VALUES = (
    "--script",
    "--data",
    "--board",
    "--link",
    "--press-ms",
    "--long-ms",
    "--heap",
    "--ratio",
    "--code",
    "--rom",
    "--hal",
)


def parse_args(argv):
    o = {
        "script": None,
        "headless": False,
        "fast": None,
        "data": "sim-data",
        "fresh": False,
        "link": None,
        "board": None,
        "press_ms": 60,
        "long_ms": 1500,
        "trace": False,
        "qstr": False,
        "heap": None,
        "ratio": None,
        "code": "ram",
        "rom": 0,
        "hal": 0,
    }
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in _FLAGS:
            o[a[2:]] = True
        elif a in ("--fast", "--realtime"):
            o["fast"] = a == "--fast"
        elif a in _VALUES:
            if i + 1 >= len(argv):
                raise SystemExit("%s needs a value\n%s" % (a, USAGE))
            i += 1
            v = argv[i]
            key = a[2:].replace("-", "_")
            if key in ("link", "press_ms", "long_ms", "heap", "rom", "hal"):
                if not (v[1:] if key == "hal" and v[:1] == "-" else v).isdigit():  # --hal may be less
                    raise SystemExit("%s needs a number, not %r" % (a, v))
                v = int(v)
            elif key == "ratio":
                v = float(v)
            o[key] = v
        elif a in ("-h", "--help"):
            print(USAGE)
            raise SystemExit(0)
        elif a != "--sim":
            raise SystemExit("unknown option %r\n%s" % (a, USAGE))
        i += 1
    if o["fast"] is None:
        o["fast"] = o["headless"]
    if o["link"] is None:
        o["link"] = 0 if o["headless"] else 7373
    o["layout"] = not o["headless"]  # the terminal drawing needs the board's layout; main.py loads it
    return o


class SimHal:
    def __init__(self, board_def, options):
        b = board_def
        self.board_def = b
        self.options = options
        self.clock = parts.Clock(capped=options["fast"])
        if options["fast"]:
            parts.warp(self.clock)
        self.started = self.clock.ticks_ms()
        self.term = None
        self.exit_code = 0
        # The heap the firmware lives in, measured at the app's calm gc points (heap_seen): the
        # unix heap less the ROM image that stands for the Pico's flash (--code rom) and less the
        # script reader and runner, which no Pico has (sim/launch.py gives them heap on top).
        self.flash_bytes = options["rom"]
        self.script_bytes = 0
        # The unix heap the sim's own HAL (sim/'s modules, the objects made here) takes beyond what the Pico's
        # HAL would take (sim/launch.py SIM_HAL, PICO_HAL): counted outside the firmware's heap.
        self.hal_bytes = options["hal"]
        self.boot_free = -1  # free after boot
        self.live_peak = 0  # the most held after any calm gc
        data = options["data"].rstrip("/") or "."
        self.image = data + "/flash.img"
        flash.makedirs(data if data.startswith("/") else _cwd() + "/" + data)
        if options["fresh"]:
            _remove(self.image)
        self._flash = flash.mount(self.image)
        self.storage_dir = "/flash/data"
        flash.makedirs(self.storage_dir)

        self.leds = parts.SimLeds(self, b.led_count)
        self.keys = parts.SimKeys(self)
        self.sensors = parts.SimSensors(self, b)
        self.display = parts.SimDisplay(self)
        self.piezo = None
        if b.wiring.piezo_pin is not None:
            from sim.piezo import SimPiezo

            self.piezo = SimPiezo(self)
        self._dog = None
        self._queue = []  # input waiting: ("key", mask, hold_ms) or ("tap", bit, hold_ms)
        self._held = None  # the input being held now
        self._release_at = 0
        self.free_at = self.started  # when the next input may start
        self._key_bits = {}
        for i in range(len(b.key_names)):
            if b.key_names[i] is not None:
                self._key_bits[b.key_names[i]] = 1 << i

        self.runner = None
        if options["script"]:
            gc.collect()
            before = gc.mem_alloc()
            from sim import run, script

            try:
                steps = script.Script(options["script"], b.key_names, b.side_names)
            except OSError as e:
                flash.unmount(self._flash)
                raise SystemExit("sim: cannot read the script %s: %s\n" % (options["script"], e))
            except script.ScriptError as e:
                flash.unmount(self._flash)
                raise SystemExit("sim: %s\n" % (e,))
            self.runner = run.Runner(self, steps)
            gc.collect()
            self.script_bytes = gc.mem_alloc() - before

        self.keyboard = None
        if not options["headless"]:
            from sim import keys, term

            self.keyboard = keys.Keyboard(b.side_names, options["long_ms"], press_ms=options["press_ms"])
            self._stdin = select.poll()
            self._stdin.register(sys.stdin, select.POLLIN)
            self._inbuf = bytearray(1)
            self._size_asked = self.started
            self._status_at = self.started
            self.term = term.Term(b, keys.HELP)
            self.term.enter()

        self.link = parts.NoLink()
        if options["qstr"]:
            self.link.first = _qstr_pools  # the pools once a script's laptop has loaded the link
        if options["link"]:
            try:
                self.link = parts.SocketLink(options["link"], self.log)
                self.log("link: socket://127.0.0.1:%d" % options["link"])
            except OSError as e:
                self.log("link: port %d not available (%r)" % (options["link"], e))
        what = "script " + options["script"] if options["script"] else "keyboard"
        self.log(
            "sim: unix heap %d KB for the firmware%s, flash %s, %s"
            % (self.heap_size() // 1024, self._code_note(), self.image, what)
        )
        # The sim's own start-up garbage goes now, before the firmware builds its state around it: a
        # heap left fragmented here refuses the firmware's imports with most of it free.
        gc.collect()

    # ---- the HAL contract -------------------------------------------------------------------

    def board_uid(self):
        return parts.board_uid(self.storage_dir)  # machine.unique_id()'s stand-in, kept on the flash

    def ticks_ms(self):
        return self.clock.ticks_ms()

    def time(self):
        # The time of day, which a Pico does not know: the sim's games are stamped from boot on.
        return int(time.time())

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    async def sleep_ms(self, ms):
        import asyncio

        await asyncio.sleep_ms(ms)

    def watchdog(self, timeout_ms):
        self._dog = parts.SimWatchdog(self, timeout_ms)
        return self._dog

    def heap_seen(self):
        """The app has just collected garbage at a calm point (after boot, after a committed event):
        what it holds now is its live heap. The sim keeps the figures for its end report."""
        used = gc.mem_alloc() - self._outside()
        if self.boot_free < 0:
            self.boot_free = gc.mem_free()
            if self.term is None and self.runner is not None and self.options["qstr"]:
                _qstr_pools()  # after boot; again at the end: a pool made in between is a risk
        if used > self.live_peak:
            self.live_peak = used

    def heap_size(self):
        """The unix heap the firmware has: all of it, less the ROM image standing for flash, the script
        machinery and what the sim's HAL takes beyond the Pico's."""
        return _heap_size() - self._outside()

    def _outside(self):
        """The unix heap that is not the firmware's: the ROM image, the script machinery, and the sim's
        own HAL less the Pico's (hal_bytes)."""
        return self.flash_bytes + self.script_bytes + self.hal_bytes

    def _code_note(self):
        o = self.options
        note = ""
        if o["heap"]:
            note = " (a Pico's %d KB x%.2f)" % (o["heap"] // 1024, o["ratio"] or 1.0)
        if o["code"] == "rom":
            note += ", code in ROM (a %d KB image outside it)" % (self.flash_bytes // 1024)
        else:
            note += ", code in RAM"
        if self.script_bytes:
            note += ", script reader %d KB outside it" % (self.script_bytes // 1024)
        if self.hal_bytes > 0:
            note += ", the sim's HAL %d bytes more than the Pico's outside it" % self.hal_bytes
        elif self.hal_bytes < 0:
            note += ", the Pico's HAL %d bytes more than the sim's counted in it" % -self.hal_bytes
        return note

    def log(self, msg):
        t = time.ticks_diff(self.clock.ticks_ms(), self.started)
        line = "%5d.%03d %s" % (t // 1000, t % 1000, msg)
        if self.term is not None:
            self.term.log(line)
        else:
            print(line)

    # ---- input: keyboard, mouse and script poked into the key matrix and the sensor chain -----

    def pump(self):
        """Called by every key and sensor scan: take new input, press and release on time."""
        now = self.clock.ticks_ms()
        dog = self._dog
        if dog is not None and time.ticks_diff(now, dog.fed) > dog.timeout_ms:
            self.log("watchdog: not fed for %d ms: the Pico would reset here" % dog.timeout_ms)
            dog.fed = now
        if self.keyboard is not None:
            self._keyboard(now)
        self._inputs(now)
        if self.runner is not None:
            self.runner.poll(now)

    def press(self, names, hold_ms=None):
        """Queue one press of board keys held together (one name: an ordinary key press)."""
        mask = 0
        for name in names:
            mask |= self._key_bits[name]
        self._queue.append(("key", mask, hold_ms or self.options["press_ms"]))

    def tap(self, side, hole, hold_ms=None):
        """Queue a tap of hole 1..120 of a side's track, 0 its start hole, 121 the game hole."""
        b = self.board_def
        if hole == 121:
            bit = b.sensor_game
        elif hole == 0:
            bit = b.sensor_start[side][0]
        else:
            bit = b.sensor_track[side][hole - 1]
        self._queue.append(("tap", bit, hold_ms or self.options["press_ms"]))

    def busy(self):
        return (
            bool(self._queue)
            or self._held is not None
            or time.ticks_diff(self.clock.ticks_ms(), self.free_at) < 0
        )

    def _inputs(self, now):
        held = self._held
        if held is not None:
            if time.ticks_diff(now, self._release_at) < 0:
                return
            if held[0] == "key":
                self.keys.down = 0
            else:
                self.sensors.set(held[1], False)
            self._held = None
            self.free_at = time.ticks_add(now, 90)
            return
        if not self._queue or time.ticks_diff(now, self.free_at) < 0:
            return
        held = self._held = self._queue.pop(0)
        if held[0] == "key":
            self.keys.down = held[1]
        else:
            self.sensors.set(held[1], True)
        self._release_at = time.ticks_add(now, held[2])

    def _keyboard(self, now):
        if time.ticks_diff(now, self._size_asked) > 2000:
            self._size_asked = now  # no SIGWINCH on the unix port: ask for the size now and then
            self.term.query_size()
        byte = self._inbuf
        while self._stdin.poll(0):
            # One byte at a time: readinto fills the whole buffer, so a bigger one would block.
            if not sys.stdin.buffer.readinto(byte):
                raise SystemExit(0)  # the terminal went away
            self._act(self.keyboard.feed(byte[0]))
        if self.keyboard.entry is not None or time.ticks_diff(now, self._status_at) >= 250:
            self._status_at = now
            self._status(now)

    def _act(self, act):
        if act is None:
            return
        kind = act[0]
        if kind == "key":
            self.press(act[1], act[2])
        elif kind == "tap":
            self.tap(act[1], act[2])
        elif kind == "click":
            hit = self.term.click(act[1], act[2])
            if hit is not None:
                self.tap(hit[0], hit[1])
        elif kind == "quit":
            raise SystemExit(0)
        elif kind == "redraw":
            self.term.redraw()
        elif kind == "size":
            self.term.resize(act[1], act[2])
        elif kind == "error":
            self.log(act[1])

    def _status(self, now):
        t = time.ticks_diff(now, self.started) // 1000
        entry = self.keyboard.entry
        if entry is not None:
            what = "tap hole :%s_   (Enter taps, Esc cancels)" % entry
        else:
            what = "flash %s   quit Ctrl-C" % self.image
        text = " sim %d:%02d   heap %d/%d KB   %s" % (
            t // 60,
            t % 60,
            (gc.mem_alloc() - self._outside()) // 1024,
            self.heap_size() // 1024,
            what,
        )
        if self.runner is not None:
            text += "   script %d/%d" % (self.runner.script.done, self.runner.script.count)
        self.term.status(text)

    # ---- the end ----------------------------------------------------------------------------

    def close(self, ended=False):
        """Leave the terminal as it was; after a whole script, print and check the end state.

        ended: the script ran to its end (sim.run.ScriptEnd), not quit or cut short."""
        if self.term is not None:
            self.term.leave()
            self.term = None
        if ended and self.runner is not None:
            from asyncio import core

            from board.app import JOURNAL

            # The firmware has stopped, but asyncio still points at the task that was running and
            # queues the others (the link's, the sensors'): each holds the whole app. A new loop lets
            # them go, so the replay below has the heap the board had.
            core.cur_task = None
            core.new_event_loop()
            if self.options["headless"] and self.options["qstr"]:
                _qstr_pools()  # as the firmware left them (the replay below is the sim's, not the board's)

            lines, self.exit_code = self.runner.finish(
                self.storage_dir + JOURNAL, self.board_def.sides, self.board_def.side_names
            )
            for line in lines:
                print(line)
        flash.unmount(self._flash)


def _qstr_pools():
    """Print MicroPython's interned-string count ("qstr pool: n_pool=6, n_qstr=1224, ..."): a pool
    added after boot is one big block asked for mid-game (docs/memory.md, [name budget])."""
    import micropython

    micropython.qstr_info()


def _heap_size():
    return gc.mem_alloc() + gc.mem_free()


def _cwd():
    import os

    return os.getcwd()


def _remove(path):
    import os

    try:
        os.remove(path)
    except OSError:
        pass


def make(board_def, options=None):
    return SimHal(board_def, options or parse_args([]))
