# `make sim` installs only what the simulator needs; `make deploy` the laptop tools; `make test` all.
# Pins down: the first `make sim` installed the whole developer toolchain (519 MB, pyright and Node
# included) before a user saw the board.
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEV_ONLY = ("pytest", "hypothesis", "ruff", "pyright", "cribbage-scorer", "playwright")


def requirements(name):
    """Package names a requirements file installs, its -r includes followed."""
    out = []
    with open(os.path.join(ROOT, name)) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("-r "):
                out += requirements(line[3:].strip())
            elif line:
                out.append(line.split("==")[0].split("[")[0].lower())
    return out


def make_n(target, tmp_path):
    # -n: the commands make would run for a user with no .venv yet, without running them.
    venv = str(tmp_path / "venv")
    r = subprocess.run(["make", "-n", target, "VENV=" + venv], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_make_sim_installs_the_simulators_packages_only(tmp_path):
    out = make_n("sim", tmp_path)
    assert "-r requirements-sim.txt" in out
    assert "requirements.txt" not in out and "requirements-dev.txt" not in out and "stubs" not in out
    sim = requirements("requirements-sim.txt")
    assert sim and not [p for p in sim if p in DEV_ONLY]


def test_make_crib_gets_the_laptop_tools_and_not_the_developer_ones(tmp_path):
    # The README's commands after `make sim` run .venv/bin/crib: `make crib` installs it, and only it.
    out = make_n("crib", tmp_path)
    assert "-r requirements-sim.txt" in out and "-r requirements.txt" in out and "-e ." in out
    assert "requirements-dev.txt" not in out and "stubs" not in out


def test_deploy_gets_the_laptop_tools_and_test_everything(tmp_path):
    out = make_n("deploy", tmp_path)
    assert "-r requirements.txt" in out and "requirements-dev.txt" not in out
    tools = requirements("requirements.txt")
    assert set(requirements("requirements-sim.txt")) <= set(tools)
    assert not [p for p in tools if p in DEV_ONLY]
    assert "micropython-ssd1306py" in tools  # the display driver deploy compiles, offline
    out = make_n("test", tmp_path)
    assert "-r requirements-dev.txt" in out and "-r requirements.txt" in out
    assert set(tools) <= set(requirements("requirements-dev.txt"))


def test_what_the_sim_imports_is_in_its_requirements():
    # The third-party distributions the sim's laptop side loads (tools/sim.py, build, the ROMFS writer).
    code = (
        "import sys, json; sys.path[:0] = ['tools']\n"
        "import sim, build\n"
        "from mpremote import romfs\n"
        "from importlib.metadata import packages_distributions\n"
        "d = packages_distributions()\n"
        "print(json.dumps(sorted({x for m in list(sys.modules) for x in d.get(m.split('.')[0], [])})))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    used = {d.lower().replace("_", "-") for d in json.loads(r.stdout.strip().splitlines()[-1])}
    # mpremote brings pyserial and platformdirs itself; setuptools is in every venv (its .pth hook).
    assert used - set(requirements("requirements-sim.txt")) <= {"pyserial", "platformdirs", "setuptools"}
    assert "mpremote" in used
