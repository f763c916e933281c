# The sim's boot for `--code rom` (run by the MicroPython unix port, not CPython): as on a Pico with a ROM
# partition, the compiled firmware sits in "flash" and runs from there in place; then main.py runs.
#   micropython -X heapsize=H sim/boot.py IMAGE MAIN_PY [main.py's options]
# The unix port has no flash to map, so the image is read into one buffer allocated before anything
# else and mounted with vfs.VfsRom: that buffer is the flash, and sim/launch.py adds its size (and
# this script's own few KB) to the heap, so the firmware gets the heap it was promised. The buffer
# is never freed or moved, so the bytecode and strings the imports point into stay valid.
import gc
import sys

import vfs


def boot(argv):
    """The image (argv[1]) in a buffer of its own, mounted at /rom as the Pico's firmware mounts its ROM
    partition; then main.py (argv[2]) is argv[0] with the options after it. One function and no
    globals: each name here is one more interned name in the sim ([name budget]), a Pico has none."""
    gc.collect()
    with open(argv[1], "rb") as f:
        size = f.seek(0, 2)
        f.seek(0)
        flash = bytearray(size)
        f.readinto(flash)
    vfs.mount(vfs.VfsRom(flash), "/rom")  # pyright: ignore[reportAttributeAccessIssue] (the stubs lack it)
    # The Pico's search path with a ROM partition, less the littlefs (main.py's own folder holds
    # the .mpy files of `--code ram`: they must not be found here).
    sys.path[:] = ["/rom", ".frozen"]
    sys.argv[:] = [argv[2]] + argv[3:] + ["--rom", str(size)]


boot(sys.argv)
gc.collect()
execfile(sys.argv[0], {"__name__": "__main__", "__file__": sys.argv[0]})  # noqa: F821 (MicroPython's builtin)
