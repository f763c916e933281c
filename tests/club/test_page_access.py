# crib serve's pages for everyone, in real Chromium: axe-core's WCAG 2.1 AA rules find nothing on the room,
# the scorecards and a table (in the normal and the high-contrast view), nothing scrolls sideways at 200%
# zoom, the high-contrast view follows the system or the page's toggle, and a screen reader hears each new
# score in crib.speech's words, as the server wrote them.
import random
import threading

import httpx
import pytest
import uvicorn
from boards import free_port
from test_scoreboard import ARGS, CHROMIUM, _browser_or_fail

from crib import club
from crib.history import replay
from crib.store import clubdb, db
from crib.tables.service import Tables
from crib.web import serve
from crib.web.serve import config
from sim.matchgen import MatchPlayer

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BOARDS = ["%016x" % (0xC1AB000 + i) for i in range(2)]
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
HELD_BACK = 3  # the last events of board 0's match, synced while the page is open: new scores


def _match(k, players):
    p = MatchPlayer(random.Random(7 + k), players, games=1)
    p.play(max_games=1)
    return p.events


def _store(path, board, events, start):
    con = db.connect(path)
    db.add_events(con, board, [{"seq": start + k, "event": e} for k, e in enumerate(events)])
    replay.rebuild(con, board)
    con.close()


@pytest.fixture
def room(tmp_path):
    """A club night of four on two boards, each board's game 1 synced (board 0's last scores held back),
    and crib serve on it with the remote tables; yields (url, history path, board 0's held-back events)."""
    path = str(tmp_path / "room.sqlite3")
    con = db.connect(path)
    clubdb.open_night(con, "Tuesday", PLAYERS, BOARDS, games=1, now=0)
    con.close()
    tables = club.rotation(PLAYERS, 1)[0]
    held = []
    for k, board in enumerate(BOARDS):
        events = _match(k, tables[k])
        if k == 0:
            events, held = events[:-HELD_BACK], events[-HELD_BACK:]
        con = db.connect(path)
        db.note_board(con, {"board": board})
        con.close()
        _store(path, board, events, 1)
    port = free_port()
    server = uvicorn.Server(
        config(path, port=port, poll=0.2, tables=Tables(str(tmp_path / "tables.sqlite3")))
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        thread.join(0.05)
    assert server.started
    try:
        yield "http://127.0.0.1:%d" % port, path, held
    finally:
        server.should_exit = True
        thread.join(10)


def _violations(page):
    """axe-core's WCAG 2.0/2.1 A and AA violations on the page as it is drawn now, as readable lines."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]}
    found = Axe().run(page, options=options).response["violations"]
    return [
        "%s (%s): %s at %s" % (v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:5])
        for v in found
    ]


def _watch_policy(page):
    refused = []  # what the page's security policy blocked, as the browser reports it
    page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    return refused


def _open_room(page, url):
    page.goto(url)
    page.locator("#standings-table tr[data-player]").first.wait_for(timeout=20000)
    page.locator(".board").nth(len(BOARDS) - 1).wait_for(timeout=20000)


def _table_seated(browser, url, viewport, contrast=None):
    """A table's page before sitting (the join form) and after (a hand dealt): yields the page at each."""
    code = httpx.post(url + "/api/tables", json={}).json()["code"]
    page = browser.new_context(viewport=viewport).new_page()
    refused = _watch_policy(page)
    if contrast:
        page.emulate_media(contrast=contrast)
    page.goto(url + "/table/" + code)
    page.locator("#join").wait_for(timeout=10000)
    yield page
    page.select_option("#level", "beginner")
    page.click("#fill")
    page.locator("#status", has_text="opponent sat down").wait_for(timeout=10000)
    page.fill("#name", "Ann")
    page.click("#sit")
    page.locator("#hand button").nth(5).wait_for(timeout=10000)
    yield page
    assert refused == []


def test_axe_finds_no_wcag_aa_violation_on_the_room_the_scorecards_and_a_table(room, tmp_path):
    sync_playwright = _browser_or_fail()
    url, _path, _held = room
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        refused = _watch_policy(page)
        _open_room(page, url)
        assert _violations(page) == []
        page.goto(url + "/scorecards")
        page.locator("section.card").first.wait_for(timeout=10000)
        assert _violations(page) == []
        assert refused == []
        for at, table in zip(("before sitting", "seated"), _table_seated(browser, url, None), strict=True):
            assert (at, _violations(table)) == (at, [])
        browser.close()


ZOOMED = {"width": 640, "height": 400}  # a 1280x800 screen at 200% zoom, in CSS pixels
SIDEWAYS = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def _fits(page, at, keys):
    """Nothing scrolls sideways and each key element is drawn inside the window's width."""
    wide, window = page.evaluate(SIDEWAYS)
    assert wide <= window, "%s scrolls sideways at 200%%: %d px in %d" % (at, wide, window)
    for key in keys:
        box = page.locator(key).first.bounding_box()
        assert box and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= window, (
            at,
            key,
            box,
        )


def test_at_200_percent_zoom_no_page_scrolls_sideways_and_the_key_content_is_there(room):
    sync_playwright = _browser_or_fail()
    url, _path, _held = room
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=ZOOMED)
        _open_room(page, url)
        _fits(page, "the room", [".board svg", ".board .side .score", "#standings-table", "#status"])
        page.goto(url + "/scorecards")
        page.locator("section.card").first.wait_for(timeout=10000)
        _fits(page, "the scorecards", ["section.card h2", "section.card table"])
        for at, table in zip(("before sitting", "seated"), _table_seated(browser, url, ZOOMED), strict=True):
            keys = (
                ["#name", "#sit", "#fill"]
                if at == "before sitting"
                else ["#board svg", "#hand button", "#status"]
            )
            _fits(table, "a table " + at, keys)
        browser.close()


