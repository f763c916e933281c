# Smoke test on the emulated Pico: deploy, boot, keys, a tap, LEDs, display, sync, a reset, mpremote.
"""Run by `make test-device` only (the file name is not test_*.py, so `make test` never collects it: it
needs Node.js and ../shared/rp2emu). Without them every test here fails and says why: never a pass.

The firmware is deployed once with tools/deploy.py (as `make deploy`, the display driver pre-placed
offline), its littlefs kept, and each test boots a copy of that image, with a journal added where it
needs one. What the board shows is compared with what the firmware's own App computes on CPython for
the same journal (tests/device/expect.py)."""

import json
import os
import socket
import sqlite3
import subprocess
import threading

import pytest
from expect import board_for, emulated_lit
from match_script import match_events

from board import settings
from cribbage import events
from tools import emupico, emupico_solo

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))

WORK = os.path.join(_ROOT, "build", "device-test")
CRIB = os.path.join(_ROOT, ".venv", "bin", "crib")
BOARD = "e6614104032f122b"  # the emulator's default flash unique id
# keys as (row, column) of the 4x5 matrix (hardware/board.json's keys)
KEY = {"4": "0 3", "H": "3 1", "T": "1 4", "D": "3 2", "OK": "3 4", "MENU": "2 3", "UNDO": "2 4"}
KEY.update({"A": "0 0", "2": "0 1", "3": "0 2", "5": "0 4", "6": "1 0", "S": "3 0", "C": "3 3"})


def _lines_600():
    lines = []
    match_events(seed=1, games=9, max_events=600, sink=lambda ev: lines.append(events.to_line(ev)))
    return lines


@pytest.fixture(scope="module")
def deployed():
    why = emupico.missing()
    if why:
        pytest.fail("make test-device needs the emulated Pico: " + why, pytrace=False)
    os.makedirs(WORK, exist_ok=True)
    if os.environ.get("DEVICE_IMAGE"):  # while working on these tests: an image deployed earlier
        return os.environ["DEVICE_IMAGE"]
    path = os.path.join(WORK, "deploy.log")
    with open(path, "w") as log:
        image = emupico.deploy(WORK, log=log)
    with open(path) as f:
        said = f.read().splitlines()
    # The console of a clean deploy: the plan, one line a file, and the result; no mpremote echo or traceback.
    assert said[0].startswith("deploy for ") and said[-1].startswith("deployed: "), said
    assert all(x.startswith(("  copy   ", "  delete ", "copying ")) for x in said[1:-1]), said
    return image


@pytest.fixture(scope="module")
def lines600():
    return _lines_600()


@pytest.fixture(scope="module")
def image600(deployed, lines600):
    return emupico.with_journal(deployed, os.path.join(WORK, "j600.img"), lines600, WORK)


class _Cut:
    """A TCP relay between crib and the emulated board's USB serial that passes the board's first `after`
    bytes to crib and withholds the rest; `held` is set once it withholds. When the board's side closes
    (a reset drops the client), crib's side is closed: crib has seen the stream stop mid-way."""

    def __init__(self, board_url, after):
        host, port = board_url.split("://", 1)[1].rsplit(":", 1)
        self.board, self.after, self.held = (host, int(port)), after, threading.Event()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        laptop, _ = self.server.accept()
        board = socket.create_connection(self.board)
        threading.Thread(target=self._pump, args=(laptop, board, None), daemon=True).start()
        self._pump(board, laptop, self.after)
        for s in (laptop, board, self.server):
            s.close()

    def _pump(self, src, dst, limit):
        passed = 0
        while True:
            try:
                data = src.recv(4096)
            except OSError:
                return
            if not data:
                return
            if limit is not None and passed + len(data) > limit:
                data = data[: max(0, limit - passed)]
                self.held.set()
            passed += len(data)
            if data:
                try:
                    dst.sendall(data)
                except OSError:
                    return


def _oled(pico):
    return pico.ctl_json("oled")["text"]


def _shows(pico, rows):
    """The emulated display reads rows (waits: the display follows the first LED frame)."""
    emupico.until(lambda: _oled(pico) == rows, "display %r (it shows %r)" % (rows, _oled(pico)), 60)


def _press(pico, name):
    """A key pressed 100 ms and released, then 100 ms of device time for the board to take it (a
    second press of the same key while the first is held would be no new press)."""
    pico.ctl("press %s" % KEY[name])
    emupico.until(lambda: not pico.ctl("keys").strip(), "%s released" % name, 60)
    t = pico.time_ms()
    emupico.until(lambda: pico.time_ms() > t + 100, "100 ms of device time", 60)


