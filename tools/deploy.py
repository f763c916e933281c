# `make deploy`: compile firmware/ with mpy-cross for the Pico's chip and copy only what changed.
#
# What changed is decided against the board itself: a small script run on it (mpremote exec)
# hashes the files this deploy owns with the board's hashlib, so a board reflashed or edited by hand
# is still brought exactly up to date. The hashes sent last time are also kept on the laptop
# (build/deploy/<march>/manifest.json): --dry-run uses them when it does not ask the board.
# main.py is copied as source (the board runs it at boot), board.json beside it with its cache (the
# Board checked here: the board boots without loading its validator, see board/boarddef/);
# the SSD1306 display driver goes to lib/ssd1306.mpy when the board lacks it, compiled from the copy
# the laptop tools installed (pyproject.toml's deploy group: no network needed). The journal and settings
# in /data are never touched. With no board attached it says so, and how to put MicroPython on a new Pico
# (docs/pico.md), before anything else.
#
# The modules go one of two ways (docs/memory.md). A board whose MicroPython has a ROM partition
# (vfs.rom_ioctl(1) > 0 and room for the image) gets them as one ROMFS image (`mpremote romfs
# deploy`): the bytecode then runs from flash, not from the heap; the old .mpy
# copies on littlefs are deleted (they would shadow it). Any other board (a stock Pico build has no
# ROM partition) gets the .mpy files on littlefs, loaded into the heap at boot. A MicroPython built with
# the modules frozen in (firmware/manifest.py) gets only main.py and the board files.
#   tools/deploy.py [--port auto|DEVICE|id:SERIAL] [--dry-run] [--march armv6m|armv7emsp]
#                   [--code auto|rom|frozen|ram] [--full] [--no-driver] [--no-reset] [--ask-device]
#                   [--lines]        tracebacks with line numbers (no mpy-cross -O3: more heap)
#                   [--board FILE]   the board definition to send as board.json (default hardware/board.json)
import glob
import hashlib
import importlib.util
import json
import os
import subprocess
import sys

from tools import build

# The manifest's packages: the folders on the board that are all ours.
OWNED_DIRS = tuple(sorted(build.manifest()[0]))
# start.py: the composition root main.py calls; board.cache: the checked board.json (board/boarddef/)
# codefs.mpy and app.bundle: the modules in one file, served to the importer at boot (firmware/codefs.py)
OWNED_FILES = ("main.py", "start.mpy", "codefs.mpy", "app.bundle", "board.json", "board.cache")
ROMFS = "@romfs"  # the manifest's entry for the ROM image last sent (no file on the board has this name)
DRIVER = "lib/ssd1306.mpy"
DRIVER_PACKAGE = "ssd1306py"  # PyPI micropython-ssd1306py (the deploy group): MicroPython's SSD1306 driver
RASPBERRY_PI_VID = 0x2E8A  # every Pico running MicroPython shows this USB vendor id
BOOTSEL_PIDS = (0x0003, 0x000F)  # an RP2040 / RP2350 in BOOTSEL mode: a USB drive, no MicroPython yet
FIRST_FLASH = "docs/pico.md"

# Run on the board: print a JSON object {path: sha256 hex} of the files this deploy owns.
DEVICE_HASHES = """
import os, json, hashlib, binascii
R = %r
def h(p):
    d = hashlib.sha256()
    b = bytearray(256)
    m = memoryview(b)
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            d.update(m[:n])
    return binascii.hexlify(d.digest()).decode()
def walk(rel, out):
    try:
        entries = list(os.ilistdir(R + rel))
    except OSError:
        return
    for e in entries:
        p = rel + '/' + e[0] if rel else e[0]
        if e[1] == 0x4000:
            walk(p, out)
        else:
            out[p] = h(R + p)
out = {}
for d in %r:
    walk(d, out)
for p in %r:
    try:
        out[p] = h(R + p)
    except OSError:
        pass
print(json.dumps(out))
"""


def device_script(root="/"):
    return DEVICE_HASHES % (root, OWNED_DIRS, OWNED_FILES + (DRIVER,))


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# Run on the board: print a JSON object {"size": bytes of ROM partition 0 (0: none), "hash": sha256 hex of
# its first N bytes, or null, "frozen": whether this MicroPython has our modules frozen in}.
DEVICE_ROM = """
import json, hashlib, binascii, sys
out = {"size": 0, "hash": None, "frozen": False}
path = sys.path[:]
sys.path[:] = [".frozen"]
try:
    import start
    out["frozen"] = True
except ImportError:
    pass
sys.path[:] = path
try:
    import vfs
    if vfs.rom_ioctl(1) > 0:
        dev = vfs.rom_ioctl(2, 0)
        if not isinstance(dev, int) and not hasattr(dev, "ioctl"):
            out["size"] = len(dev)
            if len(dev) >= %d:
                out["hash"] = binascii.hexlify(hashlib.sha256(memoryview(dev)[:%d]).digest()).decode()
except (ImportError, AttributeError, OSError):
    pass
print(json.dumps(out))
"""


