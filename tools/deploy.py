# `make deploy`: compile firmware/ with mpy-cross for the Pico's chip and copy only what changed.
#
# What changed is decided against the board itself: a small script run on it (mpremote exec)
# hashes the files this deploy owns with the board's hashlib, so a board reflashed or edited by hand
# is still brought exactly up to date. The hashes sent last time are also kept on the laptop
# (build/deploy/<march>/manifest.json): --dry-run uses them when it does not ask the board.
# main.py is copied as source (the board runs it at boot), the rest as .mpy, board.json beside it;
# micropython-lib's ssd1306 driver is installed with mip when the board lacks it. The journal and
# settings in /data are never touched.
#   tools/deploy.py [--port auto|DEVICE|id:SERIAL] [--dry-run] [--march armv6m|armv7emsp]
#                   [--full] [--no-mip] [--no-reset] [--ask-device]
import hashlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build  # noqa: E402

OWNED_DIRS = ("board", "cribbage", "hal")  # folders on the board that are all ours
OWNED_FILES = ("main.py", "start.mpy", "board.json")  # start.py: the composition root main.py calls
DRIVER = "lib/ssd1306.mpy"

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


def plan(local, device):
    """local: {device path: hash} to ship; device: {path: hash} found on the board.
    -> (paths to copy, sorted; paths to delete: ours on the board that we no longer ship)."""
    copy = sorted(p for p in local if device.get(p) != local[p])
    delete = sorted(p for p in device if p not in local and p != DRIVER
                    and (p in OWNED_FILES or p.split("/", 1)[0] in OWNED_DIRS))
    return copy, delete


def mpremote(port, *args, capture=False):
    cmd = [os.path.join(build.BIN, "mpremote"), "connect", port] + list(args)
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


def local_files(march):
    dest = os.path.join(build.ROOT, "build", "deploy", march)
    files = dict(build.compile_tree(dest, march=march, exclude=build.SIM_ONLY))
    files["board.json"] = os.path.join(build.ROOT, "hardware", "board.json")
    return dest, files


def parse(argv):
    o = {"port": "auto", "dry_run": False, "march": None, "full": False, "mip": True, "reset": True,
         "ask_device": False, "manifest": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--port", "--march", "--manifest") and i + 1 < len(argv):
            o[a[2:]] = argv[i + 1]
            i += 1
        elif a == "--dry-run":
            o["dry_run"] = True
        elif a == "--full":
            o["full"] = True
        elif a == "--no-mip":
            o["mip"] = False
        elif a == "--no-reset":
            o["reset"] = False
        elif a == "--ask-device":
            o["ask_device"] = True
        else:
            raise SystemExit("unknown option %r (see the top of tools/deploy.py)" % (a,))
        i += 1
    return o


def main(argv):
    o = parse(argv)
    ask = o["ask_device"] or not o["dry_run"]
    march = o["march"] or (board_march(o["port"]) if ask else "armv6m")
    dest, files = local_files(march)
    local = {p: sha256(f) for p, f in files.items()}
    manifest = o["manifest"] or os.path.join(dest, "manifest.json")
    if ask:
        out = mpremote(o["port"], "exec", device_script(), capture=True)
        device = json.loads(out.strip().splitlines()[-1])
        source = "the board"
    else:
        device = {}
        if os.path.exists(manifest):
            with open(manifest) as f:
                device = json.load(f)
        source = "the last deploy (%s)" % os.path.relpath(manifest, build.ROOT)
    if o["full"]:
        device = {p: h for p, h in device.items() if p == DRIVER}
    copy, delete = plan(local, device)
    need_driver = o["mip"] and DRIVER not in device
    print("deploy for %s, compared with %s: %d of %d files to copy, %d to delete%s" % (
        march, source, len(copy), len(local), len(delete), ", ssd1306 to install" if need_driver else ""))
    for p in copy:
        print("  copy   %s" % p)
    for p in delete:
        print("  delete %s" % p)
    if o["dry_run"]:
        return 0
    if need_driver and mpremote(o["port"], "mip", "install", "ssd1306"):
        raise SystemExit("mpremote mip install ssd1306 failed (is the board online?)")
    if copy or delete:
        dirs = sorted({p.rsplit("/", 1)[0] for p in copy if "/" in p})
        mk = "import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n" % (
            [d for d in _parents(dirs)],)
        args = ["exec", mk]
        for p in copy:
            args += ["+", "fs", "cp", files[p], ":" + p]
        for p in delete:
            args += ["+", "fs", "rm", ":" + p]
        if mpremote(o["port"], *args):
            raise SystemExit("mpremote failed while copying: run make deploy again (it resumes)")
    with open(manifest, "w") as f:
        json.dump(local, f, indent=1, sort_keys=True)
    if o["reset"]:
        mpremote(o["port"], "reset")
    print("deployed: %d copied, %d deleted" % (len(copy), len(delete)))
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
