"""Skins: the parametric surfaces an aircraft's exterior is made of, and how they become
triangles and texels.

A ``Skin`` is a smooth map (u, v) in [0, 1]^2 -> a point in body axes (FRD, metres from the
aircraft's datum), vectorised over numpy arrays. The same map gives the mesh (sampled on a
grid, per ``Piece``: a rectangle of (u, v) with its own moving part) and the paint (sampled
at every texel of the skin's rectangle in the texture atlas), so the texture lands on the
mesh exactly and the paint can be computed from each texel's true 3D position and normal.

Normals come from the map itself (central differences, oriented by ``orient`` so they point
out of the body); triangles are wound counter-clockwise seen from outside, so the shader's
gl_FrontFacing tells the outside of a skin from its inside (a cockpit wall).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

EPS = 1e-4


@dataclass
class Skin:
    name: str
    kind: str                       # what the painter does with it: fuselage, body, wing, htail, vtail, spinner,
                                    # blade, frame, canopy, metal, dark, tyre, pilot, interior, store
    fn: Callable                    # (u, v) arrays -> (..., 3) points
    size_m: tuple                   # its extent along u and along v (m): how many texels it gets
    orient: float = 1.0             # +1: cross(dP/du, dP/dv) points outward; -1: the other way
    side: int = 0                   # -1 left, +1 right, 0 both / centred (markings)
    meta: dict = field(default_factory=dict)   # for the painter: the surface's group, chord mapping ...
    rect: tuple | None = None       # (x0, y0, w, h) in the atlas, 0..1, set by pack()

    def points(self, u, v):
        return self.fn(np.asarray(u, dtype=np.float64), np.asarray(v, dtype=np.float64))

    def normals(self, u, v):
        """Outward unit normals (central differences, kept off the edges where a pole would
        leave one direction undefined)."""
        u = np.clip(np.asarray(u, dtype=np.float64), 2 * EPS, 1 - 2 * EPS)
        v = np.clip(np.asarray(v, dtype=np.float64), 2 * EPS, 1 - 2 * EPS)
        du = self.fn(u + EPS, v) - self.fn(u - EPS, v)
        dv = self.fn(u, v + EPS) - self.fn(u, v - EPS)
        n = np.cross(du, dv) * self.orient
        ln = np.linalg.norm(n, axis=-1, keepdims=True)
        bad = ln[..., 0] < 1e-14
        if np.any(bad):            # a pole: the direction from the middle of the nearby ring
            u2 = np.where(u < 0.5, u + 0.02, u - 0.02)
            du2 = self.fn(u2 + EPS, v) - self.fn(u2 - EPS, v)
            dv2 = self.fn(u2, v + EPS) - self.fn(u2, v - EPS)
            n2 = np.cross(du2, dv2) * self.orient
            n = np.where(bad[..., None], n2, n)
            ln = np.linalg.norm(n, axis=-1, keepdims=True)
        return n / np.maximum(ln, 1e-14)


@dataclass
class Piece:
    """A rectangle of a skin meshed on an nu x nv grid, moving with one part."""
    skin: Skin
    u0: float
    u1: float
    v0: float
    v1: float
    nu: int
    nv: int
    part: int
    u_warp: Callable | None = None      # spacing of the grid along u (a map of [0,1] onto [0,1])
    v_warp: Callable | None = None


def _lin(a, b, n, warp):
    t = np.linspace(0.0, 1.0, n + 1)
    if warp is not None:
        t = warp(t)
    return a + (b - a) * t


def mesh_piece(p: Piece):
    """Vertices (rows: position 3, normal 3, atlas uv 2, part 1, inside-paint flag 1) and triangle
    indices."""
    s = p.skin
    uu = _lin(p.u0, p.u1, p.nu, p.u_warp)
    vv = _lin(p.v0, p.v1, p.nv, p.v_warp)
    U, V = np.meshgrid(uu, vv, indexing="ij")
    pos = s.points(U, V)
    nrm = s.normals(U, V)
    x0, y0, w, h = s.rect if s.rect is not None else (0.0, 0.0, 1.0, 1.0)
    uv = np.stack([x0 + U * w, y0 + V * h], axis=-1)
    inside = 1.0 if s.kind in ("fuselage", "frame") else 0.0   # its inside (cockpit walls, frames): the interior paint
    verts = np.concatenate([pos, nrm, uv, np.full(U.shape + (1,), float(p.part)), np.full(U.shape + (1,), inside)],
                           axis=-1).reshape(-1, 10)
    nu, nv = p.nu, p.nv
    i, j = np.meshgrid(np.arange(nu), np.arange(nv), indexing="ij")
    a = (i * (nv + 1) + j).ravel()
    b = ((i + 1) * (nv + 1) + j).ravel()
    c = ((i + 1) * (nv + 1) + j + 1).ravel()
    d = (i * (nv + 1) + j + 1).ravel()
    # counter-clockwise seen from outside when cross(dP/du, dP/dv) is outward
    if s.orient > 0:
        tris = np.stack([np.stack([a, b, c], 1), np.stack([a, c, d], 1)], 1).reshape(-1, 3)
    else:
        tris = np.stack([np.stack([a, c, b], 1), np.stack([a, d, c], 1)], 1).reshape(-1, 3)
    # drop triangles with no area (the closed poles of a nose or a tip)
    P = pos.reshape(-1, 3)
    area = np.linalg.norm(np.cross(P[tris[:, 1]] - P[tris[:, 0]], P[tris[:, 2]] - P[tris[:, 0]]), axis=1)
    return verts.astype(np.float32), tris[area > 1e-12]


def pack(skins: list[Skin], size_px: int, margin_px: int = 3) -> float:
    """Give every skin a rectangle in a square atlas of size_px (shelf packing, the tallest
    first), all at one texel density; returns that density (texels per metre)."""
    area = sum(max(s.size_m[0], 1e-3) * max(s.size_m[1], 1e-3) for s in skins)
    density = 0.92 * size_px / np.sqrt(area)
    for _ in range(40):
        if _try_pack(skins, size_px, margin_px, density):
            return density
        density *= 0.95
    raise ValueError("the skins do not fit the atlas")


def _try_pack(skins, size_px, margin, density) -> bool:
    dims = [(max(int(np.ceil(s.size_m[0] * density)), 2), max(int(np.ceil(s.size_m[1] * density)), 2)) for s in skins]
    order = sorted(range(len(skins)), key=lambda k: -dims[k][1])
    x = y = 0
    shelf = 0
    placed = {}
    for k in order:
        w, h = dims[k]
        if x + w + margin > size_px:
            x = 0
            y += shelf + margin
            shelf = 0
        if y + h + margin > size_px or w + margin > size_px:
            return False
        placed[k] = (x + margin / 2, y + margin / 2, w, h)
        x += w + margin
        shelf = max(shelf, h)
    for k, (px, py, w, h) in placed.items():
        skins[k].rect = (px / size_px, py / size_px, w / size_px, h / size_px)
    return True


def texel_grid(skin: Skin, size_px: int):
    """The skin's texels: their (u, v) at texel centres and their integer atlas indices."""
    x0, y0, w, h = skin.rect
    i0, j0 = int(round(x0 * size_px)), int(round(y0 * size_px))
    nw, nh = max(int(round(w * size_px)), 1), max(int(round(h * size_px)), 1)
    # one texel of bleed round the rectangle (filtering and mipmaps sample past the edge)
    ii = np.arange(i0 - 1, i0 + nw + 1)
    jj = np.arange(j0 - 1, j0 + nh + 1)
    ii = ii[(ii >= 0) & (ii < size_px)]
    jj = jj[(jj >= 0) & (jj < size_px)]
    u = np.clip((ii + 0.5 - i0) / nw, 0.0, 1.0)
    v = np.clip((jj + 0.5 - j0) / nh, 0.0, 1.0)
    U, V = np.meshgrid(u, v, indexing="ij")
    return U, V, ii, jj