def rom_script(image_size):
    return DEVICE_ROM % (image_size, image_size)


def plan(local, device):
    """local: {device path: hash} to ship; device: {path: hash} found on the board.
    -> (paths to copy, sorted; paths to delete: ours on the board that we no longer ship)."""
    copy = sorted(p for p in local if device.get(p) != local[p])
    delete = sorted(
        p
        for p in device
        if p not in local and p != DRIVER and (p in OWNED_FILES or p.split("/", 1)[0] in OWNED_DIRS)
    )
    return copy, delete


def mpremote(port, *args, capture=False):
    """Run mpremote on the board: its exit status; capture=True: its output (a failure ends the deploy);
    capture=None: the finished process, output kept, for the caller to judge."""
    cmd = [os.path.join(build.BIN, "mpremote"), "connect", port] + list(args)
    if capture is None:
        return subprocess.run(cmd, capture_output=True, text=True)
    if capture:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            raise SystemExit("mpremote failed: %s" % (r.stderr.strip() or r.stdout.strip()))
        return r.stdout
    return subprocess.run(cmd).returncode


def board_march(port):
    """-march for the board's chip, asked from sys.implementation._mpy."""
    out = mpremote(port, "exec", "import sys; print(sys.implementation._mpy >> 10)", capture=True)
    arch = int(out.strip().splitlines()[-1])
    if arch not in build.MARCH_OF_ARCH:
        raise SystemExit("the board's MicroPython has native arch %d: give --march" % arch)
    return build.MARCH_OF_ARCH[arch]


def driver_source():
    """The SSD1306 driver's source as the laptop tools installed it, or None. Found, not imported:
    the package's __init__ imports `machine`, which CPython has not."""
    spec = importlib.util.find_spec(DRIVER_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(list(spec.submodule_search_locations)[0], "ssd1306.py")
    return path if os.path.exists(path) else None


def driver_file(dest):
    """ssd1306.mpy compiled into dest from driver_source(), or None when it is not installed. It sits at
    dest's top, so a ROM image made from dest carries it where the board's imports look first (/rom),
    as a frozen build carries it (firmware/manifest.py): its code then stays in flash too. With the
    code in RAM it goes to lib/ on littlefs (DRIVER)."""
    src = driver_source()
    if src is None:
        return None
    out = os.path.join(dest, "ssd1306.mpy")
    stale = os.path.join(dest, "lib", "ssd1306.mpy")  # where earlier deploys compiled it
    if os.path.exists(stale):
        os.remove(stale)
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src):
        subprocess.run([build.mpy_cross(), "-s", "ssd1306.py", src, "-o", out], check=True)
    return out


def bootsel_drives():
    """Picos waiting in BOOTSEL mode (no MicroPython yet): their USB drives, or their sysfs entries."""
    found = []
    for pattern in (
        "/media/*/RPI-RP2",
        "/media/*/RP2350",
        "/run/media/*/RPI-RP2",
        "/run/media/*/RP2350",
        "/media/RPI-RP2",
        "/media/RP2350",
        "/Volumes/RPI-RP2",
        "/Volumes/RP2350",
    ):
        found += glob.glob(pattern)
    if found:
        return found
    # Not mounted (yet, or no automounter): Linux still lists the USB device.
    for vid in glob.glob("/sys/bus/usb/devices/*/idVendor"):
        try:
            with open(vid) as f, open(vid[: -len("idVendor")] + "idProduct") as g:
                if int(f.read(), 16) == RASPBERRY_PI_VID and int(g.read(), 16) in BOOTSEL_PIDS:
                    found.append(os.path.dirname(vid))
        except (OSError, ValueError):
            pass
    return found


def pico_ports():
    """Serial ports of Picos running MicroPython (Raspberry Pi's USB vendor id)."""
    import serial.tools.list_ports

    return sorted(p.device for p in serial.tools.list_ports.comports() if p.vid == RASPBERRY_PI_VID)


