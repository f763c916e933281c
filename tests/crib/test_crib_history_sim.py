# Issue 12 on the real sim: a scripted match synced, then games/show/stats/export/plots checked against
# figures this test works out itself from the match's own events; crib watch's scale and reconnecting.
import csv
import io
import json
import os
import re
import struct
import threading
import time

import pytest
from boards import Sim, free_port
from rich.console import Console
from simmatch import flash_with_match
from typer.testing import CliRunner

from crib import watch as crib_watch
from crib.cli import app
from crib.link import ports
from crib.link.client import LinkClient
from crib.watch import TRACK, track, watch
from cribbage.cards import format_card
from cribbage.game import Match

runner = CliRunner()


def said(r):
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    return " ".join(r.output.split())


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hist")
    data, m = flash_with_match(tmp, seed=11, games=2)
    dbp = str(tmp / "h.sqlite3")
    before = time.time()
    with Sim(data) as sim:
        r = runner.invoke(app, ["sync", "--port", sim.url, "--db", dbp])
        assert r.exit_code == 0, r.output
    return {"db": dbp, "m": m, "events": m.events, "dir": tmp, "synced_at": before}


def deals_of(evs):
    """Per (game, deal): dealer side, starter card, play points per side, from the match's events
    replayed through a fresh core Match (not crib's code)."""
    m = Match(evs[0])
    out = {}
    for ev in evs[1:]:
        key = (m.game_no, m.deal_no)
        m.apply(dict(ev))
        d = out.setdefault(key, {"dealer": None, "starter": None, "play": [0] * m.sides, "scoring_lays": []})
        if ev["t"] == "starter":  # the deal's dealer and starter, as the starter is turned
            d["dealer"], d["starter"] = m.dealer_side, ev["c"]
        if ev["t"] in ("lay", "go") and ev.get("n"):
            side = ev["p"] % m.sides if ev["t"] == "lay" else ev["s"]
            d["play"][side] += ev["n"]
            if ev["t"] == "lay":
                d["scoring_lays"].append((ev["c"], ev["n"]))
    return out


def test_games_names_and_dates(synced):
    text = said(runner.invoke(app, ["games", "--db", synced["db"]]))
    assert "P1 v P2" in text
    day = time.strftime("%Y-%m-%d", time.localtime(synced["synced_at"]))
    assert day in text
    results = synced["m"].m.results
    for _winner, _out, _gains, _skunk, fronts in results:
        assert "-".join(str(f) for f in fronts) in text


def test_show_is_a_score_sheet_with_cards_as_cards(synced):
    evs = synced["events"]
    deals = deals_of(evs)
    text = said(runner.invoke(app, ["show", "1", "--db", synced["db"]]))
    names = ("P1", "P2")
    for (game, deal), d in deals.items():
        if game != 1 or d["starter"] is None:
            continue
        assert "Deal %d: %s deals, starter %s" % (deal, names[d["dealer"]], format_card(d["starter"])) in text
    # every scoring lay of game 1 appears with its card as a card and the points it made
    lays = [c for (g, _d), d in deals.items() if g == 1 for c in d["scoring_lays"]]
    assert lays
    for card, n in lays:
        assert re.search(r"\b%s %d \w" % (format_card(card), n), text), (format_card(card), n)
    assert not re.search(r"\[\d+, \d+", text)  # no card numbers
    assert "played %s" % time.strftime("%Y-%m-%d", time.localtime(synced["synced_at"])) in text


def independent_stats(evs):
    """Per name: games, wins, hand points (tapped hands below the game hole), play points per whole
    deal as dealer and pone: worked out from the events alone."""
    m = Match(evs[0])
    names = m.names
    st = {n: {"games": 0, "wins": 0, "hands": [], "play_dealer": [], "play_pone": []} for n in names}
    deals = deals_of(evs)
    last_deal = {}
    for game, deal in deals:
        last_deal[game] = max(last_deal.get(game, 0), deal)
    for ev in evs[1:]:
        m.apply(dict(ev))
        if ev["t"] == "peg" and ev["why"] == "hand" and m.front[ev["s"]] < m.target:
            st[names[ev["s"]]]["hands"].append(ev["n"])
    for winner, *_rest in m.results:
        for side, n in enumerate(names):
            st[n]["games"] += 1
            st[n]["wins"] += side == winner
    for (game, deal), d in deals.items():
        if d["dealer"] is None or game <= len(m.results) and deal == last_deal[game]:
            continue  # before the cut, or the deal a game ended in (cut short)
        for side, n in enumerate(names):
            st[n]["play_dealer" if d["dealer"] == side else "play_pone"].append(d["play"][side])
    return st


