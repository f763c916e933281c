# Where the heap goes after boot, part by part (docs/memory.md's table): bench/mp_heapmap.py on the unix port,
# code in RAM (.mpy loaded into the heap) and in ROM (a ROMFS image, as sim/launch.py runs it), with the
# 600-event journal of bench/mp_journal.py; with --pico also on the emulated Pico (code in RAM, the bundle).
"""python -m bench.heapmap [--pico]

Each row is what one part left held after a collection, in bytes of that heap: a module's code (its
bytecode with the code in RAM), constants, functions and globals; then the board definition, the HAL,
the settings, the App (the match replayed from the journal, the journal, controller, render), then what
loads later: the link (a laptop's first line), the menu (its first opening), the discard advice (first
asked for: its code and an Advisor); "free after boot" is the heap before those three.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile

from match_script import match_events

from board.store.commit import _EVERY
from cribbage import events
from tools import build, deploy, emupico

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WORK = os.path.join(_ROOT, "build", "heapmap")
FIRMWARE = os.path.join(_ROOT, "firmware")


def _file(name):
    path = os.path.join(FIRMWARE, *name.split("."))
    return path + "/__init__.py" if os.path.isdir(path) else path + ".py"


def _imports(node, eager, lazy, inside):
    """The modules node imports: eager (at import) or lazy (in a function's body)."""
    for child in ast.iter_child_nodes(node):
        into = lazy if inside else eager
        if isinstance(child, ast.Import):
            into += [a.name for a in child.names]
        elif isinstance(child, ast.ImportFrom) and child.module:
            into += [child.module] + [child.module + "." + a.name for a in child.names]
        func = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        _imports(child, eager, lazy, inside or func)


def import_order(*tops, after=()):
    """The firmware's modules that tops import (at any depth, lazily or not), each after those it imports
    at load (a function's imports may come after)."""
    seen, order = set(after), []

    def visit(name):
        if name in seen or not os.path.exists(_file(name)):
            return
        seen.add(name)
        if "." in name:
            visit(name.rsplit(".", 1)[0])
        with open(_file(name)) as f:
            tree = ast.parse(f.read())
        eager, lazy = [], []
        _imports(tree, eager, lazy, False)
        for dep in eager:
            visit(dep)
        order.append(name)
        # a function's imports run after the module is loaded: they need not come before it
        for dep in lazy:
            visit(dep)

    for top in tops:
        visit(top)
    # A sub-module its package's __init__ imports loads with the package (importing it alone would run
    # the package first, and with it the package's other imports): it is measured in the package's row.
    at = {name: i for i, name in enumerate(order)}
    return [n for i, n in enumerate(order) if not any(at.get(p, -1) > i for p in _packages(n))]


def _packages(name):
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts))]


def script():
    """bench/mp_heapmap.py with its lists of modules written in (build/heapmap/mp_heapmap.py)."""
    with open(os.path.join(_ROOT, "bench", "mp_heapmap.py")) as f:
        text = f.read()
    # loaded later, or not kept after boot
    skip = (
        "board.controller.advising",
        "board.boarddef.boardfile",
        "board.boarddef.boardcache",
        "board.boarddef",
    )
    skip += ("hal.rp2", "hal.ws2812")  # the Pico's HAL: measured on its own
    skip += ("board.link",)  # loaded when a laptop first sends a line (App.pump): the link's row
    skip += ("board.controller.menu",)  # loaded when the menu first opens (Controller._open): the menu's row
    skip += ("board.sound", "hal.piezo")  # a board with a piezo, the sound on: not the reference board's boot
    # against the board (Controller.tick, forms.check_setup): loaded when such a match is in force, with
    # the opponent and the advice it brings; not the reference board's boot
    skip += ("board.controller.solo", "cribbage.solo")
    # hal.lines: the link's line reader, which both HALs import too (a row of its own, as before)
    order = import_order("board.app", "hal.lines", after=skip) + ["start"]
    menu = import_order("board.controller.menu", after=order)
    advice = import_order("board.controller.advising", after=order + menu)  # when advice is first asked for
    text = text.replace('ORDER = ""', "ORDER = %r" % " ".join(order), 1)
    text = text.replace('MENU = ""', "MENU = %r" % " ".join(menu), 1)
    text = text.replace('ADVICE = ""', "ADVICE = %r" % " ".join(advice), 1)
    out = os.path.join(WORK, "mp_heapmap.py")
    with open(out, "w") as f:
        f.write(text)
    return out


def journal600():
    lines = []
    match_events(seed=1, games=9, max_events=600, sink=lambda ev: lines.append(events.to_line(ev)))
    path = os.path.join(WORK, "journal600.log")
    with open(path, "wb") as f:
        f.write(emupico.journal_bytes(lines, WORK))
    return path, lines


