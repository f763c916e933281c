"""Remote tables' core: a whole game through the service, moves applied once, refusals that change nothing."""

import random

import pytest
from tableseats import Seat, play_out

from crib.tables import fairdeal, record, service, store
from crib.tables.service import Forbidden, NotFound, Rejected, Tables, TooMany
from cribbage.game import Match


@pytest.fixture
def tables(tmp_path):
    return Tables(str(tmp_path / "club.sqlite3"), burst=10_000)


def new_pair(tables, seed=1):
    code = tables.new()
    rng = random.Random(seed)
    return code, Seat(tables, code, "Ann", rng), Seat(tables, code, "Bob", rng)


def test_a_whole_game_ends_at_121_with_every_peg_counted_and_the_deal_verified(tables):
    code, a, b = new_pair(tables)
    end = play_out(a, b)
    assert end["winner"] in (0, 1)
    assert end["scores"][end["winner"]] == 121 and end["scores"][1 - end["winner"]] < 121
    proof = end["proof"]
    assert proof["secret"] and proof["shares"] == [a.share, b.share]
    # each seat checks every card it was shown against the revealed seed
    for s in (a, b):
        seen = fairdeal.collect(s.views)
        assert len(seen) == end["deal"]
        assert fairdeal.verify(proof, s.seat, s.share, seen) >= 6 * len(seen)


def test_the_commitments_come_first_and_the_secret_only_at_the_end(tables):
    code, a, b = new_pair(tables)
    v = a.look()
    assert v["proof"]["secret_commit"] and v["proof"]["seed_commit"] is None and "secret" not in v["proof"]
    a.turn()
    assert a.look()["proof"]["seed_commit"] is None  # one share in: no seed yet
    b.turn()
    v = a.look()
    assert v["proof"]["seed_commit"] and v["phase"] == "discard" and len(v["hand"]) == 6
    assert "secret" not in v["proof"] and "seed" not in v["proof"]
    assert v["proof"]["secret_commit"] == a.views[0]["proof"]["secret_commit"]


def test_a_forged_deal_is_caught_by_the_verifier(tables):
    code, a, b = new_pair(tables, seed=3)
    end = play_out(a, b)
    seen = fairdeal.collect(a.views)
    proof = end["proof"]
    bad = [dict(d) for d in seen]
    bad[0]["hand"] = list(bad[0]["hand"])
    other = next(c for c in range(52) if c not in bad[0]["hand"])
    bad[0]["hand"][0] = other
    with pytest.raises(fairdeal.DealError, match="deal 1: the hand"):
        fairdeal.verify(proof, a.seat, a.share, bad)
    with pytest.raises(fairdeal.DealError, match="commitment the table published first"):
        fairdeal.verify(dict(proof, secret=fairdeal.new_secret()), a.seat, a.share, seen)
    with pytest.raises(fairdeal.DealError, match="share is not the one it sent"):
        fairdeal.verify(proof, a.seat, fairdeal.new_share(), seen)


def test_a_move_sent_again_is_applied_once_and_another_under_its_seq_refused(tables):
    code, a, b = new_pair(tables)
    a.turn()
    b.turn()
    v = a.look()
    throw = {"t": "discard", "cards": v["hand"][:2]}
    first = tables.move(code, a.token, 2, throw)
    again = tables.move(code, a.token, 2, throw)
    assert not first["replayed"] and again["replayed"]
    assert again["view"]["n"] == first["view"]["n"] == 3
    assert again["view"]["hand"] == v["hand"][2:]
    with pytest.raises(Rejected, match="move 2 of seat .* was another move"):
        tables.move(code, a.token, 2, {"t": "discard", "cards": v["hand"][2:4]})
    with pytest.raises(Rejected, match="next move is number 3, not 5"):
        tables.move(code, a.token, 5, {"t": "lay", "card": v["hand"][3]})
    assert a.look()["n"] == 3


