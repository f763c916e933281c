# The whole firmware plays sim/match3.script through `make sim`'s launcher (sim/launch.py) on the
# MicroPython unix port, and the final scores it prints equal the ones written in the script, with no
# MemoryError on the way: on a stock Pico's 200 KB heap with the code in RAM, and in 96 KB with the
# code in ROM (docs/memory.md).
import os
import re
import subprocess
import sys

import simbuild

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "sim", "match3.script")


def run_sim(data, *args, timeout=600):
    cmd = simbuild.command("--headless", "--data", str(data), *args)
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def expectations(path):
    """The script's end-of-match expectations: {"game 1": [121, 87], ..., "match": [..]}."""
    want = {}
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words[:1] != ["expect"]:
                continue
            if words[1] == "game":
                want["game " + words[2]] = [int(w) for w in words[3:]]
            elif words[1] in ("match", "score"):
                want[words[1]] = [int(w) for w in words[2:]]
    return want


def printed(out):
    """The sim's printed end state in the same shape."""
    got = {}
    for line in out.splitlines():
        m = re.match(r"(final|game \d+|match points): (.*)$", line)
        if m:
            key = {"final": "score", "match points": "match"}.get(m.group(1), m.group(1))
            got[key] = [int(n) for n in re.findall(r"-?\d+", m.group(2))]
    return got


def check_match(result):
    """The match ran to its end and printed the script's scores (whatever the log says on the way)."""
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-3000:]
    with open(SCRIPT) as f:
        n = len([line for line in f if line.startswith("expect ")])
    assert "expectations: %d checked, 0 failed" % n in out, out[-3000:]
    want = expectations(SCRIPT)
    assert len([k for k in want if k.startswith("game")]) == 3
    assert printed(result.stdout) == want, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert "link: out of memory" not in out, out[-3000:]  # the laptop in game 2 was answered


def memory_errors(result):
    return [line for line in (result.stdout + result.stderr).splitlines() if "MemoryError" in line]


def firmware_heap_kb(result):
    """The unix heap the sim gave the firmware, from its report: "heap (this unix port): 135 KB for ..."."""
    m = re.search(r"heap \(this unix port\): (\d+) KB for the firmware, code in (ROM|RAM)", result.stdout)
    assert m, result.stdout[-3000:]
    return int(m.group(1)), m.group(2)


def test_match3_script_is_what_its_generator_writes(tmp_path):
    # sim/match3.py writes it from the core's own play: a hand edit would be lost at its next run.
    out = tmp_path / "m3.script"
    r = subprocess.run([sys.executable, "-m", "sim.match3", "--out", str(out)], cwd=ROOT)
    assert r.returncode == 0
    with open(SCRIPT) as f:
        assert out.read_text() == f.read()


def with_laptop(tmp_path):
    """match3.script with a laptop's sync in game 2 (sim/match3.py with_laptop)."""
    from sim import match3

    with open(SCRIPT) as f:
        lines = f.read().splitlines()
    out = tmp_path / "match3-laptop.script"
    out.write_text("\n".join(match3.with_laptop(lines)) + "\n")
    return str(out)


def test_match3_script_expects_three_games_and_the_match():
    want = expectations(SCRIPT)
    assert sorted(want) == ["game 1", "game 2", "game 3", "match", "score"]
    assert max(want["match"]) >= 5  # ACC: three games decide the match


_runs = {}


def _match_at(heap, code, tmp_path_factory, laptop=False):
    if (heap, code, laptop) not in _runs:
        data = tmp_path_factory.mktemp("sim")
        script = with_laptop(data) if laptop else SCRIPT
        _runs[heap, code, laptop] = run_sim(
            data, "--script", script, "--fresh", "--qstr", "--heap", heap, "--code", code
        )
    return _runs[heap, code, laptop]


# The interned-name budget (docs/memory.md "Watch the pool's edge"): MicroPython's qstr pools double,
# 20, 40, ..., 640 entries, 1260 in all; the 1261st name costs a new pool of 1280 (~8 KB on a Pico) at
# boot. The firmware (with the sim's own modules, which a Pico does not load) must stay under the edge.
QSTR_BUDGET = 1260


