# `crib deploy` and `crib sim`: the very programs `make deploy` and `make sim` run (python -m NAME).
import os
import subprocess
import sys


def repo_root():
    """The checkout holding firmware/ and tools/ (crib is installed editable from it), or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    return root if os.path.isdir(os.path.join(root, "tools")) else None


# crib's command -> the checkout's module the Makefile runs for it
MODULES = {"deploy": "tools.deploy", "sim": "sim"}


def tool_command(name, args, root=None):
    """[python, -m, MODULE, *args] as the Makefile runs it, and the folder to run it in."""
    root = root or repo_root()
    module = MODULES[name]
    if (
        root is None
        or not os.path.exists(os.path.join(root, *module.split(".")))
        and not os.path.exists(os.path.join(root, *module.split(".")) + ".py")
    ):
        raise SystemExit("crib %s needs the cribboard source checkout (%s)" % (name, module))
    return [sys.executable, "-m", module] + list(args), root


def sim_args(link_port, headless=False, extra=()):
    args = ["--link", str(link_port)]
    if headless:
        args.append("--headless")
    return args + list(extra)


def sim(link_port, headless=False, extra=()):
    """`make sim ARGS="--link PORT ..."`: the firmware on the unix port, its link on a local socket."""
    cmd, root = tool_command("sim", sim_args(link_port, headless, extra))
    return subprocess.call(cmd, cwd=root)


def deploy(port="auto", extra=()):
    """`make deploy PORT=...`: compile with mpy-cross and copy what changed to the Pico (mpremote)."""
    cmd, root = tool_command("deploy", ["--port", port] + list(extra))
    return subprocess.call(cmd, cwd=root)
