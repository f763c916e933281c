"""A remote table's page in a real browser (Debian's chromium driven by Playwright): two people at two
pages, one dropping and rejoining; a person against the board's opponent for a whole game."""

import threading

import httpx
import pytest
import uvicorn
from boards import free_port
from test_scoreboard import ARGS, CHROMIUM, _browser_or_fail

from crib.store import db
from crib.tables.service import Tables
from crib.web.serve import config


@pytest.fixture
def url(tmp_path):
    history = str(tmp_path / "history.sqlite3")
    db.connect(history).close()
    port = free_port()
    served = uvicorn.Server(config(history, port=port, tables=Tables(str(tmp_path / "tables.sqlite3"))))
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    base = "http://127.0.0.1:%d" % port
    for _ in range(200):
        try:
            httpx.get(base + "/api/tables/2222222222")
            break
        except httpx.TransportError:
            threading.Event().wait(0.05)
    yield base
    served.should_exit = True
    thread.join(10)


def hand_of(page):
    return [b.get_attribute("data-card") for b in page.locator("#hand button").all()]


def test_two_pages_play_and_a_page_that_drops_rejoins_where_it_was(url, tmp_path):
    sync_playwright = _browser_or_fail()
    code = httpx.post(url + "/api/tables", json={}).json()["code"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ann = browser.new_context(viewport={"width": 420, "height": 860}).new_page()
        bob = browser.new_context(viewport={"width": 420, "height": 860}).new_page()
        refused = []
        for page in (ann, bob):
            page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
            page.goto(url + "/table/" + code)
        ann.fill("#name", "Ann <i>")
        ann.click("#sit")
        ann.locator("#status", has_text="waiting for the other seat").wait_for(timeout=10000)
        bob.fill("#name", "Bob")
        bob.click("#sit")
        for page in (ann, bob):  # the shares sent by each page, the deal dealt
            page.locator("#hand button").nth(5).wait_for(timeout=10000)
        assert "Ann <i> (you)" in ann.inner_text("#board")  # the name as text, not markup
        ann.locator("#hand button").nth(0).click()
        ann.locator("#hand button").nth(1).click()
        ann.click("#throw")
        ann.locator("#status", has_text="waiting for Bob").wait_for(timeout=10000)
        held = hand_of(bob)
        bob.reload()  # Bob's page drops and comes back: the same seat, the same hand
        bob.locator("#hand button").nth(5).wait_for(timeout=10000)
        assert hand_of(bob) == held
        bob.locator("#hand button").nth(2).click()
        bob.locator("#hand button").nth(3).click()
        bob.click("#throw")
        for page in (ann, bob):
            page.locator("#starter", has_text="").wait_for(timeout=10000)
            page.wait_for_function(
                "() => document.querySelector('#starter').textContent !== '–'", timeout=10000
            )
        assert ann.inner_text("#starter") == bob.inner_text("#starter")
        assert len(hand_of(ann)) == len(hand_of(bob)) == 4
        ann.screenshot(path=str(tmp_path / "table.png"), full_page=True)
        assert refused == []
        browser.close()


def _click_if_there(locator):
    """Click what is drawn now: a view that moved on is looked at again, not waited for."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.click(timeout=2000)
    except PlaywrightTimeout:
        pass


def test_a_page_plays_a_whole_game_against_the_board_s_opponent(url, tmp_path):
    sync_playwright = _browser_or_fail()
    code = httpx.post(url + "/api/tables", json={}).json()["code"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 420, "height": 860})
        page.goto(url + "/table/" + code)
        page.select_option("#level", "beginner")
        page.click("#fill")
        page.locator("#status", has_text="opponent sat down").wait_for(timeout=10000)
        page.fill("#name", "Ann")
        page.click("#sit")
        page.locator("#hand button").first.wait_for(timeout=10000)
        for _ in range(1200):
            status = page.inner_text("#status")
            if "win" in status:
                break
            throw = page.locator("#throw")
            if throw.is_visible():
                # Pick until two are pressed; the view can change between two looks
                pressed = page.locator("#hand button[aria-pressed='true']").count()
                if pressed < 2:
                    _click_if_there(page.locator("#hand button[aria-pressed='false']:enabled").first)
                elif throw.is_enabled():
                    _click_if_there(throw)
            elif status == "your move":
                _click_if_there(page.locator("#hand button:enabled").first)
            page.wait_for_timeout(60)
        assert "win" in page.inner_text("#status")
        scores = [
            int(page.locator("circle.peg.front[data-side='%d']" % s).get_attribute("data-hole"))
            for s in (0, 1)
        ]
        assert max(scores) == 121
        assert "deal revealed: seed" in page.inner_text("#proof")
        assert page.locator("#show li").count() >= 1
        page.screenshot(path=str(tmp_path / "over.png"), full_page=True)
        browser.close()
