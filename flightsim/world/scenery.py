"""What stands on the terrain (numpy only, deterministic from the terrain's seed): trees,
buildings, landmarks and the airfield layout; the roads, railway and river (network.py) and
the town and villages along them (settlements.py). Positions are NED metres on the ground.

The renderer turns these into instanced or merged meshes; nothing here touches GL.
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .terrain import Terrain, value_noise


@dataclass
class Building:
    north_m: float
    east_m: float
    ground_m: float
    length_m: float          # along heading
    width_m: float
    height_m: float          # eaves
    roof_m: float            # ridge above eaves (0: flat roof)
    heading_rad: float
    colour: tuple            # walls
    roof_colour: tuple
    kind: str = "house"


@dataclass
class Scenery:
    trees: np.ndarray                    # (n, 6): north, east, ground_m, height_m, radius_m, tint 0..1
    buildings: list[Building] = field(default_factory=list)
    landmarks: dict = field(default_factory=dict)   # name -> (north, east)
    network: object = None               # world/network.Network: roads, the railway, the river
    streets: list = field(default_factory=list)     # the town's streets (world/network.Line)


FOREST_THRESHOLD = 0.3


def _airfield_buildings(terrain: Terrain, buildings: list, landmarks: dict) -> None:
    """The airfield's hangars, clubhouse and tower beside the apron (right of the runway), and its windsock."""
    af = terrain.airfield
    hdg = af.heading_rad
    for k, (along, right, L, W, H, roof, kind, col, rcol) in enumerate([
        (-120.0, 140.0, 40.0, 30.0, 9.0, 0.0, "hangar", (0.72, 0.74, 0.76), (0.5, 0.52, 0.55)),
        (-60.0, 140.0, 40.0, 30.0, 9.0, 0.0, "hangar", (0.72, 0.74, 0.76), (0.5, 0.52, 0.55)),
        (10.0, 130.0, 18.0, 10.0, 4.0, 3.0, "clubhouse", (0.9, 0.88, 0.8), (0.55, 0.22, 0.16)),
        (45.0, 125.0, 6.0, 6.0, 14.0, 0.0, "tower", (0.95, 0.95, 0.95), (0.2, 0.3, 0.35)),
    ]):
        n, e = af.to_world(along, right)
        buildings.append(Building(n, e, terrain.height_at(n, e), L, W, H, roof, hdg, col, rcol, kind))
    landmarks["airfield"] = (af.north_m, af.east_m)
    landmarks["windsock"] = af.to_world(af.length_m / 2 - 80.0, -40.0)


def _hill_landmarks(rng, terrain: Terrain, buildings: list, landmarks: dict) -> None:
    """A radio mast on the ridge crest, and a stone tower on a north-eastern hill."""
    ridge_pts = [(n, -6500.0 - n * math.tan(math.radians(20.0))) for n in np.linspace(-6000, 6000, 25)]
    n, e = max(ridge_pts, key=lambda p: terrain.height_at(*p))
    buildings.append(Building(n, e, terrain.height_at(n, e), 2.0, 2.0, 90.0, 0.0, 0.0,
                              (0.85, 0.2, 0.15), (0.95, 0.95, 0.95), "mast"))
    landmarks["mast"] = (n, e)
    cand = rng.uniform([4000, 4000], [min(16000, terrain.size_ne_m[0] / 2 - 500)] * 2, (200, 2))
    hs = terrain.height_at(cand[:, 0], cand[:, 1])
    n, e = cand[int(np.argmax(hs))]
    buildings.append(Building(n, e, terrain.height_at(n, e), 9.0, 9.0, 22.0, 0.0, 0.0,
                              (0.62, 0.6, 0.55), (0.5, 0.48, 0.45), "castle"))
    landmarks["castle"] = (n, e)


# ---------------------------------------------------------------------------- kept per terrain
KEPT = 12            # what was built for the last few terrains (a scenario switch to one of them builds none)
_kept: OrderedDict = OrderedDict()
_kept_lock = threading.Lock()


