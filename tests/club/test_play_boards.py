"""Two boards at one table (issue 28): each board through its own crib play bridge (crib.tables.bridge.Bridge,
its loop stepped by hand: no threads, no sockets), one table service in-process, each board's player keying
its throw and lays on its keys (tests/support/boardbridge.py). Each game is played to its end from fixed
shares, and after every step of either bridge each board is held against the table, point for point: a
board's score is never ahead of the table's once its bridge has sent what its player keyed, and a board's
match is over only when the table's game is, at the same scores.

Found here: a board whose player pegged the game's last points with its own lay (a 31, a last card, a pair
at 120) ended its match at once, the table not yet told; the bridge then took a finished match for "no match
of ours on the board", never sent that lay, and proposed a new match: the table waited for the lay for ever
and the board started again at 0-0. Seeds 2 (a 31 at 119), 13 (a pair at 120), 18 and 51 (a last card at
120) ended that way."""

import pytest
from boardbridge import Http, Seated

from crib.tables import bridge
from crib.tables.service import Tables
from cribbage import table as board_table

STEPS = 1500  # a game is about 250 looks of each bridge


def _check(x, tables, code):
    """The board of `x` against the table, its bridge's step just done (what its player keyed is sent)."""
    v = tables.view(code, x.b.state.data["token"])
    seat = v["seat"]
    table = [v["scores"][seat], v["scores"][1 - seat]]
    m = x.s.app.match
    if m.setup.get("solo") != ["table", x.b.state.data["tag"], 0]:
        return
    where = "%s, deal %d (%s): board %r%s, table %r (%s); the board's acts %r, the table's lays %r" % (
        x.b.name,
        v["deal"],
        m.phase(),
        list(m.front),
        " over" if m.match_over else "",
        table,
        v["phase"],
        board_table.state(m)["acts"],
        v["laid"],
    )
    assert m.front[0] <= table[0] and m.front[1] <= table[1], "the board is ahead: " + where
    if m.match_over:
        assert v["phase"] == "over" and list(m.front) == table, "the board's match ended first: " + where


def _game(tmp_path, seed):
    tables = Tables(str(tmp_path / "club.sqlite3"), burst=10_000, reads=(10_000, 10_000))
    code = tables.new("%064x" % seed)
    boards = [
        Seated(tables, code, name, str(tmp_path / name), share="%064x" % (2 * seed + 1 + k))
        for k, name in enumerate(("Ann", "Bob"))
    ]
    try:
        for _ in range(STEPS):
            moved = False
            for x in boards:
                moved |= x.step(lambda x=x: _check(x, tables, code))
            if all(x.b.view["phase"] == "over" and x.s.app.match.match_over for x in boards):
                break
            if not moved:
                for x in boards:
                    x.s.wait(50)
        else:
            raise AssertionError("the game did not end: %r" % tables.public(code))
        for x in boards:
            assert x.b.done()
        return tables.view(code, boards[0].b.state.data["token"]), boards
    finally:
        for x in boards:
            x.close()


@pytest.mark.parametrize("seed", [1, 2, 13, 18, 51])
def test_two_boards_play_a_whole_game_and_end_as_the_table_says(tmp_path, seed):
    v, boards = _game(tmp_path, seed)
    assert v["phase"] == "over" and max(v["scores"]) == 121
    for x in boards:
        m = x.s.app.match
        seat = x.b.view["seat"]
        assert m.match_over and list(m.front) == [v["scores"][seat], v["scores"][1 - seat]]
        assert m.winner == (0 if v["winner"] == seat else 1)
        # one proposal each, taken at the start: never a new match on a board whose table game went on
        assert sum("new match?" in said for said in x.said) == 1, x.said


# ---- the bridge never wipes a board's game: it stops and says why ----------------------------------------


class _Board:
    """The link's calls a bridge's step makes, on a given board `state` (a new match asked is only noted)."""

    def __init__(self, state):
        self.st = state
        self.asked = []

    def state(self):
        return {"state": self.st, "next": 0, "pending": None}

    def request(self, op, **args):
        self.asked.append(args.get("move"))
        return {"pending": 1}


def _bridge(tmp_path, board, view, had=True, http=None):
    st = bridge.SeatState(str(tmp_path / "seat.json"))
    st.save(seat=0, token="t", share="s" * 64, seq=view["seq"], tag=77)
    said = []
    b = bridge.Bridge("2222222222", http, None, lambda _board, _holds: st, "Ann", said.append)
    b.state = st
    b.link = _Board(board)
    b.log = bridge.BoardLog(77)
    b.log.feed(0, {"t": "setup", "solo": ["table", 77, 0]})
    if not had:
        b.log = bridge.BoardLog(77)
    b.view = view
    return b, said


