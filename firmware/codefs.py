# The firmware's compiled modules served to the importer from one file (app.bundle) instead of one file each.
"""Why: on the Pico every import looks the module up on littlefs three times (a package folder, X.py,
X.mpy) and each lookup walks littlefs' metadata logs, checksums and all: most of the boot's imports,
for the firmware's few dozen modules. Served from one file opened once, a lookup is a dict probe and
a module a seek and a read.

    import codefs
    codefs.mount("/app.bundle")     # at /bundle, first on sys.path; OSError/ValueError: not mounted
    codefs.unmount()                # once everything is imported: its index and file off the heap

The bundle (made by `make deploy`, tools/build.py: pack): one header line, one JSON line
{"path": [offset, length]} with paths relative to the firmware root ("board/app.mpy"), then the files'
bytes, offsets counted from the end of the JSON line. A bundle that does not read as one is refused
whole (ValueError) and the modules load one by one from littlefs as before: their .mpy files are
deployed beside it.
"""

import io
import json
import sys

MAGIC = b"cribboard-bundle 1\n"
_CLOSE = 4  # MP_STREAM_CLOSE
_BUFFER_SIZE = 11  # MP_STREAM_GET_BUFFER_SIZE: the importer reads this much a call (it caps it at 255)
MOUNT = "/bundle"
_DIR = 0x4000  # stat's S_IFDIR
_FILE = 0x8000  # S_IFREG


def pack(files):
    """The bundle's bytes for files: [(path relative to the firmware root, bytes)], in that order."""
    index = {}
    at = 0
    for path, data in files:
        index[path] = [at, len(data)]
        at += len(data)
    out = [MAGIC, json.dumps(index).encode() + b"\n"]
    for _path, data in files:
        out.append(data)
    return b"".join(out)


class _Part(io.IOBase):
    """One file of the bundle as a stream read straight from the bundle's file, in the importer's own
    small buffer. Not read whole into a bytes and a BytesIO first: two module-sized blocks freed
    between the code each import leaves would fragment the heap, and a sync's page then finds no
    block its size with most of the heap free."""

    def __init__(self, f, at, n):
        self._f = f
        self._at = at
        self._left = n

    def readinto(self, buf):
        n = min(len(buf), self._left)
        if n <= 0:
            return 0
        self._f.seek(self._at)  # the bundle's one file is shared: each part reads from its own place
        got = self._f.readinto(memoryview(buf)[:n])
        self._at += got
        self._left -= got
        return got

    def read(self, n=-1):
        out = bytearray(self._left if n < 0 else min(n, self._left))
        got = self.readinto(out)
        return bytes(out[:got])

    def ioctl(self, req, arg):
        if req == _BUFFER_SIZE:
            return 256
        return 0  # close and flush: nothing to do (the bundle's file stays open)


class CodeFS:
    """A read-only VFS (MicroPython's mount protocol) over an open bundle file."""

    def __init__(self, path):
        f = open(path, "rb")  # noqa: SIM115 (held open while mounted: closed by umount)
        try:
            if f.readline() != MAGIC:
                raise ValueError("%s: not a code bundle" % path)
            index = json.loads(f.readline())
            if type(index) is not dict:
                raise ValueError("%s: bad index" % path)
            self._base = f.tell()
            end = f.seek(0, 2)
            dirs = {"": 1}
            for name in index:
                at, n = index[name]
                if at < 0 or n < 0 or self._base + at + n > end:
                    raise ValueError("%s: %s lies outside the file" % (path, name))
                parts = name.split("/")
                for i in range(1, len(parts)):
                    dirs["/".join(parts[:i])] = 1
        except Exception:
            f.close()
            raise
        self._f = f
        self._index = index
        self._dirs = dirs

    # -- the VFS protocol (only what import and os.listdir use) ---------------------------------

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        self._f.close()

    def stat(self, path):
        p = path.strip("/")
        if p in self._dirs:
            return (_DIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        e = self._index.get(p)
        if e is None:
            raise OSError(2)  # ENOENT: the importer tries the next name
        return (_FILE, 0, 0, 0, 0, 0, e[1], 0, 0, 0)

    def open(self, path, mode):
        if "w" in mode or "a" in mode or "+" in mode:
            raise OSError(30)  # EROFS
        e = self._index.get(path.strip("/"))
        if e is None:
            raise OSError(2)
        part = _Part(self._f, self._base + e[0], e[1])
        return part if "b" in mode else io.StringIO(part.read().decode())

    def ilistdir(self, path):
        p = path.strip("/")
        if p not in self._dirs:
            raise OSError(2)
        prefix = p + "/" if p else ""
        seen = {}
        for name in list(self._dirs) + list(self._index):
            if name and name.startswith(prefix) and "/" not in name[len(prefix) :] and name not in seen:
                seen[name] = 1
                yield (name[len(prefix) :], _DIR if name in self._dirs else _FILE, 0)

    def chdir(self, path):
        pass

    def getcwd(self):
        return "/"


def unmount(at=MOUNT):
    """Unmount the bundle and take it off sys.path: its index and open file go back to the heap.
    start.py calls this once the boot's modules are loaded; an import after it (a package's submodule
    too) finds the .mpy files deployed beside the bundle on littlefs."""
    import vfs  # pyright: ignore[reportMissingImports] (MicroPython)

    try:
        vfs.umount(at)
    except OSError:
        pass  # not mounted
    if at in sys.path:
        sys.path.remove(at)
    # A package imported from the bundle looks its submodules up in its __path__ ("/bundle/board"):
    # pointed at its folder on littlefs ("board", from the current folder "/"), so that a module imported
    # later (the link, when a laptop comes) is found there; it said ImportError on the Pico.
    for m in sys.modules.values():
        p = getattr(m, "__path__", None)
        if type(p) is str and p.startswith(at + "/"):
            setattr(m, "__path__", p[len(at) + 1 :])  # noqa: B010 (pyright: ModuleType has no __path__)


def mount(path, at=MOUNT):
    """Mount the bundle at `at` and put it first on sys.path, frozen modules second (asyncio: found
    there without three littlefs lookups first), littlefs after."""
    import vfs  # pyright: ignore[reportMissingImports] (MicroPython)

    fs = CodeFS(path)
    vfs.mount(fs, at)
    rest = [p for p in sys.path if p not in (at, ".frozen")]
    sys.path[:] = [at, ".frozen"] + rest
    return fs