def on_unix(code, journal):
    dest = os.path.join(WORK, "unix")
    build.compile_tree(dest, march=build.host_march(), sim=True)  # hal.rp2 too: run here on fakes
    deploy.driver_file(dest)  # the display driver, where `make deploy` puts it in a ROM image
    board = build.board_files(os.path.join(_ROOT, "hardware", "board.json"), dest)
    data = tempfile.mkdtemp(prefix="heapmap-", dir=WORK)
    # Every path relative to the clone: an imported module interns its file's path (__file__), so an
    # absolute one would make a row's figure depend on where the clone sits (CI's is not this machine's).
    rel = lambda path: os.path.relpath(path, _ROOT)  # noqa: E731
    args = [rel(board), rel(journal), rel(data), "-", rel(os.path.join(_ROOT, "tests", "support"))]
    mp = os.path.join(build.BIN, "micropython")
    if code == "rom":
        image = os.path.join(WORK, "unix.romfs")
        build.romfs_image(dest, image)
        boot = rel(os.path.join(_ROOT, "sim", "boot.py"))
        cmd = [mp, "-X", "heapsize=4m", boot, rel(image), rel(script()), "/rom"]
    else:
        cmd = [mp, "-X", "heapsize=4m", rel(script()), rel(dest)]
    try:
        done = subprocess.run(cmd + args, capture_output=True, text=True, cwd=_ROOT)
    finally:
        shutil.rmtree(data, ignore_errors=True)  # the run's flash image (1.4 MB)
    if done.returncode:
        raise SystemExit("mp_heapmap.py (%s) failed:\n%s%s" % (code, done.stdout, done.stderr))
    return json.loads(done.stdout.strip().splitlines()[-1])


def on_pico(lines):
    why = emupico.missing()
    if why:
        raise SystemExit("--pico needs the emulated Pico: " + why)
    image = os.environ.get("DEVICE_IMAGE") or emupico.deploy(WORK)  # DEVICE_IMAGE: one deployed earlier
    # with the boot checkpoint the board keeps (every _EVERY records): _EVERY - 1 replayed after it
    img = emupico.with_journal(image, os.path.join(WORK, "j600.img"), lines, WORK, 601 - _EVERY)
    # main.py emptied: the board boots to the REPL and the script measures the boot itself
    img = emupico.with_files(img, os.path.join(WORK, "j600-nomain.img"), {"main.py": b"\n"})
    with emupico.Pico(WORK, "heapmap", load_fs=img) as pico:
        pico.wait_runner(r"MicroPython|>>>|soft reboot", 120)
        done = emupico.mpremote(pico.url, "run", script(), timeout=600)
        pico.quit()
    if done.returncode:
        raise SystemExit("mp_heapmap.py on the Pico failed:\n" + done.stdout + done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(runs):
    names = []
    for r in runs.values():
        for name, _n, _us in r["parts"]:
            if name not in names:
                names.append(name)
    cols = list(runs)
    timed = [c for c in cols if c.startswith("Pico")]  # device time: the unix port's is not the Pico's
    heads = ["%12s" % c for c in cols] + ["%12s" % (c + " ms") for c in timed]
    print("%-72s %s" % ("part (bytes held after a collection)", " ".join(heads)))
    for name in names:
        row = []
        for c in cols:
            got = [n for k, n, _us in runs[c]["parts"] if k == name]
            row.append("%12s" % (got[0] if got else "-"))
        for c in timed:
            got = [us for k, _n, us in runs[c]["parts"] if k == name]
            row.append("%12s" % ("%.1f" % (got[0] / 1000) if got else "-"))
        print("%-72s %s" % (name[:72], " ".join(row)))
    sums = ["%12d" % sum(n for _k, n, _us in runs[c]["parts"]) for c in cols]
    sums += ["%12.1f" % (sum(us for _k, _n, us in runs[c]["parts"]) / 1000) for c in timed]
    print("%-72s %s" % ("sum", " ".join(sums)))
    print("%-72s %s" % ("free after boot", " ".join("%12d" % runs[c]["free"] for c in cols)))
    print(
        "%-72s %s"
        % (
            "free with the link, menu and advice loaded",
            " ".join("%12d" % runs[c]["free_lazy"] for c in cols),
        )
    )


def main(argv):
    os.makedirs(WORK, exist_ok=True)
    path, lines = journal600()
    runs = {"unix RAM": on_unix("ram", path), "unix ROM": on_unix("rom", path)}
    if "--pico" in argv:
        runs["Pico RAM"] = on_pico(lines)
    table(runs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
