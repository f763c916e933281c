# Joins what KiCad's own check still finds apart after the planes are filled: signals on a plane's
# layer can cut the plane into islands, and the pads and vias on an island are then unconnected (on
# four layers, with signals on the +5V_SW plane's In2.Cu: 21 on leg0, 5 on leg1 when this pass did not
# exist; on six, each plane has a layer of its own and this pass finds nothing). Each pair KiCad
# reports is joined by a track on the outer layers, routed on the router's grid (which still holds all
# the copper), and the planes are filled and checked again. Runs in KiCad's python next to pcbnew.
import re

import hwgen_router as R
import pcbnew
from hwgen_ripup import FIXED, SOFT, _near

STITCH = "+stitch"  # owner of the stitching's copper in the router's records: never ripped up

ITEM = re.compile(r"@\(([-\d.]+) mm, ([-\d.]+) mm\): (Pad|Via|Track|Through hole pad) .*?\[([^\]]+)\](.*)$")
ROUNDS = 5


def unconnected_pairs(report):
    """[(net, (kind, x, y, layer text), (kind, x, y, layer text))] from a DRC report's text."""
    out = []
    lines = report.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("[unconnected_items]"):
            continue
        items = []
        for item in lines[i + 2 : i + 4]:
            m = ITEM.search(item.strip())
            if m:
                items.append((m.group(3), float(m.group(1)), float(m.group(2)), m.group(5), m.group(4)))
        if len(items) == 2 and items[0][4] == items[1][4]:
            out.append((items[0][4], items[0][:4], items[1][:4]))
        elif len(items) == 1 and "Zone [%s]" % items[0][4] in "".join(lines[i + 2 : i + 4]):
            out.append((items[0][4], items[0][:4], None))  # an island's pad or via apart from its plane
    return out


def _layers(item):
    kind, _, _, rest = item
    if kind in ("Via", "Through hole pad"):
        return (0, 1)
    if "In2.Cu" in rest:  # a track on the router's inner signal layer
        return (2,)
    return (1,) if "B.Cu" in rest else (0,)


def _cells(grid, nid, item):
    """Grid states on item's copper near its reported point, free for its net."""
    kind, x, y, _ = item
    # a pad or via reported at its centre holds the grid points 0.2 mm round it; a track, its point
    near = [grid.cell(x, y)] if kind == "Track" else grid._disc_cells(x, y, 0.2)
    out = []
    for idx in near:
        for L in _layers(item):
            if grid.free(L, 0, idx, nid):
                out.append((L, idx))
    return out


def pieces(b, net, layer):
    """net's vias by the piece of its filled plane they stand on, the largest piece first: [[(x, y)]].
    (KiCad keeps a piece cut off from the rest when a via stands on it, and reports it unconnected.)"""
    zone = [z for z in b.Zones() if z.GetNetname() == net and z.GetLayer() == layer]
    if not zone:
        return []
    polys = zone[0].GetFilledPolysList(layer)  # fractured: a hole is part of its outline
    order = sorted(range(polys.OutlineCount()), key=lambda i: -abs(polys.Outline(i).Area()))
    out = [[] for _ in order]
    for t in b.GetTracks():
        if t.GetClass() != "PCB_VIA" or t.GetNetname() != net:
            continue
        pt = pcbnew.VECTOR2I(t.GetPosition().x, t.GetPosition().y)
        for k, i in enumerate(order):
            if polys.Outline(i).PointInside(pt):
                out[k].append((pcbnew.ToMM(pt.x), pcbnew.ToMM(pt.y)))
                break
    return out


def join(b, router, pairs, planes, done):
    """Route a track for each unconnected pair on F.Cu/B.Cu: a plane net's item to the nearest via on
    the plane's main piece, any other between the two items (done: the points already joined, kept
    from round to round). Returns the pairs it could not join."""
    left = []
    keep = R.ROUTED
    R.ROUTED = (0, 1)  # the outer layers: a stitch reaches any plane through a via
    jobs = []
    mains = {}
    for net, layer in planes.items():  # each cut-off piece of a plane, by a via on it, to the main one
        split = pieces(b, net, layer)
        mains[net] = split[0] if split else []
        jobs += [(net, ("Via", vias[0][0], vias[0][1], ""), None) for vias in split[1:] if vias]
    for net, a, z in pairs:  # a plane net's pair: each item on its own to the plane's main piece
        jobs += [(net, a, None), (net, z, None)] if net in planes and z else [(net, a, z)]
    apart = {(round(i[1], 2), round(i[2], 2)) for _, a, z in pairs for i in (a, z) if i}
    router.kept = {STITCH} | router.stubbed
    ripped = False
    try:
        for net, a, z in jobs:
            if a is None:
                continue
            nid = router.net_id.get(net)
            if net in planes:
                if (a[1], a[2]) in done:
                    continue
                vias = sorted(mains[net], key=lambda v: abs(v[0] - a[1]) + abs(v[1] - a[2]))[:40]
                target = set((L, router.grid.cell(x, y)) for x, y in vias for L in (0, 1))
                target |= _joined_pads(router, net, apart, a)  # or a pad of the net KiCad finds joined
                centre = vias[0] if vias else None
            else:
                target = set(_cells(router.grid, nid, z)) if nid else set()
                centre = z[1], z[2]
            starts = _cells(router.grid, nid, a) if nid else []
            if not starts or not target:
                left.append((net, a, z, "no grid point free"))
                continue

            def goal(L, idx, target=target):
                return (L, idx) in target

            goal.centre = centre
            # a plane net's track may run on the plane's own layer: there it is plane, not a cut
            R.ROUTED = (0, 1, 2) if planes.get(net) == pcbnew.In2_Cu else (0, 1)
            path = R.search(router.grid, nid, starts, goal, cls=0)
            recorded = False
            if not path:
                path = _through(b, router, nid, starts, goal)
                recorded = ripped = True
            if not path:
                left.append((net, a, z, "no way"))
                continue
            if net in planes:
                done.add((a[1], a[2]))
            tracks, vias = R.path_to_copper(router.grid, path)
            if not recorded:
                _record(router, nid, tracks, vias)
            _emit(b, tracks, vias, net)
    finally:
        R.ROUTED = keep
    if ripped:
        refresh(b, router)
    return left


