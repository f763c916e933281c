# Bill of materials (CSV) counted from the circuit model (hwgen_circuit): what is placed on each board,
# with a manufacturer part number and a second source for every line, plus the parts bought loose.
import csv
import io

from hwgen_circuit import CATALOGUE, EXTRAS, build

BOM_FIELDS = (
    "part",
    "value",
    "package",
    "quantity",
    "example_part_number",
    "second_source",
    "boards",
    "references",
    "note",
)


def sensor_holes(board):
    return board.sides * (120 + 2) + 1


def _ranges(refs):
    # "D0-D396" style, so a line with 397 references stays readable
    out = []
    by_prefix = {}
    for r in refs:
        head = r.rstrip("0123456789")
        by_prefix.setdefault(head, []).append(int(r[len(head) :]))
    for head, nums in sorted(by_prefix.items()):
        nums.sort()
        start = prev = nums[0]
        for n in nums[1:] + [None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            out.append("%s%d" % (head, start) if start == prev else "%s%d-%s%d" % (head, start, head, prev))
            if n is not None:
                start = prev = n
    return " ".join(out)


def bom_rows(board, circuit=None):
    """The bill of materials as dicts with BOM_FIELDS; counts are the parts placed on the boards."""
    circuit = circuit or build(board)
    groups = {}
    for p in circuit["parts"]:
        key = (p.kind, p.value if p.kind == "key" else CATALOGUE[p.kind][1])
        groups.setdefault(key, []).append(p)
    rows = []
    for (kind, value), parts in sorted(groups.items(), key=lambda kv: (CATALOGUE[kv[0][0]][0], kv[0][1])):
        part, catvalue, package, _, mpn, second, note = CATALOGUE[kind]
        if kind == "key":
            continue
        per = {}
        for p in parts:
            per[p.board] = per.get(p.board, 0) + 1
        rows.append(
            {
                "part": part,
                "value": value,
                "package": package,
                "quantity": len(parts),
                "example_part_number": mpn,
                "second_source": second,
                "boards": " ".join("%s:%d" % kv for kv in sorted(per.items())),
                "references": _ranges([p.ref for p in parts]),
                "note": note,
            }
        )
    keys = [p for p in circuit["parts"] if p.kind == "key"]
    if keys:
        part, value, package, _, mpn, second, note = CATALOGUE["key"]
        rows.append(
            {
                "part": part,
                "value": value,
                "package": package,
                "quantity": len(keys),
                "example_part_number": mpn,
                "second_source": second,
                "boards": "ctrl:%d" % len(keys),
                "references": _ranges([p.ref for p in keys]),
                "note": "keypad: %s" % " ".join(p.value.split()[-1] for p in keys),
            }
        )
    legs = len([b for b in circuit["boards"] if b[0].startswith("leg")])
    counts = {
        "legs": legs,
        "pegs": board.sides * 2 + 2,
        "mounting": len(board.layout["mounting"]["at"]),
        "fixings": sum(len(at) for at in circuit["mounting"].values()),
    }
    for part, value, package, mpn, second, count, note in EXTRAS:
        rows.append(
            {
                "part": part,
                "value": value,
                "package": package,
                "quantity": counts[count],
                "example_part_number": mpn,
                "second_source": second,
                "boards": "-",
                "references": "-",
                "note": note,
            }
        )
    return rows


def bom_csv(board, circuit=None):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=BOM_FIELDS, lineterminator="\n")
    w.writeheader()
    for row in bom_rows(board, circuit):
        w.writerow(row)
    return buf.getvalue()
