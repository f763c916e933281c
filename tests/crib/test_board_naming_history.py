# Names keyed on the board's keypad (issue 11) reach the laptop's history: the journal the board
# wrote, synced over the link as `crib sync` does, is one game of "Ann v Bob" in `crib games`.
from fakeport import FakePort
from linkfakes import journal
from scenario import Scenario
from typer.testing import CliRunner

from board.controller.menu import MENU
from board.link import Link
from crib.cli import app
from crib.history.replay import rebuild
from crib.history.sync import sync
from crib.link.client import LinkClient
from crib.store import db
from cribbage.events import to_line


def test_names_keyed_on_the_board_are_the_history_s_names(tmp_path):
    s = Scenario()
    try:
        s.press("MENU")
        for _ in range(len(MENU) - 1):
            s.press("MENU")
        s.keys("OK 2 6 6")  # Player names: A n
        s.wait(1300)
        s.keys("6 6 OK 2 2 6 6 6 2 2 OK")  # n; P2: B o b
        s.keys("A OK")
        s.cards("5H")
        evs = s.journal()
    finally:
        s.close()
    assert [e["name"] for e in evs if e["t"] == "name"] == ["Ann", "Bob"]
    j = journal()
    for ev in evs:
        j.append(to_line(ev))
    path = str(tmp_path / "h.sqlite3")
    con = db.connect(path)
    sync(LinkClient(FakePort(Link(j, None, board_id="ab12", firmware="t", form="six")), timeout=0.5), con)
    assert [g.names for g in rebuild(con, "ab12")[0]] == [["Ann", "Bob"]]
    r = CliRunner().invoke(app, ["games", "--db", path])
    assert r.exit_code == 0 and "Ann v Bob" in r.output, r.output
