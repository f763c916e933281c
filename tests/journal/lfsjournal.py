# The journal tests' flash: a real littlefs (vfs.VfsLfs2) on a RAM block device shaped like the Pico's.
import vfs
from cutblockdev import CutBlockDev

BLOCK_SIZE = 4096  # the RP2040's erase sector
PROG_SIZE = 256  # as ports/rp2/modules/_boot.py mounts the Pico's filesystem


def mount(dev, point):
    """Mount the littlefs on dev at point (unmounting whatever was there)."""
    try:
        vfs.umount(point)
    except OSError:
        pass
    vfs.mount(vfs.VfsLfs2(dev, progsize=PROG_SIZE), point)


def fresh(blocks, point, mem=None):
    """A new CutBlockDev of `blocks` blocks (on mem when given), formatted and mounted at point."""
    dev = CutBlockDev(BLOCK_SIZE, blocks, mem)
    vfs.VfsLfs2.mkfs(dev, progsize=PROG_SIZE)
    mount(dev, point)
    return dev


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def journal_of(lines, blocks, point, path):
    """A fresh littlefs of `blocks` blocks mounted at point, holding a journal of `lines` at path
    (appended one by one, as the board does)."""
    from board.store.journal import Journal

    dev = fresh(blocks, point)
    j = Journal(path)
    j.open()
    for line in lines:
        j.append(line)
    j.close()
    return dev
