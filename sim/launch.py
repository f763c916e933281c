# `python -m sim` (make sim): compile the firmware as the Pico runs it (.mpy, main.py as source) and start
# it on the MicroPython unix port with the sim HAL. Every option but --heap and --code goes to the sim as
# given (see sim/hal.py); the sim also hears the heap it stands for, to report it in a Pico's terms.
#
# --code rom (default) runs the modules from a ROMFS image, as a Pico with a ROM partition does after
# `make deploy` (or a build with the modules frozen): the bytecode stays in flash. The image is read
# into a buffer allocated before anything else (sim/boot.py) and the unix heap is grown by its
# size and ROM_OVERHEAD, so the firmware still gets the heap asked for. --code ram loads the .mpy
# files into the heap, as a stock Pico (no ROM partition) does. See docs/memory.md.
#
# --heap is the Pico's free heap (default 200k, a stock Pico's). This unix port is 64-bit: pointers
# and GC blocks are twice the Pico's, so the same objects take more room. HEAP_RATIO is that
# growth measured for this firmware (the same modules loaded and an App built and stepped on the
# 32-bit WebAssembly port and on this one, the ratio of the two heaps held); the unix heap is the Pico
# heap times it. A run that fits is evidence, not proof, that a Pico with that heap runs it.
#
# One flash is one board: the launcher locks <data>/.lock (flock, kept across execv by the sim) and
# refuses a second sim on it. A --script without --data plays on a fresh flash of its own.
import fcntl
import os

from tools import build

HEAP_RATIO = 1.42
DEFAULT_HEAP = "200k"
CODES = ("rom", "ram")
DEFAULT_CODE = "rom"
# Beside the image, what the ROM boot (sim/boot.py: its own code, the mount) holds from the
# unix heap before the firmware starts (measured, rounded up); the sim logs the heap it hands over.
ROM_OVERHEAD = 2 * 1024
# A --script run holds the script reader and runner (sim/script.py, sim/run.py), which no Pico has:
# they get this much unix heap on top, as the drawing does (measured; the sim logs what they took and
# counts only the rest as the firmware's).
SCRIPT_HEAP = {"rom": 5 * 1024, "ram": 10 * 1024}
# The sim's own HAL (sim/'s modules and the objects SimHal makes) stands in for the Pico's HAL (hal.rp2,
# hal.ws2812 and what hal.rp2.make holds: the ssd1306 driver loaded into RAM from lib/, its frame, the LED
# chains' words, ...). The sim counts what its own takes outside the firmware's heap and what the Pico's
# would take inside it (--hal: the difference, less than 0 when the Pico's HAL is the bigger), so that the
# firmware has the Pico's heap less the Pico's HAL, as on a Pico. Measured by bench/heapmap.py (kept true
# by tests/sim/test_heapmap.py), in this port's bytes: the sim's modules and objects; the Pico's modules
# loaded here on fakes of machine and rp2, and its objects as measured on the emulated Pico:
# their byte buffers are the same size here (PICO_BUFFERS: the display's frame, the LED chains' words
# 4 x 397, the USB line buffer), the rest is objects, times HEAP_RATIO. With the code in ROM the display
# driver's code is in the image (tools/deploy.py), not in the heap: DRIVER_CODE less (its row in
# bench/heapmap.py, RAM less ROM). The interned-name pools are left out: they are the firmware's either way.
SIM_HAL = {"rom": 15840, "ram": 26560}
PICO_BUFFERS = 1024 + 4 * 397 + 1026
PICO_OBJECTS = int((7584 - PICO_BUFFERS) * HEAP_RATIO) + PICO_BUFFERS
DRIVER_CODE = 1280  # a middle value: the driver's names land in the pools differently run to run
PICO_HAL = {"rom": 5824 + PICO_OBJECTS - DRIVER_CODE, "ram": 10400 + PICO_OBJECTS}
# The GC's own tables take about 1/80 of what -X heapsize gives (290816 bytes -> 287360 usable):
# the heap grown for the image grows them too.
GC_TABLES = 290816 / 287360
# Drawing the board in the terminal builds strings the Pico never makes: a drawn sim gets this much
# unix heap on top, so the firmware keeps the Pico's share (a --headless run gets none).
DRAWING_HEAP = 96 * 1024
DEST = os.path.join(build.ROOT, "build", "sim")
# A --script run without --data plays on a flash of its own here, made fresh each run: the README's
# demo must never replay over (or append to) the game a user played by hand in sim-data/.
SCRIPT_DATA = os.path.join(build.ROOT, "build", "sim-scripts")
DEFAULT_DATA = "sim-data"  # the sim's own default (sim/hal.py), relative to where it runs
LOCK = ".lock"


def parse_size(text):
    """200k, 96K, 1m or plain bytes -> bytes."""
    t = text.strip().lower()
    scale = {"k": 1024, "m": 1024 * 1024}.get(t[-1:], 1)
    digits = t[:-1] if scale > 1 else t
    if not digits.isdigit():
        raise SystemExit("--heap %r: give bytes or a size like 200k" % (text,))
    return int(digits) * scale