def test_a_card_not_held_out_of_turn_or_a_bad_move_is_refused_and_changes_nothing(tables):
    code, a, b = new_pair(tables)
    a.turn()
    b.turn()
    before = a.look()
    theirs_count = b.look()
    not_mine = next(c for c in range(52) if c not in before["hand"])
    for move, said in (
        ({"t": "discard", "cards": [before["hand"][0], not_mine]}, "is not in seat"),
        ({"t": "discard", "cards": [before["hand"][0], before["hand"][0]]}, "same card twice"),
        ({"t": "discard", "cards": before["hand"][:3]}, "two cards"),
        ({"t": "lay", "card": before["hand"][0]}, "no lay now"),
        ({"t": "share", "share": fairdeal.new_share()}, "share is in already"),
        ({"t": "peek"}, "unknown move"),
        ({"t": "discard", "cards": ["ZZ", 1]}, "bad card"),
    ):
        with pytest.raises(Rejected, match=said):
            tables.move(code, a.token, 2, move)
    assert a.look() == dict(before) and b.look() == theirs_count
    a.send({"t": "discard", "cards": a.look()["hand"][:2]})
    b.send({"t": "discard", "cards": b.look()["hand"][:2]})
    v = a.look()
    layer, waiter = (a, b) if a.seat in v["awaited"] else (b, a)
    w = waiter.look()
    with pytest.raises(Rejected, match="not seat %d's turn" % waiter.seat):
        tables.move(code, waiter.token, waiter.seq + 1, {"t": "lay", "card": w["hand"][0]})
    assert waiter.look()["n"] == w["n"]


def test_a_flood_is_refused_and_changes_nothing(tmp_path):
    now = [0.0]
    tables = Tables(str(tmp_path / "club.sqlite3"), clock=lambda: now[0], burst=5, rate=1.0)
    code = tables.new()
    seat, token = tables.join(code, "Ann")
    for _ in range(5):
        with pytest.raises(Rejected):
            tables.move(code, token, 9, {"t": "share", "share": "x"})
    with pytest.raises(TooMany, match="too many moves"):
        tables.move(code, token, 1, {"t": "share", "share": fairdeal.new_share()})
    assert not tables.view(code, token)["share_in"]
    now[0] += 1.0
    tables.move(code, token, 1, {"t": "share", "share": fairdeal.new_share()})
    assert tables.view(code, token)["share_in"]


def test_a_seat_flooding_its_view_is_refused_while_the_other_seat_reads_on(tmp_path):
    now = [0.0]
    tables = Tables(str(tmp_path / "club.sqlite3"), clock=lambda: now[0], reads=(4, 2.0))
    code = tables.new()
    a_seat, a = tables.join(code, "Ann")
    b_seat, b = tables.join(code, "Bob")
    assert [tables.read(code, a) for _ in range(4)] == [a_seat] * 4
    with pytest.raises(TooMany, match="too many reads from seat %d" % a_seat):
        tables.read(code, a)
    assert tables.read(code, b) == b_seat  # each seat its own limit: one flooding stops no other
    with pytest.raises(Forbidden):
        tables.read(code, "guess")  # a guessed token counts against no seat
    now[0] += 0.5  # one read back at 2 a second
    assert tables.read(code, a) == a_seat
    with pytest.raises(TooMany):
        tables.read(code, a)
    # a whole game never meets the default: a long poll answers once a move, moves are 4 a second
    assert service.READ_PER_S >= 2 * service.PER_S and service.READ_BURST >= service.BURST


def test_tokens_codes_and_seats_are_checked(tables):
    code, a, b = new_pair(tables)
    with pytest.raises(Forbidden, match="full"):
        tables.join(code, "Cy")
    with pytest.raises(Forbidden, match="not a seat's token"):
        tables.view(code, "guess")
    with pytest.raises(Forbidden, match="not a seat's token"):
        tables.view(code, b.token + "x")
    with pytest.raises(NotFound):
        tables.view("nosuchcode", a.token)
    other = tables.new()
    with pytest.raises(Forbidden):
        tables.view(other, a.token)  # a token is bound to its table and seat
    assert len(code) == 10 and code != other


def test_a_seat_never_sees_the_other_hand_before_the_show(tables):
    code, a, b = new_pair(tables, seed=5)
    checked = 0
    for _ in range(2000):
        for me in (a, b):
            truth = tables.cache[code].table  # the server's own fold: what the other seat hides now
            other = 1 - me.seat
            hidden = set(truth.held[other]) | set(truth.thrown[other] or [])
            if truth.play is not None:
                hidden -= {c for _s, c in truth.play.laid}
            v = me.look()
            shown = set(v["hand"]) | set(v["thrown"]) | set(v["current"]) | set(v["dealt"])
            shown |= {c for _s, c in v["laid"] if _s == me.seat} | {v["starter"]}
            assert not shown & hidden, v
            assert all(s["deal"] < v["deal"] for s in v["shows"]) or v["phase"] == "over"
            checked += len(hidden)
            me.turn()
        if a.views[-1]["phase"] == "over":
            break
    # the table's secret is new each run, so the game's length is too: a whole game looks for hundreds
    assert a.views[-1]["phase"] == "over" and checked > 100
    assert fairdeal.verify(a.views[-1]["proof"], a.seat, a.share, fairdeal.collect(a.views)) > 0