def test_stats_json_and_text_match_the_events(synced):
    r = runner.invoke(app, ["stats", "--json", "--db", synced["db"]])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    want = independent_stats(synced["events"])
    got = {p["name"]: p for p in data["players"]}
    assert set(got) == set(want) == {"P1", "P2"}
    for name, w in want.items():
        p = got[name]
        assert (p["games"], p["wins"]) == (w["games"], w["wins"])
        assert p["hands"] == len(w["hands"]) and p["hand_avg"] == round(sum(w["hands"]) / len(w["hands"]), 3)
        assert p["play_avg_dealer"] == round(sum(w["play_dealer"]) / len(w["play_dealer"]), 3)
        assert p["play_avg_pone"] == round(sum(w["play_pone"]) / len(w["play_pone"]), 3)
    h2h = data["head_to_head"]
    assert len(h2h) == 1 and h2h[0]["games"] == 2 and sum(h2h[0]["wins"]) == 2
    text = said(runner.invoke(app, ["stats", "--db", synced["db"]]))
    assert "head to head" in text and "P1 v P2" in text and "won as first dealer" in text


def test_export_csv_and_json_cards_as_cards(synced):
    r = runner.invoke(app, ["export", "--csv", "--db", synced["db"]])
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    plays = [row for row in rows if row["kind"] == "play"]
    assert plays and all(re.fullmatch(r"[A2-9TJQK][CDHS]", row["cards"]) for row in plays)
    for row in plays:
        assert re.match(
            r"(fifteen|thirty-one|pair|pair royal|double pair royal|run of \d|go|last card) \d", row["items"]
        ), row["items"]
    assert {row["name"] for row in rows} == {"P1", "P2"}
    r = runner.invoke(app, ["export", "--json", "--db", synced["db"]])
    data = json.loads(r.stdout)
    items = [it for g in data["games"] for s in g["scores"] for it in s["items"]]
    assert items and all(isinstance(it["kind"], str) and isinstance(it["points"], int) for it in items)


def png_size(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24]), len(data)


def test_plots(synced):
    out = str(synced["dir"] / "g1.png")
    said(runner.invoke(app, ["plot", "1", "--db", synced["db"], "-o", out]))
    (w, h), n = png_size(out)
    assert (w, h) == (800, 450) and n > 20000
    out = str(synced["dir"] / "stats.png")
    r = runner.invoke(app, ["stats", "--db", synced["db"], "--plot", out])
    assert r.exit_code == 0
    (w, h), n = png_size(out)
    assert (w, h) == (1200, 480) and n > 20000


def test_watch_track_scale():
    # The old track put a peg at 121 two thirds along (three holes a character on 60 characters).
    assert str(track(121, 0, 121, "red")).index("O") == TRACK  # after the opening "|": the last cell
    assert str(track(1, 0, 121, "red")).index("O") == 1
    assert str(track(61, 60, 121, "red")).index("O") == 1 + (TRACK - 1) // 2
    assert str(track(61, 0, 61, "red")).index("O") == TRACK


def test_watch_waits_for_the_board_and_reconnects(tmp_path, monkeypatch):
    # The old watch quit with "the board closed the connection".
    port = free_port()
    data = str(tmp_path / "flash")
    url = "socket://127.0.0.1:%d" % port
    stop = threading.Event()
    reopened = []

    def reopen():
        c = LinkClient(ports.open_port(url, 2.0), timeout=2.0)
        c.connect()
        reopened.append(c)
        return c

    console = Console(width=120, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    errors = []
    statuses = []  # every status line the view showed
    real_render = crib_watch.safe_render

    def render(state, hello, recent, status=""):
        statuses.append(status)
        return real_render(state, hello, recent, status)

    monkeypatch.setattr(crib_watch, "safe_render", render)

    def run():
        try:
            watch(
                first,
                console,
                seconds=1e9,
                clock=lambda: float("inf") if stop.is_set() else 0.0,
                reopen=reopen,
                retry_s=0.2,
            )
        except Exception as e:  # the test fails below if watch gave up
            errors.append(e)

    with Sim(data, port=port, fresh=True) as sim:
        first = reopen()
        reopened.clear()
        t = threading.Thread(target=run, daemon=True)
        t.start()
        sim.kill()
    with Sim(data, port=port):
        deadline = time.monotonic() + 60
        while not reopened and time.monotonic() < deadline and t.is_alive():
            time.sleep(0.1)
        stop.set()
        t.join(10)
    assert not t.is_alive() and not errors, errors
    assert reopened, "watch never reconnected"
    gone = [i for i, x in enumerate(statuses) if "went away" in x]
    assert gone and "" in statuses[gone[0] :]  # said so while it was gone, and cleared it once back
