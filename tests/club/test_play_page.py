"""A board and a person at a browser play one game at a table: a simulated board (the real firmware, its own
--data and link port) takes seat 0 through `crib play`, and a real Chromium page (Playwright, headless) takes
seat 1 on the table's page as a person would: a name typed, the seat taken, the throw and the lays clicked
card by card. The board's player keys its throw and lays on the sim's keys. Played to the end; then each
side's record is checked: the board's laptop history holds the game with its proof (`crib table verify`),
and the page's side is saved from the server into another history and verified there. What each side saw
of the other is read from each: the board's lays from the page's DOM, the page's lays from the board's
journal."""

import os
import time

import httpx
import tableserve
from boardplayer import DrawnSim, Player, Watcher
from boards import ROOT
from test_page_access import _violations
from test_play_e2e import _bridge, _crib, last_points
from test_scoreboard import ARGS, CHROMIUM, _browser_or_fail

from crib.store import db

GAME_S = 150  # the whole game's wall time at most (about a minute on the shared 2-core machine)
SHOT = os.path.join(ROOT, "build", "table-page-midgame.png")  # the page mid-game, to look at
# Every lay the page has drawn, as "deal:seat:card": the deal's lays under the hand and each show's play.
# A MutationObserver keeps them, so a lay drawn between two looks of the test is not missed.
OBSERVE = """() => {
  window.drawn = new Set();
  const look = () => document.querySelectorAll('[data-lay]').forEach(e => window.drawn.add(e.dataset.lay));
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
  look();
}"""


def _try_click(locator):
    """Click what is drawn now (the view can move on between two looks: then it is looked at again)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.click(timeout=500)
        return True
    except PlaywrightTimeout:
        return False


def _page_step(page):
    """One look at the page and, if it is the person's turn, one click: a card for the crib, the throw, or
    the first card that fits."""
    throw = page.locator("#throw")
    if throw.is_visible():
        if page.locator("#hand button[aria-pressed='true']").count() < 2:
            _try_click(page.locator("#hand button[aria-pressed='false']:enabled").first)
        elif throw.is_enabled():
            _try_click(throw)
    elif page.inner_text("#status") == "your move":
        _try_click(page.locator("#hand button:enabled").first)


def _board_lays(watcher):
    """The lays on the board's journal as {(deal, table seat, card)}: the board's player is seat 0 here, the
    board's player 1 the page's seat 1; a deal is counted by the player's sixes."""
    deal, out = 0, []
    for _t, _seq, ev in watcher.heard:
        if ev.get("t") == "hand" and ev.get("p") == 0:
            deal += 1
        elif ev.get("t") == "lay":
            out.append((deal, ev["p"], ev["c"]))
    return out


def _wait(what, seconds=30):
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, what.__doc__
        time.sleep(0.05)


