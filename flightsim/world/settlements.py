"""Where people live: the market town in the valley and the villages, their houses along the
roads (numpy only, deterministic from the terrain's seed; world/scenery.py asks for them).

The town is a grid of streets on the valley's west bank by the railway: terraced houses
along the streets, a market square with its church and steeple, the station, a mill
with its chimney by the river. A village is its houses strung along the roads that meet at
it (each set back from the road and turned to face it), with a church. No house stands on
water, on a steep slope, on a road or on the airfield.
"""
from __future__ import annotations

import math

import numpy as np

WALLS = [(0.86, 0.82, 0.74), (0.92, 0.9, 0.86), (0.78, 0.7, 0.6), (0.9, 0.85, 0.7), (0.72, 0.62, 0.52)]
ROOFS = [(0.55, 0.22, 0.16), (0.45, 0.2, 0.15), (0.35, 0.33, 0.35), (0.6, 0.3, 0.2), (0.3, 0.28, 0.3)]


def distance_to_lines(segs: np.ndarray, n: float, e: float) -> float:
    """The distance (m) from a point to the nearest of segments (k, 4): n0, e0, n1, e1."""
    if len(segs) == 0:
        return np.inf
    a = segs[:, 0:2]
    d = segs[:, 2:4] - a
    L2 = np.maximum(np.sum(d * d, axis=1), 1e-9)
    t = np.clip(((n - a[:, 0]) * d[:, 0] + (e - a[:, 1]) * d[:, 1]) / L2, 0.0, 1.0)
    return float(np.sqrt(np.min((a[:, 0] + t * d[:, 0] - n) ** 2 + (a[:, 1] + t * d[:, 1] - e) ** 2)))


def segments_of(lines) -> np.ndarray:
    """Every line's segments as rows n0, e0, n1, e1, and each segment's half width."""
    rows = [np.hstack([ln.points[:-1], ln.points[1:]]) for ln in lines if len(ln.points) > 1]
    return np.concatenate(rows) if rows else np.zeros((0, 4))


def _ok(terrain, n, e, segs, clear_m, slope_max=0.22):
    if terrain.is_water(n, e) or terrain.slope_at(n, e) > slope_max:
        return False
    if segs is not None and len(segs):
        near = segs[(np.abs(segs[:, 0] - n) < 400.0) & (np.abs(segs[:, 1] - e) < 400.0)]
        if distance_to_lines(near, n, e) < clear_m:
            return False
    return True


def _off_airfield(terrain, n, e):
    af = terrain.airfield
    f, r = af.axes()
    dn, de = n - af.north_m, e - af.east_m
    return abs(dn * f[0] + de * f[1]) > af.length_m / 2 + 250 or abs(dn * r[0] + de * r[1]) > 330


def village_houses(rng, terrain, centre, roads, building, out, count: int, radius_m: float = 420.0):
    """Houses along the roads within radius_m of a village's centre, set back and turned to
    face the road; building(...) makes one (world/scenery.Building)."""
    pts = []
    for ln in roads:
        p = ln.points
        d = np.hypot(p[:, 0] - centre[0], p[:, 1] - centre[1])
        near = np.nonzero(d < radius_m)[0]
        for i in near:
            j = min(i + 1, len(p) - 1)
            k = max(i - 1, 0)
            t = p[j] - p[k]
            if np.linalg.norm(t) < 1e-6:
                continue
            pts.append((p[i], t / np.linalg.norm(t), float(ln.width_m[i]), float(d[i])))
    if not pts:
        return
    all_roads = segments_of(roads)
    pts.sort(key=lambda x: x[3])
    placed = []
    for _ in range(count * 4):
        if len(placed) >= count:
            break
        # nearer the middle more often
        idx = min(int(abs(rng.normal(0.0, 0.45)) * len(pts)), len(pts) - 1)
        (pn, pe), t, w, _ = pts[idx]
        side = rng.choice([-1.0, 1.0])
        back = 0.5 * w + rng.uniform(7.0, 12.0)
        along = rng.uniform(-8.0, 8.0)
        n = pn + t[0] * along - t[1] * back * side
        e = pe + t[1] * along + t[0] * back * side
        if any((n - a) ** 2 + (e - b) ** 2 < 14.0 ** 2 for a, b in placed):
            continue
        if not _ok(terrain, n, e, all_roads, 0.5 * w + 6.0) or not _off_airfield(terrain, n, e):
            continue
        placed.append((n, e))
        heading = math.atan2(t[1], t[0]) + rng.normal(0.0, 0.04)
        out.append(building(n, e, terrain.height_at(n, e), rng.uniform(9, 15), rng.uniform(7, 9), rng.uniform(4, 6.5),
                            rng.uniform(3, 4.5), heading, WALLS[rng.integers(len(WALLS))],
                            ROOFS[rng.integers(len(ROOFS))]))


