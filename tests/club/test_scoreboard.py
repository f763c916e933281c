# `crib serve` in a real browser (Debian's chromium driven by Playwright): a simulated board pegs, `crib sync`
# stores it, and the page moves the peg and then updates the night's standings when the game ends.
import os
import shutil
import subprocess
import sys
import threading

import pytest
from boards import ROOT, Sim, free_port

from crib.store import clubdb, db
from crib.web.serve import Room
from sim.keyscript import KeyedMatch

CHROMIUM = os.environ.get("CRIB_CHROMIUM", "/usr/bin/chromium")
CRIB = [sys.executable, "-c", "from crib.cli import main; main()"]
# As the machine's notes say: no sandbox as root, no background traffic on a closed network.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HEARD = "() => [...document.querySelectorAll('#said p')].map((p) => p.textContent)"  # the live region's lines


def _browser_or_fail():
    """The browser this test needs; missing, it fails saying how to get it (it never skips quietly)."""
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail("no Chromium at %s: apt-get install chromium (or set CRIB_CHROMIUM)" % CHROMIUM)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("no playwright: make test installs it into .venv (pyproject.toml's dev group)")
    return sync_playwright


def _play(data, lines, fresh=False, script_path=None):
    script_path.write_text("\n".join(lines) + "\n")
    with Sim(data, script=str(script_path), fresh=fresh) as sim:
        sim.wait()