def _check_no_interning_after_boot(result, code, laptop=False):
    # The sim prints MicroPython's interned-string pools after boot, at the script's laptop's first
    # reply (the link's code is loaded by then) and when the firmware stops: a string interned mid-game
    # can cost a whole new pool, one block of up to 14 KB. With the code in RAM the link's names come
    # with the laptop (start.py loads it at boot only with the code in flash): under the edge too.
    pools = re.findall(r"qstr pool: n_pool=(\d+), n_qstr=(\d+)", result.stdout)
    assert len(pools) == (3 if laptop else 2), result.stdout[-3000:]
    assert pools[-2] == pools[-1], "strings interned after the link started (docs/memory.md): %r" % (pools,)
    if code == "rom":
        assert pools[0] == pools[1], "strings interned after boot (docs/memory.md): %r" % (pools,)
    assert pools[0][0] == pools[-1][0], "a name pool made after boot: %r" % (pools,)
    assert int(pools[-1][1]) <= QSTR_BUDGET, "%s interned names, over the pool's edge %d" % (
        pools[-1][1],
        QSTR_BUDGET,
    )


def _check_heap(result, pico_kb, code):
    # The firmware got a Pico's heap scaled to this port: not more (the ROM image, the ROM boot and
    # the script reader sit outside it), and not much less (the GC's own tables take ~1.2%).
    kb, where = firmware_heap_kb(result)
    want = pico_kb * simbuild.launcher.HEAP_RATIO
    assert where == code
    assert 0.97 * want <= kb <= want + 2, (kb, want)


def test_three_game_match_on_a_stock_pico_code_in_ram(tmp_path_factory):
    # A stock Pico build: no ROM partition, the .mpy files are loaded into its ~200 KB heap. A laptop
    # syncs in game 2: the link's code is loaded then, not at boot.
    result = _match_at("200k", "ram", tmp_path_factory, laptop=True)
    check_match(result)
    assert memory_errors(result) == []
    _check_heap(result, 200, "RAM")
    _check_no_interning_after_boot(result, "ram", laptop=True)


def test_three_game_match_in_96k_code_in_rom(tmp_path_factory):
    # A board with a ROM partition (or the modules frozen in): the bytecode stays in flash. The heap is
    # the Pico's less the Pico's own HAL (sim/launch.py PICO_HAL): 96 KB, as issue 10 asks. It plays
    # since the match keeps the checkpoints of its last 3 deals only (0 runs of 36 ran out; before,
    # game 3 ran out in one run of three). The board booted at 96 KB once boot's arrays were made with
    # nothing on the way and the heap collected every 16 KB ([array rule], [gc threshold]).
    result = _match_at("96k", "rom", tmp_path_factory)
    check_match(result)
    assert memory_errors(result) == []
    _check_heap(result, 96, "ROM")
    _check_no_interning_after_boot(result, "rom")


def test_three_game_match_with_a_laptop_sync_in_96k_code_in_rom(tmp_path_factory):
    # A laptop's sync in game 2 leaves less room (the link's objects, ~0.8 KB of this heap, stay while
    # it may come back). At 96 KB it plays since the menu is loaded when first opened with the code in
    # flash too: 0 runs of 16 ran out, and 0 of 8 at 95 KB (3 of 16 at 96 KB before; docs/memory.md).
    # The link is loaded at boot with the code in flash (start.py): loaded at the sync, in the heap the
    # match had left, game 3 ran out more.
    result = _match_at("96k", "rom", tmp_path_factory, laptop=True)
    check_match(result)
    assert memory_errors(result) == []
    _check_heap(result, 96, "ROM")
    _check_no_interning_after_boot(result, "rom", laptop=True)


def test_headless_runs_print_no_debug_lines_and_a_missing_script_names_the_file(tmp_path):
    # Headless runs printed "qstr pool: ..." lines (now only with --qstr); a missing script said
    # "[Errno 2] ENOENT" without its name.
    r = run_sim(tmp_path / "d", "--script", os.path.join(ROOT, "sim", "demo.script"), "--fresh")
    assert r.returncode == 0 and "0 failed" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    assert "qstr pool" not in r.stdout + r.stderr
    missing = str(tmp_path / "no-such.script")
    r = run_sim(tmp_path / "d", "--script", missing)
    assert r.returncode != 0 and "cannot read the script %s" % missing in r.stdout + r.stderr
