# Device bench, code part: one file for the emulated Pico (mpremote run) and the unix port.
# Run by bench/device.py; prints one JSON object (the last line). On the Pico the firmware's modules are
# on littlefs at /; here device.py gives its path: the .mpy files make deploy compiled (bytecode-only
# ones load on any port: from source the unix port would time its compiler too), then firmware/ and
# tests/support/. The LED hand-off (hal.ws2812, PIO + DMA) exists only on the Pico.
import gc
import json
import sys
import time

from board import render
from board.boarddef import boardcache
from board.render.power import Limiter
from cribbage.cards import parse_cards
from cribbage.show import score_show
from cribbage.showtotal import show_total

PICO = sys.platform == "rp2"
if not PICO:
    _here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."

BOARD = "/board.json" if PICO else (_here + "/../build/deploy/armv6m/board.json")  # pyright: ignore


def _best(fn, n, runs=3):
    """Best of runs of n calls of fn(i), in microseconds a call."""
    best = None
    for _ in range(runs):
        gc.collect()
        t0 = time.ticks_us()
        for i in range(n):
            fn(i)
        us = time.ticks_diff(time.ticks_us(), t0) / n
        best = us if best is None or us < best else best
    return best


def load_board():
    crc, size = boardcache.file_crc(BOARD)
    b = boardcache.from_cache(boardcache.cache_path(BOARD), crc, size)
    if b is None:
        raise SystemExit("no board cache beside %s: deploy first" % BOARD)
    return b


def bench_render(b, out):
    r = render.Render(b, Limiter(b.wiring.power, b.led_count))
    v = r.view
    v[render.SIDES] = b.sides
    v[render.FRONT], v[render.BACK] = 40, 31
    v[render.FRONT + 1], v[render.BACK + 1] = 55, 47
    v[render.FRONT + 2], v[render.BACK + 2] = 12, 3
    v[render.DEALER] = 1
    v[render.POINTS] = 3
    v[render.PEND_SIDE] = -1
    v[render.BRIGHT] = 255

    def full(i):  # a peg moved: a whole new frame, limiter included
        v[render.FRONT] = 41 + (i & 15)
        r.update(i * 40)

    out["render_full_us"] = _best(full, 40)

    def animated(i):  # an animation's frame: any LED may be lit, so the limiter sums it
        v[render.FRONT] = 41 + (i & 15)  # and a peg moved, so that each is a new frame
        r.animate(1, 1, 4 * 91, 0)
        r.update(40 + (i & 7))

    out["render_anim_us"] = _best(animated, 20)
    v[render.ANIM] = 0
    if PICO:
        from hal.ws2812 import Chains

        leds = Chains(b.wiring.led_pins, b.wiring.led_chains, b.wiring.led_order)
        frame = r.frame

        def handoff(i):
            while leds.busy():  # the wire of the last frame, not the hand-off, is not what is timed
                pass
            t0 = time.ticks_us()
            leds.write(frame)
            times.append(time.ticks_diff(time.ticks_us(), t0))

        times = []
        for i in range(20):
            handoff(i)
        while leds.busy():
            pass
        out["handoff_us"] = min(times)
        leds.close()


def bench_shows(out):
    h = parse_cards("5H 5C 5S JD 5D")
    out["show_total_us"] = _best(lambda i: show_total(h[0], h[1], h[2], h[3], h[4]), 500)
    out["score_show_us"] = _best(lambda i: score_show(h[:4], h[4]), 20)
    assert show_total(h[0], h[1], h[2], h[3], h[4]) == 29


def bench_advice(b, out):
    """Discard advice from the OK that ends the keying to the first ranked page on the glass:
    the ranking (Advising.rank_cards), the page's rows (Advising.lines) and, on the Pico, the display's
    drawing and its I2C transfer (hal.rp2.Display over micropython-lib's SSD1306 driver, the emulated one)."""
    from board import controller, deal, display  # noqa: F401 (loaded at boot: not the advice's own load)
    from cribbage import events
    from cribbage.game import Match

    # its code loaded when advice is first asked for (the held MENU), not at boot: its modules from
    # littlefs (the board's code bundle is unmounted by then) and an Advisor's buffers
    gc.collect()
    t0 = time.ticks_us()
    from board.controller.advising import Advising

    Advising()
    out["advice_load_us"] = time.ticks_diff(time.ticks_us(), t0)
    gc.collect()
    t0 = time.ticks_us()
    import board.controller.menu  # noqa: F401 (the menu's code, loaded when the menu first opens)

    out["menu_load_us"] = time.ticks_diff(time.ticks_us(), t0)

    m = Match(events.setup(form="six", fmt="acc"))
    m.apply(events.cut(["5H", "9C"]))  # player 0 deals: the board asks for the starter
    a = Advising()
    a.start(m)

    class Entry:  # the controller's entry as rank_cards and lines read it: the keyed cards
        cards = list(parse_cards("5H 5C 5S JD 4C 6D"))
        rank = -1

    entry = Entry()
    out["advice_rank_us"] = _best(lambda i: a.rank_cards(m, entry.cards), 1)
    rows = a.lines(m, entry)
    assert rows[1].startswith("1 throw "), rows  # the ranked discards, the best first
    out["advice_rows_us"] = _best(lambda i: a.lines(m, entry), 5)
    out["advice_draw_us"] = 0
    if PICO:
        from hal import rp2

        d = rp2.Display(rp2._oled(b.wiring.display, print), print)
        if d.missing:
            raise SystemExit("no display on the emulated Pico (run it with --oled)")

        def draw(i):
            d.fill(0)
            for r in range(len(rows)):
                d.text(r, 0, rows[r])
            d.show()

        out["advice_draw_us"] = _best(draw, 1)


