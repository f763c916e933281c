# `crib deploy` and `crib sim`: the checkout's own programs, `python -m tools.deploy` and `python -m sim`,
# as `make deploy` and `make sim` run them, in the source checkout crib was installed from.
import importlib.metadata
import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request

# crib's command -> the checkout's module the Makefile runs for it
MODULES = {"deploy": "tools.deploy", "sim": "sim"}
# What a cribboard checkout holds (the firmware to compile, the programs that do it).
CHECKOUT_FILES = ("firmware/manifest.py", "tools/deploy.py", "sim/__main__.py")


def checkout():
    """The cribboard source checkout this crib was installed from in editable mode (make crib: pip
    install -e), as pip recorded it (PEP 610, direct_url.json), or None: a crib installed from a wheel
    has no firmware to deploy or simulate."""
    for dist in importlib.metadata.distributions(name="cribboard"):
        try:
            origin = json.loads(dist.read_text("direct_url.json") or "null")
        except ValueError:
            continue
        if not origin or not origin.get("dir_info", {}).get("editable"):
            continue
        url = urllib.parse.urlparse(origin.get("url", ""))
        if url.scheme != "file":
            continue
        root = urllib.request.url2pathname(url.path)
        if all(os.path.isfile(os.path.join(root, f)) for f in CHECKOUT_FILES):
            return root
    return None


def tool_command(name, args, root=None):
    """[python, -m, MODULE, *args] as the Makefile runs it, and the checkout to run it in. Outside a
    checkout: SystemExit saying so and what to do instead."""
    root = root or checkout()
    if root is None:
        raise SystemExit(
            "crib %s runs the firmware's source checkout, and this crib was not installed from one: "
            "clone cribboard and run `make %s` there (or `make crib`, then .venv/bin/crib %s)"
            % (name, name, name)
        )
    return [sys.executable, "-m", MODULES[name]] + list(args), root


def sim_args(link_port, headless=False, extra=()):
    args = ["--link", str(link_port)]
    if headless:
        args.append("--headless")
    return args + list(extra)


def sim(link_port, headless=False, extra=(), started=None):
    """`make sim ARGS="--link PORT ..."`: the firmware on the unix port, its link on a local socket;
    started() is called once the checkout is found, before the sim starts."""
    cmd, root = tool_command("sim", sim_args(link_port, headless, extra))
    if started is not None:
        started()
    return subprocess.call(cmd, cwd=root)


def deploy(port="auto", extra=()):
    """`make deploy PORT=...`: compile with mpy-cross and copy what changed to the Pico (mpremote)."""
    cmd, root = tool_command("deploy", ["--port", port] + list(extra))
    return subprocess.call(cmd, cwd=root)