def _joined_pads(router, net, apart, a, reach=12.0):
    """Grid points on net's SMD pads within reach of item a that KiCad does not report apart: a
    decoupling capacitor cut off with its via can be joined straight to its chip's VCC pin."""
    out = set()
    for pad, name, nid, box, layers in router.pads:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if name != net or abs(cx - a[1]) + abs(cy - a[2]) > reach:
            continue
        pos = pad.GetPosition()
        if (round(pcbnew.ToMM(pos.x), 2), round(pcbnew.ToMM(pos.y), 2)) in apart:
            continue
        for L, idx in router._cells_in(box, *layers):
            if router.grid.free(L, 0, idx, nid):
                out.add((L, idx))
    return out


def _record(router, nid, tracks, vias):
    router.owner = STITCH  # kept in the router's records, so a later rip-up keeps it
    for L, x0, y0, x1, y1 in tracks:
        router.record(("t", L, x0, y0, x1, y1, R.TRACK, nid))
    for x, y in vias:
        router.record(("v", x, y, nid))


def _emit(b, tracks, vias, net):
    nobj = b.FindNet(net)
    for L, x0, y0, x1, y1 in tracks:
        t = pcbnew.PCB_TRACK(b)
        t.SetStart(pcbnew.wxPointMM(x0, y0))
        t.SetEnd(pcbnew.wxPointMM(x1, y1))
        t.SetWidth(pcbnew.FromMM(R.TRACK))
        t.SetLayer((pcbnew.F_Cu, pcbnew.B_Cu, pcbnew.In2_Cu)[L])
        t.SetNet(nobj)
        b.Add(t)
    for x, y in vias:
        v = pcbnew.PCB_VIA(b)
        v.SetPosition(pcbnew.wxPointMM(x, y))
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        v.SetWidth(pcbnew.FromMM(R.VIA))
        v.SetDrill(pcbnew.FromMM(R.DRILL))
        v.SetNet(nobj)
        b.Add(v)


def _through(b, router, nid, starts, goal):
    """No way: find the cheapest way through the other signals' copper, rip up the signal nets on it
    (not the buses, fan-outs, stubs or stitching), take the way, and route them again, ripping up
    others in turn as the router's own retry does. Kept only if every net it touched is routed again;
    else all is put back. Returns the way or None (b is brought up to date by refresh)."""
    way = R.search(router.base, nid, starts, goal, cls=0, soft=router.grid, soft_cost=SOFT)
    if not way:
        return None
    hit = set()
    prev = None
    for L, idx in way:
        x, y = router.base.xy(idx)
        via = prev is not None and prev[0] != L
        prev = (L, idx)
        if router.grid.free(L, 0, idx, nid) and not (via and not router.grid.via_ok(idx, nid)):
            continue
        for owner, recs in router.rec.items():
            if owner in (FIXED, STITCH) or owner in hit or owner in router.kept:
                continue
            if any(_near(r, L, x, y, via) for r, _ in recs):
                hit.add(owner)
    if not hit or not all(n in router.members for n in hit):
        return None
    saved = {n: list(v) for n, v in router.rec.items()}
    fails = dict(router.fails)
    router.rip(sorted(hit))
    path = R.search(router.grid, nid, starts, goal, cls=0)
    if path:
        _record(router, nid, *R.path_to_copper(router.grid, path))
        layers = R.ROUTED
        R.ROUTED = (0, 1, 2)
        for n in sorted(hit):
            router.owner = n
            router.note(n, router.route_net(n, router.members[n]))
        rounds = router.rounds
        router.rounds = 0
        router.retry(list(router.members.items()))
        router.rounds = rounds
        R.ROUTED = layers
    if not path or any(n not in fails for n in router.fails):
        router.rec = saved
        router.fails = fails
        router.rip([])  # the grid as the records say again
        return None
    return path


def refresh(b, router):
    """Every routed signal net's copper on b replaced by what the router's records now hold (after
    rip-ups by the stitching), the stubs' nets left as they are (never ripped then)."""
    nets = set(router.members) - router.stubbed
    for t in list(b.GetTracks()):
        if t.GetNetname() in nets:
            b.Remove(t)
    router.emit(b, owners=nets)
    router.emit(b, owners=(STITCH,), nets=nets)  # the stitching's own joins of those nets
