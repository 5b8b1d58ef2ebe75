"""What stands on the terrain (numpy only, deterministic from the terrain's seed): trees,
buildings, landmarks and the airfield layout. Positions are NED metres on the ground.

The renderer turns these into instanced or merged meshes; nothing here touches GL.
"""
from __future__ import annotations

import math
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


FOREST_THRESHOLD = 0.3
WALLS = [(0.86, 0.82, 0.74), (0.92, 0.9, 0.86), (0.78, 0.7, 0.6), (0.9, 0.85, 0.7)]
ROOFS = [(0.55, 0.22, 0.16), (0.45, 0.2, 0.15), (0.35, 0.33, 0.35), (0.6, 0.3, 0.2)]


def _village(rng, terrain: Terrain, n0, e0, count, spread_m, out):
    for _ in range(count):
        n = n0 + rng.normal(0, spread_m)
        e = e0 + rng.normal(0, spread_m)
        if terrain.is_water(n, e) or terrain.slope_at(n, e) > 0.25:
            continue
        g = terrain.height_at(n, e)
        k = rng.integers(len(WALLS))
        out.append(Building(n, e, g, rng.uniform(9, 16), rng.uniform(7, 10), rng.uniform(4, 7), rng.uniform(3, 5),
                            rng.choice([0.0, math.pi / 2]) + rng.normal(0, 0.15), WALLS[k], ROOFS[rng.integers(len(ROOFS))]))


def build(terrain: Terrain, tree_count: int = 40000) -> Scenery:
    rng = np.random.default_rng(terrain.seed + 1)
    af = terrain.airfield
    buildings: list[Building] = []
    landmarks = {}

    # ---- the airfield: hangars, clubhouse and tower beside the apron (right of the runway)
    f, r = af.axes()
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

    # ---- villages in the valleys, a church in the nearest one
    for (n0, e0, cnt) in [(-3500.0, 2600.0, 28), (4200.0, -2500.0, 18), (9000.0, 5200.0, 24),
                          (-12000.0, 2000.0, 20), (2500.0, 9500.0, 16), (-6000.0, -11000.0, 18)]:
        _village(rng, terrain, n0, e0, cnt, 180.0, buildings)
    cn, ce = -3500.0, 2600.0
    buildings.append(Building(cn, ce, terrain.height_at(cn, ce), 22.0, 11.0, 10.0, 7.0, 0.3,
                              (0.93, 0.9, 0.84), (0.35, 0.33, 0.35), "church"))
    buildings.append(Building(cn + 14 * math.cos(0.3), ce + 14 * math.sin(0.3), terrain.height_at(cn, ce), 5.0, 5.0, 32.0,
                              8.0, 0.3, (0.93, 0.9, 0.84), (0.3, 0.45, 0.35), "steeple"))
    landmarks["church"] = (cn, ce)

    # ---- a radio mast on the ridge crest, and a stone tower on a north-eastern hill
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

    # ---- forests: where a low-frequency noise says so, on land, not too steep, not on the airfield
    size = terrain.size_ne_m
    o = terrain.origin_ne_m
    pts = rng.uniform([o[0], o[1]], [o[0] + size[0], o[1] + size[1]], (tree_count * 4, 2))
    dens = forest_density(terrain)
    gi = ((pts[:, 0] - o[0]) / size[0] * 128).astype(int)
    gj = ((pts[:, 1] - o[1]) / size[1] * 128).astype(int)
    keep = dens[gi, gj] > FOREST_THRESHOLD
    pts = pts[keep]
    g = terrain.height_at(pts[:, 0], pts[:, 1])
    ok = (g > terrain.water_level_m + 1.0) & (terrain.slope_at(pts[:, 0], pts[:, 1]) < 0.45) & (g < 850)
    dn = pts[:, 0] - af.north_m
    de = pts[:, 1] - af.east_m
    a = np.abs(dn * f[0] + de * f[1])
    b = np.abs(dn * r[0] + de * r[1])
    ok &= ~((a < af.length_m / 2 + 350) & (b < 350))
    pts, g = pts[ok][:tree_count], g[ok][:tree_count]
    m = len(pts)
    trees = np.column_stack([pts[:, 0], pts[:, 1], g, rng.uniform(9, 22, m), rng.uniform(2.5, 4.5, m), rng.uniform(0, 1, m)])
    return Scenery(trees, buildings, landmarks)


def forest_density(terrain: Terrain) -> np.ndarray:
    """The forest noise (129 x 129 over the world) the trees are scattered by."""
    return value_noise(np.random.default_rng(terrain.seed + 2), 129, 10.0)


def forest_alpha(terrain: Terrain) -> np.ndarray:
    """Per heightfield sample, 0..1 with 0.5 at the forest edge (the terrain shader darkens above it)."""
    dens = forest_density(terrain)
    rows, cols = terrain.shape
    gi = (np.arange(rows) / (rows - 1) * 128).astype(int).clip(0, 128)
    gj = (np.arange(cols) / (cols - 1) * 128).astype(int).clip(0, 128)
    d = dens[gi][:, gj]
    return np.clip(0.5 + (d - FOREST_THRESHOLD) * 3.0, 0.0, 1.0)
