# Rip-up and retry for the grid router (hwgen_router, driven by kicad_pcb.Router): a net that found
# no way is searched again through the other signals' copper at a price; the nets whose copper that
# way crosses are ripped up, the net is routed, then they are routed again. Plain python (no pcbnew):
# the copper is kept as records until the router emits it, so ripping a net up is dropping its records.
import hwgen_router as R

FIXED = ""  # owner of the copper that never moves: the clock and latch buses, the plane fan-outs
ROUNDS = 120  # nets ripped up and routed again, at most, per board
SOFT = 80  # price of a step through another signal's copper when looking for what is in the way
TRIES = 12  # a net still unrouted after this many rounds of its own is left (and reported)


class RipUp:
    def __init__(self):
        # owner (net name, or FIXED) -> [(record, its cells)], a record ("t", L, x0, y0, x1, y1, width,
        # nid) or ("v", x, y, nid)
        self.rec = {}
        self.owner = FIXED
        self.fails = {}  # net -> [(net, ref, pin)] it could not reach
        self.base = None  # the grid with the pads and the fixed copper only
        self.rounds = 0
        self.kept = set()  # owners never ripped up (the stitching's copper, once it is laid)

    def record(self, r):
        marks = _marks(self.grid, r)
        self.rec.setdefault(self.owner, []).append((r, marks))
        self.grid.apply(r[-1], marks)
        if r[0] == "v":
            self.grid.add_hole(r[1], r[2], R.DRILL)

    def settle(self):
        """From here on, copper belongs to nets that may be ripped up."""
        self.base = self.grid.copy()

    def note(self, net, failed):
        if failed:
            self.fails[net] = failed
        else:
            self.fails.pop(net, None)

    def unrouted(self):
        return [f for net in self.fails for f in self.fails[net]]

    def rip(self, nets):
        for n in nets:
            self.rec.pop(n, None)
        g = self.base.copy()
        for owner, recs in self.rec.items():
            if owner != FIXED:
                for r, marks in recs:
                    g.apply(r[-1], marks)
                    if r[0] == "v":
                        g.add_hole(r[1], r[2], R.DRILL)
        self.grid = g

    def retry(self, nets):
        members = dict(nets)
        rank = {net: i for i, (net, _) in enumerate(nets)}
        tries = {}
        while self.fails and self.rounds < ROUNDS:
            live = [n for n in self.fails if tries.get(n, 0) < TRIES]
            if not live:
                return
            net = min(live, key=lambda n: (tries.get(n, 0), rank[n]))
            tries[net] = tries.get(net, 0) + 1
            self.rounds += 1
            blockers = sorted(self.blockers(net, members[net]), key=rank.get)
            self.rip([net] + blockers)
            for n in [net] + blockers:
                self.owner = n
                self.note(n, self.route_net(n, members[n]))

    def blockers(self, net, members):
        """The signal nets whose copper lies on net's cheapest way to its first unreached pad."""
        _, ref, pin = self.fails[net][0]
        lost = [m for m in members if m[0].GetParent().GetReference() == ref and m[0].GetNumber() == pin]
        rest = [m for m in members if m not in lost]
        if not lost or not rest:
            return []
        nid = self.net_id[net]
        base = self.base
        starts = [s for m in rest for s in self._cells_in(m[3], *m[4]) if base.free(s[0], 0, s[1], nid)]
        box = lost[0][3]
        target = set(s for s in self._cells_in(box, *lost[0][4]) if base.free(s[0], 0, s[1], nid))

        def goal(L, idx):
            return (L, idx) in target

        goal.centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        path = R.search(base, nid, starts, goal, cls=0, soft=self.grid, soft_cost=SOFT)
        if not path:
            return []
        hit = set()
        prev = None
        for L, idx in path:
            x, y = base.xy(idx)
            via = prev is not None and prev[0] != L
            prev = (L, idx)
            if self.grid.free(L, 0, idx, nid) and not (via and not self.grid.via_ok(idx, nid)):
                continue
            for owner, recs in self.rec.items():
                if owner in (FIXED, net) or owner in hit or owner in self.kept:
                    continue
                for r, _ in recs:
                    if _near(r, L, x, y, via):
                        hit.add(owner)
                        break
        return list(hit)


def _marks(g, r):
    """The cells record r claims, worked out once and replayed at every rip-up."""
    if r[0] == "t":
        _, L, x0, y0, x1, y1, w, _ = r
        return g.segment_marks(L, x0, y0, x1, y1, w)
    return g.disc_marks(range(R.LAYERS), r[1], r[2], R.VIA / 2)


def _near(r, L, x, y, via):
    """Does record r keep a track (or a via, if via) centred at x, y on layer L out?"""
    half = R.VIA / 2 if via else R.TRACK / 2
    if r[0] == "t":
        if r[1] != L and not via:
            return False
        reach = r[6] / 2 + R.CLEAR + half + 0.01
        if min(r[2], r[4]) - reach > x or max(r[2], r[4]) + reach < x:
            return False
        if min(r[3], r[5]) - reach > y or max(r[3], r[5]) + reach < y:
            return False
        return R._dist_seg(x, y, r[2], r[3], r[4], r[5]) <= reach
    reach = R.VIA / 2 + R.CLEAR + half + 0.01
    if abs(r[1] - x) > reach or abs(r[2] - y) > reach:
        return False
    d2 = (r[1] - x) ** 2 + (r[2] - y) ** 2
    return d2 <= reach * reach or (via and d2 < (R.DRILL + R.HOLE_GAP) ** 2)
