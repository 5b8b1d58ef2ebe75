"""The lines on the land: roads between the villages, the town and the airfield, a railway
along the river valley, and the river itself (numpy only, deterministic from the terrain).

Roads and the railway are laid the way surveyors lay them: the cheapest way across the
heightfield (a shortest path on a 100 m grid where climbing costs more, steeply more for a
railway, and water cannot be crossed but by a bridge over the river), then smoothed into
curves. The river follows the valley the heightfield was cut for (terrain.river_centre_e)
down to the lake, widening as it goes. The renderer draws them as ribbons on the ground
(render/ribbons.py); the scenery puts the villages' houses along them.

Made in about a second on first use and kept on disk beside the terrain's heightfield.
"""
from __future__ import annotations

import hashlib
import heapq
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import cache_root
from .terrain import LAKE_NE_M, Terrain, river_centre_e

GRID_M = 100.0                 # the path finder's cell
ROAD_WIDTH_M = {"main": 7.0, "lane": 4.5}
RAIL_WIDTH_M = 4.0             # the ballast bed
TOWN_NE_M = (4200.0, None)     # the town on the valley's west bank (east: from the river, see town_centre)


@dataclass
class Line:
    kind: str                  # "main", "lane", "rail", "river"
    points: np.ndarray         # (n, 2) north, east, about every 15 m
    width_m: np.ndarray        # (n,) width at each point


@dataclass
class Network:
    roads: list = field(default_factory=list)
    rail: list = field(default_factory=list)
    river: list = field(default_factory=list)
    nodes: dict = field(default_factory=dict)      # name -> (north, east): what the roads join

    def lines(self):
        return self.roads + self.rail + self.river


def town_centre(terrain: Terrain):
    n = TOWN_NE_M[0]
    return (n, float(river_centre_e(np.array(n))) - 750.0)


