# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Regression (board id): `hello` carried board.json's "id", which every board built from that file
# (and every sim) shares, so two boards would have merged into one history on the laptop. The HALs
# now give hal.board_uid(): hex of machine.unique_id() on the Pico, an id kept on the sim's flash.
import board_fixture
import rp2fakes
from fakehal import remove_tree, scratch_dir

from sim import parts as simparts


def test_rp2_board_uid_is_hex_of_machine_unique_id():
    try:
        hal = rp2fakes.reference_hal()[0]
        assert hal.board_uid() == "e6613852831c2a21"  # the fake chip's 8 id bytes
    finally:
        rp2fakes.uninstall()


def test_sim_board_uid_is_made_once_per_flash_and_kept():
    one = scratch_dir()
    two = scratch_dir()
    try:
        uid = simparts.board_uid(one)
        assert len(uid) == 16 and int(uid, 16) >= 0
        assert simparts.board_uid(one) == uid  # the same flash: the same board, boot after boot
        with open(one + "/board_uid") as f:
            assert f.read().strip() == uid
        other = simparts.board_uid(two)
        assert other != uid  # another flash image (--fresh, another sim-data): another board
        assert uid != board_fixture.reference().id
    finally:
        remove_tree(one)
        remove_tree(two)


def test_a_damaged_uid_file_is_replaced_not_sent():
    d = scratch_dir()
    try:
        with open(d + "/board_uid", "w") as f:
            f.write("cribboard-ref-1\n")
        uid = simparts.board_uid(d)
        assert len(uid) == 16 and uid != "cribboard-ref-1"
        assert simparts.board_uid(d) == uid
    finally:
        remove_tree(d)
