# What a board shows besides its copper, added by the KiCad builder (pcbnew, KiCad's python): the M3
# mounting holes with their keep-outs, and the silkscreen: every part's reference beside it (never on a
# pad, a via or another reference), a pin-1 mark by each part that can be turned the wrong way, and
# the board's name and revision. Placed by trying spots round the part, the first clear one wins.
import math
import os

import pcbnew

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(os.path.dirname(HERE), "footprints", "kicad.pretty")  # KiCad's own footprints
HOLE = "MountingHole_3.2mm_M3"
KEEP_OUT = 3.5  # mm round a hole's centre: no copper, so an M3 screw head or standoff (5.5-6 mm) sits
TEXT = 0.6  # reference height, mm (fabs print 0.6 mm lines of 0.1 mm legibly, JLCPCB's minimum 0.5)
LINE = 0.1
GAP = 0.15  # silk to a pad, a via or other silk
MM = pcbnew.FromMM
POLAR = (
    "led",
    "hall",
    "sr",
    "buf",
    "lvc",
    "pico",
    "hdr",
    "oled",
    "tvs",
    "schottky",
    "pmos",
    "nmos",
    "diode",
    "bulk",
)


def mounting_holes(b, holes):
    """The M3 holes (KiCad's MountingHole_3.2mm_M3) at holes [(x, y)], each in a keep-out circle."""
    for i, (x, y) in enumerate(holes):
        fp = pcbnew.FootprintLoad(LIBRARY, HOLE)
        fp.SetReference("MH%d" % (i + 1))
        fp.Reference().SetVisible(False)
        fp.SetPosition(pcbnew.wxPointMM(x, y))
        b.Add(fp)
        z = pcbnew.ZONE(b)
        z.SetIsRuleArea(True)
        z.SetDoNotAllowTracks(True)
        z.SetDoNotAllowVias(True)
        z.SetDoNotAllowCopperPour(True)
        z.SetDoNotAllowPads(False)
        z.SetDoNotAllowFootprints(False)
        layers = pcbnew.LSET()
        for layer in (pcbnew.F_Cu, pcbnew.In1_Cu, pcbnew.In2_Cu, pcbnew.In3_Cu, pcbnew.In4_Cu, pcbnew.B_Cu):
            layers.AddLayer(layer)
        z.SetLayerSet(layers)
        ol = z.Outline()
        ol.NewOutline()
        for k in range(32):
            a = 2 * math.pi * k / 32
            ol.Append(MM(x + KEEP_OUT * math.cos(a)), MM(y + KEEP_OUT * math.sin(a)))
        b.Add(z)


