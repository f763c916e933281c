# The simulator's command line for tests: the launcher's own (sim/launch.py), compiling into a folder of this
# test process instead of the shared build/sim, so two test runs at once never race (one recompiling
# a .mpy while the other's sim imports it, or pruning a module the other just built).
import atexit
import os
import shutil
import tempfile

from sim import launch as launcher

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_dest = []


def build_dir():
    """This process's build folder (made on first use, removed when the process ends)."""
    if not _dest:
        path = tempfile.mkdtemp(prefix="cribsim-build-%d-" % os.getpid())
        atexit.register(shutil.rmtree, path, True)
        _dest.append(path)
    return _dest[0]


def command(*args):
    """argv of the micropython process `python -m sim ARGS` would exec (heap scaled the same
    way, the board file added), with the firmware compiled into build_dir()."""
    launcher.DEST = build_dir()
    cmd, _pico, _unix = launcher.command(list(args))
    return cmd
