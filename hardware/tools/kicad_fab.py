# Fabrication files of each circuit board with KiCad's own plotters (pcbnew, system python3):
#   python3 kicad_fab.py KICAD_DIR FAB_DIR board...
# writes FAB_DIR/<board>/ Gerbers (copper, mask, paste, silk, outline), Excellon drill files and a
# pick-and-place CSV (reference, value, footprint, x, y, rotation, side).
import csv
import os
import sys

import pcbnew

LAYERS = (
    (pcbnew.F_Cu, "F_Cu"),
    (pcbnew.In1_Cu, "In1_Cu"),
    (pcbnew.In2_Cu, "In2_Cu"),
    (pcbnew.In3_Cu, "In3_Cu"),
    (pcbnew.In4_Cu, "In4_Cu"),
    (pcbnew.B_Cu, "B_Cu"),
    (pcbnew.F_Mask, "F_Mask"),
    (pcbnew.B_Mask, "B_Mask"),
    (pcbnew.F_Paste, "F_Paste"),
    (pcbnew.B_Paste, "B_Paste"),
    (pcbnew.F_SilkS, "F_Silkscreen"),
    (pcbnew.B_SilkS, "B_Silkscreen"),
    (pcbnew.Edge_Cuts, "Edge_Cuts"),
)


def gerbers(b, out, name):
    pc = pcbnew.PLOT_CONTROLLER(b)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(out)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetCreateGerberJobFile(True)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(True)
    po.SetSubtractMaskFromSilk(True)
    po.SetUseAuxOrigin(False)
    written = []
    for layer, suffix in LAYERS:
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
        written.append(pc.GetPlotFileName())
    pc.ClosePlot()
    return written


def drill(b, out):
    ew = pcbnew.EXCELLON_WRITER(b)
    ew.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
    ew.SetFormat(True)
    ew.CreateDrillandMapFilesSet(out, True, False)


def placement(b, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Designator", "Val", "Package", "Mid X", "Mid Y", "Rotation", "Layer"])
        for fp in sorted(b.GetFootprints(), key=lambda fp: fp.GetReference()):
            pos = fp.GetPosition()
            w.writerow([
                fp.GetReference(), fp.GetValue(), fp.GetFPID().GetLibItemName().wx_str(),
                "%.4f" % pcbnew.ToMM(pos.x), "%.4f" % -pcbnew.ToMM(pos.y),  # y up, as fabs expect
                "%.1f" % fp.GetOrientationDegrees(), "bottom" if fp.IsFlipped() else "top",
            ])  # fmt: skip


def main(argv):
    kicad_dir, fab_dir = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    for name in argv[3:]:
        b = pcbnew.LoadBoard(os.path.join(kicad_dir, name + ".kicad_pcb"))
        out = os.path.join(fab_dir, name)
        os.makedirs(out, exist_ok=True)
        gerbers(b, out, name)
        drill(b, out)
        placement(b, os.path.join(out, name + "-pos.csv"))
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