BACKGROUND = "() => getComputedStyle(document.body).backgroundColor"
PRESSED = "() => [...document.querySelectorAll('.contrast-toggle')].map(b => b.getAttribute('aria-pressed'))"


def _high_contrast_checked(page, at, standard):
    """The page in its high-contrast view: the button says so, the colours are not the standard ones, axe
    finds nothing."""
    assert page.evaluate(PRESSED) == ["true"], at
    assert page.evaluate(BACKGROUND) == "rgb(0, 0, 0)" != standard, at
    assert (at, _violations(page)) == (at, [])


def test_the_high_contrast_view_follows_the_system_or_the_button_is_remembered_and_passes_axe(room):
    sync_playwright = _browser_or_fail()
    url, _path, _held = room
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        refused = _watch_policy(page)
        _open_room(page, url)
        standard = page.evaluate(BACKGROUND)
        side_colour = page.locator(".board .side.s0").first.evaluate("e => getComputedStyle(e).color")
        assert page.evaluate(PRESSED) == ["false"]
        page.get_by_role("button", name="High contrast").click()
        _high_contrast_checked(page, "the room, by the button", standard)
        assert page.locator(".board .side.s0").first.evaluate("e => getComputedStyle(e).color") != side_colour
        page.reload()  # the choice is kept: the next page and the next visit are high-contrast too
        _open_room(page, url)
        _high_contrast_checked(page, "the room, reloaded", standard)
        page.goto(url + "/scorecards")
        page.locator("section.card").first.wait_for(timeout=10000)
        _high_contrast_checked(page, "the scorecards", "rgb(255, 255, 255)")
        page.get_by_role("button", name="High contrast").click()  # and back
        assert page.evaluate(PRESSED) == ["false"] and page.evaluate(BACKGROUND) == "rgb(255, 255, 255)"
        assert refused == []

        # A fresh browser whose system asks for more contrast: the view is on before any click.
        system = browser.new_context(viewport={"width": 1100, "height": 760}).new_page()
        system.emulate_media(contrast="more")
        _open_room(system, url)
        _high_contrast_checked(system, "the room, the system's wish", standard)
        system.get_by_role("button", name="High contrast").click()  # the page's choice wins over the system's
        assert system.evaluate(PRESSED) == ["false"] and system.evaluate(BACKGROUND) == standard
        for at, table in zip(
            ("before sitting", "seated"), _table_seated(browser, url, None, "more"), strict=True
        ):
            _high_contrast_checked(table, "a table " + at, "rgb(20, 24, 29)")

        # Forced colours (Windows' high contrast themes): the board drawn in the system's colours.
        forced = browser.new_context(viewport={"width": 1100, "height": 760}).new_page()
        forced.emulate_media(forced_colors="active")
        _open_room(forced, url)
        hole, peg = forced.evaluate(
            "() => ['.hole', '.peg.front.s0'].map(s => getComputedStyle(document.querySelector(s)).fill)"
        )
        assert hole != peg  # the pegs stand out from the holes in the system's colours
        browser.close()


# speechSynthesis as the page sees it, stubbed before the page's own scripts: each utterance's text is
# kept (window.spoken), nothing is played; with window.refusing set it refuses each one ("not-allowed"),
# as Chromium's does for a page nobody has clicked yet (which a page driven by Playwright never is).
# NO_SPEECH: a browser with no speech synthesis at all.
SPEECH = """(() => {
  window.spoken = [];
  class Utterance { constructor(text) { this.text = text; } }
  const synth = {speak(u) {
    window.spoken.push(u.text);
    if (window.refusing) u.onerror({error: "not-allowed"});
  }, cancel() {}};
  Object.defineProperty(window, "SpeechSynthesisUtterance", {value: Utterance, configurable: true});
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
})();"""
NO_SPEECH = """(() => {
  for (const name of ["speechSynthesis", "SpeechSynthesisUtterance"])
    Object.defineProperty(window, name, {value: undefined, configurable: true});
})();"""
HEARD = "() => [...document.querySelectorAll('#said p')].map(p => p.textContent)"
SPOKEN = "() => window.spoken"
# Board 0's held-back scores as the page says them: table 1 (Ann v Di), its last card, then Di's hand.
HELD_SAID = [
    "Table 1. Ann: one for the go",
    "Table 1. Di: a pair is two, another pair is four, and four runs of three is sixteen for the hand",
]
SPEAK_PRESSED = "() => document.getElementById('speak').getAttribute('aria-pressed')"


