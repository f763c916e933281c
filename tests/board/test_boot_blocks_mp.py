# Boot's long-lived tables fit a fragmented heap: built from bytes, not through a list of a pointer an entry,
# and the sim's fresh flash written in small rows. In a heap whose free room is only holes of 2 KB, the
# sensors' tables ([-1] * 384 was a 3 KB list here for a 768-byte array), the crc table, the LED chains'
# words and a new flash image (a 4 KB row) each needed a block the heap no longer had: a 96 KB run with
# the code in ROM stopped at boot on them (docs/memory.md).
import gc
import os

from board_fixture import reference

from board import edges
from board.edges import sensors
from cribbage import crctable


class Holes:
    """Fill the heap with hole-byte blocks and whatever room is left between them with small tuples, then
    free every other block: the free room is then plenty in total (half the heap) but no block bigger
    than a hole, until release(). One list holds the blocks, sized first: a list grown on the way would
    leave bigger holes where its old items were."""

    def __init__(self, hole):
        gc.collect()
        blocks = self.blocks = [None] * (2 * (gc.mem_free() // hole) + 2)
        try:
            for i in range(len(blocks)):
                blocks[i] = bytearray(hole)
        except MemoryError:
            pass
        self.rest = None
        try:
            while True:
                self.rest = (self.rest,)  # a chain of 2-block tuples: every gap left between the blocks
        except MemoryError:
            pass
        for i in range(1, len(blocks), 2):
            blocks[i] = None
        gc.collect()

    def release(self):
        self.blocks = self.rest = None
        gc.collect()


def test_the_sensor_tables_need_no_block_bigger_than_their_own():
    b = reference()
    ring = edges.Ring(32)
    holes = Holes(2048)  # the tables are 768 and 1,536 bytes
    try:
        s = sensors.from_board(b, ring)
    finally:
        holes.release()
    assert len(s._bit_hole) == b.sensor_bits and s._bit_hole[b.sensor_game] == sensors.GAME
    assert list(s._since) == [0] * b.sensor_bits


def _garbage(make):
    """-> (what make() left held, what it allocated and dropped on the way), in bytes of this heap."""
    gc.collect()
    before = gc.mem_alloc()
    gc.disable()
    try:
        got = make()
        peak = gc.mem_alloc()
    finally:
        gc.enable()
    gc.collect()
    held = gc.mem_alloc() - before
    return got, held, peak - before - held


def test_the_sensor_tables_leave_no_garbage_as_big_as_a_table():
    # bytes(1536) on the way to the 1,536-byte array of debounce times was a second 1.5 KB block, and at
    # 96 KB in ROM the board found no room for it at boot ([array rule] docs/memory.md).
    b = reference()
    ring = edges.Ring(32)
    table = sensors.from_board(b, ring)._bit_hole
    s, held, dropped = _garbage(lambda: sensors.Sensors(b.sensor_bits // 8, table, ring))
    assert held >= 4 * b.sensor_bits  # the debounce times are kept
    assert dropped < 1024, dropped  # a few small objects, not a second 1,536-byte block
    assert list(s._since) == [0] * b.sensor_bits


def test_the_crc_table_needs_no_block_bigger_than_its_own():
    crctable._table = None  # made again, in the holes
    holes = Holes(1536)  # the table is 1,024 bytes
    try:
        got = crctable.crc32(b"123456789")  # the table, kept for ports without binascii.crc32
    finally:
        holes.release()
    assert got == 0xCBF43926  # the check value of CRC-32


def test_a_new_sim_flash_is_written_in_small_rows():
    from sim import flash

    path = "/tmp/cribboard-boot-blocks-%d.img" % (os.urandom(2)[0] * 256 + os.urandom(1)[0])
    try:
        os.remove(path)
    except OSError:
        pass
    holes = Holes(2048)
    try:
        dev = flash.FileBlockDevice(path, blocks=8)
        dev.close()
    finally:
        holes.release()
    try:
        with open(path, "rb") as f:
            data = f.read()
        assert data == b"\xff" * (8 * flash.BLOCK)  # erased flash reads as ones
    finally:
        os.remove(path)