def _options(argv):
    """-> (heap text, code, the sim's own options)."""
    found = {"heap": DEFAULT_HEAP, "code": DEFAULT_CODE}
    rest = []
    i = 0
    while i < len(argv):
        name = argv[i][2:].split("=", 1)[0] if argv[i].startswith("--") else ""
        if name in found:
            if "=" in argv[i]:
                found[name] = argv[i].split("=", 1)[1]
                i += 1
                continue
            if i + 1 < len(argv):
                found[name] = argv[i + 1]
                i += 2
                continue
        rest.append(argv[i])
        i += 1
    if found["code"] not in CODES:
        raise SystemExit(
            "--code %r: give rom (the modules in flash) or ram (loaded into the heap)" % (found["code"],)
        )
    return found["heap"], found["code"], rest


def _value(rest, name):
    for i in range(len(rest) - 1):
        if rest[i] == name:
            return rest[i + 1]
    return None


def own_flash(rest):
    """The sim's options with a flash of its own for a script not told where (--data): one folder a
    script, erased first (--fresh), so a demo is the same each time and leaves sim-data/ alone."""
    script = _value(rest, "--script")
    if script is None or _value(rest, "--data") is not None:
        return rest
    name = os.path.splitext(os.path.basename(script))[0] or "script"
    extra = ["--data", os.path.join(SCRIPT_DATA, name)]
    if "--fresh" not in rest:
        extra.append("--fresh")
    return rest + extra


def lock_flash(data):
    """Hold <data>/.lock for as long as this process (and the sim it becomes) runs: a second sim on
    the same flash is refused instead of both writing it. -> the lock's file descriptor."""
    os.makedirs(data, exist_ok=True)
    path = os.path.join(data, LOCK)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
        os.close(fd)
        image = os.path.join(data, "flash.img")
        raise SystemExit(
            "sim: another simulator (pid %s) is running on %s: quit it first (Ctrl-C), or "
            "give this one a flash of its own with --data DIR" % (holder, image)
        )
    os.ftruncate(fd, 0)
    os.write(fd, b"%d\n" % os.getpid())  # execv keeps the pid: it is the sim's
    os.set_inheritable(fd, True)  # held across execv, released when the sim exits however it ends
    return fd


def command(argv):
    """-> (argv of the micropython process, Pico heap bytes, unix heap bytes)."""
    heap, code, rest = _options(argv)
    rest = own_flash(rest)
    pico = parse_size(heap)
    unix = int(pico * HEAP_RATIO)
    extra = 0 if "--headless" in rest else DRAWING_HEAP
    if "--script" in rest:
        extra += SCRIPT_HEAP[code]
    hal = SIM_HAL[code] - PICO_HAL[code]
    extra += hal
    # The modules that ship, less the Pico-only ones the unix port cannot import, and the sim's own.
    build.compile_tree(DEST, march=build.host_march(), exclude=("hal/rp2.py", "hal/ws2812.py"), sim=True)
    mp = os.path.join(build.BIN, "micropython")
    if not os.access(mp, os.X_OK):
        mp = "micropython"
    if "--board" in rest:
        board_args = []
    else:
        # hardware/board.json beside main.py with its cache, as `make deploy` puts them on a Pico
        board_args = ["--board", build.board_files(os.path.join(build.ROOT, "hardware", "board.json"), DEST)]
    main_py = os.path.join(DEST, "main.py")
    told = ["--heap", str(pico), "--ratio", "%.2f" % HEAP_RATIO, "--code", code, "--hal", str(hal)]
    if code == "rom":
        image = os.path.join(DEST, "firmware.romfs")
        size = build.romfs_image(DEST, image)
        boot = os.path.join(build.SIM, "boot.py")
        grown = unix + extra + int((size + ROM_OVERHEAD) * GC_TABLES)
        cmd = [mp, "-X", "heapsize=%d" % grown, boot, image, main_py]
    else:
        cmd = [mp, "-X", "heapsize=%d" % (unix + extra), main_py]
    return cmd + board_args + told + rest, pico, unix


def main(argv):
    cmd, pico, unix = command(argv)
    lock_flash(_value(cmd, "--data") or DEFAULT_DATA)
    extra = " + %d KB for drawing" % (DRAWING_HEAP // 1024) if "--headless" not in argv else ""
    code = _options(argv)[1]
    where = "code in ROM (the image outside that heap)" if code == "rom" else "code in RAM"
    print(
        "sim: Pico heap %d KB = %d KB on this 64-bit unix port (x%.2f)%s, %s"
        % (pico // 1024, int(pico * HEAP_RATIO) // 1024, HEAP_RATIO, extra, where),
        flush=True,
    )
    os.execv(cmd[0], cmd)
