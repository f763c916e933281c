"""A three-handed and a 2 v 2 table's page in real Chromium (Playwright, Debian's chromium): a person among
the board's opponents throws one card a deal, sees a peg row a side with its names (partners together),
plays a three-handed game to its end, and axe-core's WCAG AA rules find nothing on either page."""

import httpx
from test_page_access import _violations
from test_scoreboard import ARGS, CHROMIUM, _browser_or_fail
from test_tables_page import _click_if_there, url  # noqa: F401 (the server fixture)

FRONT = "circle.peg.front[data-side='%d']"


def _seated(browser, url, form, fills, made_on_the_page=False):  # noqa: F811 (url: the fixture's value)
    page = browser.new_page(viewport={"width": 420, "height": 900})
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    if made_on_the_page:  # the page's "new table": the form chosen, the table made, its page opened
        page.goto(url + "/table")
        assert _violations(page) == []
        page.check("input[name=form][value=%s]" % form)
        page.click("#make")
        page.locator("#join").wait_for(timeout=10000)
        code = page.url.rsplit("/", 1)[1]
        assert httpx.get("%s/api/tables/%s" % (url, code)).json()["form"] == form
    else:
        code = httpx.post(url + "/api/tables", json={"form": form}).json()["code"]
        page.goto(url + "/table/" + code)
    page.fill("#name", "Ann")
    page.click("#sit")
    page.locator("#status", has_text="waiting for the other seats to be taken").wait_for(timeout=10000)
    for level in fills:
        page.select_option("#level", level)
        page.click("#fill")
    page.locator("#hand button").nth(4).wait_for(timeout=10000)  # five cards dealt
    return page, refused


def _throw_one(page):
    assert "throw one card to the crib" in page.inner_text("#phase")
    buttons = page.locator("#hand button")
    buttons.nth(0).click()
    buttons.nth(1).click()  # a second pick replaces the first: one card goes to the crib
    assert page.locator("#hand button[aria-pressed='true']").count() == 1
    assert page.locator("#throw").is_enabled()
    page.click("#throw")


def test_a_page_plays_a_three_handed_game_to_its_end_among_two_opponents(url, tmp_path):  # noqa: F811
    sync_playwright = _browser_or_fail()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, refused = _seated(browser, url, "three", ["beginner", "top"])
        rows = page.locator("#board .side")
        assert rows.count() == 3 and page.locator("circle.peg.front").count() == 3
        assert [rows.nth(s).inner_text().split("\n")[0].split(" (crib")[0] for s in range(3)] == [
            "Ann (you)",
            "Board (beginner)",
            "Board (top)",
        ]
        assert _violations(page) == []
        _throw_one(page)
        page.wait_for_function("() => document.querySelector('#starter').textContent !== '–'", timeout=10000)
        assert len(page.locator("#hand button").all()) == 4
        shot = False
        for _ in range(2000):
            status = page.inner_text("#status")
            if "win" in status:
                break
            throw = page.locator("#throw")
            if throw.is_visible():
                if page.locator("#hand button[aria-pressed='true']").count() < 1:
                    _click_if_there(page.locator("#hand button[aria-pressed='false']:enabled").first)
                elif throw.is_enabled():
                    _click_if_there(throw)
            elif status == "your move":
                _click_if_there(page.locator("#hand button:enabled").first)
            if not shot and page.locator("#show li").count() == 4:  # three hands and the crib counted
                assert [page.locator("#show .played .lays").count()] == [3]
                assert _violations(page) == []
                page.screenshot(path=str(tmp_path / "three.png"), full_page=True)
                shot = True
            page.wait_for_timeout(60)
        assert "win" in page.inner_text("#status") and shot
        holes = [int(page.locator(FRONT % s).get_attribute("data-hole")) for s in range(3)]
        assert max(holes) == 121 and sorted(holes)[1] < 121
        assert "deal revealed: seed" in page.inner_text("#proof")
        assert refused == []
        browser.close()


def test_a_2v2_table_made_on_the_page_draws_two_teams_and_its_seat_throws_one_card(url, tmp_path):  # noqa: F811
    sync_playwright = _browser_or_fail()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, refused = _seated(browser, url, "four", ["beginner", "expected", "top"], made_on_the_page=True)
        rows = page.locator("#board .side")
        assert rows.count() == 2 and page.locator("circle.peg.front").count() == 2
        # partners sit opposite: Ann (seat 1) with the third seat, against the second and the fourth
        names = [rows.nth(s).inner_text().split("\n")[0].split(" (crib")[0] for s in range(2)]
        assert names == ["Ann (you) & Board (expected)", "Board (beginner) & Board (top)"]
        assert _violations(page) == []
        _throw_one(page)
        page.wait_for_function("() => document.querySelector('#starter').textContent !== '–'", timeout=10000)
        for _ in range(600):
            if page.locator("#show li").count() or "win" in page.inner_text("#status"):
                break
            if page.inner_text("#status") == "your move":
                _click_if_there(page.locator("#hand button:enabled").first)
            page.wait_for_timeout(60)
        assert page.locator("#show li").count() >= 1 and page.locator("#show .played .lays").count() == 4
        assert _violations(page) == []
        page.screenshot(path=str(tmp_path / "four.png"), full_page=True)
        assert refused == []
        browser.close()