def town(rng, terrain, centre, roads, building, out):
    """The town: streets on a grid turned to the valley, houses along them, the square's church,
    the mill and its chimney; returns its streets as polylines (north, east) for the ribbons."""
    cn, ce = centre
    ang = math.radians(8.0)
    fwd = np.array([math.cos(ang), math.sin(ang)])
    right = np.array([-math.sin(ang), math.cos(ang)])
    streets = []
    block_l, block_w = 110.0, 80.0
    nl, nw = 6, 5
    all_roads = segments_of(roads)
    for i in range(nl + 1):                 # the streets along
        a = np.array([cn, ce]) + right * ((i - nl / 2) * block_w) - fwd * (nw / 2 * block_l)
        streets.append(np.stack([a + fwd * s for s in np.linspace(0.0, nw * block_l, 12)]))
    for j in range(nw + 1):                 # and across
        a = np.array([cn, ce]) + fwd * ((j - nw / 2) * block_l) - right * (nl / 2 * block_w)
        streets.append(np.stack([a + right * s for s in np.linspace(0.0, nl * block_w, 12)]))
    square = (slice(2, 4), slice(2, 4))     # the blocks round the market square are left open
    for i in range(nl):
        for j in range(nw):
            if square[0].start <= i < square[0].stop and square[1].start <= j < square[1].stop:
                continue
            o = np.array([cn, ce]) + right * ((i - nl / 2 + 0.5) * block_w) + fwd * ((j - nw / 2 + 0.5) * block_l)
            # terraced houses round the block's edge, facing out
            for side, (along_dir, across_dir, L, W) in enumerate(((fwd, right, block_l, block_w),
                                                                  (right, fwd, block_w, block_l))):
                for sgn in (-1.0, 1.0):
                    edge = o + across_dir * sgn * (0.5 * W - 13.0)
                    heading = math.atan2(along_dir[1], along_dir[0])
                    n_h = int((L - 30.0) // 11.0)
                    for k in range(n_h):
                        p = edge + along_dir * ((k - (n_h - 1) / 2) * 11.0)
                        if not _ok(terrain, p[0], p[1], all_roads, 9.0, 0.25):   # the main roads run through
                            continue
                        storeys = rng.integers(2, 4)
                        out.append(building(p[0], p[1], terrain.height_at(p[0], p[1]), 10.5, 9.0,
                                            3.0 * storeys + rng.uniform(0.0, 1.0), rng.uniform(3.0, 4.5), heading,
                                            WALLS[rng.integers(len(WALLS))], ROOFS[rng.integers(len(ROOFS))]))
    sq = np.array([cn, ce]) + right * (0.0) + fwd * (0.0)
    g = terrain.height_at(sq[0], sq[1])
    heading = math.atan2(fwd[1], fwd[0])
    out.append(building(sq[0] + 20 * fwd[0], sq[1] + 20 * fwd[1], g, 30.0, 14.0, 13.0, 9.0, heading,
                        (0.88, 0.85, 0.78), (0.32, 0.32, 0.34), "church"))
    st = sq + 20 * fwd - 21 * fwd
    out.append(building(st[0], st[1], g, 7.0, 7.0, 38.0, 10.0, heading, (0.88, 0.85, 0.78), (0.28, 0.42, 0.34),
                        "steeple"))
    mill = np.array([cn, ce]) + right * (0.5 * nl * block_w + 120.0)
    if _ok(terrain, mill[0], mill[1], None, 0.0, 0.3):
        gm = terrain.height_at(mill[0], mill[1])
        out.append(building(mill[0], mill[1], gm, 45.0, 22.0, 11.0, 5.0, heading, (0.6, 0.35, 0.28),
                            (0.35, 0.33, 0.35), "factory"))
        out.append(building(mill[0] + 30 * fwd[0], mill[1] + 30 * fwd[1], gm, 3.5, 3.5, 42.0, 0.0, 0.0,
                            (0.55, 0.3, 0.25), (0.5, 0.28, 0.22), "chimney"))
    return streets
