"""Remote tables over HTTP: a game played through `crib serve`'s JSON API, and a client that tries to see
the other seat's cards, to send what it does not hold, or to send what is not a move."""

import random
import threading

import httpx
import pytest
import uvicorn
from boards import free_port

from crib.tables import fairdeal
from crib.tables.service import Tables
from crib.web import tablesweb
from crib.web.serve import config
from cribbage.cards import pip

# The keys of a view that hold no card: every other number in a view is a card.
NOT_CARDS = {
    "seat",
    "scores",
    "target",
    "dealer",
    "deal",
    "awaited",
    "other_holds",
    "holds",
    "sides",
    "to_throw",
    "count",
    "winner",
    "pegs",
    "moves",
    "seq",
    "n",
    "counted",
}


def cards_in(value, key=None):
    if key in NOT_CARDS:
        return set()
    if key == "laid":  # [seat, card] each
        return {c for _s, c in value}
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(cards_in(v, k) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v, key) for v in value)) if value else set()
    return set()


@pytest.fixture
def server(tmp_path):
    # as fast as a test asks: no seat's limit on moves or reads (their own tests set them)
    tables = Tables(str(tmp_path / "tables.sqlite3"), burst=10_000, reads=(10_000, 1.0), looks=(10_000, 1.0))
    yield from _serve(tmp_path, tables)


@pytest.fixture
def slow_reads(tmp_path):
    # each seat 3 reads, and no more while the clock stands still; an address 4 looks, then one each 100 s
    tables = Tables(str(tmp_path / "tables.sqlite3"), clock=lambda: 0.0, reads=(3, 1.0), looks=(4, 0.01))
    yield from _serve(tmp_path, tables)


def _serve(tmp_path, tables):
    history = tmp_path / "history.sqlite3"
    from crib.store import db

    db.connect(str(history)).close()
    port = free_port()
    served = uvicorn.Server(config(str(history), port=port, tables=tables))
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    with httpx.Client(base_url="http://127.0.0.1:%d" % port, timeout=30) as client:
        for _ in range(100):
            try:
                client.get("/api/tables/2222222222")
                break
            except httpx.TransportError:
                threading.Event().wait(0.05)
        client.tables = tables  # the server's own fold, to know what the other seat hides
        yield client
    served.should_exit = True
    thread.join(10)


def sit(client, code, name):
    r = client.post("/api/tables/%s/join" % code, json={"name": name})
    assert r.status_code == 200, r.text
    got = r.json()
    return got["seat"], {"authorization": "Bearer " + got["token"]}


SEATS = {"six": 2, "three": 3, "four": 4}


@pytest.mark.parametrize("form", ["six", "three", "four"])
def test_a_game_through_the_api_ends_verified_and_no_response_holds_the_other_seat_s_hidden_cards(
    server, form
):
    code = server.post("/api/tables", json={"form": form}).json()["code"]
    n = SEATS[form]
    seats = [sit(server, code, name) for name in ("Ann", "Bob", "Cy", "Dee")[:n]]
    shares = [fairdeal.new_share() for _ in range(n)]
    views = [[] for _ in range(n)]
    rng = random.Random(2)
    snooped = 0
    for _ in range(3000):
        for k, (seat, auth) in enumerate(seats):
            v = server.get("/api/tables/%s/seat" % code, headers=auth).json()
            views[k].append(v)
            truth = server.tables.cache[code].table
            others = [s for s in range(n) if s != seat]
            # every other seat's hand and throw, and the deck's card for the three-handed crib
            hidden = set(truth.to_crib) if truth.phase != "over" else set()
            for other in others:
                hidden |= set(truth.held[other]) | set(truth.thrown[other] or [])
            if truth.play is not None:
                hidden -= {c for _s, c in truth.play.laid}
            if v["phase"] != "over":
                # what a client can ask for, its own and each other seat's: nothing shows a hidden card
                asks = [server.get("/api/tables/%s/seat?seat=%d" % (code, o), headers=auth) for o in others]
                for r in asks + [
                    server.get("/api/tables/%s" % code),
                    server.post(
                        "/api/tables/%s/moves" % code,
                        headers=auth,
                        json={"seq": v["seq"] + 1, "move": {"t": "show"}},
                    ),
                ]:
                    assert not cards_in(r.json()) - set(v["shows"] and cards_in(v["shows"])) & hidden
                    snooped += 1
                assert not (cards_in(v) - cards_in(v["shows"])) & hidden
            if v["phase"] == "over" or seat not in v["awaited"]:
                continue
            if not v["share_in"]:
                move = {"t": "share", "share": shares[k]}
            elif v["phase"] == "discard":
                move = {"t": "discard", "cards": rng.sample(v["hand"], v["to_throw"])}
            else:
                move = {"t": "lay", "card": rng.choice([c for c in v["hand"] if v["count"] + pip(c) <= 31])}
            r = server.post(
                "/api/tables/%s/moves" % code, headers=auth, json={"seq": v["seq"] + 1, "move": move}
            )
            assert r.status_code == 200, r.text
            views[k].append(r.json()["view"])
        if views[0][-1]["phase"] == "over":
            break
    end = server.get("/api/tables/%s/seat" % code, headers=seats[0][1]).json()
    assert end["phase"] == "over" and max(end["scores"]) == 121 and snooped > 100
    assert end["form"] == form and len(end["scores"]) == (2 if form == "four" else n)
    for k, (seat, _auth) in enumerate(seats):
        assert fairdeal.verify(end["proof"], seat, shares[k], fairdeal.collect(views[k])) > 0
    assert server.get("/api/tables/%s" % code).json()["proof"]["seed"] == end["proof"]["seed"]


