# MicroPython's unix port from .venv, and the path a program run there imports from (MICROPYPATH, its
# PYTHONPATH): the benches and tests hand their MicroPython programs the folders they import from, as
# pyproject.toml's pythonpath does for pytest, so those programs edit no sys.path of their own.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
SUPPORT = os.path.join(ROOT, "tests", "support")  # the tests' fixtures (fake HAL, scripted matches)
_NEAR = os.path.join(os.path.dirname(sys.executable), "micropython")
MICROPYTHON = _NEAR if os.access(_NEAR, os.X_OK) else "micropython"


def env(*folders, base=None):
    """The environment (os.environ, or base) of a program on the unix port that imports from these
    folders, in this order, after its own folder and the port's frozen modules (asyncio)."""
    out = dict(os.environ if base is None else base)
    out["MICROPYPATH"] = ":".join((".frozen",) + tuple(folders))
    return out
