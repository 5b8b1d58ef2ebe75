"""What stands on the ground as meshes (numpy only, no GL): the buildings (houses with gable
roofs, barrel-roofed hangars, the tower's glass cab, steeples), gathered by 1 km cells for
culling; the windsock in the wind; the unit tree the renderer instances."""
from __future__ import annotations

import math

import numpy as np

from . import aircraft_mesh


def _axes(bd):
    """A building's axes in the world (NED): forward along its heading, right, up, and its
    footprint's centre a metre below the ground (NED: z down), so that on a slope no gap opens
    under a wall."""
    c, s = math.cos(bd.heading_rad), math.sin(bd.heading_rad)
    return (np.array([c, s, 0.0]), np.array([-s, c, 0.0]), np.array([0.0, 0.0, -1.0]),
            np.array([bd.north_m, bd.east_m, -bd.ground_m + 1.0]))


def _hangar(b, bd):
    """A hangar: low walls under a barrel roof, its great doors on the side facing the apron."""
    f, r, up, o = _axes(bd)
    L2, W2 = bd.length_m / 2, bd.width_m / 2
    H = 0.45 * bd.height_m + 1.0                 # the walls; the barrel rises the rest
    rise = bd.height_m - 0.45 * bd.height_m
    n = 10
    arch = [(-W2 * math.cos(math.pi * k / n), H + rise * math.sin(math.pi * k / n)) for k in range(n + 1)]
    for k in range(n):                           # the roof, a strip at a time along its length
        (w0, h0), (w1, h1) = arch[k], arch[k + 1]
        p = [o + f * a + r * w + up * h for a, w, h in ((-L2, w0, h0), (L2, w0, h0), (L2, w1, h1), (-L2, w1, h1))]
        b.quad(p[0], p[1], p[2], p[3], bd.roof_colour, 0)
    for sgn in (-1.0, 1.0):                      # the side walls
        a0 = o + f * (-L2) + r * (sgn * W2)
        a1 = o + f * L2 + r * (sgn * W2)
        if sgn > 0:
            b.quad(a0, a1, a1 + up * H, a0 + up * H, bd.colour, 0)
        else:
            b.quad(a1, a0, a0 + up * H, a1 + up * H, bd.colour, 0)
    for sgn, col in ((-1.0, bd.colour), (1.0, (0.22, 0.24, 0.25))):    # the back wall, the doors at the front
        e = o + f * (sgn * L2)
        pts = [e + r * w + up * h for w, h in [(-W2, 0.0)] + arch + [(W2, 0.0)]]
        centre = e + up * (0.5 * H)
        for k in range(len(pts) - 1):
            if sgn > 0:
                b.tri(centre, pts[k], pts[k + 1], col, 0)
            else:
                b.tri(centre, pts[k + 1], pts[k], col, 0)


def _box_building(b, bd):
    """Walls and a gable (or flat) roof of one building, world NED coordinates."""
    if bd.kind == "hangar":
        _hangar(b, bd)
        return
    f, r, up, o = _axes(bd)
    L2, W2 = bd.length_m / 2, bd.width_m / 2
    H = bd.height_m + 1.0
    corners = [o + f * a + r * w for a, w in ((-L2, -W2), (L2, -W2), (L2, W2), (-L2, W2))]
    for k in range(4):
        a0, a1 = corners[k], corners[(k + 1) % 4]
        b.quad(a0, a1, a1 + up * H, a0 + up * H, bd.colour, 0)
    top = [p + up * H for p in corners]
    if bd.roof_m <= 0:
        b.quad(top[3], top[2], top[1], top[0], bd.roof_colour, 0)
        return
    if bd.kind == "steeple":
        apex = o + up * (H + bd.roof_m * 2.5)
        for k in range(4):
            b.tri(top[k], top[(k + 1) % 4], apex, bd.roof_colour, 0)
        return
    r0 = o + up * (H + bd.roof_m) - f * L2
    r1 = o + up * (H + bd.roof_m) + f * L2
    b.quad(top[0], top[1], r1, r0, bd.roof_colour, 0)
    b.quad(top[2], top[3], r0, r1, bd.roof_colour, 0)
    b.tri(top[1], top[2], r1, bd.colour, 0)
    b.tri(top[3], top[0], r0, bd.colour, 0)


