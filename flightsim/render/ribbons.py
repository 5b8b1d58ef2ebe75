"""Roads, the railway and the river drawn as ribbons lying on the terrain (world/network.py).

Each line becomes a strip of quads following the heightfield, cut into chunks of about a
kilometre that are culled by distance and by the view. The terrain is drawn with a level
of detail that flattens far hills a little, so a ribbon could sink under a coarse node or
float over it: the vertex shader keeps every ribbon vertex where it is on the screen but
gives it the depth of a point pulled toward the eye by a fraction of its distance (never a
shift on the screen, only a win in the depth test). A ribbon narrower than a pixel is
widened to one and made as much fainter (no shimmer far away). Drawn after the terrain,
blended, not written to depth: the river first, then the railway, then the roads over both
(the bridges).
"""
from __future__ import annotations

import numpy as np

from .glutil import program, see_through, set_scene, set_uniform, vertex_array

KINDS = {"river": 0.0, "rail": 1.0, "main": 2.0, "lane": 3.0}
ORDER = ("river", "rail", "lane", "main")
CHUNK_POINTS = 64
RANGE_M = {"low": 4000.0, "medium": 12000.0, "high": 20000.0}
FLOATS = 10


def ribbon_vertices(line, terrain, lift_m: float = 0.25):
    """Two vertices a point (left, right): the centre (north, east, down), the way to the right
    (north, east), the edge's depth off the centre's (m), across -1 / +1, the distance along (m),
    the half width (m), the kind."""
    p = np.asarray(line.points, dtype=np.float64)
    t = np.gradient(p, axis=0)
    t /= np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-9)
    side = np.stack([-t[:, 1], t[:, 0]], axis=1)          # to the right of the way along
    half = 0.5 * np.asarray(line.width_m, dtype=np.float64)
    along = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))])
    hc = terrain.height_at(p[:, 0], p[:, 1])
    out = np.empty((len(p), 2, FLOATS), dtype=np.float64)
    for k, s in enumerate((-1.0, 1.0)):
        ne = p + side * (half * s)[:, None]
        h = terrain.height_at(ne[:, 0], ne[:, 1])
        out[:, k, 0:2] = p
        out[:, k, 2] = -(hc + lift_m)
        out[:, k, 3:5] = side
        out[:, k, 5] = -(h - hc)
        out[:, k, 6] = s
        out[:, k, 7] = along
        out[:, k, 8] = half
        out[:, k, 9] = KINDS[line.kind]
    return out


def runs(spans):
    """(first, count) spans merged where one ends where the next begins: one draw call a run
    (a software rasteriser pays for every call)."""
    out = []
    for first, count in spans:
        if out and out[-1][0] + out[-1][1] == first:
            out[-1] = (out[-1][0], out[-1][1] + count)
        else:
            out.append((first, count))
    return out


class RibbonRenderer:
    def __init__(self, ctx, network, terrain, quality: str = "low", shadow_defines: dict | None = None):
        self.ctx = ctx
        self.prog = program(ctx, "ribbon_vs.glsl", "ribbon_fs.glsl", shadow_defines)
        self.range_m = RANGE_M.get(quality, 8000.0)
        verts, idx = [], []
        self.chunks = []            # (kind order, first index, count, centre ne, radius)
        base = 0
        lines = sorted(network.lines(), key=lambda ln: ORDER.index(ln.kind))
        for ln in lines:
            v = ribbon_vertices(ln, terrain)
            n = len(v)
            for a in range(0, n - 1, CHUNK_POINTS):
                b = min(a + CHUNK_POINTS, n - 1)
                seg = v[a:b + 1].reshape(-1, FLOATS)
                k = b - a
                i = np.arange(k)
                q = np.stack([2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2], axis=1).ravel() + base
                first = sum(len(x) for x in idx)
                verts.append(seg)
                idx.append(q)
                centre = seg[:, :3].mean(axis=0)
                radius = float(np.max(np.linalg.norm(seg[:, :3] - centre, axis=1)))
                self.chunks.append((ORDER.index(ln.kind), first, len(q), centre, radius))
                base += len(seg)
        self.n_chunks = len(self.chunks)
        if not verts:
            self.vao = None
            return
        data = np.concatenate(verts).astype("f4")
        self.vbo = ctx.buffer(data.tobytes())
        self.ibo = ctx.buffer(np.concatenate(idx).astype("i4").tobytes())
        self.vao = vertex_array(ctx, self.prog, self.vbo, (("3f", "in_centre"), ("2f", "in_side"), ("1f", "in_dz"),
                                                          ("1f", "in_across"), ("1f", "in_along"), ("1f", "in_half"),
                                                          ("1f", "in_kind")), self.ibo)
        self.centres = np.array([c[3] for c in self.chunks])
        self.radii = np.array([c[4] for c in self.chunks])
        self.drawn = 0

    def draw(self, view, m_proj, common, shadow=None, pixel_rad: float = 0.002) -> int:
        """The ribbons in view within the preset's range; returns the triangles drawn."""
        if self.vao is None:
            return 0
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        rel = self.centres - eye
        dist = np.linalg.norm(rel, axis=1)
        near = dist - self.radii < self.range_m
        ahead = rel @ np.asarray(view.forward) > -self.radii
        show = np.nonzero(near & ahead)[0]
        if len(show) == 0:
            self.drawn = 0
            return 0
        p = self.prog
        set_scene(p, m_proj, view.m_view, common)
        set_uniform(p, "u_eye", tuple(float(x) for x in eye))
        set_uniform(p, "u_pixel_rad", float(pixel_rad))
        set_uniform(p, "u_range", float(self.range_m))
        if shadow is not None:
            shadow.bind(p)
        tris = 0
        with see_through(self.ctx):
            for first, count in runs([self.chunks[c][1:3] for c in show]):   # in draw order: river, rail, lanes, roads
                self.vao.render(vertices=count, first=first)
                tris += count // 3
        self.drawn = tris
        return tris
