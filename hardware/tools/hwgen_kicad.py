# Runs KiCad's side of `make hardware`: the boards (kicad_pcb.py), their DRC and the fabrication files
# (kicad_fab.py) in the python that has KiCad's pcbnew module (Debian's kicad: /usr/bin/python3),
# then the pictures of each board from what pcbnew read back.
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CANDIDATES = ("/usr/bin/python3", "python3")
INSTALL = "KiCad's pcbnew module is missing: install Debian's kicad (as root: apt-get install kicad)"


class KicadMissing(RuntimeError):
    pass


def kicad_python():
    """The python that can import pcbnew (KICAD_PYTHON first), or KicadMissing saying how to get it."""
    tried = [os.environ["KICAD_PYTHON"]] if os.environ.get("KICAD_PYTHON") else []
    tried += list(CANDIDATES)
    for exe in tried:
        try:
            r = subprocess.run([exe, "-c", "import pcbnew; print(pcbnew.GetBuildVersion())"],
                               capture_output=True, text=True, timeout=120)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            return exe, r.stdout.strip()
    raise KicadMissing("%s (tried %s)" % (INSTALL, ", ".join(tried)))


def boards(kicad_dir, circuit_json, names=None):
    """Build, route and check the boards; returns drc.json's content {board: {counts, router_failed}}."""
    exe, _ = kicad_python()
    cmd = [exe, os.path.join(HERE, "kicad_pcb.py"), circuit_json, kicad_dir] + list(names or [])
    subprocess.run(cmd, check=True)
    with open(os.path.join(kicad_dir, "drc.json")) as f:
        return json.load(f)


BUILDERS = (
    "kicad_pcb.py",
    "hwgen_router.py",
    "hwgen_ripup.py",
    "hwgen_stitch.py",
    "hwgen_silk.py",
    "hwgen_footprints.py",
)
LIBRARY = os.path.join(os.path.dirname(HERE), "footprints", "kicad.pretty")  # KiCad's own footprints
# The routed boards as last built, committed: routing all five takes minutes (rip-up and retry), so a
# clean clone's `make test` and `make hardware` copy them when their stamp is this circuit's and
# builder's, and build again only after a change (then `make hardware` refreshes this copy to commit).
COMMITTED = os.path.join(os.path.dirname(HERE), "boards")
# and per board: .kicad_pcb, its .kicad_pro (KiCad 6 keeps a board's design rules there, not in the board:
# without it KiCad checks the board against its default rules), -pads.json, -drc.txt
KEPT = ("boards.stamp", "drc.json")


def _stamp(circuit_json):
    h = hashlib.sha256()
    with open(circuit_json, "rb") as f:
        h.update(f.read())
    paths = [os.path.join(HERE, name) for name in BUILDERS]
    paths += [os.path.join(LIBRARY, name) for name in sorted(os.listdir(LIBRARY))]
    for path in paths:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _packed(name):
    """The committed copy's name: the big files gzipped (a leg board is 4.5 MB of text, 0.6 MB packed)."""
    return name + ".gz" if name.endswith((".kicad_pcb", "-pads.json")) else name


def _pack(src, dst):
    if dst.endswith(".gz"):
        with open(src, "rb") as f, gzip.GzipFile(dst, "wb", mtime=0) as g:  # mtime 0: same bytes each time
            shutil.copyfileobj(f, g)
    else:
        shutil.copy(src, dst)


def _unpack(src, dst):
    if src.endswith(".gz"):
        with gzip.open(src, "rb") as g, open(dst, "wb") as f:
            shutil.copyfileobj(g, f)
    else:
        shutil.copy(src, dst)


def _kept(names):
    return list(KEPT) + [
        n + ext for n in names for ext in (".kicad_pcb", ".kicad_pro", "-pads.json", "-drc.txt")
    ]


def _read(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return f.read().strip()


def ensure_boards(kicad_dir, keep=False):
    """The boards and their DRC for kicad_dir/circuit.json, built again only when the circuit or the
    builder changed (so `make test` after `make hardware` reads them instead of routing again), else
    copied from the committed boards when those were built from this very circuit and builder.
    keep: after building, refresh the committed copy (make hardware)."""
    circuit_json = os.path.join(kicad_dir, "circuit.json")
    stamp_path = os.path.join(kicad_dir, "boards.stamp")
    stamp = _stamp(circuit_json)
    drc_path = os.path.join(kicad_dir, "drc.json")
    if _read(stamp_path) != stamp or not os.path.exists(drc_path):
        if _read(os.path.join(COMMITTED, "boards.stamp")) == stamp:
            with open(os.path.join(COMMITTED, "drc.json")) as f:
                names = sorted(json.load(f))
            for name in _kept(names):
                _unpack(os.path.join(COMMITTED, _packed(name)), os.path.join(kicad_dir, name))
        else:
            if os.path.exists(drc_path):
                os.remove(drc_path)
            drc = boards(kicad_dir, circuit_json)
            with open(stamp_path, "w") as f:
                f.write(stamp)
            if keep:
                os.makedirs(COMMITTED, exist_ok=True)
                for name in _kept(sorted(drc)):
                    _pack(os.path.join(kicad_dir, name), os.path.join(COMMITTED, _packed(name)))
    with open(drc_path) as g:
        return json.load(g)


def fabrication(kicad_dir, fab_dir, names):
    exe, _ = kicad_python()
    subprocess.run([exe, os.path.join(HERE, "kicad_fab.py"), kicad_dir, fab_dir] + list(names), check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip


def pictures(kicad_dir, pic_dir, names):
    from hwgen_render import render

    os.makedirs(pic_dir, exist_ok=True)
    out = []
    for name in names:
        for side in ("F", "B"):
            path = os.path.join(pic_dir, "%s-%s.png" % (name, "front" if side == "F" else "back"))
            render(os.path.join(kicad_dir, name + "-pads.json"), path, side)
            out.append(path)
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out = argv[0] if argv else "out/hardware"
    kicad_dir = os.path.join(out, "kicad")
    with open(os.path.join(kicad_dir, "circuit.json")) as f:
        names = [name for name, _ in json.load(f)["boards"]]
    try:
        drc = ensure_boards(kicad_dir, keep=True)
    except KicadMissing as e:
        print(e, file=sys.stderr)
        return 2
    fabrication(kicad_dir, os.path.join(out, "fab"), names)
    shutil.copy(os.path.join(out, "bom.csv"), os.path.join(out, "fab", "bom.csv"))
    pictures(kicad_dir, os.path.join(out, "pictures"), names)
    for name in names:
        c = drc[name]["counts"]
        print("%s: KiCad DRC %d errors, %d warnings, %d connections unrouted"
              % (name, c["errors"], c["warnings"], c["unconnected pads"]))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
