# Builds, routes and checks each circuit board with KiCad's own pcbnew module (Debian's kicad).
# Run by the system python3 that Debian's kicad targets (pcbnew is not on PyPI):
#   python3 kicad_pcb.py circuit.json OUTDIR
# writes OUTDIR/<board>.kicad_pcb, OUTDIR/<board>-drc.txt (KiCad's DRC report), OUTDIR/drc.json
# (counts per board), OUTDIR/<board>-pads.json (every pad's net and place, for the tests and pictures).
import json
import math
import os
import sys

import pcbnew

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hwgen_router as R  # noqa: E402
import hwgen_silk  # noqa: E402
import hwgen_stitch  # noqa: E402
from hwgen_footprints import BODY, FOOTPRINTS  # noqa: E402
from hwgen_ripup import RipUp  # noqa: E402

# Six copper layers: F.Cu, In1.Cu GND, In2.Cu signals, In3.Cu +5V_SW, In4.Cu GND, B.Cu. No signal runs
# on a plane's layer, so the planes stay whole (on four layers the signals In2.Cu had to carry cut the
# +5V_SW plane there into pieces, and KiCad counted their pads unconnected: leg0 5, leg2 3).
PLANES = {"GND": pcbnew.In1_Cu, "+5V_SW": pcbnew.In3_Cu}
ZONES = (("GND", pcbnew.In1_Cu), ("+5V_SW", pcbnew.In3_Cu), ("GND", pcbnew.In4_Cu))
COPPER_LAYERS = 6
WIDE = {"VBUS": 1.0, "+5V": 0.8}  # the power entry carries up to 3 A
CELL_PARTS = ("LED_WS2812B_5050", "C_0603", "SOT-23")  # the parts of a hole
CELL_VIA_X = 99.0  # (a tighter window, 2.6 mm, left the corridors free but routed worse)
MM = pcbnew.FromMM
# A pad narrower than this gets a stub (Router._stub). Not 0.45: a TSSOP pin is 0.45 mm wide and lands
# on the grid, but its width worked out from its edges in mm is 0.44999999999998863 on some pins and
# 0.45000000000001705 on others (leg3: 144 and 48 of 192), depending on where the pin lies,
# so most of every 74HCT165's pins were stubbed, as it fell, each stub a fixed track ending 0.5 mm off
# the pin's end: four side by side walled each other in (leg3: S363, S371, S378 found no way).
NARROW = 0.4
COPPER = (pcbnew.F_Cu, pcbnew.B_Cu, pcbnew.In2_Cu)  # the router's layers 0, 1, 2


def _pt(x, y):
    return pcbnew.wxPointMM(float(x), float(y))


def _snap(v, origin):
    return origin + round((v - origin) / R.GRID) * R.GRID


def new_board(rect):
    b = pcbnew.BOARD()
    b.SetCopperLayerCount(COPPER_LAYERS)
    ds = b.GetDesignSettings()
    ds.m_MinClearance = MM(R.CLEAR)
    ds.m_TrackMinWidth = MM(R.TRACK)
    ds.m_ViasMinSize = MM(R.VIA)
    ds.m_MinThroughDrill = MM(R.DRILL)
    ds.m_CopperEdgeClearance = MM(0.3)
    ds.m_HoleToHoleMin = MM(0.25)
    ds.m_HoleClearance = MM(0.2)
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(MM(R.CLEAR))
    nc.SetTrackWidth(MM(R.TRACK))
    nc.SetViaDiameter(MM(R.VIA))
    nc.SetViaDrill(MM(R.DRILL))
    x0, y0, x1, y1 = rect
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    for i in range(4):
        s = pcbnew.PCB_SHAPE(b)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(MM(0.1))
        s.SetStart(_pt(*corners[i]))
        s.SetEnd(_pt(*corners[(i + 1) % 4]))
        b.Add(s)
    return b