# Deal 14: Ann (seat 0) led 46, Bob 9, Ann 29; the table waits for Ann at 119-112.
_VIEW = {
    "seat": 0,
    "seq": 40,
    "names": ["Ann", "Bob"],
    "seats": [{"name": "Ann", "level": None}, {"name": "Bob", "level": None}],
    "phase": "play",
    "share_in": True,
    "scores": [119, 112],
    "deal": 14,
    "dealer": 1,
    "laid": [[0, 46], [1, 9], [0, 29]],
    "awaited": [0],
    "count": 21,
}
_TABLE = {"tag": 77, "deal": 14, "dealer": 1, "hand": True, "thrown": True, "starter": 3, "shown": False}


def test_a_board_over_by_its_players_lay_is_still_ours_and_that_lay_is_sent(tmp_path):
    acts = [[0, 46], [1, 9], [0, 29], [0, 41]]  # Ann's J makes 31: 121 on the board, not yet at the table
    board = {"phase": "play", "match_over": True, "game_over": True, "front": [121, 112]}
    sent = []

    class Http:
        def move(self, seq, move):
            sent.append((seq, move))
            return {"replayed": False, "view": dict(_VIEW, seq=41, phase="over", scores=[121, 112], n=9)}

    b, _said = _bridge(tmp_path, dict(board, table=dict(_TABLE, acts=acts)), _VIEW, http=Http())
    assert b.step() is True
    assert sent == [(41, {"t": "lay", "card": 41})] and b.link.asked == []
    assert b.step() is False and b.done()  # the table over at the board's scores: they agree


def test_a_board_whose_match_is_over_while_the_tables_game_is_not_stops_the_bridge_and_is_kept(tmp_path):
    acts = [[0, 46], [1, 9], [0, 29]]  # (nothing of the player's to send: the table has it all)
    board = {"phase": "play", "match_over": True, "game_over": True, "front": [121, 112]}
    b, _said = _bridge(tmp_path, dict(board, table=dict(_TABLE, acts=acts)), _VIEW)
    with pytest.raises(
        bridge.BridgeError, match=r"over at 121-112, the table's game is not \(119-112, deal 14\)"
    ):
        b.step()
    assert b.link.asked == []  # no new match proposed: the board's game is left as it is


def test_a_board_that_ended_at_other_scores_than_the_table_stops_the_bridge(tmp_path):
    acts = [[0, 46], [1, 9], [0, 29], [0, 41]]
    board = {"phase": "play", "match_over": True, "game_over": True, "front": [121, 110]}
    view = dict(_VIEW, phase="over", scores=[121, 112], laid=acts, awaited=[])
    b, _said = _bridge(tmp_path, dict(board, table=dict(_TABLE, acts=acts)), view)
    with pytest.raises(bridge.BridgeError, match="ended at 121-110, the table's game at 121-112"):
        b.step()


def test_a_board_that_left_the_tables_match_is_not_proposed_another(tmp_path):
    board = {"phase": "cut", "match_over": False, "front": [0, 0]}  # another match, not the table's
    b, _said = _bridge(tmp_path, board, _VIEW)
    with pytest.raises(bridge.BridgeError, match="holds another match now"):
        b.step()
    assert b.link.asked == []
    b, said = _bridge(tmp_path, board, _VIEW, had=False)  # never had it: the table's match is proposed
    b.step()
    assert [m["t"] for m in b.link.asked] == ["new"] and "new match? (vs Bob)" in said[-1]


@pytest.mark.parametrize("form", ["three", "four"])
def test_a_three_handed_or_2v2_table_is_refused_before_the_board_is_asked_for_and_no_seat_is_taken(
    tmp_path, form
):
    tables = Tables(str(tmp_path / "club.sqlite3"))
    code = tables.new(form=form)
    asked = []
    said = []
    b = bridge.Bridge(code, Http(tables, code), lambda: asked.append("board"), None, "Ann", said.append)
    with pytest.raises(bridge.BridgeError, match="a board plays only the two-player game at a table"):
        b.begin()
    assert asked == [] and said == []  # no board asked for, nothing said of a seat
    assert tables.public(code)["seats"] == [None] * (3 if form == "three" else 4)