def test_two_servers_on_one_database_play_one_table(history_db):
    path = history_db  # a SQLite file, then a fresh PostgreSQL database
    one, two = Tables(path, burst=10_000), Tables(path, burst=10_000)
    code = one.new()
    rng = random.Random(9)
    a = Seat(one, code, "Ann", rng)
    b = Seat(two, code, "Bob", rng)
    end = play_out(a, b)
    assert one.public(code) == two.public(code)
    assert end["winner"] is not None
    # replayed from the database alone, a third server agrees move for move
    three = Tables(path)
    assert three.public(code) == one.public(code)


def board_match(table):
    """The board's own fold (cribbage.game.Match) fed the table's game as a board keys it."""
    setup, *rest = record.board_events(table)
    m = Match(setup)
    for ev in rest:
        m.apply(ev)
    return m


@pytest.mark.parametrize("seed", range(11, 19))
def test_the_board_scores_a_table_game_the_same(tables, seed):
    code, a, b = new_pair(tables, seed=seed)
    end = play_out(a, b)
    m = board_match(tables.cache[code].table)
    assert list(m.front) == end["scores"]
    assert m.game_over


def test_the_boards_opponent_fills_an_empty_seat_and_plays_a_whole_game(tables):
    code = tables.new()
    a = Seat(tables, code, "Ann", random.Random(4))
    assert tables.fill(code, "expected") == 1 - a.seat
    with pytest.raises(Forbidden, match="full"):
        tables.fill(code, "top")
    end = play_out(a, a)
    assert end["seats"][1 - a.seat] == {"name": "Board (expected)", "level": "expected"}
    assert end["winner"] is not None and max(end["scores"]) == 121
    assert fairdeal.verify(end["proof"], a.seat, a.share, fairdeal.collect(a.views)) > 0
    m = board_match(tables.cache[code].table)
    assert list(m.front) == end["scores"]


def test_a_seat_dropped_and_rejoined_100_times_ends_the_game_as_without_drops(tmp_path):
    secret = fairdeal.new_secret()
    shares = [fairdeal.new_share(), fairdeal.new_share()]

    def game(path, drops):
        tables = Tables(path, burst=10_000)
        code = tables.new(secret)
        seats = [Seat(tables, code, name, random.Random(k)) for k, name in enumerate(("Ann", "Bob"))]
        for s, share in zip(seats, shares, strict=True):
            s.share = share
        dropped = 0
        for _ in range(2000):
            for s in seats:
                v = s.look()
                if v["phase"] == "over" or s.seat not in v["awaited"]:
                    continue
                if s.seat == 1 and dropped < drops:  # dropped before its move: rejoins, reads where it was
                    tables = Tables(path, burst=10_000)
                    for t in seats:
                        t.tables = tables
                    assert s.look() == v
                    dropped += 1
                move = s.choose(v)
                s.send(move)
                if s.seat == 1 and dropped < drops:
                    # the server restarts (nothing cached) and the seat, not knowing its move was taken,
                    # rejoins and sends it again under the same seq
                    tables = Tables(path, burst=10_000)
                    for t in seats:
                        t.tables = tables
                    again = tables.move(code, s.token, s.seq, move)
                    assert again["replayed"]
                    dropped += 1
            if seats[0].views[-1]["phase"] == "over":
                break
        con = store.connect(path)
        return tables.public(code), [m[1:] for m in store.moves(con, code)], dropped

    calm = game(str(tmp_path / "calm.sqlite3"), 0)
    stormy = game(str(tmp_path / "stormy.sqlite3"), 100)
    assert stormy[2] == 100
    assert stormy[1] == calm[1]  # the same moves, in the same order, each once
    assert stormy[0]["scores"] == calm[0]["scores"] and stormy[0]["winner"] == calm[0]["winner"]
    assert stormy[0]["proof"]["seed"] == calm[0]["proof"]["seed"] is not None


def test_two_servers_sent_the_same_move_at_once_store_it_once(history_db):
    import threading

    servers = [Tables(history_db, burst=10_000) for _ in range(4)]
    code = servers[0].new()
    seat, token = servers[0].join(code, "Ann")
    share = {"t": "share", "share": fairdeal.new_share()}
    start = threading.Barrier(len(servers))
    answers = []

    def send(t):
        start.wait()
        answers.append(t.move(code, token, 1, share)["replayed"])

    threads = [threading.Thread(target=send, args=(t,)) for t in servers]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert sorted(answers) == [False, True, True, True]  # one server stored it; the others found it
    con = store.connect(history_db)
    assert [m[1:3] for m in store.moves(con, code)] == [(seat, 1)]
