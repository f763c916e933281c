# `make hardware`: every maker's document generated from hardware/board.json into out/hardware/.
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# A script: its folder (the generators beside it) is on the path; the board file's checks are the
# firmware's own (board.boarddef.boardfile), so firmware/ goes there too.
if os.path.join(ROOT, "firmware") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "firmware"))

import hwgen_circuit  # noqa: E402
import hwgen_kicad  # noqa: E402
import kicad_sch  # noqa: E402
from hwgen_assembly import assembly_md  # noqa: E402
from hwgen_bom import bom_csv  # noqa: E402
from hwgen_chains import leds_svg, sensors_svg  # noqa: E402
from hwgen_power import power_md  # noqa: E402
from hwgen_svg import layout_svg  # noqa: E402
from hwgen_tiles import PAPERS, tiles  # noqa: E402
from hwgen_wiring import wiring_md  # noqa: E402

from board.boarddef.boardfile import load  # noqa: E402

OUTPUTS = (
    ("layout.svg", layout_svg),
    ("leds.svg", leds_svg),
    ("sensors.svg", sensors_svg),
    ("wiring.md", wiring_md),
    ("bom.csv", bom_csv),
    ("assembly.md", assembly_md),
    ("power.md", power_md),
)


def generate(board_path, out_dir):
    """Write every document, the circuit model and the schematic; returns the paths written."""
    board = load(board_path)
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for name, make in OUTPUTS:
        path = os.path.join(out_dir, name)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(make(board))
        written.append(path)
    written += write_circuit(board, os.path.join(out_dir, "kicad"))
    written += write_tiles(os.path.join(out_dir, "layout.svg"), os.path.join(out_dir, "template"))
    return written


def write_tiles(layout_path, tile_dir):
    """The drilling template on A4 and Letter pages (see hwgen_tiles)."""
    os.makedirs(tile_dir, exist_ok=True)
    with open(layout_path, encoding="utf-8") as f:
        svg = f.read()
    out = []
    for paper in PAPERS:
        for name, text in tiles(svg, paper):
            path = os.path.join(tile_dir, name + ".svg")
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            out.append(path)
    return out


def write_circuit(board, kicad_dir):
    """circuit.json (every part and net, read by the KiCad board builder) and the schematic."""
    os.makedirs(kicad_dir, exist_ok=True)
    circuit = hwgen_circuit.build(board)
    path = os.path.join(kicad_dir, "circuit.json")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(hwgen_circuit.to_json(circuit))
    sch = os.path.join(kicad_dir, "cribboard.kicad_sch")
    kicad_sch.write(circuit, sch, board.name)
    return [path, sch]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__ or "generate the hardware documents")
    ap.add_argument("--board", default=os.path.join(ROOT, "hardware", "board.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "hardware"))
    ap.add_argument("--no-kicad", action="store_true", help="skip the circuit boards (no KiCad needed)")
    args = ap.parse_args(argv)
    for path in generate(args.board, args.out):
        print(os.path.relpath(path, os.getcwd()))
    if args.no_kicad:
        return 0
    # the boards, their DRC, Gerbers, drill, pick-and-place and pictures: KiCad's own python
    return hwgen_kicad.main([args.out])


if __name__ == "__main__":
    sys.exit(main())