class Space:
    """Boxes already taken on one side of the board (pads, vias, silk), in a coarse grid of buckets."""

    def __init__(self, rect):
        self.rect = rect
        self.cells = {}

    def _keys(self, box):
        for i in range(int(box[0] // 4), int(box[2] // 4) + 1):
            for j in range(int(box[1] // 4), int(box[3] // 4) + 1):
                yield i, j

    def add(self, box):
        for k in self._keys(box):
            self.cells.setdefault(k, []).append(box)

    def free(self, box):
        x0, y0, x1, y1 = self.rect
        if box[0] < x0 + 0.5 or box[1] < y0 + 0.5 or box[2] > x1 - 0.5 or box[3] > y1 - 0.5:
            return False
        for k in self._keys(box):
            for o in self.cells.get(k, ()):
                if (
                    box[0] < o[2] + GAP
                    and o[0] < box[2] + GAP
                    and box[1] < o[3] + GAP
                    and o[1] < box[3] + GAP
                ):
                    return False
        return True


def _box(item):
    bb = item.GetBoundingBox()
    return tuple(pcbnew.ToMM(v) for v in (bb.GetLeft(), bb.GetTop(), bb.GetRight(), bb.GetBottom()))


def silkscreen(b, rect, kinds, title):
    """References, pin-1 marks and the title on b; returns the references that found no clear spot."""
    sides = {"F": Space(rect), "B": Space(rect)}
    for fp in b.GetFootprints():
        for pad in fp.Pads():
            box = _box(pad)
            for side, layer in (("F", pcbnew.F_Mask), ("B", pcbnew.B_Mask)):
                if pad.IsOnLayer(layer) or pad.GetAttribute() in (
                    pcbnew.PAD_ATTRIB_PTH,
                    pcbnew.PAD_ATTRIB_NPTH,
                ):
                    sides[side].add(box)
    for t in b.GetTracks():
        if t.GetClass() == "PCB_VIA":
            sides["F"].add(_box(t))
            sides["B"].add(_box(t))
    homeless = []
    for fp in sorted(b.GetFootprints(), key=lambda f: f.GetReference()):
        ref = fp.GetReference()
        if ref.startswith("MH"):
            continue
        side = "B" if fp.IsFlipped() else "F"
        if kinds.get(ref) in POLAR and not _pin1(b, fp, sides[side]):
            homeless.append(ref + " pin 1")
        if not _place_ref(fp, sides[side]):
            homeless.append(ref)
    _title(b, rect, title, sides["F"])
    return homeless


def _place_ref(fp, space):
    text = fp.Reference()
    text.SetVisible(True)
    text.SetLayer(pcbnew.B_SilkS if fp.IsFlipped() else pcbnew.F_SilkS)
    text.SetTextThickness(MM(LINE))
    text.SetMirrored(fp.IsFlipped())
    pads = [_box(p) for p in fp.Pads()]
    x0 = min(p[0] for p in pads)
    y0 = min(p[1] for p in pads)
    x1 = max(p[2] for p in pads)
    y1 = max(p[3] for p in pads)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    spots = []  # (x, y, the way the text is pushed out by half its size so it clears the pads)
    for d in (0.2, 0.45, 0.9, 1.5, 2.2, 3.0):
        spots += [
            (cx, y0 - d, 0, -1), (cx, y1 + d, 0, 1), (x0 - d, cy, -1, 0), (x1 + d, cy, 1, 0),
            (x0 - d, y0 - d, -1, -1), (x1 + d, y0 - d, 1, -1),
            (x0 - d, y1 + d, -1, 1), (x1 + d, y1 + d, 1, 1),
        ]  # fmt: skip
    spots.append((cx, cy, 0, 0))  # inside the part's outline, clear of its pads (the big parts)
    for size in (TEXT, 0.5):  # 0.5 mm: the smallest a fab prints legibly, where 0.6 finds no room
        text.SetTextSize(pcbnew.wxSizeMM(size, size))
        for x, y, ax, ay in spots:
            for angle in (0, 90):
                text.SetTextAngle(angle * 10)
                text.SetPosition(pcbnew.wxPointMM(x, y))
                box = _box(text)
                w, h = box[2] - box[0], box[3] - box[1]
                text.SetPosition(pcbnew.wxPointMM(x + ax * w / 2, y + ay * h / 2))
                box = _box(text)
                if space.free(box):
                    space.add(box)
                    return True
    text.SetVisible(False)
    return False


def _pin1(b, fp, space):
    """A dot beside pin 1, on the far side from the part's centre (LEDs: VDD; diodes: the cathode)."""
    pads = [p for p in fp.Pads() if p.GetNumber() in ("1", "A1")]
    if not pads:
        return True
    p = _box(pads[0])
    c = fp.GetPosition()
    fx, fy = pcbnew.ToMM(c.x), pcbnew.ToMM(c.y)
    px, py = (p[0] + p[2]) / 2, (p[1] + p[3]) / 2
    w, h = p[2] - p[0], p[3] - p[1]
    r = 0.2
    sx, sy = math.copysign(1, px - fx), math.copysign(1, py - fy)
    # beside the pin, away from the centre first; then further out and at the corners (leg0's H269
    # found none of the first three spots clear of the vias round it, and went without a dot)
    spots = [(sx, 0, 0), (0, sy, 0), (-sx, 0, 0)]
    spots += [
        (dx, dy, more) for more in (0.0, 0.3, 0.6) for dx, dy in ((sx, sy), (sx, -sy), (-sx, sy), (0, -sy))
    ]
    spots += [(dx, dy, more) for more in (0.3, 0.6) for dx, dy in ((sx, 0), (0, sy), (-sx, 0))]
    for dx, dy, more in spots:
        x = px + dx * (w / 2 + GAP + r + 0.1 + more)
        y = py + dy * (h / 2 + GAP + r + 0.1 + more)
        box = (x - r, y - r, x + r, y + r)
        if space.free(box):
            dot = pcbnew.PCB_SHAPE(b)
            dot.SetShape(pcbnew.SHAPE_T_CIRCLE)
            dot.SetLayer(pcbnew.B_SilkS if fp.IsFlipped() else pcbnew.F_SilkS)
            dot.SetWidth(MM(r))
            dot.SetStart(pcbnew.wxPointMM(x, y))
            dot.SetEnd(pcbnew.wxPointMM(x + r / 2, y))
            b.Add(dot)
            space.add(box)
            return True
    return False


def _title(b, rect, title, space=None):
    """The board's name and revision on the front, the largest that finds room clear of the pads and
    the other silk (vias are tented: silk may cross them); returns whether it found room."""
    room = Space(rect)
    for fp in b.GetFootprints():
        for pad in fp.Pads():
            if pad.IsOnLayer(pcbnew.F_Mask) or pad.GetAttribute() in (
                pcbnew.PAD_ATTRIB_PTH,
                pcbnew.PAD_ATTRIB_NPTH,
            ):
                room.add(_box(pad))
        t = fp.Reference()
        if t.IsVisible() and t.GetLayer() == pcbnew.F_SilkS:
            room.add(_box(t))
    for d in b.GetDrawings():
        if d.GetLayer() == pcbnew.F_SilkS:
            room.add(_box(d))
    x0, y0, x1, y1 = rect
    t = pcbnew.PCB_TEXT(b)
    t.SetText(title)
    t.SetLayer(pcbnew.F_SilkS)
    for size in (1.5, 1.0, 0.8):
        t.SetTextSize(pcbnew.wxSizeMM(size, size))
        t.SetTextThickness(MM(size / 6))
        step = 0.5
        for j in range(int((y1 - y0) / step)):
            for i in range(int((x1 - x0) / step)):
                t.SetPosition(pcbnew.wxPointMM(x0 + i * step, y1 - j * step))
                box = _box(t)
                if room.free(box):
                    b.Add(t)
                    return True
    return False