def add_part(b, part, nets):
    if part["footprint"] not in FOOTPRINTS:  # KiCad's own footprint, from hardware/footprints
        fp = pcbnew.FootprintLoad(hwgen_silk.LIBRARY, part["footprint"])
        fp.SetReference(part["ref"])
        fp.SetValue(part["value"])
        fp.Reference().SetVisible(False)
        fp.Value().SetVisible(False)
        for pad in fp.Pads():
            net = part["pins"].get(pad.GetNumber())
            if net:
                pad.SetNet(nets[net])
        fp.SetPosition(_pt(part["x"], part["y"]))
        fp.SetOrientationDegrees(part["rot"])
        if part["side"] == "B":
            fp.Flip(_pt(part["x"], part["y"]), False)
        b.Add(fp)
        return fp
    fp = pcbnew.FOOTPRINT(b)
    fp.SetFPID(pcbnew.LIB_ID("cribboard", part["footprint"]))
    fp.SetReference(part["ref"])
    fp.SetValue(part["value"])
    fp.Reference().SetVisible(False)
    fp.Value().SetVisible(False)
    for num, x, y, w, h, drill in FOOTPRINTS[part["footprint"]]:
        pad = pcbnew.PAD(fp)
        pad.SetNumber(num)
        pad.SetSize(pcbnew.wxSizeMM(w, h))
        if drill and not num:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_NPTH)
            pad.SetShape(pcbnew.PAD_SHAPE_CIRCLE)
            pad.SetDrillSize(pcbnew.wxSizeMM(drill, drill))
            pad.SetLayerSet(pad.UnplatedHoleMask())
        elif drill:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
            pad.SetShape(pcbnew.PAD_SHAPE_CIRCLE if num != "1" or w != h else pcbnew.PAD_SHAPE_RECT)
            pad.SetDrillSize(pcbnew.wxSizeMM(drill, drill))
            pad.SetLayerSet(pad.PTHMask())
        else:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
            pad.SetShape(pcbnew.PAD_SHAPE_RECT)
            pad.SetLayerSet(pad.SMDMask())
        pad.SetPos0(_pt(x, y))
        pad.SetPosition(_pt(x, y))
        net = part["pins"].get(num)
        if net:
            pad.SetNet(nets[net])
        fp.Add(pad)
    bw, bh = BODY[part["footprint"]]
    for _, x, y, w, h, drill in FOOTPRINTS[part["footprint"]]:  # an SMD part's courtyard holds its pads
        if not drill:
            bw = max(bw, 2 * (abs(x) + w / 2))
            bh = max(bh, 2 * (abs(y) + h / 2))
    for layer, m in ((pcbnew.F_CrtYd, 0.25), (pcbnew.F_Fab, 0.0)):
        pts = [
            (-bw / 2 - m, -bh / 2 - m),
            (bw / 2 + m, -bh / 2 - m),
            (bw / 2 + m, bh / 2 + m),
            (-bw / 2 - m, bh / 2 + m),
        ]
        for i in range(4):
            s = pcbnew.FP_SHAPE(fp)
            s.SetShape(pcbnew.SHAPE_T_SEGMENT)
            s.SetLayer(layer)
            s.SetWidth(MM(0.05 if layer == pcbnew.F_CrtYd else 0.1))
            s.SetStart0(_pt(*pts[i]))
            s.SetEnd0(_pt(*pts[(i + 1) % 4]))
            fp.Add(s)
    fp.SetPosition(_pt(part["x"], part["y"]))
    fp.SetOrientationDegrees(part["rot"])
    if part["side"] == "B":
        fp.Flip(_pt(part["x"], part["y"]), False)
    b.Add(fp)
    return fp


def _snap_down(v, origin):
    return origin + math.floor((v - origin) / R.GRID) * R.GRID


def pad_box(pad):
    bb = pad.GetBoundingBox()
    return (
        pcbnew.ToMM(bb.GetLeft()),
        pcbnew.ToMM(bb.GetTop()),
        pcbnew.ToMM(bb.GetRight()),
        pcbnew.ToMM(bb.GetBottom()),
    )


def pad_layers(pad):
    out = []
    if pad.IsOnLayer(pcbnew.F_Cu):
        out.append(0)
    if pad.IsOnLayer(pcbnew.B_Cu):
        out.append(1)
    if pad.IsOnLayer(pcbnew.In2_Cu):
        out.append(2)
    return out


