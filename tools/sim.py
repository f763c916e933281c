# `make sim`: compile the firmware as the Pico runs it (.mpy, main.py as source) and start it on the
# MicroPython unix port with the sim HAL. Every option but --heap goes to the sim (see hal/sim.py).
#
# --heap is the Pico's free heap (default 200k, a stock Pico's). This unix port is 64-bit: pointers
# and GC blocks are twice the Pico's, so the same objects take more room. HEAP_RATIO is that
# growth measured for this firmware (the same modules loaded and an App built and stepped on the
# 32-bit WebAssembly port and on this one: 117.7 KB vs 167.2 KB = 1.42); the unix heap is the Pico
# heap times it. A run that fits is evidence, not proof, that a Pico with that heap runs it.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build  # noqa: E402

HEAP_RATIO = 1.42
DEFAULT_HEAP = "200k"
# Drawing the board in the terminal builds strings the Pico never makes: a drawn sim gets this much
# unix heap on top, so the firmware keeps the Pico's share (a --headless run gets none).
DRAWING_HEAP = 96 * 1024
DEST = os.path.join(build.ROOT, "build", "sim")


def parse_size(text):
    """200k, 96K, 1m or plain bytes -> bytes."""
    t = text.strip().lower()
    scale = {"k": 1024, "m": 1024 * 1024}.get(t[-1:], 1)
    digits = t[:-1] if scale > 1 else t
    if not digits.isdigit():
        raise SystemExit("--heap %r: give bytes or a size like 200k" % (text,))
    return int(digits) * scale


def command(argv):
    """-> (argv of the micropython process, Pico heap bytes, unix heap bytes)."""
    heap = DEFAULT_HEAP
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] == "--heap" and i + 1 < len(argv):
            heap = argv[i + 1]
            i += 2
            continue
        if argv[i].startswith("--heap="):
            heap = argv[i].split("=", 1)[1]
            i += 1
            continue
        rest.append(argv[i])
        i += 1
    pico = parse_size(heap)
    unix = int(pico * HEAP_RATIO)
    if "--headless" not in rest:
        unix += DRAWING_HEAP
    build.compile_tree(DEST, march=build.host_march(), exclude=("hal/rp2.py", "hal/ws2812.py"))
    mp = os.path.join(build.BIN, "micropython")
    if not os.access(mp, os.X_OK):
        mp = "micropython"
    board = os.path.join(build.ROOT, "hardware", "board.json")
    if "--board" in rest:
        board_args = []
    else:
        board_args = ["--board", board]
    cmd = [mp, "-X", "heapsize=%d" % unix, os.path.join(DEST, "main.py")] + board_args + rest
    return cmd, pico, unix


def main(argv):
    cmd, pico, unix = command(argv)
    extra = " + %d KB for drawing" % (DRAWING_HEAP // 1024) if "--headless" not in argv else ""
    print("sim: Pico heap %d KB = %d KB on this 64-bit unix port (x%.2f)%s"
          % (pico // 1024, int(pico * HEAP_RATIO) // 1024, HEAP_RATIO, extra), flush=True)
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    main(sys.argv[1:])