def _sync(pico, dbpath, check=True):
    # --timeout: the emulator runs at a fraction of a Pico's speed in wall time
    done = subprocess.run(
        [CRIB, "sync", "--port", pico.url, "--db", dbpath, "--timeout", "120"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=_ROOT,
    )
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def _db_events(dbpath):
    con = sqlite3.connect(dbpath)
    try:
        return [
            (seq, json.loads(text))
            for seq, text in con.execute("SELECT seq, event FROM events WHERE board=? ORDER BY seq", (BOARD,))
        ]
    finally:
        con.close()


def _lines_of(synced):
    return [events.to_line(ev) for _seq, ev in synced]


def _booted(pico, after=0):
    """Device ms of the first lit frame and of the journal's replay line, once the app has booted (its heap
    line): start.py's first light comes before the app, so the first lit frame says nothing of it."""
    lit = pico.first_lit(after)
    replayed = pico.stamped("records replayed", after)
    pico.stamped("heap:", after)
    return lit, replayed


def _shows_journal(pico, lines):
    leds, rows = board_for(lines)
    _shows(pico, rows)
    assert emulated_lit(pico.ctl("leds")) == leds


def test_deploy_then_boot_empty_key_cut_tap_confirm_sync_mpremote(deployed):
    """A new board: the LEDs and display of a new match; a cut keyed (4H, TD, OK), the starter skipped,
    a tap on track 0's hole 2 proposed as +2 and confirmed; the journal synced equals what was keyed, and
    the board shows what the App computes from it; mpremote runs while the app runs; after a reset the
    board comes back to the same state."""
    db = os.path.join(WORK, "empty.sqlite3")
    if os.path.exists(db):
        os.remove(db)
    with emupico.Pico(WORK, "empty", load_fs=deployed) as pico:
        _booted(pico)
        # the deploy's own boot began the journal with a new match's set-up: that line is all it holds
        assert "journal: 1 records replayed" in pico.console_text(), pico.console_text()[-500:]
        _shows_journal(pico, [])
        for k in ("4", "H", "T", "D", "OK"):
            _press(pico, k)
        assert _oled(pico)[7].startswith("Starter?")
        _press(pico, "OK")  # no starter keyed
        frames = pico.ctl_json("leds")["2"]["frames"]
        sensor = pico.ctl("tap 3")  # chain bit 3 = track 0, hole 2 (hardware/board.json)
        assert sensor == "ok"
        emupico.until(lambda: _oled(pico)[3].startswith("P1 +2"), "the +2 proposal on the display", 60)
        emupico.until(lambda: pico.ctl_json("leds")["2"]["frames"] > frames, "an LED frame after the tap", 60)
        _press(pico, "OK")
        _sync(pico, db)
        synced = _db_events(db)
        kinds = [ev["t"] for _s, ev in synced]
        assert kinds[:2] == ["setup", "cut"], kinds
        assert synced[-1][1]["t"] == "peg" and synced[-1][1]["n"] == 2 and synced[-1][1]["s"] == 0, synced[-1]
        assert [s for s, _e in synced] == list(range(1, len(synced) + 1))
        # the LEDs now; the display's prompt follows the keys (a skipped starter is not journalled), so
        # it is compared after the reset below, when the board knows only its journal
        assert emulated_lit(pico.ctl("leds")) == board_for(_lines_of(synced))[0]

        # mpremote while the firmware runs: it interrupts the app and runs its code on the board
        script = "import os; print(6 * 7, 'journal.log' in os.listdir('/data'))"
        done = emupico.mpremote(pico.url, "exec", script)
        assert done.returncode == 0 and "42 True" in done.stdout, done.stdout + done.stderr
        mark = pico.mark()
        pico.ctl("reset")
        _booted(pico, mark)
        pico.stamped("journal: %d records replayed" % len(synced), mark)
        _shows_journal(pico, _lines_of(synced))
        pico.quit()


def test_boot_600_events_sync_equals_journal_and_a_reset_mid_sync(image600, lines600):
    """A 600-event journal: replayed at boot, shown as the App computes it, synced whole and exact. Then
    the board resets while a second sync (into a new database) reads it: that sync stops with an error
    and keeps at most a first run of whole records; the next one after the reboot fetches the rest,
    exact again. The stream sends 600 records in a few tens of device ms, faster than a test can time
    a reset: the laptop's end goes through _Cut, which passes the board's first 4 KB and holds the rest, so
    the reset always comes while the laptop is reading.)"""
    db = os.path.join(WORK, "j600.sqlite3")
    db2 = os.path.join(WORK, "reset.sqlite3")
    for p in (db, db2):
        if os.path.exists(p):
            os.remove(p)
    want = [json.loads(line) for line in lines600]
    with emupico.Pico(WORK, "j600", load_fs=image600) as pico:
        lit, replayed = _booted(pico)
        assert lit < replayed  # the pegs lit from the seq mark (render/firstlight.py), before the replay
        assert "journal: 600 records replayed" in pico.console_text(), pico.console_text()[-500:]
        _shows_journal(pico, lines600)
        _sync(pico, db)
        synced = _db_events(db)
        assert [s for s, _e in synced] == list(range(1, 601))
        assert [ev for _s, ev in synced] == want

        mark = pico.mark()
        cut = _Cut(pico.url, after=4096)
        proc = subprocess.Popen(
            [CRIB, "sync", "--port", cut.url, "--db", db2, "--timeout", "120"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=_ROOT,
        )

        def some():
            try:
                return len(_db_events(db2))
            except sqlite3.OperationalError:
                return 0  # no table yet

        emupico.until(cut.held.is_set, "the sync under way", 120)
        mark = pico.mark()
        pico.ctl("reset")
        out = proc.communicate(timeout=300)[0]
        kept = some()
        assert proc.returncode != 0 and kept < 600, (kept, out)
        if kept:
            assert [s for s, _e in _db_events(db2)] == list(range(1, kept + 1)), out
        _booted(pico, mark)
        _sync(pico, db2)
        synced = _db_events(db2)
        assert [s for s, _e in synced] == list(range(1, 601))
        assert [ev for _s, ev in synced] == want
        pico.quit()


def test_a_board_without_its_display_boots_lights_and_takes_keys(deployed):
    """rp2 only: with nothing answering on I2C the driver's first write raises OSError(110) (ETIMEDOUT);
    the board says so once and plays on without a display (the unix port's sim always has one)."""
    with emupico.Pico(WORK, "nodisplay", load_fs=deployed, oled=False) as pico:
        _booted(pico)
        said = pico.console_text()
        assert "no display at I2C address 60: OSError(110" in said, said[-500:]
        assert emulated_lit(pico.ctl("leds")) == board_for([])[0]
        for k in ("4", "H", "T", "D", "OK"):  # the cut keyed blind
            _press(pico, k)
        db = os.path.join(WORK, "nodisplay.sqlite3")
        if os.path.exists(db):
            os.remove(db)
        _sync(pico, db)
        assert [ev["t"] for _s, ev in _db_events(db)] == ["setup", "cut"]
        assert "Traceback" not in pico.console_text()
        pico.quit()


def test_a_board_with_the_advice_on_boots(deployed, lines600):
    """An rp2-only failure the unix port hid: with the advice setting on, the board stopped at boot
    with "ImportError: no module named 'board.advising'" (start.py had unmounted the code bundle before
    App imported it). The 600-event journal boots into the match it makes (the display shows it), from
    the boot checkpoint of its first 576 records (board/store/commit.py: the board writes one every 25)."""
    img = emupico.with_journal(deployed, os.path.join(WORK, "advice600.img"), lines600, WORK, 576)
    img = emupico.with_files(
        img, os.path.join(WORK, "advice.img"), {"data/settings.json": b'{"v": 1, "advice": true}'}
    )
    with emupico.Pico(WORK, "advice", load_fs=img) as pico:
        _booted(pico)
        text = pico.console_text()
        assert "Traceback" not in text and "journal: 600 records replayed" in text, text[-800:]
        assert "checkpoint" not in text, text[-800:]  # not dropped: the match is its refold
        _shows_journal(pico, lines600)


def test_the_menu_and_the_advice_load_when_first_asked_for(deployed):
    """Loaded when a player first asks for them, not at boot (issue 15: the heap after boot), and on the
    Pico from their .mpy files on littlefs (start.py unmounts the code bundle): the menu at the first
    MENU, the advice turned on there (at once, no reboot) and loaded at the first held MENU before the
    starter; six dealt cards keyed and OK: the ranked discards on the display, nothing pegged."""
    with emupico.Pico(WORK, "lazy", load_fs=deployed) as pico:
        _booted(pico)
        _press(pico, "MENU")
        items = len(settings.ORDER) + 1  # every setting, then "Player names"
        emupico.until(
            lambda: _oled(pico)[3].startswith("1/%d UNDO=leave" % items), "the menu's first item", 60
        )
        at = settings.ORDER.index("advice")
        for _ in range(at):
            _press(pico, "MENU")
        assert [r.rstrip() for r in _oled(pico)[3:6]] == [
            "%d/%d UNDO=leave" % (at + 1, items),
            "Discard advice",
            "= off",
        ]
        _press(pico, "OK")
        assert _oled(pico)[5].rstrip() == "= on", _oled(pico)
        _press(pico, "UNDO")  # leave the menu
        for k in ("4", "H", "T", "D", "OK"):
            _press(pico, k)
        assert _oled(pico)[7].startswith("Starter?"), _oled(pico)
        pico.ctl("key %s 1" % KEY["MENU"])  # held: a long press (800 ms)
        t = pico.time_ms()
        emupico.until(lambda: pico.time_ms() > t + 1000, "1 s of device time", 60)
        pico.ctl("key %s 0" % KEY["MENU"])
        emupico.until(lambda: _oled(pico)[3].startswith("Advice: P"), "the advice's keying prompt", 60)
        for k in ("A", "S", "2", "H", "3", "D", "4", "C", "5", "S", "6", "H"):
            _press(pico, k)
        _press(pico, "OK")
        emupico.until(lambda: _oled(pico)[2].rstrip() == "MENU=more 1/15", "the ranked discards", 60)
        assert _oled(pico)[4].startswith("1 throw "), _oled(pico)
        text = pico.console_text()
        assert "Traceback" not in text and "error" not in text and "Out of memory" not in text, text[-800:]
        pico.quit()


def test_a_game_against_the_board_at_the_top_level_played_on_the_keys_then_synced(deployed):
    """Against the board on the Pico: a one-game match at the top level, chosen by the settings and played
    to 61 (the short game: a game to 121 takes the emulator tens of minutes; `make bench-device ARGS="--only
    solo-game"` plays one) on the keypad by a player who reads only the display (tools/emupico_solo.py); the
    board's own moves, counts and its seed at the end come by themselves. Synced, the laptop's history
    deals every deal again from the revealed seed and checks it (crib.history's replay), lists the game as
    against the board at its level, and the LEDs are the pegs its journal makes."""
    db = os.path.join(WORK, "solo.sqlite3")
    if os.path.exists(db):
        os.remove(db)
    img = emupico.with_files(
        deployed,
        os.path.join(WORK, "solo.img"),
        {"data/settings.json": b'{"v": 1, "solo": 3, "form": "six61", "fmt": "games", "games": 1}'},
    )
    with emupico.Pico(WORK, "solo", load_fs=img, timeout=2400) as pico:
        _booted(pico)
        emupico_solo.new_match(pico)
        end = emupico_solo.play_match(pico)
        assert any(r.endswith(" wins match") for r in end) or "Game's seed:" in end, end
        text = pico.console_text()
        assert "Traceback" not in text and "Out of memory" not in text, text[-800:]
        done = _sync(pico, db)
        assert " 0 flagged" in done.stdout, done.stdout  # every deal dealt again from its seed: the same
        synced = _db_events(db)
        setup = [i for i in range(len(synced)) if synced[i][1]["t"] == "setup"][-1]
        match = [ev for _s, ev in synced[setup:]]
        assert match[0]["solo"][0] == "top" and match[-1]["t"] == "seed", match[-1]
        assert [ev["t"] for ev in match].count("game") == 0  # one game: no second began
        emupico_solo.wait_device(pico, 2100)  # the game won's LED animation (2 s: board/render/anims.py) over
        lit, (want, rows) = emulated_lit(pico.ctl("leds")), board_for([events.to_line(ev) for ev in match])
        assert lit == want, "lit %r; the journal's %r, rows %r; shown %r" % (lit, want, rows, _oled(pico))
        listed = subprocess.run(
            [CRIB, "games", "--db", db], capture_output=True, text=True, timeout=120, cwd=_ROOT
        )
        assert listed.returncode == 0 and "the board (top)" in listed.stdout, listed.stdout + listed.stderr
        pico.quit()
