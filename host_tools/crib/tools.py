# `crib deploy` and `crib sim`: run the project's own deploy and simulator from a source checkout.
import os
import shutil
import subprocess
import sys


def repo_root():
    """The checkout holding firmware/ (crib is installed editable from it), or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    return root if os.path.isdir(os.path.join(root, "firmware")) else None


def micropython():
    """The unix-port micropython beside this Python (the .venv), else on PATH."""
    near = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(near, os.X_OK):
        return near
    return shutil.which("micropython")


def sim_command(link_port, headless=False, extra=(), root=None):
    root = root or repo_root()
    mp = micropython()
    if root is None or mp is None:
        raise SystemExit("crib sim needs the cribboard source checkout and micropython (make venv)")
    main = os.path.join(root, "firmware", "main.py")
    cmd = [mp, "-X", "heapsize=2m", main, "--sim", "--link", str(link_port)]
    if headless:
        cmd.append("--headless")
    return cmd + list(extra), root


def sim(link_port, headless=False, extra=()):
    cmd, root = sim_command(link_port, headless, extra)
    return subprocess.call(cmd, cwd=root)


def deploy(port="auto"):
    """What `make deploy` does, with the port crib was given."""
    root = repo_root()
    if root is None:
        raise SystemExit("crib deploy needs the cribboard source checkout (it copies firmware/)")
    return subprocess.call(["make", "-C", root, "deploy", "PORT=%s" % port])
