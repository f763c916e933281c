# `make sim` installs only what the simulator needs; `make deploy` the laptop tools; `make test` all.
# Pins down: the first `make sim` installed the whole developer toolchain (519 MB, pyright and Node
# included) before a user saw the board.
import json
import os
import re
import subprocess
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as pip carries it
    from pip._vendor import tomli as tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEV_ONLY = ("pytest", "hypothesis", "ruff", "pyright", "cribbage-scorer", "playwright")
with open(os.path.join(ROOT, "pyproject.toml"), "rb") as _f:
    PYPROJECT = tomllib.load(_f)


def _name(requirement):
    return re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def group(name):
    """Package names a dependency group of pyproject.toml installs, its included groups followed."""
    out = []
    for item in PYPROJECT["dependency-groups"][name]:
        out += group(item["include-group"]) if isinstance(item, dict) else [_name(item)]
    return out


def crib():
    """Package names `pip install -e .[postgres]` asks for: crib's dependencies and the postgres extra."""
    project = PYPROJECT["project"]
    return [_name(r) for r in project["dependencies"] + project["optional-dependencies"]["postgres"]]


def pinned():
    """Package names constraints.txt pins (one exact version each)."""
    out = []
    with open(os.path.join(ROOT, "constraints.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                assert re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+", line), line
                out.append(_name(line))
    return out


def make_n(target, tmp_path):
    # -n: the commands make would run for a user with no .venv yet, without running them.
    venv = str(tmp_path / "venv")
    r = subprocess.run(["make", "-n", target, "VENV=" + venv], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_make_sim_installs_the_simulators_packages_only(tmp_path):
    out = make_n("sim", tmp_path)
    assert "--group sim" in out and "-c constraints.txt" in out
    assert "-e " not in out and "--group dev" not in out and "stubs" not in out
    sim = group("sim")
    assert sim and not [p for p in sim if p in DEV_ONLY]


def test_make_crib_gets_the_laptop_tools_and_not_the_developer_ones(tmp_path):
    # The README's commands after `make sim` run .venv/bin/crib: `make crib` installs it, and only it.
    out = make_n("crib", tmp_path)
    assert "--group sim" in out and '-e ".[postgres]"' in out and "--no-deps" not in out
    assert "--group dev" not in out and "stubs" not in out
    assert not [p for p in crib() if p in DEV_ONLY]


def test_deploy_gets_the_laptop_tools_and_test_everything(tmp_path):
    out = make_n("deploy", tmp_path)
    assert "--group deploy" in out and '-e ".[postgres]"' in out and "--group dev" not in out
    tools = group("deploy") + group("hardware")
    assert set(group("sim")) <= set(tools)
    assert not [p for p in tools if p in DEV_ONLY]
    assert "micropython-ssd1306py" in tools  # the display driver deploy compiles, offline
    out = make_n("test", tmp_path)
    assert "--group dev" in out and '-e ".[postgres]"' in out and "--group stubs" in out
    assert set(tools) <= set(group("dev"))


def test_every_install_is_pinned(tmp_path):
    # Every pip install of every layer goes through constraints.txt, and it pins what the lists name.
    out = make_n("test", tmp_path)
    installs = [line for line in out.splitlines() if "pip install" in line]
    assert len(installs) >= 5 and all("-c constraints.txt" in line for line in installs), installs
    named = set(crib()) | {p for g in PYPROJECT["dependency-groups"] for p in group(g)}
    assert named - set(pinned()) == set()


def test_what_the_sim_imports_is_in_its_requirements():
    # The third-party distributions the sim's laptop side loads (sim/launch.py, build, the ROMFS writer).
    code = (
        "import sys, json\n"
        "from sim import launch\n"
        "from tools import build\n"
        "from mpremote import romfs\n"
        "from importlib.metadata import packages_distributions\n"
        "d = packages_distributions()\n"
        "print(json.dumps(sorted({x for m in list(sys.modules) for x in d.get(m.split('.')[0], [])})))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    used = {d.lower().replace("_", "-") for d in json.loads(r.stdout.strip().splitlines()[-1])}
    # mpremote brings pyserial and platformdirs itself; setuptools is in every venv (its .pth hook).
    assert used - set(group("sim")) <= {"pyserial", "platformdirs", "setuptools"}
    assert "mpremote" in used


def test_every_crib_package_is_listed_for_the_wheel():
    """`pip install .` ships what the checkout runs: each package under host_tools/crib is listed."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    base = os.path.join(ROOT, "host_tools")
    found = {
        os.path.relpath(folder, base).replace(os.sep, ".")
        for folder, _dirs, files in os.walk(os.path.join(base, "crib"))
        if "__init__.py" in files
    }
    assert {"crib", "crib.cli"} <= found
    assert found <= listed, "pyproject.toml's packages miss %s" % sorted(found - listed)