def _sync(data, path):
    with Sim(data) as sim:
        out = subprocess.run(
            CRIB + ["sync", "--port", sim.url, "--db", path],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        from crib.link import ports
        from crib.link.client import LinkClient

        client = LinkClient(ports.open_port(sim.url, 5), timeout=5)
        board = client.connect()["board"]
        client.close()
    return board


def _server(path):
    import uvicorn

    from crib.web.serve import config

    port = free_port()
    server = uvicorn.Server(config(path, port=port, poll=0.2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, thread, "http://127.0.0.1:%d" % port


def test_the_page_moves_a_peg_and_updates_the_standings_as_the_board_plays(tmp_path):
    sync_playwright = _browser_or_fail()
    m = KeyedMatch(21, games=1)
    m.play()
    # The first deal's keys, then the rest of the game: two sessions on the same board flash.
    half = next(i for i, line in enumerate(m.lines) if line.startswith("key OK") and i > 20) + 1
    data, path = str(tmp_path / "board"), str(tmp_path / "room.sqlite3")
    _play(data, m.lines[:half], fresh=True, script_path=tmp_path / "a.script")
    board = _sync(data, path)
    con = db.connect(path)
    clubdb.open_night(con, "Tuesday", ["Ann", "Bob"], [board], games=1, now=0)
    con.close()

    server, thread, url = _server(path)
    shots = tmp_path / "shots"  # kept with the test's tmp folder, to look at (pytest --basetemp)
    shots.mkdir()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 700})
            page.goto(url)
            front = page.locator("[data-board='%s'] circle.peg.front[data-side='0']" % board)
            front.wait_for(timeout=20000)
            before = int(front.get_attribute("data-hole"))
            x_before = float(front.get_attribute("cx"))
            assert "no game finished yet" in page.inner_text("#standings")
            assert page.evaluate(HEARD) == []  # the scores the board held when the page opened are not read
            page.screenshot(path=str(shots / "before.png"), full_page=True)

            _play(data, m.lines[half:], script_path=tmp_path / "b.script")
            _sync(data, path)
            # The page was not reloaded: the server's stream moved the peg.
            page.wait_for_function(
                "([sel, before]) => { const e = document.querySelector(sel);"
                " return e && Number(e.getAttribute('data-hole')) !== before; }",
                arg=[("[data-board='%s'] circle.peg.front[data-side='0']" % board), before],
                timeout=20000,
            )
            page.wait_for_function(
                "() => { const r = document.querySelector("
                "'#standings-table tr[data-player] td:nth-child(3)'); return r && r.textContent !== '0'; }",
                timeout=20000,
            )
            after = int(front.get_attribute("data-hole"))
            fronts = m.m.results[0][4]
            assert after == fronts[0] and float(front.get_attribute("cx")) > x_before
            winner = ("Ann", "Bob")[0 if fronts[0] > fronts[1] else 1]
            rows = page.locator("#standings-table tr[data-player]")
            assert rows.first.get_attribute("data-player") == winner
            skunk = min(fronts) <= 90
            assert rows.first.locator("td").nth(4).inner_text() == ("3" if skunk else "2")
            # A screen reader heard the game's new scores as the server words them (the last six of them
            # in the room now), with no table before them (the room has one board), each under the name
            # of the night's player in the seat (the board's own names are P1 and P2).
            room = page.evaluate("() => fetch('/api/room').then((r) => r.json())")
            said = [s["text"] for s in room["boards"][0]["said"]]
            heard = page.evaluate(HEARD)
            assert len(said) == 6 and heard[-6:] == said
            assert {text.split(": ")[0] for text in said} <= {"Ann", "Bob"}
            page.screenshot(path=str(shots / "after.png"), full_page=True)

            page.goto(url + "/scorecards")
            assert "%s-%s" % (max(fronts), min(fronts)) in page.inner_text("body")
            page.screenshot(path=str(shots / "scorecards.png"), full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_board_card_shows_the_game_the_standings_count_and_the_night_s_notes(tmp_path):
    """A club night of three on one board (a bye each round): game 1 played, game 2 not begun. The card
    is the night's table 1 with game 1's players and score, the very game the standings count; the
    player with the bye is in the standings with no place; the tables still to play are noted."""
    sync_playwright = _browser_or_fail()
    m = KeyedMatch(22, games=2, comments=True)
    m.play()
    first_game = next(i for i, line in enumerate(m.lines) if "# next game" in line)
    data, path = str(tmp_path / "board"), str(tmp_path / "room.sqlite3")
    _play(data, m.lines[:first_game], fresh=True, script_path=tmp_path / "a.script")
    board = _sync(data, path)
    con = db.connect(path)
    night = clubdb.open_night(con, "Tuesday", ["Ann", "Bob", "Cy"], [board], games=3, now=0)
    rounds = clubdb.schedule(con, night)
    con.close()
    fronts = list(m.m.results[0][4])
    _board, a, b = rounds[0][0]  # game 1's table: Ann has the bye
    winner = (a, b)[0 if fronts[0] > fronts[1] else 1]

    # The data both views are drawn from: the card's game is the game the standings count.
    room = Room(path).snapshot()
    card = room["boards"][0]["table"]
    result = room["night"]["results"][0]
    assert card == {"tab": 1, "round": 1, "players": [a, b], "result": fronts}
    assert (result["round"], result["players"], result["scores"]) == (1, [a, b], fronts)

    server, thread, url = _server(path)
    shots = tmp_path / "shots"
    shots.mkdir()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            refused = []  # what the page's security policy blocked, as the browser reports it
            page.on(
                "console", lambda msg: refused.append(msg.text) if "Security Policy" in msg.text else None
            )
            page.goto(url)
            page.locator("#standings-table tr[data-player='Ann']").wait_for(timeout=20000)
            seats = ["%s (P%d)%s" % (p, s + 1, " wins" if p == winner else "") for s, p in enumerate((a, b))]
            assert page.inner_text("[data-board='%s']" % board).splitlines() == [
                "table 1",
                "game 1: %s v %s" % (a, b),
                "board " + board[-6:],
                seats[0],
                str(fronts[0]),
                seats[1],
                str(fronts[1]),
            ]
            rows = page.locator("#standings-table tr[data-player]")
            assert rows.first.get_attribute("data-player") == winner
            assert rows.first.locator("td").nth(5).inner_text() == "+%d" % (121 - min(fronts))
            ann = page.locator("#standings-table tr[data-player='Ann'] td")
            assert [ann.nth(k).inner_text() for k in (0, 2, 4)] == ["-", "0", "0"]
            notes = page.inner_text("#notes")
            assert notes.splitlines() == [
                "game %d table 1 (board %s): no finished game yet for %s v %s" % (k, board, t[1], t[2])
                for k, t in ((2, rounds[1][0]), (3, rounds[2][0]))
            ]
            assert refused == []
            page.screenshot(path=str(shots / "night.png"), full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