# ---------------------------------------------------------------------------- the path finder
class _Grid:
    def __init__(self, terrain: Terrain):
        t = terrain
        o = t.origin_ne_m
        size = t.size_ne_m
        self.n = int(size[0] // GRID_M) + 1
        self.m = int(size[1] // GRID_M) + 1
        self.o = o
        N = o[0] + GRID_M * np.arange(self.n)
        E = o[1] + GRID_M * np.arange(self.m)
        NN, EE = np.meshgrid(N, E, indexing="ij")
        self.h = t.height_at(NN, EE)
        self.water = self.h <= t.water_level_m + 0.5
        re = river_centre_e(N)
        self.river = np.abs(EE - re[:, None]) < 0.6 * GRID_M

    def cell(self, ne):
        return (int(round((ne[0] - self.o[0]) / GRID_M)), int(round((ne[1] - self.o[1]) / GRID_M)))

    def point(self, ij):
        return (self.o[0] + ij[0] * GRID_M, self.o[1] + ij[1] * GRID_M)

    def path(self, a, b, grade_cost: float, max_grade: float):
        """Cells from a to b, cheapest where each step costs its length times (1 + grade_cost *
        grade^2), grades over max_grade and water cost ten times more, a river crossing (a bridge)
        a fixed 800 m."""
        start, goal = self.cell(a), self.cell(b)
        n, m = self.n, self.m
        dist = np.full((n, m), np.inf)
        prev = np.full((n, m, 2), -1, dtype=np.int32)
        dist[start] = 0.0
        heap = [(0.0, 0.0, start)]        # (cost so far + the straight line left, cost so far, cell)
        steps = [(di, dj, math.hypot(di, dj) * GRID_M) for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj]
        gi, gj = goal
        while heap:
            _, d, (i, j) = heapq.heappop(heap)
            if (i, j) == goal:
                break
            if d > dist[i, j]:
                continue
            for di, dj, L in steps:
                u, v = i + di, j + dj
                if not (0 <= u < n and 0 <= v < m):
                    continue
                grade = abs(self.h[u, v] - self.h[i, j]) / L
                c = L * (1.0 + grade_cost * grade * grade)
                if grade > max_grade:
                    c *= 10.0
                if self.water[u, v]:
                    c *= 10.0
                if self.river[u, v] and not self.river[i, j]:
                    c += 800.0
                nd = d + c
                if nd < dist[u, v]:
                    dist[u, v] = nd
                    prev[u, v] = (i, j)
                    h = math.hypot(u - gi, v - gj) * GRID_M         # admissible: the straight line
                    heapq.heappush(heap, (nd + h, nd, (u, v)))
        out = [goal]
        while out[-1] != start and prev[out[-1]][0] >= 0:
            out.append(tuple(prev[out[-1]]))
        return [self.point(c) for c in out[::-1]]


def simplify(points, tolerance_m: float) -> np.ndarray:
    """Douglas-Peucker: the fewest of the points that keep the line within tolerance_m (the path
    finder's grid steps straightened into the straights and bends a surveyor would lay)."""
    p = np.asarray(points, dtype=np.float64)
    if len(p) < 3:
        return p
    keep = np.zeros(len(p), bool)
    keep[0] = keep[-1] = True
    stack = [(0, len(p) - 1)]
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        d = p[b] - p[a]
        L = np.linalg.norm(d)
        q = p[a + 1:b] - p[a]
        dist = np.abs(q[:, 0] * d[1] - q[:, 1] * d[0]) / L if L > 0 else np.linalg.norm(q, axis=1)
        k = int(np.argmax(dist))
        if dist[k] > tolerance_m:
            m = a + 1 + k
            keep[m] = True
            stack += [(a, m), (m, b)]
    return p[keep]


def smooth(points, iterations: int = 3, spacing_m: float = 15.0) -> np.ndarray:
    """Chaikin's corner cutting (the ends kept), then points every spacing_m along it."""
    p = np.asarray(points, dtype=np.float64)
    for _ in range(iterations):
        if len(p) < 3:
            break
        q = 0.75 * p[:-1] + 0.25 * p[1:]
        r = 0.25 * p[:-1] + 0.75 * p[1:]
        mid = np.empty((2 * len(q), 2))
        mid[0::2], mid[1::2] = q, r
        p = np.vstack([p[:1], mid[1:-1], p[-1:]])
    seg = np.linalg.norm(np.diff(p, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] <= 0:
        return p
    t = np.linspace(0.0, s[-1], max(int(s[-1] / spacing_m), 1) + 1)
    return np.stack([np.interp(t, s, p[:, 0]), np.interp(t, s, p[:, 1])], axis=1)


# ---------------------------------------------------------------------------- the network
def _mst(names, pos):
    """Edges of a minimum spanning tree over the nodes (Prim)."""
    names = list(names)
    inside = {names[0]}
    edges = []
    while len(inside) < len(names):
        best = None
        for a in inside:
            for b in names:
                if b in inside:
                    continue
                d = math.dist(pos[a], pos[b])
                if best is None or d < best[0]:
                    best = (d, a, b)
        edges.append((best[1], best[2]))
        inside.add(best[2])
    return edges


def build(terrain: Terrain, villages) -> Network:
    """The network for this terrain; villages: (north, east) of each village's centre."""
    key = hashlib.sha1(Path(__file__).read_bytes() + repr((terrain.seed, terrain.shape, terrain.spacing_m,
                                                            terrain.airfield, [tuple(v) for v in villages])).encode())
    path = cache_root() / "terrain" / f"network-{key.hexdigest()[:16]}.npz"
    try:
        return _load(path)
    except (OSError, ValueError, KeyError):
        pass
    net = _build(terrain, villages)
    try:
        _save(net, path)
    except OSError:
        pass
    return net


def _build(terrain: Terrain, villages) -> Network:
    g = _Grid(terrain)
    af = terrain.airfield
    net = Network()
    nodes = {"airfield": af.to_world(-90.0, 260.0), "town": town_centre(terrain)}
    for k, v in enumerate(villages):
        nodes[f"village{k}"] = (float(v[0]), float(v[1]))
    net.nodes = nodes
    edges = _mst(list(nodes), nodes)
    # and the town straight to every village within 12 km (a market town's roads)
    for name, p in nodes.items():
        if name.startswith("village") and math.dist(p, nodes["town"]) < 12000.0 and ("town", name) not in edges \
                and (name, "town") not in edges:
            edges.append(("town", name))
    for a, b in edges:
        pts = g.path(nodes[a], nodes[b], grade_cost=60.0, max_grade=0.10)
        pts = [nodes[a]] + pts[1:-1] + [nodes[b]]
        line = smooth(simplify(pts, 45.0), iterations=4)
        kind = "main" if "town" in (a, b) or "airfield" in (a, b) else "lane"
        net.roads.append(Line(kind, line, np.full(len(line), ROAD_WIDTH_M[kind])))
    # the railway: down the valley from the north edge past the town, on south past the airfield
    o, size = terrain.origin_ne_m, terrain.size_ne_m
    north_end = (o[0] + size[0] - 200.0, float(river_centre_e(np.array(o[0] + size[0] - 200.0))) - 450.0)
    town = nodes["town"]
    station = (town[0] - 150.0, town[1] + 330.0)
    south_end = (o[0] + 200.0, 1500.0)
    pts = g.path(north_end, station, grade_cost=1000.0, max_grade=0.025)
    pts += g.path(station, south_end, grade_cost=1000.0, max_grade=0.025)[1:]
    line = smooth(simplify(pts, 90.0), iterations=5)
    net.rail.append(Line("rail", line, np.full(len(line), RAIL_WIDTH_M)))
    k = int(np.argmin(np.hypot(line[:, 0] - station[0], line[:, 1] - station[1])))
    net.nodes["station"] = (float(line[k, 0]), float(line[k, 1]))        # on the line as laid
    # the river: down the valley to the lake, 15 m wide at the north edge, 45 m at the lake
    lake_top = LAKE_NE_M[0] + 2000.0
    N = np.arange(o[0] + size[0], lake_top, -15.0)
    E = river_centre_e(N)
    pts = np.stack([N, E], axis=1)
    pts = np.vstack([pts, [[LAKE_NE_M[0] + 1200.0, LAKE_NE_M[1] - 300.0]]])
    line = smooth(pts, iterations=2)
    frac = (line[0, 0] - line[:, 0]) / max(line[0, 0] - line[-1, 0], 1.0)
    net.river.append(Line("river", line, 15.0 + 30.0 * frac))
    return net


def _save(net: Network, path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for group in ("roads", "rail", "river"):
        for k, ln in enumerate(getattr(net, group)):
            arrays[f"{group}|{k}|{ln.kind}|p"] = ln.points
            arrays[f"{group}|{k}|{ln.kind}|w"] = ln.width_m
    for name, p in net.nodes.items():
        arrays[f"node|{name}"] = np.asarray(p)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)


def _load(path: Path) -> Network:
    net = Network()
    with np.load(path) as z:
        keys = sorted(z.files)
        for key in keys:
            parts = key.split("|")
            if parts[0] == "node":
                net.nodes[parts[1]] = tuple(float(x) for x in z[key])
            elif parts[-1] == "p":
                group, k, kind = parts[0], int(parts[1]), parts[2]
                lst = getattr(net, group)
                while len(lst) <= k:
                    lst.append(None)
                lst[k] = Line(kind, z[key], z[f"{group}|{k}|{kind}|w"])
    if not net.roads or any(x is None for x in net.lines()):
        raise ValueError("incomplete network cache")
    return net
