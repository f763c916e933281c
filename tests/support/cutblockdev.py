# RAM block device for littlefs (extended protocol): counts flash operations, can lose power at any one.


_EIO = -5
_BLANKS = {}  # block size -> one erased block, shared by every device


class CutBlockDev:
    """Flash in a bytearray: readblocks/writeblocks with offset, ioctl 4/5/6 (count, size, erase).

    Every program (writeblocks) and erase is one operation, numbered from 1. With cut_after = k the
    operations 1..k land whole; operation k + 1 lands not at all (half=False) or its first half only
    (half=True: a page half programmed, or a sector half erased), and from then on every program and
    erase fails with -EIO and changes nothing: the power is off. littlefs sees an I/O error and
    unwinds through its own error paths (an exception raised here would longjmp through littlefs and
    leave half-opened files for the garbage collector to finalise). `dead` tells a cut from a real
    failure; set it by hand to retire a device.
    """

    def __init__(self, block_size=4096, block_count=64, mem=None):
        self.block_size = block_size
        self.block_count = block_count
        blank = _BLANKS.get(block_size)
        if blank is None:
            blank = _BLANKS[block_size] = b"\xff" * block_size
        self._blank = blank
        if mem is None:  # erased flash, filled a block at a time: no second image-sized allocation
            mem = bytearray(block_size * block_count)
            for b in range(block_count):
                mem[b * block_size : (b + 1) * block_size] = blank
        self.mem = mem
        self._mv = memoryview(mem)
        self.cut_after = -1  # -1: never
        self.reads = 0  # readblocks calls, numbered from 1
        self.bad_reads = ()  # the read numbers that fail with -EIO (a read fault on cue, power on)
        self.bad_from = 0  # and every read from this one on (0: none): a sector gone bad for good
        self.half = False
        self.dead = False
        self.ops = 0
        self.writes = 0
        self.bytes_written = 0
        self.erases = 0

    def reset_counts(self):
        self.ops = self.writes = self.bytes_written = self.erases = self.reads = 0

    def _power(self):
        """True when this operation lands whole, False when it is the one cut (half or not at all)."""
        if self.dead:
            return None
        self.ops += 1
        if self.ops == self.cut_after + 1:
            self.dead = True
            return False
        return True

    def readblocks(self, block, buf, offset=0):
        if self.dead:
            return _EIO  # and no allocation: a finaliser may read while the heap is locked
        self.reads += 1
        if self.reads in self.bad_reads or 0 < self.bad_from <= self.reads:  # no allocation (see dead)
            return _EIO  # littlefs sees LFS_ERR_IO: an OSError(EIO) from open/read/stat/rename
        a = block * self.block_size + offset
        buf[:] = self._mv[a : a + len(buf)]

    def writeblocks(self, block, buf, offset=0):
        power = self._power()
        if power is None:
            return _EIO
        a = block * self.block_size + offset
        n = len(buf)
        if power:
            self.writes += 1
            self.bytes_written += n
            self._mv[a : a + n] = buf
            return
        if self.half:
            h = n // 2
            self._mv[a : a + h] = memoryview(buf)[:h]
        return _EIO

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.block_count
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase one block
            power = self._power()
            if power is None:
                return _EIO
            a = arg * self.block_size
            if power:
                self.erases += 1
                self._mv[a : a + self.block_size] = self._blank
                return 0
            if self.half:
                h = self.block_size // 2
                self._mv[a : a + h] = memoryview(self._blank)[:h]
            return _EIO
        return 0  # init, deinit, sync: nothing to do in RAM