def kept(kind: str, terrain: Terrain, make: Callable):
    """``make()`` once per terrain (its fingerprint) and kind: the scenery, its meshes, the
    forest floor are the same for the same terrain, and building them took about half of a
    scenario switch. What is kept is shared: its arrays are read-only (make() makes them so)."""
    key = (kind, terrain.fingerprint())
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    value = make()
    with _kept_lock:
        _kept[key] = value
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return value


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def build(terrain: Terrain, tree_count: int = 40000) -> Scenery:
    """The world's buildings, roads, landmarks and forests, the same for the same terrain seed
    (built once per terrain: kept)."""
    return kept(f"scenery {tree_count}", terrain, lambda: _build(terrain, tree_count))


def _build(terrain: Terrain, tree_count: int) -> Scenery:
    rng = np.random.default_rng(terrain.seed + 1)
    af = terrain.airfield
    buildings: list[Building] = []
    landmarks = {}

    _airfield_buildings(terrain, buildings, landmarks)

    # ---- the roads, the railway and the river; the villages' houses along their roads, the town
    from . import network as network_mod
    from .settlements import town, village_houses
    villages = [(-3500.0, 2600.0, 28), (4200.0, -2500.0, 18), (9000.0, 5200.0, 24),
                (-12000.0, 2000.0, 20), (2500.0, 9500.0, 16), (-6000.0, -11000.0, 18)]
    net = network_mod.build(terrain, [(n0, e0) for n0, e0, _ in villages])
    for (n0, e0, cnt) in villages:
        village_houses(rng, terrain, (n0, e0), net.roads, Building, buildings, cnt)
    centre = net.nodes["town"]
    streets = [network_mod.Line("lane", p, np.full(len(p), 6.0))
               for p in town(rng, terrain, centre, net.roads, Building, buildings)]
    landmarks["town"] = centre
    landmarks["station"] = net.nodes["station"]
    # the station beside the line, along it
    st = net.nodes["station"]
    rail = net.rail[0].points
    k = int(np.argmin(np.hypot(rail[:, 0] - st[0], rail[:, 1] - st[1])))
    t = rail[min(k + 1, len(rail) - 1)] - rail[max(k - 1, 0)]
    t = t / max(float(np.hypot(*t)), 1e-9)
    sn, se = st[0] - 12.0 * t[1], st[1] + 12.0 * t[0]
    buildings.append(Building(sn, se, terrain.height_at(sn, se), 28.0, 10.0, 6.0, 3.5, math.atan2(t[1], t[0]),
                              (0.8, 0.72, 0.6), (0.45, 0.2, 0.15), "station"))
    cn, ce = -3500.0, 2600.0
    buildings.append(Building(cn, ce, terrain.height_at(cn, ce), 22.0, 11.0, 10.0, 7.0, 0.3,
                              (0.93, 0.9, 0.84), (0.35, 0.33, 0.35), "church"))
    buildings.append(Building(cn + 14 * math.cos(0.3), ce + 14 * math.sin(0.3), terrain.height_at(cn, ce), 5.0, 5.0, 32.0,
                              8.0, 0.3, (0.93, 0.9, 0.84), (0.3, 0.45, 0.35), "steeple"))
    landmarks["church"] = (cn, ce)

    _hill_landmarks(rng, terrain, buildings, landmarks)

    # ---- forests: where a low-frequency noise says so, on land, not too steep, not on the airfield
    f, r = af.axes()
    size = terrain.size_ne_m
    o = terrain.origin_ne_m
    pts = rng.uniform([o[0], o[1]], [o[0] + size[0], o[1] + size[1]], (tree_count * 4, 2))
    keep = forest_density_at(terrain, forest_density(terrain), pts[:, 0], pts[:, 1]) > FOREST_THRESHOLD
    pts = pts[keep]
    g = terrain.height_at(pts[:, 0], pts[:, 1])
    ok = (g > terrain.water_level_m + 1.0) & (terrain.slope_at(pts[:, 0], pts[:, 1]) < 0.45) & (g < 850)
    dn = pts[:, 0] - af.north_m
    de = pts[:, 1] - af.east_m
    a = np.abs(dn * f[0] + de * f[1])
    b = np.abs(dn * r[0] + de * r[1])
    ok &= ~((a < af.length_m / 2 + 350) & (b < 350))
    pts, g = pts[ok], g[ok]
    clear = ~_near_lines(terrain, net.lines() + streets, pts, 9.0)       # the woods cut for the roads
    pts, g = pts[clear][:tree_count], g[clear][:tree_count]
    m = len(pts)
    trees = np.column_stack([pts[:, 0], pts[:, 1], g, rng.uniform(9, 22, m), rng.uniform(2.5, 4.5, m), rng.uniform(0, 1, m)])
    return Scenery(_read_only(trees), buildings, landmarks, net, streets)