def test_what_the_api_refuses_it_says_and_changes_nothing(server):
    code = server.post("/api/tables", json={}).json()["code"]
    seat, auth = sit(server, code, "Ann")
    _other, auth2 = sit(server, code, "Bob")
    for a in (auth, auth2):
        r = server.post(
            "/api/tables/%s/moves" % code,
            headers=a,
            json={"seq": 1, "move": {"t": "share", "share": fairdeal.new_share()}},
        )
        assert r.status_code == 200
    before = server.get("/api/tables/%s/seat" % code, headers=auth).json()
    not_mine = next(c for c in range(52) if c not in before["hand"])
    cases = [
        (server.get("/api/tables/%s/seat" % code), 401, "Authorization: Bearer"),
        (
            server.get("/api/tables/%s/seat" % code, headers={"authorization": "Bearer nope"}),
            403,
            "not a seat's token",
        ),
        (server.get("/api/tables/zzzzzzzzzz/seat", headers=auth), 404, "no table"),
        (server.post("/api/tables/%s/join" % code, json={"name": "Cy"}), 403, "full"),
        (
            server.post(
                "/api/tables/%s/moves" % code,
                headers=auth,
                json={"seq": 2, "move": {"t": "discard", "cards": [before["hand"][0], not_mine]}},
            ),
            409,
            "is not in seat",
        ),
        (
            server.post(
                "/api/tables/%s/moves" % code, headers=auth, json={"seq": 7, "move": {"t": "lay", "card": 3}}
            ),
            409,
            "next move is number 2",
        ),
        (server.post("/api/tables/%s/moves" % code, headers=auth, content=b"{not json"), 400, "not JSON"),
        (server.post("/api/tables/%s/moves" % code, headers=auth, content=b"[1]"), 400, "JSON object"),
        (server.post("/api/tables/%s/moves" % code, headers=auth, content=b" " * 5000), 413, "4096 bytes"),
    ]
    for r, status, said in cases:
        assert r.status_code == status, (r.status_code, r.text)
        assert said in r.json()["error"]
    assert server.get("/api/tables/..%2fetc/seat", headers=auth).status_code == 404
    assert server.get("/api/tables/%s/seat" % code, headers=auth).json() == before


def test_a_name_is_checked_and_the_page_escapes_what_it_is_given(server):
    code = server.post("/api/tables", json={}).json()["code"]
    r = server.post("/api/tables/%s/join" % code, json={"name": "x" * 40})
    assert r.status_code == 400 and "1 to 24" in r.json()["error"]
    r = server.post("/api/tables/%s/join" % code, json={"name": "<b>Ann</b>"})
    assert r.status_code == 200
    assert server.get("/api/tables/%s" % code).json()["seats"][0] == "<b>Ann</b>"  # JSON, set as text
    page = server.get("/table/%s" % code)
    assert page.status_code == 200 and 'data-code="%s"' % code in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert server.get("/table/%3Cscript%3E").status_code == 404