SCENERY_CELL_M = 1000.0         # buildings are drawn by 1 km cells, the ones in range and ahead


def scenery_chunks(scenery, terrain):
    """The buildings' mesh ordered by 1 km cell: (vertices, [(first vertex, count, centre NED,
    radius)])."""
    cells = {}
    for bd in scenery.buildings:
        key = (int(bd.north_m // SCENERY_CELL_M), int(bd.east_m // SCENERY_CELL_M))
        cells.setdefault(key, []).append(bd)
    parts, chunks, first = [], [], 0
    for key in sorted(cells):
        sub = type(scenery)(np.zeros((0, 6)), cells[key], {})
        v = scenery_mesh(sub, terrain, windsock=False)
        if len(v) == 0:
            continue
        centre = v[:, :3].mean(axis=0)
        radius = float(np.max(np.linalg.norm(v[:, :3] - centre, axis=1)))
        parts.append(v)
        chunks.append((first, len(v), centre.astype(np.float64), radius))
        first += len(v)
    pole = scenery_mesh(type(scenery)(np.zeros((0, 6)), [], scenery.landmarks), terrain)
    if len(pole):
        parts.append(pole)
        c = pole[:, :3].mean(axis=0)
        chunks.append((first, len(pole), c.astype(np.float64), 10.0))
    return (np.concatenate(parts) if parts else np.zeros((0, 10), np.float32)), chunks


CAB_SILL_M = 0.8        # the tower cab's wall below its windows
CAB_HEIGHT_M = 3.0      # the cab's floor (the tower's flat roof) to its roof
CAB_POST_M = 0.25       # the corner posts between the windows
CAB_EYE_M = 1.7         # a standing controller's eye over the cab's floor


def tower_eye_ned(scenery):
    """Where the tower view looks from: a controller standing in the tower's cab (None: no tower)."""
    tower = next((b for b in scenery.buildings if b.kind == "tower"), None)
    if tower is None:
        return None
    return np.array([tower.north_m, tower.east_m, -tower.ground_m - tower.height_m - CAB_EYE_M])


def _tower_cab(b, bd):
    """The glass cab on the tower: a sill, corner posts and a roof; its windows open (the
    tower view looks out of them, CAB_EYE_M over the floor)."""
    up = np.array([0.0, 0.0, -1.0])
    floor = np.array([bd.north_m, bd.east_m, -bd.ground_m - bd.height_m])
    corners = [floor + 4.6 * np.array([math.cos(a), math.sin(a), 0.0])
               for a in (k * math.pi / 2 + bd.heading_rad + math.pi / 4 for k in range(4))]
    frame = (0.15, 0.25, 0.3)
    top = up * CAB_HEIGHT_M
    for k in range(4):
        p0, p1 = corners[k], corners[(k + 1) % 4]
        b.quad(p0, p1, p1 + up * CAB_SILL_M, p0 + up * CAB_SILL_M, bd.colour, 0)
        d = (p1 - p0) / np.linalg.norm(p1 - p0) * CAB_POST_M
        b.quad(p0, p0 + d, p0 + d + top, p0 + top, frame, 0)
        b.quad(p1 - d, p1, p1 + top, p1 - d + top, frame, 0)
    roof = [c + top for c in corners]
    b.quad(roof[0], roof[1], roof[2], roof[3], bd.roof_colour, 0)
    b.quad(roof[3], roof[2], roof[1], roof[0], bd.roof_colour, 0)


def scenery_mesh(scenery, terrain, windsock: bool = True) -> np.ndarray:
    b = aircraft_mesh._Builder()
    for bd in scenery.buildings:
        _box_building(b, bd)
        if bd.kind == "tower":
            _tower_cab(b, bd)
    # the windsock's pole (the sock itself turns with the wind: windsock_mesh)
    if not windsock or "windsock" not in scenery.landmarks:
        return b.array()
    n, e = scenery.landmarks.get("windsock", (0.0, 0.0))
    g = terrain.height_at(n, e)
    p = np.array([n, e, -g])
    for a, c in (((0, -0.08, 0), (0, 0.08, 0)), ((-0.08, 0, 0), (0.08, 0, 0))):
        b.quad(p + a, p + c, p + c + np.array([0, 0, -6.0]), p + a + np.array([0, 0, -6.0]), (0.85, 0.85, 0.85), 0)
    return b.array()


WINDSOCK_FULL_MS = 7.7          # a windsock stands out straight in 15 kt (7.7 m/s) and more


def windsock_mesh(top_ned, wind_ned_ms) -> np.ndarray:
    """The sock on top of its pole: a cone of orange and white bands pointing downwind, drooping
    in a light wind (hanging down in a calm)."""
    b = aircraft_mesh._Builder()
    w = np.asarray(wind_ned_ms, dtype=np.float64)
    speed = float(np.hypot(w[0], w[1]))
    horiz = w[:2] / speed if speed > 1e-3 else np.array([1.0, 0.0])
    lift = min(speed / WINDSOCK_FULL_MS, 1.0)
    droop = (1.0 - lift) * math.radians(80.0)            # below the horizontal
    axis = np.array([horiz[0] * math.cos(droop), horiz[1] * math.cos(droop), math.sin(droop)])
    ref = np.array([0.0, 0.0, 1.0]) if abs(axis[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    e1 = np.cross(axis, ref)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    top = np.asarray(top_ned, dtype=np.float64)
    length, r0, r1, bands, sides = 3.6, 0.45, 0.22, 5, 8
    for k in range(bands):
        t0, t1 = k / bands, (k + 1) / bands
        c0, c1 = top + axis * (length * t0), top + axis * (length * t1)
        ra, rb = r0 + (r1 - r0) * t0, r0 + (r1 - r0) * t1
        col = (1.0, 0.42, 0.08) if k % 2 == 0 else (0.95, 0.95, 0.93)
        for j in range(sides):
            a0, a1 = 2 * math.pi * j / sides, 2 * math.pi * (j + 1) / sides
            d0 = e1 * math.cos(a0) + e2 * math.sin(a0)
            d1 = e1 * math.cos(a1) + e2 * math.sin(a1)
            b.quad(c0 + d0 * ra, c1 + d0 * rb, c1 + d1 * rb, c0 + d1 * ra, col, 0)
    return b.array()


def tree_mesh(sides=6) -> np.ndarray:
    """Unit tree: a cone crown from z = -0.15 to -1 (up is -z), radius 1, and a trunk."""
    b = aircraft_mesh._Builder()
    a = np.linspace(0, 2 * math.pi, sides + 1)
    apex = np.array([0.0, 0.0, -1.0])
    for k in range(sides):
        p0 = np.array([math.cos(a[k]), math.sin(a[k]), -0.15])
        p1 = np.array([math.cos(a[k + 1]), math.sin(a[k + 1]), -0.15])
        mid = 0.5 * (a[k] + a[k + 1])
        n = np.array([math.cos(mid) * 0.85, math.sin(mid) * 0.85, -0.5])
        b.tri(p0, apex, p1, (0, 0, 0), 0, n=n / np.linalg.norm(n))
    for k in range(0, sides, max(sides // 3, 1)):
        p0 = np.array([0.12 * math.cos(a[k]), 0.12 * math.sin(a[k]), 0.0])
        p1 = np.array([-0.12 * math.cos(a[k]), -0.12 * math.sin(a[k]), 0.0])
        b.quad(p0, p1, p1 + [0, 0, -0.17], p0 + [0, 0, -0.17], (0, 0, 0), 0)
    v = b.array()
    return np.ascontiguousarray(v[:, :6])