def _peg(page, path, board, events, lines):
    """The board syncs `events`: the page's live region grows to `lines` lines (no reload)."""
    con = db.connect(path)
    start = db.next_seq(con, board)
    con.close()
    _store(path, board, events, start)
    page.wait_for_function("n => document.querySelectorAll('#said p').length >= n", arg=lines, timeout=20000)


def _reconnecting(page, url):
    """From now on the page's stream ends after each room it sends, so the page connects again and again
    (100 ms apart) and is sent the room as it is each time: the reconnects of a flaky network."""
    served = []

    def once(route):
        served.append(1)
        room = httpx.get(url + "/api/room").text
        route.fulfill(
            status=200, headers={"content-type": "text/event-stream"}, body="retry: 100\ndata: %s\n\n" % room
        )

    page.route("**/api/stream", once)
    return served


def _reconnects(page, times):
    """Wait until the page has connected to the stream `times` times more."""
    for _ in range(times):
        with page.expect_request(lambda r: r.url.endswith("/api/stream"), timeout=20000):
            pass


def test_a_screen_reader_hears_each_new_score_once_and_speak_scores_says_it_aloud(room):
    """Board 0 is the night's table 1 (Ann v Di) and syncs its last scores while the page is open: its
    last card ("one for the go"), then Di's hand. Each is one line in the live region and, with 'Speak
    scores' on, one utterance, in the server's words with the table before them (two boards in the
    room); nothing of what the boards held when the page opened is said, nor again at a reconnect or a
    reload; off, nothing is spoken, and the button's choice outlives a reload."""
    sync_playwright = _browser_or_fail()
    url, path, held = room
    assert [e["t"] for e in held] == ["lay", "lay", "show"] and held[1]["n"] == 1 and held[2]["n"] == 16
    go, hand = HELD_SAID
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1100, "height": 760})
        context.add_init_script(SPEECH)
        page = context.new_page()
        refused = _watch_policy(page)
        _open_room(page, url)
        region = page.locator("#said")
        assert [region.get_attribute(a) for a in ("role", "aria-live")] == ["log", "polite"]
        box = region.bounding_box()
        assert box is not None and box["width"] <= 1 and box["height"] <= 1  # there to be read, not drawn
        assert page.evaluate(HEARD) == [] and page.evaluate(SPOKEN) == []  # the old scores are not read out
        assert page.evaluate(SPEAK_PRESSED) == "false"  # off until asked for
        page.get_by_role("button", name="Speak scores").click()
        assert page.evaluate(SPEAK_PRESSED) == "true"

        _peg(page, path, BOARDS[0], held[:2], 1)
        assert page.evaluate(HEARD) == [go] and page.evaluate(SPOKEN) == [go]
        assert _violations(page) == []  # with a line in the live region and the button pressed

        # A reload is the page opened again: nothing said, the button as it was left. Its stream drops
        # after every room now: the room sent again and again says nothing twice.
        served = _reconnecting(page, url)
        page.reload()
        _open_room(page, url)
        assert page.evaluate(HEARD) == [] and page.evaluate(SPOKEN) == []
        assert page.evaluate(SPEAK_PRESSED) == "true"
        page.evaluate("() => { window.refusing = true; }")
        _peg(page, path, BOARDS[0], held[2:], 1)
        _reconnects(page, 3)
        assert page.evaluate(HEARD) == [hand] and page.evaluate(SPOKEN) == [hand]
        assert len(served) >= 5
        note = page.locator("#speak-note")  # the browser would not speak it: the page says why
        assert note.is_visible() and "click" in note.inner_text()

        # Off: the live region still hears a new game on board 1 (its last pegs, as the server says
        # them, after the table), nothing is spoken.
        page.get_by_role("button", name="Speak scores").click()
        assert page.evaluate(SPEAK_PRESSED) == "false" and note.is_hidden()
        _peg(page, path, BOARDS[1], _match(5, ("Bob", "Cy")), 1 + serve.SAID)
        said = [b["said"] for b in httpx.get(url + "/api/room").json()["boards"] if b["board"] == BOARDS[1]][
            0
        ]
        assert page.evaluate(HEARD) == [hand] + ["Table 2. " + s["text"] for s in said]
        assert page.evaluate(SPOKEN) == [hand]
        page.unroute("**/api/stream")
        page.reload()
        _open_room(page, url)
        assert page.evaluate(SPEAK_PRESSED) == "false" and page.evaluate(HEARD) == []
        assert refused == []
        browser.close()


def test_with_no_speech_synthesis_the_button_says_so_and_the_live_region_still_hears_the_scores(room):
    sync_playwright = _browser_or_fail()
    url, path, held = room
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1100, "height": 760})
        context.add_init_script(NO_SPEECH)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        _open_room(page, url)
        button = page.locator("#speak")
        assert button.is_visible() and button.is_disabled()
        assert button.inner_text() == "Speak scores (this browser cannot speak)"
        _peg(page, path, BOARDS[0], held, 2)
        assert page.evaluate(HEARD) == HELD_SAID
        assert _violations(page) == [] and errors == []
        browser.close()
