# KiCad's own design-rule check of finished boards, afresh: each board is loaded, its planes filled
# again and checked by pcbnew (the same check kicad_pcb.py ran when it built them). Used by the tests
# on the committed boards, so they do not trust the counts stored beside them. System python3:
#   python3 kicad_check.py OUTDIR board.kicad_pcb...   -> prints {board: counts} as JSON
import json
import os
import sys

import pcbnew
from kicad_pcb import drc  # beside it: its folder is on the path (a script, run by KiCad's python)


def check(path, report):
    b = pcbnew.LoadBoard(path)
    b.BuildConnectivity()
    pcbnew.ZONE_FILLER(b).Fill(b.Zones())  # the fill as this KiCad makes it, not as the file holds it
    counts, _ = drc(b, report)
    counts["copper layers"] = b.GetCopperLayerCount()
    return counts


def main(argv):
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    result = {}
    for path in argv[2:]:
        name = os.path.basename(path).replace(".kicad_pcb", "")
        result[name] = check(path, os.path.join(out, name + "-drc.txt"))
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
