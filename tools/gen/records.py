# Writes the record types of firmware/cribbage/records.py into the modules that fold them, as const copies.
"""records.py is the one place a record type's value is set. MicroPython folds a `const` into the code
only within the module that defines it, and the boot replay's hot functions (fold.py, checks.py) cannot
afford a global lookup per record, so each keeps a private copy (`_LAY = const(7)`) in a block this
script writes between its markers. Change a value in records.py, then run
`python -m tools.gen.records`; tests/house/test_gen_records.py fails while a copy is stale.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDS = os.path.join(ROOT, "firmware", "cribbage", "records.py")
# module -> the record types it folds
USERS = {
    "firmware/cribbage/fold.py": tuple(
        "CUT DEALER PEG FIX STARTER SHOW LAY GO MUG DEAL GAME END NAME NONE SHIFT MASK".split()
    ),
    "firmware/cribbage/checks.py": tuple(
        "CUT DEALER PEG FIX STARTER SHOW LAY GO MUG DEAL GAME END NAME ADVICE NONE SHIFT MASK".split()
    ),
    "firmware/cribbage/solo.py": tuple("STARTER SHOW LAY GO DEAL SOLO NONE SHIFT MASK".split()),
    "firmware/cribbage/table.py": ("SOLO",),
}
# Record types records.py keeps private (`_NAME`: no module global, one interned name less).
PRIVATE = ("NAME", "ADVICE", "SOLO", "SHIFT", "MASK")  # SHIFT, MASK: the log's chunk arithmetic (records.Log)
BEGIN = "# ---- record types: written by tools/gen/records.py from cribbage/records.py; do not edit ----\n"
END = "# ---- end of the record types ----\n"


def values():
    """{NAME: int} of records.py's `NAME = const(N)` lines (and its PRIVATE `_NAME = const(N)` ones)."""
    with open(RECORDS) as f:
        text = f.read()
    found = re.finditer(r"^(_?)([A-Z]+) = const\((\d+)\)", text, re.M)
    return {m.group(2): int(m.group(3)) for m in found if not m.group(1) or m.group(2) in PRIVATE}


def block(names, found):
    return BEGIN + "".join("_%s = const(%d)\n" % (n, found[n]) for n in names) + END


def updated(path, names, found):
    """The text of path with its block written afresh."""
    with open(path) as f:
        text = f.read()
    a = text.index(BEGIN)
    b = text.index(END, a) + len(END)
    return text[:a] + block(names, found) + text[b:]


def main(argv):
    found = values()
    stale = []
    for rel, names in USERS.items():
        path = os.path.join(ROOT, rel)
        new = updated(path, names, found)
        with open(path) as f:
            if f.read() == new:
                continue
        stale.append(rel)
        if "--check" not in argv:
            with open(path, "w") as f:
                f.write(new)
    if stale:
        print(("stale: " if "--check" in argv else "written: ") + ", ".join(stale))
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