class Router(RipUp):
    """Routes one board: fan-outs of plane pads to vias, then every other net as a tree."""

    def __init__(self, b, rect):
        RipUp.__init__(self)
        self.b = b
        self.grid = R.Grid(rect)
        self.net_id = {}
        self.pads = []
        self.hcost = None  # extra cost of a sideways step, per cell (set by build for the leg boards)
        self.failed = []
        self.members = {}
        self.stubbed = set()  # nets with copper outside the router's records (never ripped up later)
        self._reserve = None  # cells kept free of fan-out vias (_reserved), if reserve
        self.reserve = True
        for fp in b.GetFootprints():
            for pad in fp.Pads():
                name = pad.GetNetname()
                nid = self._nid(name) if name else -2
                box = pad_box(pad)
                layers = pad_layers(pad)
                if nid == -2:  # a pad on no net still keeps others away
                    for L in layers:
                        for c in range(3):
                            m = R.CLEAR + self.grid.half[c] - 1e-6
                            for idx in self.grid._rect_cells(box[0] - m, box[1] - m, box[2] + m, box[3] + m):
                                self.grid.maps[L][c][idx] = -1
                else:
                    self.grid.add_rect(layers, nid, *box)
                if pad.GetDrillSize().x:
                    pos = pad.GetPosition()
                    self.grid.add_hole(
                        pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y), pcbnew.ToMM(pad.GetDrillSize().x)
                    )
                if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                    x, y = pcbnew.ToMM(pad.GetPosition().x), pcbnew.ToMM(pad.GetPosition().y)
                    for L in range(R.LAYERS):
                        for c in range(3):
                            r = pcbnew.ToMM(pad.GetDrillSize().x) / 2 + R.CLEAR + self.grid.half[c]
                            for idx in self.grid._disc_cells(x, y, r):
                                self.grid.maps[L][c][idx] = -1
                layers = (layers, pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE)
                self.pads.append((pad, name, nid, box, layers))
        # a pad too narrow to hold a grid point clear of its neighbours (USB-C CC at 0.5 mm pitch)
        # gets a stub out past its end to the nearest grid point, which the router then uses
        for i, (pad, name, nid, box, layers) in enumerate(self.pads):
            w, h = box[2] - box[0], box[3] - box[1]
            smd = pad.GetAttribute() == pcbnew.PAD_ATTRIB_SMD
            if name and name not in PLANES and smd and min(w, h) <= NARROW:
                self.pads[i] = (pad, name, nid, self._stub(pad, name, nid, box), layers)

    def _stub(self, pad, net, nid, box):
        self.stubbed.add(net)
        g = self.grid
        fp = pad.GetParent().GetPosition()
        fx, fy = pcbnew.ToMM(fp.x), pcbnew.ToMM(fp.y)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        L = 0 if pad.IsOnLayer(pcbnew.F_Cu) else 1
        if box[3] - box[1] > box[2] - box[0]:
            d = 1 if cy > fy else -1
            ey = (box[3] if d > 0 else box[1]) + d * 0.5
            gy = g.y0 + math.ceil((ey - g.y0) / R.GRID) * R.GRID if d > 0 else _snap_down(ey, g.y0)
            gx = g.x0 + round((cx - g.x0) / R.GRID) * R.GRID
            segs = [(cx, cy, cx, gy), (cx, gy, gx, gy)]
        else:
            d = 1 if cx > fx else -1
            ex = (box[2] if d > 0 else box[0]) + d * 0.5
            gx = g.x0 + math.ceil((ex - g.x0) / R.GRID) * R.GRID if d > 0 else _snap_down(ex, g.x0)
            gy = g.y0 + round((cy - g.y0) / R.GRID) * R.GRID
            segs = [(cx, cy, gx, cy), (gx, cy, gx, gy)]
        for x0, y0, x1, y1 in segs:
            if abs(x0 - x1) < 1e-6 and abs(y0 - y1) < 1e-6:
                continue
            t = pcbnew.PCB_TRACK(self.b)
            t.SetStart(_pt(x0, y0))
            t.SetEnd(_pt(x1, y1))
            t.SetWidth(MM(R.TRACK))
            t.SetLayer(pcbnew.F_Cu if L == 0 else pcbnew.B_Cu)
            t.SetNet(self.b.FindNet(net))
            self.b.Add(t)
            g.add_segment(L, nid, x0, y0, x1, y1, R.TRACK)
        return (gx - 0.01, gy - 0.01, gx + 0.01, gy + 0.01)

    def _nid(self, name):
        if name not in self.net_id:
            self.net_id[name] = len(self.net_id) + 1
        return self.net_id[name]

    def _cells_in(self, box, layers, round_=False):
        if round_:
            r = (box[2] - box[0]) / 2 - 0.05
            cells = self.grid._disc_cells((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, r)
        else:
            cells = self.grid._rect_cells(*box)
        return [(L, c) for L in layers for c in cells]

    def _commit(self, net, nid, path, cls, width):
        tracks, vias = R.path_to_copper(self.grid, path)
        for L, x0, y0, x1, y1 in tracks:
            self.record(("t", L, x0, y0, x1, y1, width, nid))
        for x, y in vias:
            self.add_via(net, nid, x, y)

    def add_via(self, net, nid, x, y):
        self.record(("v", x, y, nid))

    def emit(self, b=None, owners=None, nets=None):
        """The copper the router kept (of owners, or all; of nets, or all), as KiCad tracks and vias on b
        (or its own board)."""
        b = b or self.b
        names = {nid: name for name, nid in self.net_id.items()}
        for owner, recs in self.rec.items():
            if owners is not None and owner not in owners:
                continue
            for r, _ in recs:
                if nets is not None and names[r[-1]] not in nets:
                    continue
                net = b.FindNet(names[r[-1]])
                if r[0] == "t":
                    t = pcbnew.PCB_TRACK(b)
                    t.SetStart(_pt(r[2], r[3]))
                    t.SetEnd(_pt(r[4], r[5]))
                    t.SetWidth(MM(r[6]))
                    t.SetLayer(COPPER[r[1]])
                else:
                    t = pcbnew.PCB_VIA(b)
                    t.SetPosition(_pt(r[1], r[2]))
                    t.SetViaType(pcbnew.VIATYPE_THROUGH)
                    t.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
                    t.SetWidth(MM(R.VIA))
                    t.SetDrill(MM(R.DRILL))
                t.SetNet(net)
                b.Add(t)

    def fanout(self, pad, net, nid, box, layers):
        """A short track from an SMD pad of a plane net to a via of its own."""
        g = self.grid
        keep = R.VIA / 2 + 0.15

        fp = pad.GetParent()
        cx = pcbnew.ToMM(fp.GetPosition().x)
        cell = fp.GetFPID().GetLibItemName().wx_str() in CELL_PARTS

        def goal(L, idx):
            if not g.via_ok(idx, nid):
                return False
            x, y = g.xy(idx)
            if cell and abs(x - cx) > CELL_VIA_X:  # keep the gaps between holes for the hall signals
                return False
            return not (box[0] - keep < x < box[2] + keep and box[1] - keep < y < box[3] + keep)

        goal.centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        reserved = self._reserved() if self.reserve else ()

        def clear_goal(L, idx):
            return idx not in reserved and goal(L, idx)

        clear_goal.centre = goal.centre
        starts = self._cells_in(box, *layers)
        starts = [s for s in starts if g.free(s[0], 0, s[1], nid)]
        path = R.search(g, nid, starts, clear_goal, cls=0, via_cost=10**6, max_nodes=4000)
        if not path:
            self.failed.append((net, pad.GetParent().GetReference(), pad.GetNumber()))
            return
        end = path[-1]
        self._commit(net, nid, path, 0, R.TRACK)
        x, y = g.xy(end[1])
        self.add_via(net, nid, x, y)

    def _reserved(self):
        """Cells no plane fan-out's via may take: a track's width and clearance round each hall switch's
        output pad. The fan-outs come first and are never ripped up, and a via beside the pad leaves no
        room for a track on that side (leg3, H363: an LED's 5 V via 0.225 mm left of the pad, the
        switch's own 0.5 mm below it, leaving one way out)."""
        if self._reserve is None:
            g = self.grid
            m = R.VIA / 2 + R.CLEAR + R.TRACK + R.CLEAR - 0.01
            self._reserve = set()
            for pad, name, _, box, _ in self.pads:
                foot = pad.GetParent().GetFPID().GetLibItemName().wx_str()
                if foot == "SOT-23" and name.startswith("S") and name[1:].isdigit():
                    self._reserve.update(g._rect_cells(box[0] - m, box[1] - m, box[2] + m, box[3] + m))
        return self._reserve

    def route_net(self, net, members, extra=None):
        """Route net as a tree (from extra's cells, or its first member); returns what failed."""
        failed = []
        nid = self.net_id[net]
        g = self.grid
        width = WIDE.get(net, R.TRACK)
        cls = 1 if net in WIDE else 0
        if extra:
            done = []
            tree = set(extra)
            rest = list(members)
        else:
            done = [members[0]]
            tree = set(
                s for s in self._cells_in(members[0][3], *members[0][4]) if g.free(s[0], cls, s[1], nid)
            )
            rest = members[1:]
        while rest:
            # nearest pad next
            if done:
                cx = sum((m[3][0] + m[3][2]) / 2 for m in done) / len(done)
                cy = sum((m[3][1] + m[3][3]) / 2 for m in done) / len(done)
            else:
                cx, cy = g.xy(next(iter(tree))[1])
            rest.sort(key=lambda m: abs((m[3][0] + m[3][2]) / 2 - cx) + abs((m[3][1] + m[3][3]) / 2 - cy))
            m = rest.pop(0)
            target = set(s for s in self._cells_in(m[3], *m[4]) if g.free(s[0], cls, s[1], nid))

            def goal(L, idx, target=target):
                return (L, idx) in target

            goal.centre = ((m[3][0] + m[3][2]) / 2, (m[3][1] + m[3][3]) / 2)
            path = R.search(
                g,
                nid,
                [s for s in tree if g.free(s[0], cls, s[1], nid)],
                goal,
                cls=cls,
                hcost=self.hcost if net.startswith("S") else None,
            )
            use_cls, use_width = cls, width
            if not path and cls:  # a power net's branch to a small pin (an IC's VCC): a signal track
                target0 = set(s for s in self._cells_in(m[3], *m[4]) if g.free(s[0], 0, s[1], nid))

                def goal0(L, idx, target=target0):
                    return (L, idx) in target

                goal0.centre = goal.centre
                path = R.search(g, nid, [s for s in tree if g.free(s[0], 0, s[1], nid)], goal0, cls=0)
                use_cls, use_width, target = 0, R.TRACK, target0
            if not path:
                failed.append((net, m[0].GetParent().GetReference(), m[0].GetNumber()))
                continue
            self._commit(net, nid, path, use_cls, use_width)
            tree.update(path)
            tree.update(target)
            done.append(m)
        return failed

    def bus(self, net, members, y, layer, step):
        """Clock and latch: a straight F.Cu line along the bottom of the band of chips. Each chip's pin
        (at the band's top) gets a via straight out beside it, `step` grid cells further out for the
        second bus, and drops to the line on `layer` (the lower line's drop on In2.Cu, so it passes
        under the upper line). The drops run off the back, so they never wall in the chip's inputs
        below them (routed on B.Cu, they did: the H input, pin 6, of 10 chips a leg); the header
        joins the line by the router. Built first, so nothing else crosses the band's bottom."""
        g = self.grid
        nid = self.net_id[net]
        ys = round((y - g.y0) / R.GRID) * R.GRID + g.y0
        smd = [m for m in members if m[0].GetAttribute() == pcbnew.PAD_ATTRIB_SMD]
        if len(smd) < 2:
            return
        line = []
        for m in smd:
            box = m[3]
            chip_x = pcbnew.ToMM(m[0].GetParent().GetPosition().x)
            out = 1 if (box[0] + box[2]) / 2 > chip_x else -1  # away from the chip's body
            edge = box[2] if out > 0 else box[0]
            py = round(((box[1] + box[3]) / 2 - g.y0) / R.GRID) * R.GRID + g.y0
            px = round((edge + out * 0.85 - g.x0) / R.GRID) * R.GRID + g.x0 + out * step * R.GRID
            for _ in range(20):
                if self._drop_ok(nid, px, py, ys, layer):
                    break
                px += out * R.GRID
            else:
                self.failed.append((net, m[0].GetParent().GetReference(), m[0].GetNumber()))
                continue
            self.add_via(net, nid, px, py)
            self._track(net, nid, layer, px, py, px, ys)
            if layer != 0:
                self.add_via(net, nid, px, ys)
            line.append(px)
            self.failed += self.route_net(net, [m], extra=[(1, g.cell(px, py))])
        x0, x1 = min(line), max(line)
        self._track(net, nid, 0, x0, ys, x1, ys)
        rest = [m for m in members if m not in smd]
        # the line's own cells, one a grid step (a rectangle of zero height could round to no row at
        # all, and then the header was silently never joined to the line)
        cells = [(0, g.cell(x0 + i * R.GRID, ys)) for i in range(int(round((x1 - x0) / R.GRID)) + 1)]
        if rest:
            self.failed += self.route_net(net, rest, extra=cells)

    def _drop_ok(self, nid, px, py, ys, layer):
        g = self.grid
        if not g.via_ok(g.cell(px, py), nid) or (layer != 0 and not g.via_ok(g.cell(px, ys), nid)):
            return False
        return all(g.free(layer, 0, idx, nid) for idx in g._rect_cells(px, min(py, ys), px, max(py, ys)))

    def _track(self, net, nid, L, x0, y0, x1, y1):
        t = pcbnew.PCB_TRACK(self.b)
        t.SetStart(_pt(x0, y0))
        t.SetEnd(_pt(x1, y1))
        t.SetWidth(MM(R.TRACK))
        t.SetLayer(COPPER[L])
        t.SetNet(self.b.FindNet(net))
        self.b.Add(t)
        self.grid.add_segment(L, nid, x0, y0, x1, y1, R.TRACK)

    def run(self, buses=None):
        by_net = {}
        for pad, name, nid, box, layers in self.pads:
            if name:
                by_net.setdefault(name, []).append((pad, name, nid, box, layers))
        for net, (y, layer, step) in (buses or {}).items():
            if net in by_net:
                self.bus(net, by_net[net], y, layer, step)
        for net in PLANES:
            for pad, name, nid, box, layers in by_net.get(net, []):
                if pad.GetAttribute() == pcbnew.PAD_ATTRIB_SMD:
                    self.fanout(pad, name, nid, box, layers)
        order = []
        for net, members in by_net.items():
            if net in PLANES or len(members) < 2 or net in (buses or {}):
                continue
            xs = [(m[3][0] + m[3][2]) / 2 for m in members]
            ys = [(m[3][1] + m[3][3]) / 2 for m in members]
            span = max(xs) - min(xs) + max(ys) - min(ys)
            # the power entry, then the long buses and the chain, then hall signals longest first
            rank = 0 if net in WIDE else 1 if net in ("SCK5", "LATCH5") else 3 if net.startswith("QH") else 2
            # hall signals: the track nearest the chips first, so each lane's signals take the corridor
            # columns nearest their own hole and leave the far ones to the lanes above
            first = 0  # (nearest-to-the-chips first routed worse: 58 left on leg1 against 31)
            order.append((rank, first, span, net, members))
        order.sort(key=lambda t: t[:4])
        self.settle()  # the buses and the fan-outs stay; the signals may be ripped up and routed again
        nets = [(net, members) for _, _, _, net, members in order]
        for net, members in nets:
            self.owner = net
            self.note(net, self.route_net(net, members))
        self.members = dict(nets)  # kept for the stitching pass, which may rip a net up and route it again
        self.retry(nets)
        self.emit()
        return self.failed + self.unrouted()


def add_planes(b, rect):
    x0, y0, x1, y1 = rect
    for net, layer in ZONES:
        z = pcbnew.ZONE(b)
        z.SetLayer(layer)
        z.SetNet(b.FindNet(net))
        z.SetLocalClearance(MM(R.CLEAR))
        z.SetMinThickness(MM(0.25))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        z.SetThermalReliefGap(MM(0.3))
        z.SetThermalReliefSpokeWidth(MM(0.4))
        ol = z.Outline()
        ol.NewOutline()
        m = 0.5
        for x, y in ((x0 + m, y0 + m), (x1 - m, y0 + m), (x1 - m, y1 - m), (x0 + m, y1 - m)):
            ol.Append(MM(x), MM(y))
        b.Add(z)


def drc(b, path):
    """KiCad's own design-rule check; returns (violations, unconnected) as KiCad counts them."""
    pcbnew.WriteDRCReport(b, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(path) as f:
        text = f.read()
    counts = {"errors": 0, "warnings": 0}
    section = None
    for line in text.splitlines():
        if line.startswith("** Found ") and line.endswith("**"):
            words = line.split()
            counts[" ".join(words[3:-1])] = int(words[2])
            section = " ".join(words[3:-1])
        elif "Severity: error" in line and section == "DRC violations":
            counts["errors"] += 1
        elif "Severity: warning" in line and section == "DRC violations":
            counts["warnings"] += 1
    return counts, text


def geometry(b, rect):
    """What the board file holds, read back through pcbnew: pads, tracks, vias, parts (tests, pictures)."""
    mm = pcbnew.ToMM
    pads, parts, tracks, vias = [], [], [], []
    holes = []
    for fp in b.GetFootprints():
        pos = fp.GetPosition()
        side = "B" if fp.IsFlipped() else "F"
        if fp.GetReference().startswith("MH"):  # a mounting hole: no part of the circuit
            d = max(p.GetDrillSize().x for p in fp.Pads())
            holes.append([round(mm(pos.x), 4), round(mm(pos.y), 4), round(mm(d), 3)])
            continue
        parts.append(
            {
                "ref": fp.GetReference(),
                "x": round(mm(pos.x), 4),
                "y": round(mm(pos.y), 4),
                "side": side,
                "rot": fp.GetOrientationDegrees(),
                "value": fp.GetValue(),
                "footprint": fp.GetFPID().GetLibItemName().wx_str(),
            }
        )
        for pad in fp.Pads():
            p = pad.GetPosition()
            bb = pad.GetBoundingBox()
            pads.append(
                {
                    "ref": fp.GetReference(),
                    "pin": pad.GetNumber(),
                    "net": pad.GetNetname(),
                    "x": round(mm(p.x), 4),
                    "y": round(mm(p.y), 4),
                    "side": side,
                    "box": [
                        round(mm(v), 4) for v in (bb.GetLeft(), bb.GetTop(), bb.GetRight(), bb.GetBottom())
                    ],
                    "round": pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE,
                    "drill": round(mm(pad.GetDrillSize().x), 3),
                }
            )
    for t in b.GetTracks():
        if t.GetClass() == "PCB_VIA":
            p = t.GetPosition()
            vias.append([round(mm(p.x), 4), round(mm(p.y), 4), t.GetNetname()])
        else:
            tracks.append(
                [
                    t.GetLayerName(),
                    round(mm(t.GetStart().x), 4),
                    round(mm(t.GetStart().y), 4),
                    round(mm(t.GetEnd().x), 4),
                    round(mm(t.GetEnd().y), 4),
                    round(mm(t.GetWidth()), 3),
                    t.GetNetname(),
                ]
            )
    silk = []  # what the silkscreen shows: [kind, side, text, box]; kind "ref", "text" or "dot"
    for fp in b.GetFootprints():
        t = fp.Reference()
        if t.IsVisible() and t.GetLayer() in (pcbnew.F_SilkS, pcbnew.B_SilkS):
            silk.append(
                ["ref", "B" if t.GetLayer() == pcbnew.B_SilkS else "F", fp.GetReference(), _mm_box(t)]
            )
    for d in b.GetDrawings():
        if d.GetLayer() not in (pcbnew.F_SilkS, pcbnew.B_SilkS):
            continue
        side = "B" if d.GetLayer() == pcbnew.B_SilkS else "F"
        if d.GetClass() in ("PCB_TEXT", "PTEXT"):  # (KiCad 6 names its class PTEXT)
            silk.append(["text", side, d.GetText(), _mm_box(d)])
        elif d.GetClass() == "PCB_SHAPE" and d.GetShape() == pcbnew.SHAPE_T_CIRCLE:
            silk.append(["dot", side, "", _mm_box(d)])
    return {"rect": rect, "parts": parts, "pads": pads, "tracks": tracks, "vias": vias, "holes": holes,
            "silk": silk}  # fmt: skip


def _mm_box(item):
    bb = item.GetBoundingBox()
    return [round(pcbnew.ToMM(v), 4) for v in (bb.GetLeft(), bb.GetTop(), bb.GetRight(), bb.GetBottom())]


# The router's settings, tried in this order on each board until KiCad's check finds nothing left:
# the price of a step on each routing layer, and whether plane fan-out vias keep clear of the hall
# switches' outputs. A greedy router's result turns on such choices, and no one setting completed
# all five boards (reference board: see hardware/README.md, "The routing").
SETTINGS = (
    {"step": (1, 1, 1), "reserve": True},
    {"step": (1, 1, 1), "reserve": False},
    {"step": (1, 1, 3), "reserve": True},
    {"step": (1, 1, 3), "reserve": False},
)


def build(circuit, name, rect, out):
    kinds = {p["ref"]: p["kind"] for p in circuit["parts"] if p["board"] == name}
    title = "%s  %s" % (name, circuit["title"])
    tried = []
    for i, setting in enumerate(SETTINGS):
        R.STEP = setting["step"]
        b, router, failed = route_once(circuit, name, rect, setting["reserve"])
        r = finish(b, name, rect, out, failed, router, (kinds, title))
        c = r["counts"]
        tried.append([i, c["unconnected pads"], c["DRC violations"]])
        r["tried"] = tried
        if not c["unconnected pads"] and not c["DRC violations"]:
            break
    return r


def route_once(circuit, name, rect, reserve=True):
    """A new board with every part of name placed, its planes, and every net routed."""
    b = new_board(rect)
    parts = [p for p in circuit["parts"] if p["board"] == name]
    used = sorted({n for p in parts for n in p["pins"].values()})
    nets = {}
    for n in used:
        ni = pcbnew.NETINFO_ITEM(b, n)
        b.Add(ni)
        nets[n] = b.FindNet(n)
    for p in parts:
        p = dict(p)
        if p["kind"] in ("sr", "buf", "lvc", "usbc", "pico", "hdr", "pmos", "nmos"):
            p["x"], p["y"] = _snap(p["x"], rect[0]), _snap(p["y"], rect[1])
        add_part(b, p, nets)
    add_planes(b, rect)
    holes = circuit["mounting"][name]
    hwgen_silk.mounting_holes(b, holes)
    router = Router(b, rect)
    router.reserve = reserve
    for x, y in holes:  # the keep-out round each mounting hole, on every layer, vias included
        g = router.grid
        for L in range(R.LAYERS):
            for c in range(3):
                for idx in g._disc_cells(x, y, hwgen_silk.KEEP_OUT + g.half[c]):
                    g.maps[L][c][idx] = -1
    buses = {}
    if name.startswith("leg"):  # hall signals run sideways between the tracks, not in the band of chips
        g = router.grid
        band_top = max(p["y"] for p in parts if p["kind"] == "hall") + 2.5
        router.hcost = bytearray(g.nx * g.ny)
        for idx in g._rect_cells(rect[0], band_top, rect[2], rect[3]):
            router.hcost[idx] = 2
    chips = [p for p in parts if p["kind"] == "sr"]
    if chips:  # clock and latch: lines along the bottom of the band of chips
        cy = _snap(chips[0]["y"], rect[1])
        # (line y, layer of the drops, via offset): LATCH5 lowest, its drops under SCK5's line on In2
        buses = {"LATCH5": (cy + 2.275, 2, 0), "SCK5": (cy + 1.625, 0, 3)}
    return b, router, router.run(buses)


def finish(b, name, rect, out, failed, router=None, silk=None):
    """Saved, its planes filled, checked by KiCad's DRC, what the check finds apart joined (hwgen_stitch)
    and checked again; the result for drc.json."""
    pcb = os.path.join(out, name + ".kicad_pcb")
    report = os.path.join(out, name + "-drc.txt")
    b.Save(pcb)
    stitched = []
    joined = set()
    for round_ in range(hwgen_stitch.ROUNDS + 1):
        b = pcbnew.LoadBoard(pcb)  # the filler needs a board with its connectivity built, as loaded
        b.BuildConnectivity()
        pcbnew.ZONE_FILLER(b).Fill(b.Zones())
        b.Save(pcb)
        counts, text = drc(b, report)
        pairs = hwgen_stitch.unconnected_pairs(text)
        if not pairs or router is None or round_ == hwgen_stitch.ROUNDS:
            break
        left = hwgen_stitch.join(b, router, pairs, PLANES, joined)
        stitched.append([len(pairs), [str(x) for x in left]])
        b.Save(pcb)
    homeless = None
    if silk:  # last: the references keep clear of every via, the stitching's too
        homeless = hwgen_silk.silkscreen(b, rect, *silk)
        b.Save(pcb)
        counts, text = drc(b, report)
    with open(os.path.join(out, name + "-pads.json"), "w") as f:
        json.dump(geometry(b, rect), f)
    return {
        "board": name,
        "counts": counts,
        "router_failed": failed,
        "stitched": stitched,
        "no_silk": homeless,
        "tracks": len(b.GetTracks()),
    }


def main(argv):
    with open(argv[1]) as f:
        circuit = json.load(f)
    out = argv[2]
    only = argv[3:] or None
    os.makedirs(out, exist_ok=True)
    results = {}
    path = os.path.join(out, "drc.json")
    if os.path.exists(path):
        with open(path) as f:
            results = json.load(f)
    for name, rect in sorted(circuit["boards"], key=lambda nb: nb[0] != "ctrl"):  # the quickest first
        if only and name not in only:
            continue
        r = build(circuit, name, rect, out)
        results[name] = r
        print(name, r["counts"], "router failed: %d" % len(r["router_failed"]), flush=True)
        with open(path, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