def test_a_long_poll_answers_when_the_other_seat_moves(server):
    code = server.post("/api/tables", json={}).json()["code"]
    _s, a = sit(server, code, "Ann")
    v = server.get("/api/tables/%s/seat" % code, headers=a).json()
    r = server.post("/api/tables/%s/fill" % code, json={"level": "beginner"})
    assert r.status_code == 200
    after = server.get("/api/tables/%s/seat?after=%d" % (code, v["n"]), headers=a).json()
    assert after["seats"][1 - v["seat"]]["level"] == "beginner" and after["n"] == 1  # the bot's share is in
    assert after["waiting_for"] == []


def _from(server, address):
    """A client whose requests come from `address` (any of 127/8 reaches the server on loopback)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=str(server.base_url), timeout=30, transport=transport)


def test_one_address_flooding_tables_and_seats_is_refused_while_another_address_goes_on(server):
    with _from(server, "127.0.0.2") as flood, _from(server, "127.0.0.3") as neighbour:
        codes = [flood.post("/api/tables", json={}).json()["code"] for _ in range(tablesweb.DOOR_BURST)]
        assert len(set(codes)) == tablesweb.DOOR_BURST
        r = flood.post("/api/tables", json={})
        assert r.status_code == 429
        assert r.json()["error"] == "too many tables and seats from one address: wait a moment"
        r = flood.post("/api/tables/%s/join" % codes[0], json={"name": "Flood"})
        assert r.status_code == 429
        r = flood.post("/api/tables/%s/fill" % codes[0], json={"level": "top"})
        assert r.status_code == 429
        assert server.get("/api/tables/%s" % codes[0]).json()["seats"] == [None, None]  # nothing changed
        # guessing codes costs the same: a wrong code refused at the door, not looked up
        assert flood.post("/api/tables/2222222222/join", json={"name": "Flood"}).status_code == 429
        assert neighbour.post("/api/tables/%s/join" % codes[0], json={"name": "Ann"}).status_code == 200
        assert server.get("/api/tables/%s" % codes[0]).json()["seats"] == ["Ann", None]


def test_a_seat_reading_past_its_limit_is_refused_with_a_reason_and_the_table_goes_on(slow_reads):
    code = slow_reads.post("/api/tables", json={}).json()["code"]
    (_a, ann), (_b, bob) = sit(slow_reads, code, "Ann"), sit(slow_reads, code, "Bob")
    seat_url = "/api/tables/%s/seat" % code
    views = [slow_reads.get(seat_url, headers=ann) for _ in range(3)]
    assert [r.status_code for r in views] == [200, 200, 200]
    r = slow_reads.get(seat_url, headers=ann)
    assert r.status_code == 429 and r.json()["error"].startswith("too many reads from seat")
    r = slow_reads.get(seat_url + "?after=%d" % views[-1].json()["n"], headers=ann)
    assert r.status_code == 429  # a long poll is a read too: refused before it waits
    assert slow_reads.get(seat_url, headers=bob).status_code == 200  # the other seat reads on
    share = {"seq": 1, "move": {"t": "share", "share": fairdeal.new_share()}}
    assert slow_reads.post("/api/tables/%s/moves" % code, headers=ann, json=share).status_code == 200


def test_an_address_looking_at_tables_past_its_limit_is_refused_while_another_looks_on(slow_reads):
    # (the fixture's client waited for the server with one look already)
    code = slow_reads.post("/api/tables", json={}).json()["code"]
    with _from(slow_reads, "127.0.0.4") as flood, _from(slow_reads, "127.0.0.5") as neighbour:
        got = [flood.get("/api/tables/%s" % code).status_code for _ in range(4)]
        assert got == [200] * 4
        r = flood.get("/api/tables/%s" % code)
        assert r.status_code == 429 and r.json()["error"] == "too many reads from one address: wait a moment"
        assert flood.get("/api/tables/%s/record" % code).status_code == 429  # the record is a look too
        assert flood.get("/api/tables/2222222222").status_code == 429  # guessing a code costs the same
        assert neighbour.get("/api/tables/%s" % code).json()["seats"] == [None, None]
