# MicroPython-only checks: the unix port has what the firmware and its tests rely on.
import micropython
import vfs


def test_littlefs_and_heap_lock_available():
    assert hasattr(vfs, "VfsLfs2")
    micropython.heap_lock()
    try:
        try:
            bytearray(8)
        except MemoryError:
            locked = True
        else:
            locked = False
    finally:
        micropython.heap_unlock()
    assert locked
