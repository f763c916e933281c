# A grid router for the circuit boards: A* over the outer layers (F.Cu, B.Cu) and the inner signal
# layer (In2.Cu, between the GND and +5V_SW planes), with vias, net by net.
# The power rails are planes on the inner layers, so each of their SMD pads only needs a short
# "fan-out" to a via; every other net is routed pad to pad as a tree. Plain CPython, no packages:
# it runs inside KiCad's own python3 next to pcbnew, reading the real pad shapes.
import heapq
import math

CLEAR = 0.2  # copper to copper, mm
TRACK = 0.2  # signal track width
POWER_TRACK = 1.0  # the power input (VBUS, +5V): the widest track the class keeps room for
VIA = 0.6  # via pad diameter
DRILL = 0.3
EDGE = 0.35  # copper to the board edge
GRID = 0.325
# 0 F.Cu, 1 B.Cu, 2 In2.Cu: the inner layer takes the signals the outer layers have no room for (leg1:
# 31 connections unrouted on two layers, 20 on three). A step costs the same on each: In2.Cu was
# dearer while it was also the +5V_SW plane's layer, which its tracks cut (hardware/README.md)
LAYERS = 3
ROUTED = (0, 1, 2)  # the layers a search may use (the stitching pass keeps to the outer two)
STEP = (1, 1, 1)
HOLE_GAP = 0.3  # drilled hole to drilled hole  # half the TSSOP pin pitch: pins land on the grid


class Grid:
    """Ownership of every grid cell per layer and per clearance class: 0 free, net id, or -1 (blocked)."""

    def __init__(self, rect):
        x0, y0, x1, y1 = rect
        self.x0, self.y0 = x0, y0
        self.nx = int((x1 - x0) / GRID) + 1
        self.ny = int((y1 - y0) / GRID) + 1
        n = self.nx * self.ny
        # classes: 0 = centre of a signal track, 1 = centre of a power track, 2 = centre of a via
        self.half = (TRACK / 2, POWER_TRACK / 2, VIA / 2)
        self.maps = [[[0] * n for _ in range(3)] for _ in range(LAYERS)]
        self.holes = bytearray(n)  # 1: too near a drilled hole for another via
        self.rect = rect
        for c in range(3):
            m = EDGE + self.half[c]
            for L in range(LAYERS):
                self._block_outside(self.maps[L][c], x0 + m, y0 + m, x1 - m, y1 - m)

    def _block_outside(self, cells, ax, ay, bx, by):
        for j in range(self.ny):
            y = self.y0 + j * GRID
            row = j * self.nx
            for i in range(self.nx):
                x = self.x0 + i * GRID
                if not (ax <= x <= bx and ay <= y <= by):
                    cells[row + i] = -1

    def copy(self):
        g = Grid.__new__(Grid)
        g.__dict__.update(self.__dict__)
        g.maps = [[list(m) for m in layer] for layer in self.maps]
        g.holes = bytearray(self.holes)
        return g

    def xy(self, idx):
        return self.x0 + (idx % self.nx) * GRID, self.y0 + (idx // self.nx) * GRID

    def cell(self, x, y):
        i = int(round((x - self.x0) / GRID))
        j = int(round((y - self.y0) / GRID))
        return j * self.nx + i

    def _mark(self, L, c, net, cells):
        m = self.maps[L][c]
        for idx in cells:
            v = m[idx]
            if v == 0:
                m[idx] = net
            elif v != net:
                m[idx] = -1

    def _rect_cells(self, ax, ay, bx, by):
        i0 = max(0, int(math.ceil((ax - self.x0) / GRID)))
        i1 = min(self.nx - 1, int(math.floor((bx - self.x0) / GRID)))
        j0 = max(0, int(math.ceil((ay - self.y0) / GRID)))
        j1 = min(self.ny - 1, int(math.floor((by - self.y0) / GRID)))
        out = []
        for j in range(j0, j1 + 1):
            row = j * self.nx
            out.extend(range(row + i0, row + i1 + 1))
        return out

    def _disc_cells(self, x, y, r):
        out = []
        for idx in self._rect_cells(x - r, y - r, x + r, y + r):
            cx, cy = self.xy(idx)
            if (cx - x) ** 2 + (cy - y) ** 2 <= r * r + 1e-9:
                out.append(idx)
        return out

    def add_rect(self, layers, net, ax, ay, bx, by):
        """Copper rectangle (a pad's box) of net on layers (0 = F, 1 = B)."""
        for L in layers:
            for c in range(3):
                m = CLEAR + self.half[c] - 1e-6
                self._mark(L, c, net, self._rect_cells(ax - m, ay - m, bx + m, by + m))

    def add_disc(self, layers, net, x, y, r):
        self.apply(net, self.disc_marks(layers, x, y, r))

    def add_segment(self, L, net, x0, y0, x1, y1, width):
        self.apply(net, self.segment_marks(L, x0, y0, x1, y1, width))

    def apply(self, net, marks):
        """Claim the cells of marks [(layer, class, cells)] for net (kept, so a rip-up can replay them)."""
        for L, c, cells in marks:
            self._mark(L, c, net, cells)

    def disc_marks(self, layers, x, y, r):
        half = self.half
        return [(L, c, self._disc_cells(x, y, r + CLEAR + half[c] - 1e-6)) for L in layers for c in range(3)]

    def segment_marks(self, L, x0, y0, x1, y1, width):
        hw = width / 2
        out = []
        for c in range(3):
            m = hw + CLEAR + self.half[c] - 1e-6
            cells = []
            for idx in self._rect_cells(min(x0, x1) - m, min(y0, y1) - m, max(x0, x1) + m, max(y0, y1) + m):
                cx, cy = self.xy(idx)
                if _dist_seg(cx, cy, x0, y0, x1, y1) <= m:
                    cells.append(idx)
            out.append((L, c, cells))
        return out

    def add_hole(self, x, y, drill):
        for idx in self._disc_cells(x, y, drill / 2 + HOLE_GAP + DRILL / 2 - 1e-6):
            self.holes[idx] = 1

    def via_ok(self, idx, net):
        if self.holes[idx]:
            return False
        for L in range(LAYERS):  # a through via: every layer
            v = self.maps[L][2][idx]
            if v != 0 and v != net:
                return False
        return True

    def free(self, L, c, idx, net):
        v = self.maps[L][c][idx]
        return v == 0 or v == net


def _dist_seg(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / d2))
    qx, qy = ax + t * dx, ay + t * dy
    return math.hypot(px - qx, py - qy)


