"""Two `crib serve --tables` processes on one PostgreSQL database: a seat long-polling on one hears a move
made through the other (LISTEN/NOTIFY), a whole game is played with the seats split, and a listener
whose connection is cut hears again."""

import random
import threading
import time

import httpx
import psycopg
import pytest
import tableseats
import tableserve
from boards import free_port

from crib.store import db
from crib.tables import fairdeal, store
from crib.web.tablesweb import WAIT_S

# On PostgreSQL a waiting poll never looks at the database by itself: it is woken by a notification or
# answers at WAIT_S. A poll answered well before that, with the move, was woken by the other server.
HEARD_S = WAIT_S / 2


@pytest.fixture
def servers(tmp_path, pg_server):
    history = str(tmp_path / "history.sqlite3")
    db.connect(history).close()
    url = pg_server.database("crib_fanout_%d" % free_port())
    procs = []
    try:
        for _ in range(2):
            procs.append(tableserve.start(history, url))
        clients = [httpx.Client(base_url=u, timeout=HEARD_S) for _p, u in procs]
        yield url, clients
        for c in clients:
            c.close()
    finally:
        for proc, _u in procs:
            tableserve.stop(proc)


class Seat:
    """A scripted seat on one server: it moves when awaited and long-polls when not."""

    def __init__(self, client, code, name, rng):
        self.client, self.code, self.rng = client, code, rng
        got = client.post("/api/tables/%s/join" % code, json={"name": name}).json()
        self.seat, self.auth = got["seat"], {"authorization": "Bearer " + got["token"]}
        self.share = fairdeal.new_share()
        self.views, self.sent = [], 0

    def view(self, after=None):
        q = "" if after is None else "?after=%d" % after
        v = self.client.get("/api/tables/%s/seat%s" % (self.code, q), headers=self.auth).json()
        self.views.append(v)
        return v

    def send(self, v, move):
        for _ in range(200):
            r = self.client.post(
                "/api/tables/%s/moves" % self.code,
                headers=self.auth,
                json={"seq": v["seq"] + 1, "move": move},
            )
            if r.status_code != 429:  # the seat's flood limit: wait, as a client is told to
                break
            time.sleep(0.25)
        assert r.status_code == 200, r.text
        self.sent += 1
        self.views.append(r.json()["view"])
        return self.views[-1]

    def choose(self, v):
        return tableseats.choose(v, self.share, self.rng)

    def play(self):
        v = self.view()
        for _ in range(2000):
            if v["phase"] == "over":
                return v
            if self.seat in v["awaited"]:
                v = self.send(v, self.choose(v))
            else:
                v = self.view(v["n"])  # a timeout here is a move the other server stored and nobody heard
        raise AssertionError("the game did not end")


def poll_in_thread(seat, after):
    got = {}

    def run():
        try:
            got["view"] = seat.view(after)
        except httpx.TimeoutException as e:
            got["error"] = e

    th = threading.Thread(target=run)
    th.start()
    return th, got


def bob_moves_while_ann_waits(one, two, code, seed, meanwhile=lambda: None):
    """Ann on server one long-polls; Bob on server two makes a move: (Ann's view before, her poll's)."""
    ann = Seat(one, code, "Ann", random.Random(seed))
    bob = Seat(two, code, "Bob", random.Random(seed + 1))
    v = ann.view()
    th, got = poll_in_thread(ann, v["n"])
    time.sleep(0.3)  # Ann's poll is waiting on server one
    meanwhile()
    bob.send(bob.view(), bob.choose(bob.view()))
    th.join(HEARD_S + 5)
    return v, got


def test_a_seat_waiting_on_one_server_hears_a_move_made_through_the_other(servers):
    _url, (one, two) = servers
    code = one.post("/api/tables", json={}).json()["code"]
    v, got = bob_moves_while_ann_waits(one, two, code, 1)
    assert v["seats"] == [{"name": "Ann", "level": None}, {"name": "Bob", "level": None}]  # Bob sat on two
    assert "error" not in got, "the poll on server one did not hear server two's move"
    assert got["view"]["n"] == v["n"] + 1 and got["view"]["awaited"] == [v["seat"]]


def test_a_whole_game_with_the_seats_on_two_servers_ends_with_every_move_stored_once(servers):
    url, (one, two) = servers
    code = two.post("/api/tables", json={}).json()["code"]
    ann = Seat(one, code, "Ann", random.Random(3))
    bob = Seat(two, code, "Bob", random.Random(4))
    ends = {}
    threads = [threading.Thread(target=lambda s=s: ends.__setitem__(s.seat, s.play())) for s in (ann, bob)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    assert set(ends) == {ann.seat, bob.seat}, "a seat's game did not end"
    end = ends[ann.seat]
    assert end["phase"] == "over" and max(end["scores"]) == 121
    assert all(end[k] == ends[bob.seat][k] for k in ("scores", "winner", "proof", "n"))
    con = store.connect(url)
    stored = store.moves(con, code)
    con.close()
    assert [n for n, *_ in stored] == list(range(1, ann.sent + bob.sent + 1)) == list(range(1, end["n"] + 1))
    for s in (ann, bob):
        assert [q for _n, seat, q, _m in stored if seat == s.seat] == list(range(1, s.sent + 1))
        assert fairdeal.verify(end["proof"], s.seat, s.share, fairdeal.collect(s.views)) > 0


def test_a_listener_whose_connection_is_cut_hears_again(servers):
    url, (one, two) = servers
    code = one.post("/api/tables", json={}).json()["code"]
    cut = []

    def cut_the_listener():  # Ann's poll started server one's listener; Bob moves while it is away
        with psycopg.connect(url, autocommit=True) as con:
            q = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
            cut.extend(con.execute(q).fetchall())

    v, got = bob_moves_while_ann_waits(one, two, code, 5, cut_the_listener)
    assert cut, "no listener was connected"
    assert "error" not in got, "the poll on server one never heard of the move"
    assert got["view"]["n"] == v["n"] + 1