def _near_lines(terrain, lines, pts, clear_m: float) -> np.ndarray:
    """Which points lie within clear_m of a road, the railway or the river (cut through the woods)."""
    cell = 20.0
    o = terrain.origin_ne_m
    shape = (int(terrain.size_ne_m[0] // cell) + 2, int(terrain.size_ne_m[1] // cell) + 2)
    mask = np.zeros(shape, bool)
    for ln in lines:
        p = np.asarray(ln.points)
        reach = int(np.ceil((0.5 * float(np.max(ln.width_m)) + clear_m) / cell))
        i = np.round((p[:, 0] - o[0]) / cell).astype(int)
        j = np.round((p[:, 1] - o[1]) / cell).astype(int)
        for di in range(-reach, reach + 1):
            for dj in range(-reach, reach + 1):
                mask[np.clip(i + di, 0, shape[0] - 1), np.clip(j + dj, 0, shape[1] - 1)] = True
    i = np.clip(np.round((pts[:, 0] - o[0]) / cell).astype(int), 0, shape[0] - 1)
    j = np.clip(np.round((pts[:, 1] - o[1]) / cell).astype(int), 0, shape[1] - 1)
    return mask[i, j]


def forest_density(terrain: Terrain) -> np.ndarray:
    """The forest noise (129 x 129 over the world) the trees are scattered by."""
    return value_noise(np.random.default_rng(terrain.seed + 2), 129, 10.0)


def forest_density_at(terrain: Terrain, dens: np.ndarray, north_m, east_m) -> np.ndarray:
    """The forest noise between its samples (bilinear), at world points: the trees and the
    forest floor (forest_alpha) share one smooth edge, not the blocks of its 129 x 129 grid."""
    o = terrain.origin_ne_m
    size = terrain.size_ne_m
    last = dens.shape[0] - 1
    u = np.clip((np.asarray(north_m, dtype=np.float64) - o[0]) / size[0] * last, 0.0, last)
    v = np.clip((np.asarray(east_m, dtype=np.float64) - o[1]) / size[1] * last, 0.0, last)
    i = np.minimum(u.astype(np.int64), last - 1)
    j = np.minimum(v.astype(np.int64), last - 1)
    fu, fv = u - i, v - j
    return (dens[i, j] * (1 - fu) * (1 - fv) + dens[i + 1, j] * fu * (1 - fv)
            + dens[i, j + 1] * (1 - fu) * fv + dens[i + 1, j + 1] * fu * fv)


def forest_alpha(terrain: Terrain) -> np.ndarray:
    """Per heightfield sample, 0..1 with 0.5 at the forest edge (the terrain shader darkens above
    it); kept per terrain, read-only."""
    return kept("forest floor", terrain, lambda: _read_only(_forest_alpha(terrain)))


def _forest_alpha(terrain: Terrain) -> np.ndarray:
    rows, cols = terrain.shape
    n = terrain.origin_ne_m[0] + terrain.spacing_m * np.arange(rows)
    e = terrain.origin_ne_m[1] + terrain.spacing_m * np.arange(cols)
    N, E = np.meshgrid(n, e, indexing="ij")
    d = forest_density_at(terrain, forest_density(terrain), N, E)
    alpha = np.clip(0.5 + (d - FOREST_THRESHOLD) * 3.0, 0.0, 1.0)
    # the airfield stands in its own clearing: no forest floor where no tree stands (build())
    af = terrain.airfield
    f, r = af.axes()
    N = terrain.origin_ne_m[0] + terrain.spacing_m * np.arange(rows)[:, None] - af.north_m
    E = terrain.origin_ne_m[1] + terrain.spacing_m * np.arange(cols)[None, :] - af.east_m
    a = np.abs(N * f[0] + E * f[1]) - (af.length_m / 2 + 350.0)
    b = np.abs(N * r[0] + E * r[1]) - 350.0
    outside = np.clip(np.maximum(a, b) / 150.0, 0.0, 1.0)
    return alpha * outside
