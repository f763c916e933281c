# Regression (board id): the sim's `hello` named board.json's "id" ("cribboard-ref-1"), which every
# board built from that file and every sim shares, so the laptop kept two boards as one history.
# Now the id is the chip's (hal.board_uid(): machine.unique_id() on a Pico; in the sim an id made once
# and kept on its flash image): stable across restarts, different for another board.
from boards import Sim

from crib.history.sync import sync
from crib.link import ports
from crib.link.client import LinkClient
from crib.store import db


def _hello_and_sync(url, con):
    c = LinkClient(ports.open_port(url, 5.0), timeout=5.0)
    try:
        hello = c.connect()
        sync(c, con)
        return hello["board"]
    finally:
        c.close()


def test_each_sim_flash_is_its_own_board_on_the_laptop(tmp_path):
    con = db.connect(str(tmp_path / "h.sqlite3"))
    first = str(tmp_path / "first")
    with Sim(first, fresh=True) as sim:
        a = _hello_and_sync(sim.url, con)
    assert len(a) == 16 and int(a, 16) >= 0 and a != "cribboard-ref-1"
    with Sim(first) as sim:  # the same flash after a restart: the same board
        assert _hello_and_sync(sim.url, con) == a
    with Sim(str(tmp_path / "second"), fresh=True) as sim:  # another board
        b = _hello_and_sync(sim.url, con)
    assert b != a
    boards = sorted(r[0] for r in con.execute("SELECT board FROM boards"))
    assert boards == sorted([a, b])
    for board in (a, b):  # each board's own journal, from seq 1
        seqs = [r[0] for r in con.execute("SELECT seq FROM events WHERE board=$1 ORDER BY seq", (board,))]
        assert seqs and seqs[0] == 1
