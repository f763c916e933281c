# The simulator's flash: a littlefs image in a host file, so the sim's storage is really littlefs.
# Every block write goes straight to the file (unbuffered FileIO), so killing the sim at any moment
# is a power cut: what littlefs had written is on "flash", what it had not is lost, as on the Pico.
import os

import vfs

# 352 blocks (1.4 MB): the filesystem a stock Pico (2 MB flash) MicroPython build leaves free.
BLOCK = 4096  # the RP2040's flash erase sector, and the block size MicroPython's rp2 littlefs uses


class FileBlockDevice:
    """The extended block protocol (offset reads/writes, erase) that vfs.VfsLfs2 drives."""

    def __init__(self, path, blocks=352, block_size=BLOCK):
        self.block_size = block_size
        self.blocks = blocks
        try:
            self._f = open(path, "r+b")  # noqa: SIM115 (open for the life of the sim)
        except OSError:
            self._f = open(path, "w+b")  # noqa: SIM115
            # Erased flash reads as ones. Written 256 bytes at a time: the sim makes its flash after the
            # firmware's code is loaded, in a heap that may have no hole a block's size.
            row = b"\xff" * 256
            for _ in range(blocks * block_size // 256):
                self._f.write(row)
            self._f.flush()
        self.writes = 0  # block program operations: a test can count them

    def readblocks(self, block, buf, offset=0):
        self._f.seek(block * self.block_size + offset)
        self._f.readinto(buf)

    def writeblocks(self, block, buf, offset=0):
        self._f.seek(block * self.block_size + offset)
        self._f.write(buf)
        self.writes += 1

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return self.block_size
        if op == 3:  # sync
            self._f.flush()
        return 0  # init, deinit, erase: an erase is implicit in littlefs's programs here

    def close(self):
        self._f.close()


def mount(image, mount_point="/flash", blocks=352):
    """Mount the littlefs in image (formatting a new or unreadable one) at mount_point; -> the device."""
    dev = FileBlockDevice(image, blocks)
    try:
        fs = vfs.VfsLfs2(dev)  # pyright: ignore[reportArgumentType] (duck-typed block device)
    except OSError:
        # A new image (all ones) or one that is not littlefs: format it, as a blank Pico does at boot.
        vfs.VfsLfs2.mkfs(dev)  # pyright: ignore[reportArgumentType]
        fs = vfs.VfsLfs2(dev)  # pyright: ignore[reportArgumentType]
    vfs.mount(fs, mount_point)
    return dev


def unmount(dev, mount_point="/flash"):
    try:
        vfs.umount(mount_point)
    except OSError:
        pass
    dev.close()


def makedirs(path):
    """mkdir -p for one absolute path (os.makedirs does not exist on MicroPython)."""
    part = ""
    for name in path.split("/"):
        if not name:
            continue
        part += "/" + name
        try:
            os.mkdir(part)
        except OSError:
            pass  # exists already
