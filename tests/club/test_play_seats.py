"""Two boards on one laptop at one table (issue 28): each `crib play` keeps its seat in a file keyed by its
board's id (hello's `board`, the chip's), so two boards in one data folder hold the two seats, and a crib
play run again for a board takes that board's seat back. A seat file from before boards were told apart
is taken over by the board whose seat it is. Each board is a whole board app with its own chip id, its
bridge stepped in-process (tests/support/boardbridge.py)."""

import os

from boardbridge import Seated

from crib.tables import bridge
from crib.tables.service import Tables

ANN, BOB = "a1a1a1a1a1a1a1a1", "b0b0b0b0b0b0b0b0"  # two chips' ids
STEPS = 1500


def _steps(boards, until):
    for _ in range(STEPS):
        if until():
            return
        moved = False
        for x in boards:
            moved |= x.step()
        if not moved:
            for x in boards:
                x.s.wait(50)
    raise AssertionError("not reached in %d steps" % STEPS)


def test_two_boards_in_one_data_folder_hold_two_seats_and_a_restarted_bridge_finds_its_own(tmp_path):
    tables = Tables(str(tmp_path / "club.sqlite3"), burst=10_000, reads=(10_000, 10_000))
    code = tables.new("%064x" % 5)
    folder = str(tmp_path / "tables")  # one laptop's data folder
    ann = Seated(tables, code, "Ann", folder, share="%064x" % 11, uid=ANN)
    bob = Seated(tables, code, "Bob", folder, share="%064x" % 12, uid=BOB)
    boards = [ann, bob]
    try:
        a, b = ann.b.state.data, bob.b.state.data
        assert {a["seat"], b["seat"]} == {0, 1} and a["token"] != b["token"] and a["tag"] != b["tag"]
        assert ANN in os.path.basename(ann.b.state.path) and BOB in os.path.basename(bob.b.state.path)
        assert tables.public(code)["seats"][a["seat"]] == "Ann"

        # Ann's board unplugged and Bob's on its port: not Ann's seat's board, waited out until Ann's is back.
        plugged = [bob.link.connected, ann.link.connected]
        ann.b.connect = lambda: plugged.pop(0)()
        ann.b.POLL_RETRY = 0
        ann.b._board_up()
        assert ann.said[-2:] == [
            "no board (board %s on the port, not this seat's %s): waiting for it" % (BOB, ANN),
            "the board is back",
        ]
        assert ann.b.link is ann.link and not plugged

        # Into the first deal's play, each board holding its own seat's match.
        def laying():
            v = tables.view(code, a["token"])
            return v["phase"] == "play" and len(v["laid"]) >= 3

        _steps(boards, laying)
        assert ann.s.app.match.setup["solo"] == ["table", a["tag"], 0]
        assert bob.s.app.match.setup["solo"] == ["table", b["tag"], 0]

        # Ann's crib play stopped and run again, on the same board: its seat back, no seat taken.
        again = Seated(tables, code, "Ann", folder, s=ann.s)
        assert again.b.state.data["token"] == a["token"] and again.b.state.data["seat"] == a["seat"]
        assert again.said[0] == "back at seat %d of table %s" % (a["seat"] + 1, code), again.said
        assert again.b.board_id == ANN
        boards = [again, bob]
        _steps(boards, lambda: all(x.b.view["phase"] == "over" and x.s.app.match.match_over for x in boards))
        v = tables.view(code, a["token"])
        for x in boards:
            seat = x.b.view["seat"]
            assert list(x.s.app.match.front) == [v["scores"][seat], v["scores"][1 - seat]]
        # One proposal each board, when its bridge first ran: the restarted one found its match.
        assert [sum("new match?" in said for said in x.said) for x in (ann, again, bob)] == [1, 0, 1]
    finally:
        for x in (ann, bob):
            x.close()


def test_a_seat_file_from_before_boards_were_told_apart_is_taken_over_by_its_board(tmp_path):
    folder, server, code = str(tmp_path / "tables"), "http://127.0.0.1:8121", "abcdefghjk"
    t0, t1 = bridge.tag_of(code, 0), bridge.tag_of(code, 1)

    def legacy():
        old = bridge.SeatState(bridge.state_path(folder, server, code))
        old.save(code=code, seat=0, token="t0k", share="s" * 64, seq=3, tag=t0)
        old.keep_view({"n": 1})
        return old

    old = legacy()
    # A board holding the other seat's match is another board: its seat is not this file.
    st = bridge.open_seat(folder, server, code, BOB, holds=t1)
    assert "token" not in st.data and os.path.exists(old.path)
    # The board holding the file's match takes it over, its views with it.
    st = bridge.open_seat(folder, server, code, ANN, holds=t0)
    assert st.data["token"] == "t0k" and st.views() == [{"n": 1}]
    assert st.path == bridge.state_path(folder, server, code, ANN)
    assert not os.path.exists(old.path) and not os.path.exists(old.views_path)
    assert oct(os.stat(st.path).st_mode & 0o777) == "0o600"
    # Then it is that board's alone: the next board has a seat of its own to take.
    assert "token" not in bridge.open_seat(folder, server, code, BOB, holds=None).data
    assert bridge.open_seat(folder, server, code, ANN, holds=t0).data["token"] == "t0k"

    # A seat taken whose match the board never began (it holds none of this table's): taken over too.
    os.remove(st.path)
    legacy()
    assert bridge.open_seat(folder, server, code, "c0c0c0c0", holds=None).data["token"] == "t0k"