def search(grid, net, starts, goal, cls=0, via_cost=12, max_nodes=400000, hcost=None, soft=None, soft_cost=0):
    """A* from starts (set of (layer, idx)) to any state where goal(layer, idx) is true. With soft (a
    grid holding more copper than grid), a step soft finds taken costs soft_cost more.

    Returns the path as a list of (layer, idx), start first, or None.
    """
    nx = grid.nx
    maps = grid.maps
    gx = gy = None
    if hasattr(goal, "centre"):
        gx, gy = goal.centre

    def h(idx):
        if gx is None:
            return 0
        x, y = grid.xy(idx)
        return (abs(x - gx) + abs(y - gy)) / GRID

    openq = []
    came = {}
    cost = {}
    for s in starts:
        if s[0] not in ROUTED:
            continue
        cost[s] = 0
        came[s] = None
        heapq.heappush(openq, (h(s[1]), 0, s))
    n = 0
    while openq:
        f, g, s = heapq.heappop(openq)
        if g > cost.get(s, 1e18):
            continue
        L, idx = s
        if goal(L, idx):
            path = []
            while s is not None:
                path.append(s)
                s = came[s]
            return path[::-1]
        n += 1
        if n > max_nodes:
            return None
        m = maps[L][cls]
        i = idx % nx
        for k, nb in enumerate((idx - 1 if i else -1, idx + 1 if i + 1 < nx else -1, idx - nx, idx + nx)):
            if nb < 0 or nb >= len(m):
                continue
            v = m[nb]
            if v != 0 and v != net:
                continue
            ng = g + STEP[L] + (hcost[nb] if hcost is not None and k < 2 else 0)
            if soft is not None:
                sv = soft.maps[L][cls][nb]
                if sv != 0 and sv != net:
                    ng += soft_cost
            t = (L, nb)
            if ng < cost.get(t, 1e18):
                cost[t] = ng
                came[t] = s
                heapq.heappush(openq, (ng + h(nb), ng, t))
        # a via to another layer
        if grid.via_ok(idx, net):
            ng = g + via_cost + (soft_cost if soft is not None and not soft.via_ok(idx, net) else 0)
            for other in ROUTED:
                t = (other, idx)
                if other == L or ng >= cost.get(t, 1e18):
                    continue
                cost[t] = ng
                came[t] = s
                heapq.heappush(openq, (ng + h(idx), ng, t))
    return None


def path_to_copper(grid, path):
    """Tracks [(layer, x0, y0, x1, y1)] and vias [(x, y)] for a path of (layer, idx)."""
    tracks = []
    vias = []
    if not path:
        return tracks, vias
    run = [path[0]]
    for st in path[1:]:
        if st[0] != run[-1][0]:
            vias.append(grid.xy(st[1]))
            _flush(grid, run, tracks)
            run = [st]
            continue
        run.append(st)
    _flush(grid, run, tracks)
    return tracks, vias


def _flush(grid, run, tracks):
    if len(run) < 2:
        return
    L = run[0][0]
    pts = [grid.xy(s[1]) for s in run]
    start = pts[0]
    prev = pts[0]
    d = None
    for p in pts[1:]:
        nd = (round(p[0] - prev[0], 6), round(p[1] - prev[1], 6))
        nd = (0 if nd[0] == 0 else (1 if nd[0] > 0 else -1), 0 if nd[1] == 0 else (1 if nd[1] > 0 else -1))
        if d is not None and nd != d:
            tracks.append((L, start[0], start[1], prev[0], prev[1]))
            start = prev
        d = nd
        prev = p
    tracks.append((L, start[0], start[1], prev[0], prev[1]))