def test_a_board_through_crib_play_and_a_chromium_page_play_a_whole_game(tmp_path):
    sync_playwright = _browser_or_fail()
    club = str(tmp_path / "club.sqlite3")
    db.connect(club).close()
    server, url = tableserve.start(club, str(tmp_path / "tables.sqlite3"))
    history = str(tmp_path / "history.sqlite3")  # the board's laptop's
    db.connect(history).close()
    sim = DrawnSim(str(tmp_path / "board"))
    player = watcher = bridge = None
    try:
        made = _crib(tmp_path, "table", "new", "--server", url)
        assert made.returncode == 0, made.stderr
        code = made.stdout.split()[0]
        player, watcher = Player(sim), Watcher(sim)
        bridge = _bridge(tmp_path, code, url, sim, history)

        def seated():
            """the board's seat taken through crib play"""
            return httpx.get("%s/api/tables/%s" % (url, code)).json()["seats"][0] == "Ann"

        _wait(seated)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 420, "height": 860})
            refused = []
            page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
            page.goto(url + "/table/" + code)
            page.evaluate(OBSERVE)
            page.fill("#name", "Bob")
            page.click("#sit")
            page.locator("#hand button").nth(5).wait_for(timeout=30000)
            shot = None
            deadline = time.monotonic() + GAME_S
            while bridge.poll() is None:
                assert time.monotonic() < deadline, "the game did not end: %r" % page.inner_text("#status")
                st = player.step()
                _page_step(page)
                if shot is None and _midgame(page, st):
                    os.makedirs(os.path.dirname(SHOT), exist_ok=True)
                    page.screenshot(path=SHOT, full_page=True)
                    shot = _violations(page)  # axe-core's WCAG AA rules, with both seats' lays drawn

                page.wait_for_timeout(30)
            out = bridge.communicate()[0]
            assert bridge.returncode == 0, out
            page.locator("#status", has_text="win").wait_for(timeout=10000)
            record = httpx.get("%s/api/tables/%s/record" % (url, code)).json()
            assert record["names"] == ["Ann", "Bob"]
            pegs = [
                int(page.locator("circle.peg.front[data-side='%d']" % s).get_attribute("data-hole") or -1)
                for s in (0, 1)
            ]
            assert pegs == record["scores"] and max(pegs) == 121
            won = page.locator("circle.peg.back[data-side='%d']" % record["winner"]).get_attribute(
                "data-hole"
            )
            assert 0 < int(won or 0) < 121  # the back peg where the winning peg came from
            assert "deal revealed: seed %s" % record["proof"]["seed"] in page.inner_text("#proof")
            drawn = {tuple(int(x) for x in lay.split(":")) for lay in page.evaluate("[...window.drawn]")}
            assert shot == [], shot or "no screenshot: the game had no play with both seats' lays on the page"
            assert refused == []
            browser.close()
        for _ in range(100):  # the board's last counts, if the game ended in a show
            st = player.step()
            if st.get("match_over"):
                break
            time.sleep(0.1)
        # The board ends its match as the table ends the game (seat 0 is the board's player): never a new
        # match proposed on it while the table's game went on (issue 28).
        assert st.get("match_over") and st["front"] == record["scores"], (st.get("front"), record["scores"])
        print("the game's last points: %s" % last_points(record))
        journal = _board_lays(watcher)
        # The page's side, from the record: saved from the server into another history, re-dealt and verified.
        other = str(tmp_path / "page-history.sqlite3")
        db.connect(other).close()
        saved = _crib(tmp_path, "table", "save", code, "--server", url, "--db", other)
        assert saved.returncode == 0, saved.stdout + saved.stderr
        verified = _crib(tmp_path, "table", "verify", code, "--db", other)
        assert verified.returncode == 0 and "table %s checks" % code in verified.stdout, (
            verified.stdout + verified.stderr
        )
    finally:
        if watcher is not None:
            watcher.close()
        if player is not None:
            player.close()
        tableserve.end(bridge)
        sim.kill()
        tableserve.stop(server)

    # The table's lays in order, each seat's, from the record: the board's journal holds them all, in order.
    laid = [(seat, mv["card"]) for seat, mv in record["moves"] if mv["t"] == "lay"]
    assert [(s, c) for _d, s, c in journal] == laid
    pages = [c for s, c in laid if s == 1]
    assert len(pages) >= 20  # the page laid its cards deal after deal, each one on the board as seat 1
    # Every card the board's player keyed is drawn on the page, in its deal and as seat 0's (the board's).
    boards = [(d, s, c) for d, s, c in journal if s == 0]
    assert boards and set(boards) <= drawn, sorted(set(boards) - drawn)
    assert {(d, s, c) for d, s, c in journal if s == 1} <= drawn  # (and its own, where they were laid)
    assert "table %s is over" % code in out and "kept as game" in out, out

    # The board's side: the laptop's history holds the game with its proof, and it verifies.
    verified = _crib(tmp_path, "table", "verify", code, "--db", history)
    assert verified.returncode == 0 and "table %s checks" % code in verified.stdout, (
        verified.stdout + verified.stderr
    )


def _midgame(page, st):
    """A moment worth a picture: the second deal's play or later, both seats with a lay on the table and a
    card or two still in the page's hand, both pegs off the start."""
    if "deal 1:" in page.inner_text("#phase") or "lay" not in page.inner_text("#phase"):
        return False
    held = page.locator("#hand button").count()
    drawn = page.evaluate("document.querySelectorAll('#laid [data-lay]').length")
    scores = page.locator(".side .score").all_inner_texts()
    return 1 <= held <= 3 and drawn >= 3 and all(s != "0" for s in scores) and bool(st)