def no_board_message(port):
    if bootsel_drives():
        return (
            "a Pico is in BOOTSEL mode (a USB drive, no MicroPython on it yet): copy the RPI_PICO "
            "MicroPython .uf2 onto it first, see %s" % FIRST_FLASH
        )
    if port != "auto":
        return "no board at %s: is it plugged in? (a new Pico needs MicroPython first: %s)" % (
            port,
            FIRST_FLASH,
        )
    return (
        "no board attached: plug the Pico in over USB. A new Pico needs MicroPython first (hold "
        "BOOTSEL while plugging it in, copy the RPI_PICO .uf2 onto the drive): %s" % FIRST_FLASH
    )


def find_board(port):
    """The port to give mpremote, or None when no board is attached (said by no_board_message)."""
    if port == "auto":
        found = pico_ports()
        if len(found) > 1:
            raise SystemExit(
                "%d Picos attached (%s): choose one with make deploy PORT=..."
                % (len(found), ", ".join(found))
            )
        return found[0] if found else None
    if port.startswith("/dev/") and not os.path.exists(port):
        return None
    return port


BOARD = os.path.join(build.ROOT, "hardware", "board.json")


# mpy-cross -O3 by default: the bytecode without its line-number tables (and asserts), which on a stock
# Pico are heap (docs/memory.md). --lines compiles without it, for tracebacks that name the line.
OPT = 3


def local_files(march, board_file=BOARD, opt=OPT):
    """-> (build folder, {board path: local file}) of everything for the board's littlefs when the
    modules go there too (--code ram); board_file goes as board.json, with its cache. opt: mpy-cross's
    -O level (None: none given, the line numbers kept)."""
    dest = os.path.join(build.ROOT, "build", "deploy", march)
    files = dict(build.compile_tree(dest, march=march, opt=opt))
    board = build.board_files(board_file, dest)
    files["board.json"] = board
    files["app.bundle"] = build.code_bundle(list(files.items()), os.path.join(dest, "app.bundle"))
    cache = os.path.join(os.path.dirname(board), "board.cache")
    if os.path.exists(cache):  # none when board.json fails the check: the board then names the field
        files["board.cache"] = cache
    return dest, files


def rom_split(dest, files):
    """The modules as one ROMFS image (written to dest/firmware.romfs) and what stays for littlefs:
    -> (image path, image sha256, {board path: local file} without the .mpy modules)."""
    image = os.path.join(dest, "firmware.romfs")
    driver_file(dest)  # in the image: the display driver's code in flash with the rest
    build.romfs_image(dest, image)
    # the bundle too: it would put the modules back on the heap (main.py mounts it when it is there)
    rest = {p: f for p, f in files.items() if not p.endswith(".mpy") and p != "app.bundle"}
    return image, sha256(image), rest


def device_rom(port, image_size):
    out = mpremote(port, "exec", rom_script(image_size), capture=True)
    return json.loads(out.strip().splitlines()[-1])


def parse(argv):
    o = {
        "port": "auto",
        "dry_run": False,
        "march": None,
        "full": False,
        "driver": True,
        "reset": True,
        "ask_device": False,
        "manifest": None,
        "code": "auto",
        "board": BOARD,
        "opt": OPT,
    }
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--port", "--march", "--manifest", "--code", "--board") and i + 1 < len(argv):
            o[a[2:]] = argv[i + 1]
            i += 1
        elif a == "--dry-run":
            o["dry_run"] = True
        elif a == "--full":
            o["full"] = True
        elif a in ("--no-driver", "--no-mip"):
            o["driver"] = False
        elif a == "--no-reset":
            o["reset"] = False
        elif a == "--ask-device":
            o["ask_device"] = True
        elif a == "--lines":
            o["opt"] = None
        else:
            raise SystemExit("unknown option %r (see the top of tools/deploy.py)" % (a,))
        i += 1
    if not os.path.isfile(o["board"]):
        raise SystemExit(
            "--board %s: no such file (a board definition, like hardware/board.json)" % o["board"]
        )
    if o["code"] not in ("auto", "rom", "frozen", "ram"):
        raise SystemExit("--code %r: give auto (ask the board), rom, frozen or ram" % (o["code"],))
    return o


