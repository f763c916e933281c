# `make bench-device`: the board's boot, heap, sync and frame figures in device time on the emulated Pico.
"""Deploys the firmware (tools/deploy.py) to the emulated Pico (../shared/rp2emu, tools/emupico.py) once,
keeps its littlefs, and boots copies of it:

- reset to the first lit LED frame (the runner's own note: start.py's first light, the pegs the seq mark
  names), and to ready: the app's first frame, once it has booted (imports + replay), with the
  deploy's journal (a set-up only) and with the 600-event scripted match of bench/mp_journal.py
  (match_script seed 1), when the console said "journal: ... replayed" and the heap free after the boot;
- crib sync (the crib client and SQLite, in this process) of the scripted match's first 345 events
  and of a history of matchgen games, device time between the sync's first request and its last
  answer; the 100-game history (18,172 events: the issue's 18,000) by default, measured whole (a smaller
  --games N extrapolates the 18,000 from its rate, which overstates it: a sync's fixed costs);
- a full LED frame: render.Render.update with a peg moved, and the hand-off to PIO + DMA;
- show_total / score_show on the 29 hand;
- against the board at the top level, a seeded three-game match (the player's side tests/support/soloplay.py):
  each of the board's decisions (solo.next_move: its throw, its lays and goes), the time its code takes
  to load and the heap its code and the match hold;
- a hole tapped to its lit frame on the wire (debounce included): the tap's device time to the end of
  the frame that lights it, as the emulator decodes the data pin;
- with --only solo-game alone (tens of minutes of wall time, so not in the full report): a one-game match
  to 121 against the board at the top level, played in the running app on its keys by a player who reads
  only the display (tools/emupico_solo.py), and the least heap free the app said on its console at its
  calm points during the game (hal.rp2 heap_seen).

Unix-port figures come from the same code on .venv/bin/micropython (bench/mp_device.py) and the link
bench's server; ratio = Pico / unix. Device time is the emulator's estimate at 125 MHz (optimistic: no
XIP cache misses; see ../shared/rp2emu/README.md).

    python -m bench.device [--games N]   (N games in the sync history, default 100: ~5 s of device time,
                                          a few minutes of wall time, most of it the emulated boot)
    python -m bench.device --only sync|frame|solo|boot [--games N]   (the sync, the LED frame, the board's
                                          decisions against the board or the boots: for measuring one
                                          change before and after, minutes not tens)
    python -m bench.device --only solo-game   (a game against the board in the running app: its heap)
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time

from match_script import match_events

from board.store.commit import _EVERY
from cribbage import events
from sim.matchgen import history
from tools import emupico, emupico_solo, unixport

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WORK = os.path.join(_ROOT, "build", "device-bench")
DEPLOYED = os.path.join(_ROOT, "build", "deploy", "armv6m")  # the .mpy files the deploy compiled
FULL_EVENTS = 18000
GOALS = {
    "boot600": 1000.0,
    "lit": 500.0,
    "sync18k": 2.0,
    "frame": 4.0,
    "tap": 40.0,
    "advice": 300.0,
    "heap": 90.0,
}
# The 600-event boot from the boot checkpoint the board writes every _EVERY records (board/store/commit.py):
# the one of the first 601 - _EVERY, so _EVERY - 1 records replayed after it, the most a boot replays when the
# checkpoint is in force.
CHECKPOINT = 601 - _EVERY
SCAN_MS = 5  # board.app.App.scan_ms: a key waits at most one scan pass (keys act on their first edge)


def scripted(n):
    lines = []
    match_events(seed=1, games=9, max_events=n, sink=lambda ev: lines.append(events.to_line(ev)))
    assert len(lines) == n, len(lines)
    return lines


def ready(pico, after=0):
    """Device ms of the app's first LED frame: the first frame on the wire once the app has said its heap
    line (its tasks start after it; a board at rest draws that frame only, until something changes)."""
    heap = pico.stamped("heap:", after)

    def since():
        return [f["at_ms"] for f in pico.ctl_json("leds").values() if f["at_ms"] >= heap]

    return min(emupico.until(since, "the app's first LED frame"))


def boot(image, name, timeout=300):
    """(ms to the first lit frame, to the app's first frame, to the journal's replay line, heap free) of
    one boot of image."""
    with emupico.Pico(WORK, name, load_fs=image) as pico:
        lit = pico.first_lit(timeout=timeout)
        replayed = pico.stamped("records replayed")
        heap = pico.wait_runner(r"heap: (\d+) bytes free after boot", 300)
        up = ready(pico)
        pico.quit()
    return lit, up, replayed, int(heap.group(1))


def boot_reset(image, name, run_ms=3000):
    """(ms to the first lit frame, to the app's first frame, to the journal's replay line) of the boot
    after a chip reset, the board having run run_ms of device time after its first boot of image (what
    that boot wrote stays). Device times from the reset."""
    with emupico.Pico(WORK, name, load_fs=image) as pico:
        pico.first_lit(timeout=300)
        pico.stamped("heap:")
        t = pico.time_ms()
        emupico.until(lambda: pico.time_ms() > t + run_ms, "%d ms of device time" % run_ms)
        mark = pico.mark()
        pico.ctl("reset")
        at = pico.stamped("chip reset", mark)
        lit = pico.first_lit(mark, timeout=300)
        replayed = pico.wait_runner(r"records replayed[^\n]*\(([0-9.]+) ms after chip reset\)", 300, mark)
        up = ready(pico, mark) - at
        pico.quit()
    return lit, up, float(replayed.group(1))


def timed_sync(pico, dbpath):
    """(events, device s, wall s) of one sync in this process (crib's own client and sync)."""
    from crib.history.sync import sync
    from crib.link import ports
    from crib.link.client import LinkClient
    from crib.store import db

    con = db.connect(dbpath)
    client = LinkClient(ports.open_port(pico.url, 120.0), timeout=120.0)
    client.connect()
    t0, w0 = pico.time_ms(), time.perf_counter()
    rep = sync(client, con)
    t1, w1 = pico.time_ms(), time.perf_counter()
    client.close()
    con.close()
    return rep.added, (t1 - t0) / 1000, w1 - w0


def sync_figures(image, lines, name):
    img = emupico.with_journal(image, os.path.join(WORK, name + ".img"), lines, WORK)
    dbpath = os.path.join(WORK, name + ".sqlite3")
    if os.path.exists(dbpath):
        os.remove(dbpath)
    with emupico.Pico(WORK, name, load_fs=img) as pico:
        # The first light comes before the app's boot: the link answers once the app says its heap.
        pico.stamped("heap:", timeout=3600)
        n, dev, wall = timed_sync(pico, dbpath)
        pico.quit()
    if n != len(lines):
        raise SystemExit("sync %s: %d events of %d" % (name, n, len(lines)))
    return n, dev, wall


def tap_latency(image):
    """ms from a hole's tap (device time, bracketed by two control-port reads) to the end on the wire of
    the first frame that lights it; several taps, one hole further each time."""
    got = []
    with emupico.Pico(WORK, "tap", load_fs=image) as pico:
        pico.first_lit()
        pico.stamped("heap:")
        # the cut keyed (4H, TD, OK) and no starter (OK): a tap before the cut proposes nothing (the
        # bench waited for its frame for ever)
        for key in ("0 3", "3 1", "1 4", "3 2", "3 4", "3 4"):
            pico.ctl("press %s" % key)
            emupico.until(lambda: not pico.ctl("keys").strip(), "the key released")
            t = pico.time_ms()
            emupico.until(lambda t=t: pico.time_ms() > t + 100, "100 ms of device time")
        for k in range(5):
            bit = 3 + k  # track 0, hole 2 + k (hardware/board.json): each a new +n proposal
            frames = pico.ctl_json("leds")["2"]["frames"]
            t0 = pico.time_ms()
            pico.ctl("tap %d" % bit)
            t1 = pico.time_ms()
            leds = emupico.until(
                lambda n=frames: (lambda got: got if got["frames"] > n else None)(pico.ctl_json("leds")["2"]),
                "an LED frame after the tap of bit %d" % bit,
            )
            got.append((leds["at_ms"] - t1, leds["at_ms"] - t0))
            t = pico.time_ms()
            while pico.time_ms() < t + 400:  # the tap released, the proposal settled
                time.sleep(0.05)
        pico.quit()
    return got


def with_player(image):
    """The image with the player's side of a solo match beside the firmware (tests/support/soloplay.py,
    which mp_device.py's solo bench plays against the board's top level)."""
    with open(os.path.join(_ROOT, "tests", "support", "soloplay.py"), "rb") as f:
        return emupico.with_files(image, os.path.join(WORK, "player.img"), {"soloplay.py": f.read()})


def solo_figures(code):
    """The solo bench's figures in ms: (throw median, worst, n, lay median, worst, n, load, code KB,
    match KB, match and a throw's tables KB); the throws and lays come sorted."""
    t, lay = code["solo_throw_us"], code["solo_lay_us"]
    return (
        t[len(t) // 2] / 1000,
        t[-1] / 1000,
        len(t),
        lay[len(lay) // 2] / 1000,
        lay[-1] / 1000,
        len(lay),
        code["solo_load_us"] / 1000,
        code["solo_code"] / 1024,
        code["solo_match"] / 1024,
        code["solo_thrown"] / 1024,
    )


SOLO_LINE = (
    "against the board, top level, 3 games: the board's throw median %.1f ms, worst %.1f ms (%d throws;"
    " goal <= 300 ms, its tables loaded each time); its lay or go median %.1f ms, worst %.1f ms (%d;"
    " goal <= 100 ms); its code held through the match loaded in %.1f ms, holding %.1f KB; the match"
    " at its fullest %.1f KB, %.1f KB just after a throw (its tables still held)"
)


def on_pico(image):
    with emupico.Pico(WORK, "code", load_fs=with_player(image)) as pico:
        pico.first_lit()
        pico.stamped("heap:")  # booted: mpremote interrupts the app, not its boot
        done = emupico.mpremote(pico.url, "run", os.path.join(_ROOT, "bench", "mp_device.py"), timeout=1200)
        pico.quit()
    if done.returncode:
        raise SystemExit("mp_device.py on the Pico failed:\n" + done.stdout + done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def on_unix(journal600):
    script = os.path.join(_ROOT, "bench", "mp_device.py")
    done = subprocess.run(
        [unixport.MICROPYTHON, "-X", "heapsize=2m", script, journal600],
        capture_output=True,
        text=True,
        cwd=_ROOT,
        env=unixport.env(DEPLOYED, unixport.FIRMWARE, unixport.SUPPORT),
    )
    if done.returncode:
        raise SystemExit("mp_device.py on unix failed:\n" + done.stdout + done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def unix_sync(lines):
    """events/s of the link code on the unix port serving this journal (bench_sync's server)."""
    from boards import LinkServer

    from bench.bench_sync import _timed_sync

    tmp = tempfile.mkdtemp(prefix="bench-device-")
    path = os.path.join(tmp, "journal.log")
    with open(path, "wb") as f:
        f.write(emupico.journal_bytes(lines, tmp))
    with LinkServer(path) as server:
        rep, wall, cpu, _n = _timed_sync(server.url, os.path.join(tmp, "h.sqlite3"), server.proc.pid)
    return rep.added / wall


def verdict(value, goal):
    return "goal %s: %s" % (goal, "MET" if value <= goal else "MISSED")


def quick(only, image, games):
    """One part of the bench (--only sync|frame): device time, the figure and its goal."""
    if only == "sync":
        hist = [events.to_line(ev) for ev in history(random.Random(1), games)]
        n, dev, wall = sync_figures(image, hist, "sync-history")
        rate = n / dev
        print(
            "crib sync, %d-game history, %d events: %.2f s device time, %.0f events/s (wall %.1f s);"
            " 18,000 events at that rate: %.1f s, goal <= %g s"
            % (games, n, dev, rate, wall, FULL_EVENTS / rate, GOALS["sync18k"])
        )
    elif only == "frame":
        code = on_pico(image)
        print(
            "LED frame: render %.2f ms (an animation's frame %.2f ms) + hand-off %.2f ms = %.2f ms,"
            " goal <= %g ms"
            % (
                code["render_full_us"] / 1000,
                code["render_anim_us"] / 1000,
                code["handoff_us"] / 1000,
                (code["render_full_us"] + code["handoff_us"]) / 1000,
                GOALS["frame"],
            )
        )
        print(
            "advice: OK to the first ranked page %.1f ms (scan + rank + rows + draw); its code loaded at the"
            " first held MENU %.1f ms; the menu's code loaded at its first opening %.1f ms"
            % (
                SCAN_MS + (code["advice_rank_us"] + code["advice_rows_us"] + code["advice_draw_us"]) / 1000,
                code["advice_load_us"] / 1000,
                code["menu_load_us"] / 1000,
            )
        )
    elif only == "solo":
        print(SOLO_LINE % solo_figures(on_pico(image)))
    elif only == "solo-game":
        img = emupico.with_files(
            image,
            os.path.join(WORK, "solo-game.img"),
            {"data/settings.json": b'{"v": 1, "solo": 3, "fmt": "games", "games": 1}'},
        )
        with emupico.Pico(WORK, "solo-game", load_fs=img, timeout=7200) as pico:
            pico.stamped("heap:")
            t0 = pico.time_ms()
            emupico_solo.new_match(pico)
            end = emupico_solo.play_match(pico, timeout=7000)
            text = pico.console_text()
            took = (pico.time_ms() - t0) / 1000
            pico.quit()
        after_boot = int(text.split("heap: ")[1].split()[0])
        print(
            "a one-game match to 121 against the board at the top level in the running app (%.0f s of"
            " device time, ended %r): heap free after boot %d B, least free at the game's calm points %d B"
            " (goal >= %d B)" % (took, end[3:5], after_boot, emupico_solo.least_free(text), 80 * 1024)
        )
    elif only == "boot":
        lines600 = scripted(600)
        img600 = emupico.with_journal(image, os.path.join(WORK, "j600c.img"), lines600, WORK, CHECKPOINT)
        img600w = emupico.with_journal(image, os.path.join(WORK, "j600.img"), lines600, WORK)
        img600a = emupico.with_files(
            img600, os.path.join(WORK, "j600a.img"), {"data/settings.json": b'{"v": 1, "advice": true}'}
        )
        lit0, up0, rep0, heap0 = boot(image, "boot-empty")
        lit6, up6, rep6, heap6 = boot(img600, "boot-600c")
        litw, upw, repw, heapw = boot(img600w, "boot-600")
        litr, upr, rep_r = boot_reset(img600w, "boot-600-reset")
        lita, upa, _repa, heapa = boot(img600a, "boot-600-advice")
        figures = (lit0, up0, rep0, heap0, CHECKPOINT, lit6, up6, rep6, heap6, litw, upw, repw, heapw)
        figures += (litr, upr, rep_r, lita, upa, heapa)
        print(
            "reset to first lit frame, to the app's first frame: empty journal %.1f, %.1f ms (replayed at"
            " %.1f ms, heap free %d B); 600 events from the checkpoint of %d %.1f, %.1f ms (replayed at"
            " %.1f ms, heap free %d B); 600 events all replayed %.1f, %.1f ms (replayed at %.1f ms, heap"
            " free %d B); its next boot after a chip reset %.1f, %.1f ms (replayed at %.1f ms); 600 events"
            " from the checkpoint, advice on %.1f, %.1f ms (heap free %d B)"
            % figures
            + "; goals: lit <= %g ms, the app's first frame <= %g ms, >= %g KB"
            % (GOALS["lit"], GOALS["boot600"], GOALS["heap"])
        )
    else:
        raise SystemExit("--only sync, frame, solo, solo-game or boot")
    return 0


def main(argv):
    why = emupico.missing()
    if why:
        print("make bench-device needs the emulated Pico: " + why)
        return 1
    games = 100
    only = None
    while argv[:1] in (["--games"], ["--only"]):
        if argv[0] == "--games":
            games = int(argv[1])
        else:
            only = argv[1]
        argv = argv[2:]
    os.makedirs(WORK, exist_ok=True)
    t_start = time.perf_counter()
    image = os.environ.get("DEVICE_IMAGE")  # while working on the bench: an image deployed earlier
    if not image:
        with open(os.path.join(WORK, "deploy.log"), "w") as log:
            image = emupico.deploy(WORK, log=log)
    if only:
        return quick(only, image, games)
    lines600 = scripted(600)
    img600w = emupico.with_journal(image, os.path.join(WORK, "j600.img"), lines600, WORK)
    img600 = emupico.with_journal(image, os.path.join(WORK, "j600c.img"), lines600, WORK, CHECKPOINT)
    j600 = os.path.join(WORK, "journal600.log")
    with open(j600, "wb") as f:
        f.write(emupico.journal_bytes(lines600, WORK))

    lit0, up0, rep0, heap0 = boot(image, "boot-empty")
    lit6, up6, rep6, heap6 = boot(img600, "boot-600c")
    litw, upw, repw, _heapw = boot(img600w, "boot-600")  # no checkpoint (a new firmware's first boot)
    litr, upr, rep_r = boot_reset(img600w, "boot-600-reset")  # and the boot after it, a chip reset later
    # the same with discard advice on (the setting, read at boot)
    img600a = emupico.with_files(
        img600, os.path.join(WORK, "j600a.img"), {"data/settings.json": b'{"v": 1, "advice": true}'}
    )
    advice_boot = []
    try:
        lita, _upa, _repa, heapa = boot(img600a, "boot-600-advice", 120)
    except RuntimeError as e:  # it did not boot: its console's last lines say why
        lita, heapa = 0, None
        advice_boot = str(e).strip().splitlines()[-3:]
    code = on_pico(image)
    unix = on_unix(j600)
    n345, dev345, wall345 = sync_figures(image, scripted(345), "sync345")
    hist = [events.to_line(ev) for ev in history(random.Random(1), games)]
    nh, devh, wallh = sync_figures(image, hist, "sync-history")
    taps = tap_latency(image)
    unix_rate = unix_sync(hist)

    rate = nh / devh
    full_s = FULL_EVENTS / rate
    frame_ms = (code["render_full_us"] + code["handoff_us"]) / 1000
    tap_ms = max(hi for _lo, hi in taps)
    imports_ms = unix["boot_imports_us"] / 1000
    out = [
        "device bench: device time on the emulated Pico (rp2040js, 125 MHz) beside the unix port",
        "  %-44s %12s %12s %7s" % ("", "Pico", "unix", "ratio"),
    ]

    def row(what, pico, unix_v, unit, note=""):
        ratio = "%6.0fx" % (pico / unix_v) if unix_v else "      -"
        u = ("%9.2f %-2s" % (unix_v, unit)) if unix_v else "           -"
        out.append("  %-44s %9.2f %-2s %s %s  %s" % (what, pico, unit, u, ratio, note))

    def goal(value, limit, unit):
        return "goal <= %g %s: %s" % (limit, unit, "MET" if value <= limit else "MISSED")

    boot_empty = imports_ms + unix["boot_app_empty_us"] / 1000
    boot_600 = imports_ms + unix["boot_app_600_us"] / 1000
    row(
        "reset to first lit frame, empty journal",
        lit0,
        0,
        "ms",
        "(the pegs the seq mark names) %s" % goal(lit0, GOALS["lit"], "ms"),
    )
    row(
        "  to the app's first frame",
        up0,
        boot_empty,
        "ms",
        "(journal replayed at %.0f ms)" % rep0,
    )
    row("reset to first lit frame, 600 events", lit6, 0, "ms", goal(lit6, GOALS["lit"], "ms"))
    row(
        "  to the app's first frame",
        up6,
        0,
        "ms",
        "(from the checkpoint of %d: replayed at %.0f ms) %s"
        % (CHECKPOINT, rep6, goal(up6, GOALS["boot600"], "ms")),
    )
    row(
        "  the same, no checkpoint (all replayed)",
        upw,
        boot_600,
        "ms",
        "(first lit %.0f ms, journal replayed at %.0f ms)" % (litw, repw),
    )
    row(
        "  and its next boot, after a chip reset",
        upr,
        0,
        "ms",
        "(the board ran 3 s after the boot above; first lit %.0f ms, journal replayed at %.0f ms)"
        % (litr, rep_r),
    )
    row(
        "heap free after boot, 600 events",
        heap6 / 1024,
        0,
        "KB",
        "(empty journal: %.1f KB) goal >= %g KB: %s"
        % (heap0 / 1024, GOALS["heap"], "MET" if heap6 / 1024 >= GOALS["heap"] else "MISSED"),
    )
    row(
        "crib sync, %d events" % n345, dev345, 0, "s", "%.0f events/s, wall %.1f s" % (n345 / dev345, wall345)
    )
    row(
        "crib sync, %d-game history, %d events" % (games, nh),
        devh,
        nh / unix_rate,
        "s",
        "%.0f events/s, wall %.1f s" % (rate, wallh),
    )
    if nh < FULL_EVENTS:
        out.append(
            "  crib sync, 100-game history (18,000 events): %.1f s EXTRAPOLATED from the %d-event"
            " rate, %s" % (full_s, nh, goal(full_s, GOALS["sync18k"], "s"))
        )
    row(
        "LED frame: render (a peg moved, limiter)",
        code["render_full_us"] / 1000,
        unix["render_full_us"] / 1000,
        "ms",
    )
    row(
        "LED frame: render, an animation's frame",
        code["render_anim_us"] / 1000,
        unix["render_anim_us"] / 1000,
        "ms",
        "(any LED may be lit: the limiter sums the frame)",
    )
    row(
        "LED frame: hand-off to PIO + DMA",
        code["handoff_us"] / 1000,
        0,
        "ms",
        "render + hand-off %.2f ms, %s" % (frame_ms, goal(frame_ms, GOALS["frame"], "ms")),
    )
    advice_ms = SCAN_MS + (code["advice_rank_us"] + code["advice_rows_us"] + code["advice_draw_us"]) / 1000
    row(
        "advice: rank the 15 discards (six-card)",
        code["advice_rank_us"] / 1000,
        unix["advice_rank_us"] / 1000,
        "ms",
    )
    row("advice: the first page's rows", code["advice_rows_us"] / 1000, unix["advice_rows_us"] / 1000, "ms")
    row("advice: draw + I2C to the display", code["advice_draw_us"] / 1000, 0, "ms")
    row(
        "advice: its code loaded (the first held MENU)",
        code["advice_load_us"] / 1000,
        unix["advice_load_us"] / 1000,
        "ms",
    )
    row(
        "the menu: its code loaded (its first opening)",
        code["menu_load_us"] / 1000,
        unix["menu_load_us"] / 1000,
        "ms",
    )
    out.append(
        "  advice, OK key to first screen: %.1f ms (a scan pass %d ms at worst + rank + rows + draw), %s"
        % (advice_ms, SCAN_MS, goal(advice_ms / 1000, GOALS["advice"] / 1000, "s"))
    )
    if heapa is None:
        out.append("  heap free after boot, 600 events, advice on: NO BOOT: %s" % " | ".join(advice_boot))
    else:
        out.append(
            "  heap free after boot, 600 events, advice on: %.1f KB (first lit %.0f ms), goal >= %g KB: %s"
            % (heapa / 1024, lita, GOALS["heap"], "MET" if heapa / 1024 >= GOALS["heap"] else "MISSED")
        )
    out.append("  " + SOLO_LINE % solo_figures(code))
    row("show_total, a hand", code["show_total_us"], unix["show_total_us"], "us")
    row("score_show, a hand", code["score_show_us"] / 1000, unix["score_show_us"] / 1000, "ms")
    out.append(
        "  tap to lit frame on the wire, debounce included (5 taps, ms): %s"
        % (", ".join("%.1f-%.1f" % t for t in taps))
    )
    out.append("    worst %.1f ms, %s" % (tap_ms, goal(tap_ms, GOALS["tap"], "ms")))
    out.append(
        "  (unix boot: the board's imports + App() replaying the journal on the fake HAL; unix sync: "
        "bench_sync's link"
    )
    out.append(
        "   server on a socket; ratio = Pico / unix; %.0f s of wall time in all)"
        % (time.perf_counter() - t_start)
    )
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
