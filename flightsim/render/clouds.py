"""Cumulus clouds over the thermals: billboarded puffs, a few hundred triangles.

The renderer reads the World's published cloud array (immutable: rows of north, east,
base m ASL, size m, key -- see world/weather.py Weather.clouds), never the live Weather.
Each cloud is a cluster of soft round puffs whose layout comes from the cloud's key (so
a cloud keeps its shape while it drifts and grows): a wide flat-based lower layer and
smaller heaped puffs above toward the middle, the cumulus's cauliflower. Each puff is
one camera-facing quad (two triangles), drawn after the opaque scene and the sky with
alpha blending, depth-tested but not depth-written, far to near. The fragment shader
gives a sphere's shading from the sun, greyer toward the flat base, and the same fog
as the terrain (shaders/cloud_vs.glsl, cloud_fs.glsl).
"""
from __future__ import annotations

import numpy as np

from .glutil import program, see_through, set_scene, set_uniform

PUFFS_PER_CLOUD = 11
MAX_CLOUDS = 64


def cloud_puffs(cloud_row, heap: int = PUFFS_PER_CLOUD - 6) -> np.ndarray:
    """Puffs of one cloud in world NED: rows (north, east, down, radius) plus the cloud's
    base and top as NED down and a shade, (n, 7); ``heap``: how many puffs heap up above the
    six of the base (the high preset's clouds have more, smaller ones: a cauliflower)."""
    n, e, base, size = (float(v) for v in cloud_row[:4])
    key = int(cloud_row[4]) if len(cloud_row) > 4 else int(abs(n * 7 + e * 13)) % 100003
    rng = np.random.default_rng(key)
    half = 0.5 * size
    out = []
    # the lower layer: wide puffs sitting on the base
    for k in range(6):
        a = 2 * np.pi * k / 6 + rng.uniform(-0.4, 0.4)
        d = half * rng.uniform(0.35, 0.65)
        r = half * rng.uniform(0.42, 0.55)
        out.append((n + d * np.cos(a), e + d * np.sin(a), -(base + 0.55 * r), r))
    # the heap: smaller puffs above toward the middle
    small = (PUFFS_PER_CLOUD - 6) / max(heap, 1)
    for k in range(heap):
        a = rng.uniform(0, 2 * np.pi)
        f = k / max(heap - 1, 1)              # the later ones higher, nearer the middle, smaller
        d = half * rng.uniform(0.0, 0.45 - 0.25 * f)
        r = half * rng.uniform(0.38, 0.5) * (small ** 0.35) * (1.0 - 0.3 * f)
        up = half * rng.uniform(0.5, 0.8 + 0.5 * f)
        out.append((n + d * np.cos(a), e + d * np.sin(a), -(base + up), r))
    p = np.array(out)
    top = float(np.min(p[:, 2] - p[:, 3]))
    shade = rng.uniform(0.95, 1.0)
    extra = np.tile([-base, top, shade], (len(p), 1))
    return np.hstack([p, extra])


class CloudRenderer:
    def __init__(self, ctx, volumetric: bool = False, noise_tex=None):
        """volumetric (the high preset): twice the puffs, their rims broken by noise, light
        through them toward the sun (a silver lining), self-shadowed toward the base."""
        self.ctx = ctx
        self.heap = 22 if volumetric else PUFFS_PER_CLOUD - 6
        self.noise_tex = noise_tex
        self.prog = program(ctx, "cloud_vs.glsl", "cloud_fs.glsl", {"VOLUMETRIC": int(volumetric)})
        quad = np.array([-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1], dtype="f4")
        self.quad = ctx.buffer(quad.tobytes())
        self.cap = MAX_CLOUDS * (6 + self.heap)
        self.inst = ctx.buffer(reserve=self.cap * 7 * 4, dynamic=True)
        self.vao = ctx.vertex_array(self.prog, [(self.quad, "2f", "in_corner"),
                                                (self.inst, "4f 3f/i", "in_puff", "in_cloud")])
        self._cache: dict = {}
        self.puffs = 0

    def _puffs(self, clouds: np.ndarray) -> np.ndarray:
        rows = []
        cache = {}
        for c in clouds[:MAX_CLOUDS]:
            # a cloud's layout relative to its middle, by key and size (rounded: it grows slowly)
            k = (int(c[4]) if len(c) > 4 else 0, int(round(float(c[3]) / 10.0)), int(round(float(c[2]))))
            rel = self._cache.get(k)
            if rel is None:
                rel = cloud_puffs((0.0, 0.0, c[2], c[3], k[0]), self.heap)
            cache[k] = rel
            p = rel.copy()
            p[:, 0] += c[0]
            p[:, 1] += c[1]
            rows.append(p)
        self._cache = cache
        return np.concatenate(rows) if rows else np.zeros((0, 7))

    def draw(self, view, m_proj, common: dict, clouds) -> int:
        """Draw the clouds (after the opaque scene and the sky); returns the triangles drawn."""
        self.puffs = 0
        if clouds is None or len(clouds) == 0:
            return 0
        p = self._puffs(np.asarray(clouds, dtype=np.float64))
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        rel = p[:, :3] - eye
        dist = np.linalg.norm(rel, axis=1)
        keep = dist < view.far_m * 0.95
        p, rel, dist = p[keep], rel[keep], dist[keep]
        if len(p) == 0:
            return 0
        order = np.argsort(-dist, kind="stable")              # far to near: blending
        inst = np.empty((len(p), 7), dtype="f4")
        inst[:, :3] = rel[order]
        inst[:, 3] = p[order, 3]
        inst[:, 4] = p[order, 4] - eye[2]                      # base, as NED down relative to the eye
        inst[:, 5] = p[order, 5] - eye[2]
        inst[:, 6] = p[order, 6]
        n = min(len(inst), self.cap)
        self.inst.orphan(self.cap * 7 * 4)
        self.inst.write(np.ascontiguousarray(inst[:n]).tobytes())
        pr = self.prog
        set_scene(pr, m_proj, view.m_view, common)
        set_uniform(pr, "u_cam_right", tuple(float(v) for v in view.right))
        set_uniform(pr, "u_cam_up", tuple(float(-v) for v in view.down))
        set_uniform(pr, "u_cam_fwd", tuple(float(v) for v in view.forward))
        if self.noise_tex is not None:
            self.noise_tex.use(4)
            set_uniform(pr, "u_noise", 4)
        with see_through(self.ctx):
            self.vao.render(vertices=6, instances=n)
        self.puffs = n
        return 2 * n
