# A remote table's code loads only for a table: a board on its link, playing plainly or against the board,
# never holds it; the table's first request loads the link's part, the table's match the core's.
import json
import sys

from scenario import Scenario

TABLE = ("board.link.table", "cribbage.table")


def _loaded():
    return [name for name in TABLE if name in sys.modules]


def test_the_table_code_loads_with_the_first_table_request_and_the_table_match():
    s = Scenario()
    try:
        s.app.start_link()
        for op in ("hello", "state", "subscribe"):
            s.hal.link.inbox.append(json.dumps({"id": op, "op": op}))
        s.keys("4 H T D OK 5 S")  # an ordinary deal: the cut and the starter
        s.wait(2000)
        assert s.app.match.starter is not None and _loaded() == []
        move = {"t": "new", "names": ["Ann", "Bob"], "tag": 3}
        s.hal.link.inbox.append(json.dumps({"id": 9, "op": "table", "move": move}))
        s.wait(100)
        assert _loaded() == ["board.link.table"]  # the request's code: the match is not a table's yet
        s.wait(1600)
        s.press("OK")
        s.wait(100)
        assert s.app.match.setup["solo"] == ["table", 3, 0]
        s.hal.link.inbox.append(json.dumps({"id": 10, "op": "state"}))
        s.wait(100)
        assert _loaded() == list(TABLE)
        assert "cribbage.opponent" not in sys.modules  # no opponent at a table: the other seat is a player
    finally:
        s.close()
