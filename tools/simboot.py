# The sim's boot for `--code rom` (run by the MicroPython unix port, not CPython): as on a Pico with a ROM
# partition, the compiled firmware sits in "flash" and runs from there in place; then main.py runs.
#   micropython -X heapsize=H tools/simboot.py IMAGE MAIN_PY [main.py's options]
# The unix port has no flash to map, so the image is read into one buffer allocated before anything
# else and mounted with vfs.VfsRom: that buffer is the flash, and tools/sim.py adds its size (and
# this script's own few KB) to the heap, so the firmware gets the heap it was promised. The buffer
# is never freed or moved, so the bytecode and strings the imports point into stay valid.
import gc
import sys

import vfs


def mount(image):
    """The image in a buffer of its own, mounted at /rom as the Pico's firmware mounts its ROM
    partition; -> its size."""
    gc.collect()
    with open(image, "rb") as f:
        size = f.seek(0, 2)
        f.seek(0)
        flash = bytearray(size)
        f.readinto(flash)
    vfs.mount(vfs.VfsRom(flash), "/rom")
    return size


def boot(argv):
    image, main = argv[1], argv[2]
    size = mount(image)
    # The Pico's search path with a ROM partition, less the littlefs (main.py's own folder holds
    # the .mpy files of `--code ram`: they must not be found here).
    sys.path[:] = ["/rom", "/rom/lib", ".frozen"]
    sys.argv[:] = [main] + argv[3:] + ["--rom", str(size)]
    return main


_main = boot(sys.argv)
gc.collect()
execfile(_main, {"__name__": "__main__", "__file__": _main})  # noqa: F821 (MicroPython's builtin)