def bench_boot_unix(journals, out):
    """The boot's share that is the board's own code, on the unix port: its imports (as start.main makes
    them) and App() replaying each journal on the fake HAL. The Pico's boot is timed by the emulator."""
    from fakehal import FakeHal, remove_tree

    t0 = time.ticks_us()
    import board.link  # noqa: F401
    from board import app

    out["boot_imports_us"] = time.ticks_diff(time.ticks_us(), t0)
    b = load_board()
    for name in journals:
        best = None
        for _ in range(3):
            hal = FakeHal(b)
            if journals[name]:
                with open(journals[name], "rb") as f, open(hal.storage_dir + app.JOURNAL, "wb") as g:
                    g.write(f.read())
            gc.collect()
            t0 = time.ticks_us()
            a = app.App(hal, b)
            a.step(hal.now)
            us = time.ticks_diff(time.ticks_us(), t0)
            best = us if best is None or us < best else best
            remove_tree(hal.storage_dir)
            a = None
        out["boot_app_%s_us" % name] = best


def bench_solo(out, seed=1):
    """Against the board at the top level: the board's decisions (solo.next_move: its throw and each of
    its lays or goes) over a seeded match of three games, the player's side the beginner's choices
    (tests/support/soloplay.py: on the Pico, copied beside the firmware by device.py); the time the
    top level's code takes to load and the heap it and a match in play hold. As on the board, the
    advice and its tables load with each throw and are dropped after it (board.controller.solo
    drop_throw): a throw's time includes that load, and the heap is measured both at the calm points
    (a new deal) and just after a throw, its tables still held."""
    from board import app  # noqa: F401 (what the board has loaded at boot: not the solo game's own)

    gc.collect()
    free0 = gc.mem_free()
    t0 = time.ticks_us()
    # its code held through the match: the board's plug-in (loaded when a match against the board is in
    # force), the core's solo match, the opponent and its top level
    from board.controller import solo as board_solo
    from cribbage import opponent, opponent_top, solo  # noqa: F401

    out["solo_load_us"] = time.ticks_diff(time.ticks_us(), t0)
    gc.collect()
    out["solo_code"] = free0 - gc.mem_free()
    import soloplay  # the player's side (not the board's code)

    m = soloplay.new_match(seed, level="top", games=3, fmt="games")
    gc.collect()
    free0 = gc.mem_free()  # from here: the match's own state
    throws, lays = [], []
    least = thrown = free0
    while not (m.match_over and solo.told(m)):
        t0 = time.ticks_us()
        ev = solo.next_move(m)
        us = time.ticks_diff(time.ticks_us(), t0)
        if ev is None:
            ev = soloplay.player_move(m)
        elif ev.get("p") == solo.BOARD and ev["t"] == "throw":
            throws.append(us)
            gc.collect()
            thrown = min(thrown, gc.mem_free())  # the throw's tables still held
            board_solo.drop_throw()
        elif ev.get("p") == solo.BOARD and ev["t"] in ("lay", "go"):
            lays.append(us)
        m.apply(ev)
        if ev["t"] == "deal":  # a calm point, as the app's: what the game holds, its garbage gone
            gc.collect()
            least = min(least, gc.mem_free())
    out["solo_throw_us"] = sorted(throws)
    out["solo_lay_us"] = sorted(lays)
    out["solo_match"] = free0 - least  # the match at its fullest calm point (a new deal)
    out["solo_thrown"] = free0 - thrown  # the match and the throw's tables, just after a throw


def main():
    out = {"platform": sys.platform}
    if not PICO:
        bench_boot_unix({"empty": None, "600": sys.argv[1]}, out)
    b = load_board()
    bench_render(b, out)
    bench_shows(out)
    bench_solo(out)  # before the advice's bench, which loads the advice the top level loads with it
    bench_advice(b, out)
    print(json.dumps(out))


main()
