# `make hardware-recheck` (CI): routes every circuit board again from scratch and checks that the
# committed boards in hardware/boards/ are exactly what the builder makes from this board.json: same
# parts, pads, tracks, vias, holes and silkscreen (each board's -pads.json, read back through pcbnew),
# same KiCad DRC counts. make test trusts the committed boards (routing all five takes minutes); this
# is what keeps them honest. Exit 1 naming the first board that differs.
import gzip
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# A script: its folder (the generators beside it) is on the path; the board file's checks are the
# firmware's own (board.boarddef.boardfile), so firmware/ goes there too.
if os.path.join(ROOT, "firmware") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "firmware"))

import hwgen_kicad  # noqa: E402
from generate import write_circuit  # noqa: E402

from board.boarddef.boardfile import load  # noqa: E402


def _committed(name):
    path = os.path.join(hwgen_kicad.COMMITTED, hwgen_kicad._packed(name))
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def _items(value):
    """A list of items (parts, pads, tracks...) as a sorted list: KiCad keeps the same board's items in
    another order from run to run (the first recheck found every board "different", only in order)."""
    if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
        return sorted(json.dumps(v, sort_keys=True) for v in value)
    return value


def recheck(board_path, work):
    """Differences between the boards routed afresh in work and the committed ones ([] if none)."""
    kicad_dir = os.path.join(work, "kicad")
    write_circuit(load(board_path), kicad_dir)
    circuit_json = os.path.join(kicad_dir, "circuit.json")
    with open(os.path.join(hwgen_kicad.COMMITTED, "boards.stamp")) as f:
        if f.read().strip() != hwgen_kicad._stamp(circuit_json):
            return ["hardware/boards/ is stale: run make hardware and commit hardware/boards/"]
    fresh = hwgen_kicad.boards(kicad_dir, circuit_json)
    kept = _committed("drc.json")
    problems = []
    if sorted(fresh) != sorted(kept):
        problems.append("boards %s, committed %s" % (sorted(fresh), sorted(kept)))
    for name in sorted(fresh):
        if fresh[name]["counts"] != kept.get(name, {}).get("counts"):
            problems.append("%s: DRC %s, committed %s" % (name, fresh[name]["counts"], kept.get(name)))
        with open(os.path.join(kicad_dir, name + "-pads.json")) as f:
            got = json.load(f)
        want = _committed(name + "-pads.json")
        for key in sorted(set(got) | set(want)):
            if _items(got.get(key)) != _items(want.get(key)):
                problems.append("%s: %s differ from the committed board's" % (name, key))
    return problems


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    board_path = argv[0] if argv else os.path.join(ROOT, "hardware", "board.json")
    with tempfile.TemporaryDirectory() as work:
        problems = recheck(board_path, work)
    for p in problems:
        print(p, file=sys.stderr)
    print("hardware/boards/: %s" % ("differs" if problems else "each board is what the builder makes"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
