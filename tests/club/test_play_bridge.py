"""The bridge's decision part (crib/tables/bridge.py): from a seat's view and a board's `table` state, the
moves each side lacks. Here both sides are real but in-process: the server's seats (crib.tables.service over
SQLite) and the whole board app (tests/support/scenario.py) with its link's bytes, its player keying the
throw and the lays on its keys. The bridge's step is board_moves then seat_moves, nothing kept between
steps but the board's throws it followed; a drop is steps skipped while the player keys on, and a replay
is the last moves sent again: each side ends the game as the table says, every move applied once."""

import os
import random

import pytest
from boardbridge import READ_MS
from boardbridge import player as _player
from scenario import Scenario
from tableplay import BoardLink as Link
from tableseats import Seat

from crib.tables import bridge, fairdeal
from crib.tables.service import Tables


def _play(tmp_path, seed, drops=0.0, replays=0.0, secret=None):
    rng = random.Random(seed)  # the other seat's choices
    away = random.Random(seed + 1)  # the drops and replays
    tmp_path.mkdir(exist_ok=True)
    tables = Tables(str(tmp_path / "club.sqlite3"), burst=10_000, reads=(10_000, 10_000))
    code = tables.new(secret)
    other = Seat(tables, code, "Zoë", rng)  # seat 0: a scripted person at a page
    seat, token = tables.join(code, "Ann")
    share = fairdeal.new_share()
    if secret is not None:  # the same deal every time: the shares too
        other.share, share = "a" * 64, "b" * 64
    tag = bridge.tag_of(code, seat)
    s = Scenario()
    s.app.start_link()
    link = Link(s)
    s.wait(100)
    start = link.send("state")["next"]
    assert link.send("subscribe", **{"from": start})["ok"]
    r = link.send("table", move={"t": "new", "names": ["Ann", "Zoe"], "tag": tag})
    assert r["ok"] and "pending" in r, r
    s.wait(READ_MS)
    s.press("OK")
    sent = {"board": [], "seat": []}  # the last moves each side was sent: sent again as a replay
    counts = {"board": 0, "seat": 0, "replayed": 0, "dropped": 0}
    for _step in range(3000):
        v = tables.view(code, token)
        board = link.send("state")["state"]
        if v["phase"] == "over" and (board.get("match_over") or not bridge.board_moves(v, board)):
            break
        other.turn()
        if away.random() < drops:  # the bridge away: the player keys on, the other seat waits
            counts["dropped"] += 1
            if not _player(s):
                s.wait(50)
            continue
        if replays and away.random() < replays:  # an answer lost: the same moves again, taken once
            for mv in sent["board"]:
                got = link.send("table", move=mv)
                assert got["ok"] and got["replayed"] is True, (mv, got)
                counts["replayed"] += 1
            for seq, mv in sent["seat"]:
                assert tables.move(code, token, seq, mv)["replayed"] is True
                counts["replayed"] += 1
        log = bridge.BoardLog(tag)  # nothing kept between steps but the board's own events
        for seq, ev in link.pushed:
            log.feed(seq, ev)
        moved = False
        bm = bridge.board_moves(v, board)
        sent["board"] = []
        for mv in bm:
            got = link.send("table", move=mv)
            assert got["ok"] and got["replayed"] is False, (mv, got, board.get("table"))
            sent["board"].append(mv)
            counts["board"] += 1
            moved = True
        board = link.send("state")["state"]
        sm = bridge.seat_moves(v, board, log.throws, share)
        sent["seat"] = []
        if sm:
            got = tables.move(code, token, v["seq"] + 1, sm[0])
            assert got["replayed"] is False
            sent["seat"].append((v["seq"] + 1, sm[0]))
            counts["seat"] += 1
            moved = True
        if not moved and not _player(s) and not other.turn():
            s.wait(50)
    else:
        raise AssertionError("the game did not end: %r" % tables.view(code, token)["phase"])
    v = tables.view(code, token)
    m = s.app.match
    for _ in range(20):  # the board's last counts
        if m.match_over:
            break
        _player(s)
    s.close()
    counts["record"] = tables.record(code)["moves"]
    counts["board"] = [ev for _seq, ev in link.pushed]
    return v, m, counts


@pytest.mark.parametrize("seed", [1, 2])
def test_the_bridge_steps_a_whole_game_and_both_sides_end_as_the_table_says(tmp_path, seed):
    v, m, counts = _play(tmp_path, seed)
    assert v["phase"] == "over" and m.match_over
    assert list(m.front) == [v["scores"][v["seat"]], v["scores"][1 - v["seat"]]]
    assert m.winner == (0 if v["winner"] == v["seat"] else 1)
    assert len(counts["board"]) > 50 and counts["seat"] > 10


