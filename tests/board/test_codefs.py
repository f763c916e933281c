# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# codefs.py, the boot's code bundle (both interpreters; the mount and imports through it on MicroPython).
# What it fixes (issue 15): every import on the Pico looked a module up on littlefs three times at ~4.5 ms
# a lookup; served from one bundle file the empty-journal boot went from 1084 to 876 ms of device time.
import os
import sys

import codefs
from fakehal import remove_tree, scratch_dir

FILES = [
    ("pkg/__init__.py", b""),
    ("pkg/mod.py", b"X = 42\n"),
    ("cbtop.py", b"import pkg.mod\nY = pkg.mod.X + 1\n"),
]


def _bundle(data):
    d = scratch_dir()
    path = d + "/app.bundle"
    with open(path, "wb") as f:
        f.write(data)
    return d, path


def test_a_bundle_serves_each_file_and_its_folders():
    d, path = _bundle(codefs.pack(FILES))
    try:
        fs = codefs.CodeFS(path)
        assert fs.open("/pkg/mod.py", "rb").read() == b"X = 42\n"
        assert fs.open("cbtop.py", "r").read() == "import pkg.mod\nY = pkg.mod.X + 1\n"
        assert fs.stat("/pkg")[0] == 0x4000 and fs.stat("/")[0] == 0x4000
        assert fs.stat("/pkg/mod.py")[0] == 0x8000 and fs.stat("/pkg/mod.py")[6] == 7
        assert sorted(e[0] for e in fs.ilistdir("/")) == ["cbtop.py", "pkg"]
        assert sorted(e[0] for e in fs.ilistdir("/pkg")) == ["__init__.py", "mod.py"]
        for name in ("/pkg/mod.mpy", "/nothere", "/pkg/mod"):
            try:
                fs.stat(name)
                raise AssertionError("stat %s answered" % name)
            except OSError:
                pass
        try:
            fs.open("/pkg/mod.py", "wb")
            raise AssertionError("opened for writing")
        except OSError:
            pass
        fs.umount()
    finally:
        remove_tree(d)


def test_a_file_that_is_not_a_whole_bundle_is_refused():
    good = codefs.pack(FILES)
    for bad in (b"", b"not a bundle\n{}\n", good[:-3], codefs.MAGIC + b"[1, 2]\n"):
        d, path = _bundle(bad)
        try:
            try:
                codefs.CodeFS(path)
                raise AssertionError("accepted %r" % bad[:30])
            except (ValueError, OSError):
                pass
        finally:
            remove_tree(d)


def test_imports_come_from_the_mounted_bundle_first():
    if sys.implementation.name != "micropython":
        return  # CPython has no vfs.mount: the import side runs on MicroPython only
    import vfs

    d, path = _bundle(codefs.pack(FILES))
    saved = sys.path[:]
    here = os.getcwd()
    try:
        codefs.mount(path, "/cbtest")
        assert sys.path[:2] == ["/cbtest", ".frozen"]
        import cbtop  # noqa: F401 (in the bundle only)

        assert sys.modules["cbtop"].Y == 43
        codefs.unmount("/cbtest")
        assert "/cbtest" not in sys.path
        try:
            vfs.umount("/cbtest")
            raise AssertionError("still mounted")
        except OSError:
            pass
        # a submodule of a package the bundle served, imported after the unmount, comes from the package's
        # folder beside it (as the link is on the Pico, when a laptop comes): it was ImportError
        os.mkdir(d + "/pkg")
        with open(d + "/pkg/late.py", "w") as f:
            f.write("Z = 44\n")
        os.chdir(d)
        import pkg.late  # noqa: F401 (on the filesystem only)

        assert sys.modules["pkg.late"].Z == 44
    finally:
        os.chdir(here)
        codefs.unmount("/cbtest")
        sys.path[:] = saved
        for m in ("cbtop", "pkg", "pkg.mod", "pkg.late"):
            sys.modules.pop(m, None)
        remove_tree(d)