def main(argv):
    o = parse(argv)
    ask = o["ask_device"] or not o["dry_run"]
    board = find_board(o["port"])
    if board is None and ask:
        raise SystemExit(no_board_message(o["port"]))
    if board is not None:
        o["port"] = board
    if not ask:
        # A dry run asks no board: say whether one is there at all (on stderr: stdout is the plan).
        print(
            "dry run: %s"
            % (
                "the board at %s is not asked (--ask-device asks it)" % board
                if board is not None
                else no_board_message(o["port"])
            ),
            file=sys.stderr,
        )
    march = o["march"] or (board_march(o["port"]) if ask else "armv6m")
    dest, files = local_files(march, o["board"], o["opt"])
    manifest = o["manifest"] or os.path.join(dest, "manifest.json")
    last = {}
    if os.path.exists(manifest):
        with open(manifest) as f:
            last = json.load(f)
    image, image_hash, littlefs = rom_split(dest, files)
    size = os.path.getsize(image)
    code, rom = o["code"], None
    if ask and code != "ram":
        rom = device_rom(o["port"], size)
        if code == "rom" and rom["size"] < size:
            raise SystemExit(
                "--code rom: the board has %s (the image is %d bytes)"
                % ("no ROM partition" if not rom["size"] else "a %d-byte ROM partition" % rom["size"], size)
            )
        if code == "auto":
            code = "frozen" if rom["frozen"] else "rom" if rom["size"] >= size else "ram"
    elif code == "auto":
        code = "rom" if ROMFS in last else "ram"  # a dry run: as the last deploy did
    if code in ("rom", "frozen"):
        files = littlefs
    local = {p: sha256(f) for p, f in files.items()}
    if ask:
        out = mpremote(o["port"], "exec", device_script(), capture=True)
        device = json.loads(out.strip().splitlines()[-1])
        source = "the board"
        rom_hash = rom["hash"] if rom else None
    else:
        device = last
        source = "the last deploy (%s)" % os.path.relpath(manifest, build.ROOT)
        rom_hash = last.get(ROMFS)
    if o["full"]:
        device = {p: h for p, h in device.items() if p == DRIVER}
        rom_hash = None
    copy, delete = plan(local, device)
    send_rom = code == "rom" and rom_hash != image_hash
    # With the modules in ROM the driver is in the image (rom_split), frozen builds have it frozen in.
    need_driver = o["driver"] and (code == "rom" or (code == "ram" and DRIVER not in device))
    driver = driver_file(dest) if need_driver else None
    if need_driver and driver is None:
        print(
            "the SSD1306 driver is not installed on this laptop (make crib installs it: pyproject.toml's "
            "deploy group): the board will run without its display"
        )
    if driver is not None and code == "ram":
        files[DRIVER] = driver
        copy.append(DRIVER)
    if code == "rom":
        where = "modules in ROM (a %d KB image, %s)" % (size // 1024, "to send" if send_rom else "unchanged")
    elif code == "frozen":
        where = "modules frozen in the board's MicroPython"
    else:
        where = "modules on littlefs"
    among = ", the ssd1306 driver among them" if driver and code == "ram" else ""
    among = ", the ssd1306 driver in the image" if driver and code == "rom" else among
    print(
        "deploy for %s, %s, compared with %s: %d of %d files to copy, %d to delete%s"
        % (march, where, source, len(copy), len(files), len(delete), among)
    )
    for p in copy:
        print("  copy   %s" % p)
    for p in delete:
        print("  delete %s" % p)
    if o["dry_run"]:
        return 0
    if send_rom and mpremote(o["port"], "romfs", "deploy", image):
        raise SystemExit("mpremote romfs deploy failed: run make deploy again")
    if copy or delete:
        dirs = sorted({p.rsplit("/", 1)[0] for p in copy if "/" in p})
        mk = "import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n" % (
            [d for d in _parents(dirs)],
        )
        args = ["exec", mk]
        # --force: the plan above already compared the hashes, so mpremote need not hash each file on the
        # board again (a stat of a file not there yet, which some mpremote versions print as a traceback);
        # --no-verbose and the output kept: the plan's lines are the console's, not one echo a file.
        for p in copy:
            args += ["+", "fs", "cp", "--force", "--no-verbose", files[p], ":" + p]
        for p in delete:
            args += ["+", "fs", "rm", "--no-verbose", ":" + p]
        print("copying ...", flush=True)
        copied = mpremote(o["port"], *args, capture=None)
        if copied.returncode:
            said = (copied.stderr.strip() or copied.stdout.strip()).splitlines()
            raise SystemExit(
                "mpremote failed while copying (%s): run make deploy again (it resumes)"
                % (said[-1] if said else "exit %d" % copied.returncode)
            )
    if code == "rom":
        local[ROMFS] = image_hash
    if driver is not None and code == "ram":
        local[DRIVER] = sha256(driver)
    elif DRIVER in device:
        local[DRIVER] = device[DRIVER]  # so the next dry run knows the board has it
    with open(manifest, "w") as f:
        json.dump(local, f, indent=1, sort_keys=True)
    if o["reset"]:
        mpremote(o["port"], "reset")
    print("deployed: %s%d copied, %d deleted" % ("ROM image, " if send_rom else "", len(copy), len(delete)))
    return 0


def _parents(dirs):
    out = []
    for d in dirs:
        parts = d.split("/")
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            if p not in out:
                out.append(p)
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