def test_drops_and_replays_end_the_game_exactly_as_without_them(tmp_path):
    secret = "c" * 64
    v0, m0, plain = _play(tmp_path / "plain", 3, secret=secret)
    v, m, counts = _play(tmp_path / "dropped", 3, drops=0.3, replays=0.3, secret=secret)
    assert v["phase"] == "over" and m.match_over
    assert list(m.front) == [v["scores"][v["seat"]], v["scores"][1 - v["seat"]]]
    # the hundred: the bridge away at 110 steps of this game (seeded), 46 answers lost and resent
    assert counts["dropped"] >= 100 and counts["replayed"] > 10
    # The same moves on the server, the same events journaled on the board, in the same order.
    assert counts["record"] == plain["record"]

    # (The set-up's tag is the table code's; the other seat's six at the show may come before or after the
    # board's own count of its player's hand as the pone: the board counts that hand without them.)
    def apart(evs):
        told = [ev for ev in evs if ev["t"] == "hand" and ev["p"] == 1]
        return [ev for ev in evs if ev not in told], told

    assert counts["board"][0]["t"] == "setup" and len(counts["board"]) > 100
    assert apart(counts["board"][1:]) == apart(plain["board"][1:])
    assert list(m.front) == list(m0.front) and v["scores"] == v0["scores"]


def test_the_goes_between_lays_are_found_again():
    # Dealer 1, pone 0 leads: 0 lays K (10), 1 lays Q (20), 0 lays 9 (29); 1 holds nothing under 3: go;
    # 0 lays 2 (31). Then 1 leads 5, 0 lays ...
    K, Q, N9, T2, F5 = 48, 44, 32, 4, 16
    acts = bridge.acts_of(1, [[0, K], [1, Q], [0, N9], [0, T2], [1, F5]])
    assert acts == [[0, K], [1, Q], [0, N9], [1, -1], [0, T2], [1, F5]]
    # Both say go at 28 (K Q 8): 1 go, 0 go, and 1 leads the next count.
    E8 = 28
    acts = bridge.acts_of(1, [[0, K], [1, Q], [0, E8], [1, F5]])
    assert acts == [[0, K], [1, Q], [0, E8], [1, -1], [0, -1], [1, F5]]
    # A play under way: the table waits for seat 1 at count 0 after 28: both went, 1 leads again.
    assert bridge.acts_of(1, [[0, K], [1, Q], [0, E8]], turn=1, count=0) == [
        [0, K],
        [1, Q],
        [0, E8],
        [1, -1],
        [0, -1],
    ]


def test_the_next_deal_waits_for_the_boards_counts():
    view = {
        "seat": 1,
        "phase": "discard",
        "deal": 2,
        "dealer": 0,
        "dealt": [0, 1, 2, 3, 4, 5],
        "starter": None,
        "laid": [],
        "shows": [
            {
                "deal": 1,
                "dealer": 1,
                "starter": 51,
                "kept": [[6, 7, 8, 9], [10, 11, 12, 13]],
                "crib": [14, 15, 16, 17],
                "laid": [[0, 6], [1, 10], [0, 7], [1, 11], [0, 8], [1, 12], [0, 9], [1, 13]],
            }
        ],
        "pegs": [],
        "awaited": [0, 1],
        "count": 0,
    }
    acts = [[1, 6], [0, 10], [1, 7], [0, 11], [1, 8], [0, 12], [1, 9], [0, 13]]
    t = {"tag": 1, "deal": 1, "dealer": 0, "hand": True, "thrown": True, "starter": 51, "shown": False}
    board = {"phase": "show", "table": dict(t, acts=acts)}
    assert bridge.board_moves(view, board) == [
        {"t": "show", "deal": 1, "hand": [6, 7, 8, 9], "crib": [14, 15, 16, 17]}
    ]
    board = {"phase": "show", "table": dict(t, acts=acts, shown=True)}
    assert bridge.board_moves(view, board) == []  # counting: the next hand waits
    board = {"phase": "deal", "table": dict(t, acts=acts, shown=True)}
    assert bridge.board_moves(view, board) == [
        {"t": "hand", "deal": 2, "dealer": 1, "cards": [0, 1, 2, 3, 4, 5]}
    ]
    # A lay of the player's the board has and the table not: the seat sends it.
    view2 = dict(view, phase="play", deal=2, starter=50, laid=[[1, 0]], share_in=True)
    board2 = {"phase": "play", "table": dict(t, deal=2, dealer=1, acts=[[0, 0], [1, 40], [0, 1]])}
    assert bridge.seat_moves(view2, board2, {}, "x") == [{"t": "lay", "card": 1}]


def test_the_seat_kept_on_disk_is_the_seats_own_and_a_torn_view_line_is_skipped(tmp_path):
    path = bridge.state_path(str(tmp_path / "tables"), "http://127.0.0.1:8121", "abcdefghjk")
    st = bridge.SeatState(path)
    st.save(code="abcdefghjk", seat=1, token="t0k", share="s" * 64, seq=0, tag=bridge.tag_of("abcdefghjk", 1))
    st.keep_view({"n": 1})
    st.keep_view({"n": 2})
    with open(st.views_path, "a") as f:
        f.write('{"n": 3, "cut')  # a power cut mid-line
    again = bridge.SeatState(path)
    assert again.data["token"] == "t0k" and again.data["tag"] == bridge.tag_of("abcdefghjk", 1)
    assert again.views() == [{"n": 1}, {"n": 2}]
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"
    tags = {bridge.tag_of(code, seat) for code in ("abcdefghjk", "bcdefghjkm") for seat in (0, 1)}
    assert len(tags) == 4 and all(0 <= t <= bridge.TAG_MAX for t in tags)
