"""The scene: sky, terrain (quadtree chunked LOD over the shared heightfield), scenery,
instanced trees and the aircraft, drawn from an interpolated Pose through a View.

Everything is given to GL in NED metres relative to the eye (float32 stays precise
tens of kilometres out); the View's matrix turns NED into GL axes. Draw order is
near to far (aircraft, scenery, trees, terrain) and the sky last where nothing was
drawn, so software rasterisers shade each pixel about once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..handoff import Pose, dcm
from . import aircraft_mesh
from .camera import View
from .glutil import mat4, program, set_uniform, translate
from .shadows import SunShadow
from .terrain_select import pack_levels, select_nodes

QUALITY = {
    #          LOD split factor, leaf grid, tree range m, max trees, fog density 1/m,
    #          scale: the 3D scene's resolution relative to the window (the HUD stays at full resolution)
    "low": dict(grid=8, split=1.5, trees_m=1400.0, max_trees=1200, fog=1.0 / 12000.0, tree_sides=5, scale=0.5,
                terrain_shader="terrain_low", draw_chunks=3, shadow_px=0, buildings_m=4500.0),
    "medium": dict(grid=16, split=1.8, trees_m=2500.0, max_trees=4000, fog=1.0 / 16000.0, tree_sides=6, scale=1.0,
                   shadow_px=2048, shadow_taps=1, buildings_m=9000.0, ground_detail=0.0),
    "high": dict(grid=16, split=3.0, trees_m=4500.0, max_trees=12000, fog=1.0 / 20000.0, tree_sides=8, scale=1.0,
                 shadow_px=4096, shadow_taps=9, buildings_m=20000.0, ground_detail=1.0, terrain_shadow=True),
}
SOFTWARE_GL = ("llvmpipe", "softpipe", "swiftshader", "software", "swr")


def _finish_releasing_gil(ctx):
    """glFinish through ctypes (which drops the GIL while the GL driver works), else moderngl's."""
    global _gl_finish
    if _gl_finish is None:
        try:
            from pyglet import gl
            _gl_finish = gl.glFinish
        except Exception:
            _gl_finish = False
    if _gl_finish:
        _gl_finish()
    else:
        ctx.finish()


_gl_finish = None


def auto_quality(ctx) -> str:
    r = ctx.info.get("GL_RENDERER", "").lower()
    return "low" if any(s in r for s in SOFTWARE_GL) else "high"


@dataclass
class FrameStats:
    terrain_nodes: int = 0
    terrain_triangles: int = 0
    trees: int = 0
    triangles: int = 0


# ---------------------------------------------------------------------------- terrain
def ground_noise(size: int = 256, seed: int = 11) -> np.ndarray:
    """Tiling smooth value noise, (size, size, 4) uint8: channel k has its lattice every
    size / 8 / 2^k texels (features of 1/8, 1/16, 1/32, 1/64 of the tile): the ground's
    detail at four scales in one texture fetch (terrain_paint.glsl noise_at)."""
    rng = np.random.default_rng(seed)
    out = np.empty((size, size, 4), np.uint8)
    for k in range(4):
        cells = 8 * 2 ** k
        lat = rng.uniform(0.0, 1.0, (cells, cells))
        u = (np.arange(size) + 0.5) * cells / size
        i = np.floor(u).astype(int)
        f = u - i
        f = f * f * (3 - 2 * f)
        i0, i1 = i % cells, (i + 1) % cells
        rows = lat[i0] * (1 - f)[:, None] + lat[i1] * f[:, None]
        v = rows[:, i0] * (1 - f)[None, :] + rows[:, i1] * f[None, :]
        v = (v - v.min()) / max(v.max() - v.min(), 1e-9)
        out[..., k] = np.round(v * 255).astype(np.uint8)
    return out


class TerrainRenderer:
    def __init__(self, ctx, terrain, forest=None, quality="low"):
        self.ctx = ctx
        self.terrain = terrain
        self.q = QUALITY[quality]
        self.GRID = self.q["grid"]      # cells per node side
        h = terrain.heights_m
        rows, cols = h.shape
        shader = self.q.get("terrain_shader", "terrain")
        self.prog = program(ctx, f"{shader}_vs.glsl", f"{shader}_fs.glsl",
                            {"GROUND_DETAIL": int(self.q.get("ground_detail", 0.0) > 0.5),
                             "TERRAIN_SHADOW": int(bool(self.q.get("terrain_shadow"))),
                             "SHADOW_TAPS": int(self.q.get("shadow_taps", 0)) if self.q.get("terrain_shadow") else 0})
        self.height_tex = ctx.texture((cols, rows), 1, np.ascontiguousarray(h, dtype=np.float32).tobytes(), dtype="f4")
        self.height_tex.repeat_x = self.height_tex.repeat_y = False
        dn, de = np.gradient(h, terrain.spacing_m)
        nrm = np.stack([-dn, -de, -np.ones_like(h)], axis=-1)
        nrm /= np.linalg.norm(nrm, axis=-1, keepdims=True)
        a = np.zeros(h.shape) if forest is None else forest
        rgba = np.concatenate([nrm * 0.5 + 0.5, a[..., None]], axis=-1)
        self.normal_tex = ctx.texture((cols, rows), 4, (rgba * 255).round().astype(np.uint8).tobytes())
        self.normal_tex.repeat_x = self.normal_tex.repeat_y = False
        self.normal_tex.filter = (ctx.LINEAR, ctx.LINEAR)
        # one grid mesh for every node: (G+1)^2 vertices plus a skirt ring
        G = self.GRID
        ii, jj = np.meshgrid(np.arange(G + 1), np.arange(G + 1), indexing="ij")
        verts = [np.stack([ii.ravel(), jj.ravel(), np.zeros(ii.size)], axis=1)]
        idx = []
        vid = lambda i, j: i * (G + 1) + j
        for i in range(G):
            for j in range(G):
                a0, b0, c0, d0 = vid(i, j), vid(i + 1, j), vid(i + 1, j + 1), vid(i, j + 1)
                idx += [a0, b0, c0, a0, c0, d0] if (i + j) % 2 == 0 else [a0, b0, d0, b0, c0, d0]
        ring = [(0, j) for j in range(G + 1)] + [(i, G) for i in range(1, G + 1)] + \
               [(G, j) for j in range(G - 1, -1, -1)] + [(i, 0) for i in range(G - 1, 0, -1)]
        base = (G + 1) ** 2
        skirt = np.array([(i, j, 1.0) for i, j in ring])
        verts.append(skirt)
        n = len(ring)
        for k in range(n):
            t0, t1 = vid(*ring[k]), vid(*ring[(k + 1) % n])
            s0, s1 = base + k, base + (k + 1) % n
            idx += [t0, s0, s1, t0, s1, t1]
        self.n_indices = len(idx)
        self.tris_per_node = len(idx) // 3
        self.vbo = vbo = ctx.buffer(np.concatenate(verts).astype("f4").tobytes())
        self.ibo = ibo = ctx.buffer(np.array(idx, dtype="i4").tobytes())
        # every node is one instance of the grid: (first row, first column, step, skirt depth)
        # The nodes go out in a few draw calls, each with its own instance buffer: llvmpipe shades
        # vertices and bins triangles inside the draw call, which holds the GIL; shorter calls
        # let the physics thread in between.
        self.n_chunks = int(self.q.get("draw_chunks", 1))
        self.insts = [ctx.buffer(reserve=4096 * 16, dynamic=True) for _ in range(self.n_chunks)]
        self.vaos = [ctx.vertex_array(self.prog, [(vbo, "3f", "in_grid"), (b, "4f/i", "in_node")], ibo)
                     for b in self.insts]
        # quadtree levels: min/max height of each node (cells = 2^k leaves)
        cells = rows - 1
        self.levels = []
        nleaf = max(cells // G, 1)
        hh = h[:nleaf * G + 1, :nleaf * G + 1]
        lo = np.minimum.reduceat(np.minimum.reduceat(hh[:-1, :-1], np.arange(0, nleaf * G, G), 0), np.arange(0, nleaf * G, G), 1)
        hi = np.maximum.reduceat(np.maximum.reduceat(hh[:-1, :-1], np.arange(0, nleaf * G, G), 0), np.arange(0, nleaf * G, G), 1)
        while True:
            self.levels.insert(0, (lo, hi))
            if lo.shape[0] == 1 or lo.shape[0] % 2:
                break
            lo = np.minimum(np.minimum(lo[0::2, 0::2], lo[1::2, 0::2]), np.minimum(lo[0::2, 1::2], lo[1::2, 1::2]))
            hi = np.maximum(np.maximum(hi[0::2, 0::2], hi[1::2, 0::2]), np.maximum(hi[0::2, 1::2], hi[1::2, 1::2]))
        self.root_cells = cells // self.levels[0][0].shape[0]
        self.hmin, self.hmax = float(h.min()), float(h.max())
        self.stats = FrameStats()
        self._packed = None
        self.numbers_tex = self._runway_numbers(ctx, terrain.airfield)
        self.noise_tex = ctx.texture((256, 256), 4, ground_noise().tobytes())
        self.noise_tex.build_mipmaps()
        self.noise_tex.filter = (ctx.LINEAR_MIPMAP_LINEAR, ctx.LINEAR)
        self.decal_prog = program(ctx, "decal_vs.glsl", "decal_fs.glsl")
        self.numbers_vao = ctx.vertex_array(self.decal_prog, [(ctx.buffer(self._number_quads(terrain).tobytes()),
                                                               "3f 2f", "in_pos", "in_uv")])

    @staticmethod
    def _runway_numbers(ctx, airfield):
        """The runway's numbers in the stencil font (left half: the one at its start, read
        landing along its heading; right half: the reciprocal's), for terrain_paint.glsl."""
        from .model import font
        first = int(round(airfield.heading_deg / 10.0)) % 36 or 36
        other = (first + 18 - 1) % 36 + 1
        w, h = 128, 96
        img = np.zeros((h, w), np.float32)
        for k, num in enumerate((f"{first:02d}", f"{other:02d}")):
            segs = font.segments(num)
            width = font.text_width(num)
            xs = (np.arange(w // 2) + 0.5) / (w // 2) * (width + 1.0) - 0.5
            ys = (np.arange(h) + 0.5) / h * (font.GLYPH_H + 1.0) - 0.5
            X, Y = np.meshgrid(xs, ys)
            img[:, k * (w // 2):(k + 1) * (w // 2)] = font.coverage(X, Y, segs, 0.5 * font.STROKE * 1.3, 0.08)
        tex = ctx.texture((w, h), 1, (img * 255).astype(np.uint8).tobytes())
        tex.filter = (ctx.LINEAR, ctx.LINEAR)
        tex.repeat_x = tex.repeat_y = False
        return tex

    @staticmethod
    def _number_quads(terrain) -> np.ndarray:
        """The two numbers as quads lying on the runway (world NED, uv into the numbers' texture):
        each 18 m long and 14 m wide, 85 m in from its threshold, read by a pilot landing over it."""
        af = terrain.airfield
        f, r = af.axes()
        out = []
        for k, (sign, half) in enumerate(((-1.0, 0.0), (1.0, 0.5))):
            # landing over the end at sign * half length, toward the middle
            toward = -sign
            rows = []
            for along, v in ((85.0, 0.0), (103.0, 1.0)):
                for right, u in ((-7.0, 0.0), (7.0, 1.0)):
                    a = sign * af.length_m / 2 + toward * along
                    rr = right * toward                     # the reader's right
                    n = af.north_m + f[0] * a + r[0] * rr
                    e = af.east_m + f[1] * a + r[1] * rr
                    rows.append((n, e, -(terrain.height_at(n, e) + 0.05), half + 0.5 * u, v))
            q = [rows[0], rows[1], rows[3], rows[0], rows[3], rows[2]]
            out += q
        return np.array(out, dtype="f4")

    def draw_numbers(self, view, m_proj, common):
        p = self.decal_prog
        set_uniform(p, "m_proj", m_proj)
        set_uniform(p, "m_view", view.m_view)
        set_uniform(p, "u_eye", tuple(float(x) for x in view.eye_ned_m))
        for k, v in common.items():
            set_uniform(p, k, v)
        self.numbers_tex.use(2)
        set_uniform(p, "u_tex", 2)
        ctx = self.ctx
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        ctx.depth_mask = False
        self.numbers_vao.render(vertices=12)
        ctx.depth_mask = True
        ctx.disable(ctx.BLEND)
        return 4

    def select(self, view: View, vp: np.ndarray) -> np.ndarray:
        """Nodes to draw, (n, 3) rows of (row0, col0, step): frustum culled, split by distance
        (compiled walk, terrain_select.select_nodes; select_reference is the numpy original)."""
        if self._packed is None:
            self._packed = pack_levels(self.levels)
            self._sel_out = np.empty((4096, 4))
        lo, hi, offsets, shapes = self._packed
        t = self.terrain
        n = select_nodes(lo, hi, offsets, shapes, int(self.root_cells), int(self.GRID),
                         float(t.origin_ne_m[0]), float(t.origin_ne_m[1]), float(t.spacing_m),
                         np.asarray(view.eye_ned_m, np.float64), np.ascontiguousarray(vp, np.float64),
                         float(self.q["split"]), 3.0 / self.q["fog"], self._sel_out)
        return self._sel_out[:n, :3].copy()

    def select_reference(self, view: View, vp: np.ndarray):
        """Nodes to draw: (row0, col0, step) by level, frustum culled, split by distance."""
        t = self.terrain
        dx = t.spacing_m
        G = self.GRID
        eye = view.eye_ned_m
        out = []
        # level 0: the world's root nodes plus a ring of same-size nodes beyond its edge (clamped heights)
        n0 = self.levels[0][0].shape[0]
        rr, cc = np.meshgrid(np.arange(-1, n0 + 1), np.arange(-1, n0 + 1), indexing="ij")
        nodes = np.stack([rr.ravel(), cc.ravel()], axis=1)
        for lev in range(len(self.levels)):
            if len(nodes) == 0:
                break
            lo, hi = self.levels[lev]
            size_cells = self.root_cells >> lev
            size_m = size_cells * dx
            inside = (nodes[:, 0] >= 0) & (nodes[:, 0] < lo.shape[0]) & (nodes[:, 1] >= 0) & (nodes[:, 1] < lo.shape[1])
            r_cl = np.clip(nodes[:, 0], 0, lo.shape[0] - 1)
            c_cl = np.clip(nodes[:, 1], 0, lo.shape[1] - 1)
            zmin = np.where(inside, lo[r_cl, c_cl], lo[r_cl, c_cl])
            zmax = np.where(inside, hi[r_cl, c_cl], hi[r_cl, c_cl])
            n_lo = t.origin_ne_m[0] + nodes[:, 0] * size_m
            e_lo = t.origin_ne_m[1] + nodes[:, 1] * size_m
            # distance from the eye to the node's box
            dn = np.maximum(np.maximum(n_lo - eye[0], eye[0] - (n_lo + size_m)), 0.0)
            de = np.maximum(np.maximum(e_lo - eye[1], eye[1] - (e_lo + size_m)), 0.0)
            dz = np.maximum(np.maximum(-zmax - eye[2], eye[2] + zmin), 0.0)
            dist = np.sqrt(dn * dn + de * de + dz * dz)
            # frustum: all 8 corners outside one clip plane -> culled
            cn = np.stack([n_lo, n_lo + size_m], 1)
            ce = np.stack([e_lo, e_lo + size_m], 1)
            cz = np.stack([-zmax - 30.0, -zmin + 30.0], 1)
            corners = np.stack(np.broadcast_arrays(cn[:, :, None, None], ce[:, None, :, None], cz[:, None, None, :]), -1)
            corners = corners.reshape(len(nodes), 8, 3) - eye
            clip = corners @ vp[:3, :3].T + vp[:3, 3]
            w = corners @ vp[3, :3] + vp[3, 3]
            culled = np.zeros(len(nodes), bool)
            for ax in range(3):
                culled |= np.all(clip[:, :, ax] > w, axis=1) | np.all(clip[:, :, ax] < -w, axis=1)
            fog_far = 3.0 / self.q["fog"]
            culled |= dist > fog_far
            split = (dist < self.q["split"] * size_m) & inside & (lev + 1 < len(self.levels)) & ~culled
            draw = ~split & ~culled
            step = size_cells // G
            for r0, c0 in nodes[draw]:
                out.append((r0 * size_cells, c0 * size_cells, step))
            sp = nodes[split] * 2
            nodes = np.concatenate([sp, sp + [1, 0], sp + [0, 1], sp + [1, 1]]) if len(sp) else sp
        return out

    def draw(self, view: View, m_proj, common: dict, airfield, shadow=None):
        p = self.prog
        t = self.terrain
        vp = m_proj @ view.m_view
        nodes = self.select(view, vp)
        set_uniform(p, "m_proj", m_proj)
        set_uniform(p, "m_view", view.m_view)
        for k, v in common.items():
            set_uniform(p, k, v)
        set_uniform(p, "u_grid", (t.origin_ne_m[0], t.origin_ne_m[1], t.spacing_m))
        set_uniform(p, "u_cam_ned", tuple(view.eye_ned_m))
        set_uniform(p, "u_water_m", t.water_level_m)
        f, _ = airfield.axes()
        set_uniform(p, "u_rwy", (airfield.north_m, airfield.east_m, f[0], f[1]))
        set_uniform(p, "u_rwy_dim", (airfield.length_m / 2, airfield.width_m / 2, 75.0, 7.5))
        self.height_tex.use(0)
        self.normal_tex.use(1)
        self.noise_tex.use(3)
        set_uniform(p, "u_height", 0)
        set_uniform(p, "u_normal", 1)
        set_uniform(p, "u_noise", 3)
        if shadow is not None:
            shadow.bind(p)
        dx = t.spacing_m
        if len(nodes):
            inst = np.asarray(nodes, dtype="f4").reshape(-1, 3)
            inst = np.column_stack([inst, 4.0 + 0.15 * inst[:, 2] * dx]).astype("f4")
            # near to far, so the depth test throws away hidden terrain before it is shaded
            half = 0.5 * self.GRID * inst[:, 2]
            dn = t.origin_ne_m[0] + (inst[:, 0] + half) * dx - view.eye_ned_m[0]
            de = t.origin_ne_m[1] + (inst[:, 1] + half) * dx - view.eye_ned_m[1]
            inst = inst[np.argsort(dn * dn + de * de, kind="stable")]
            for buf, vao, part in zip(self.insts, self.vaos, np.array_split(inst, self.n_chunks)):
                if len(part) == 0:
                    continue
                buf.orphan(4096 * 16)      # a fresh store: never wait for last frame's draw
                buf.write(np.ascontiguousarray(part).tobytes())
                vao.render(vertices=self.n_indices, instances=len(part))
        self.stats.terrain_nodes = len(nodes)
        self.stats.terrain_triangles = len(nodes) * self.tris_per_node
        return self.stats.terrain_triangles


# ---------------------------------------------------------------------------- meshes
def _hangar(b, bd):
    """A hangar: low walls under a barrel roof, its great doors on the side facing the apron."""
    c, s = math.cos(bd.heading_rad), math.sin(bd.heading_rad)
    f = np.array([c, s, 0.0])
    r = np.array([-s, c, 0.0])
    o = np.array([bd.north_m, bd.east_m, -bd.ground_m + 1.0])
    L2, W2 = bd.length_m / 2, bd.width_m / 2
    up = np.array([0.0, 0.0, -1.0])
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
    c, s = math.cos(bd.heading_rad), math.sin(bd.heading_rad)
    f = np.array([c, s, 0.0])
    r = np.array([-s, c, 0.0])
    o = np.array([bd.north_m, bd.east_m, -bd.ground_m + 1.0])
    L2, W2 = bd.length_m / 2, bd.width_m / 2
    up = np.array([0.0, 0.0, -1.0])
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


def scenery_mesh(scenery, terrain, windsock: bool = True) -> np.ndarray:
    b = aircraft_mesh._Builder()
    for bd in scenery.buildings:
        _box_building(b, bd)
        if bd.kind == "tower":  # glass cab on the tower
            c = np.array([bd.north_m, bd.east_m, -bd.ground_m - bd.height_m - 1.0])
            for k in range(4):
                a = k * math.pi / 2 + bd.heading_rad + math.pi / 4
                a1 = a + math.pi / 2
                p0 = c + 4.6 * np.array([math.cos(a), math.sin(a), 0])
                p1 = c + 4.6 * np.array([math.cos(a1), math.sin(a1), 0])
                b.quad(p0, p1, p1 + [0, 0, -3.0], p0 + [0, 0, -3.0], (0.15, 0.25, 0.3), 0)
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


# ---------------------------------------------------------------------------- the scene
class Renderer:
    def __init__(self, ctx, compiled, terrain, scenery=None, quality="auto", livery=None):
        from ..world import scenery as scenery_mod
        self.ctx = ctx
        self.quality = auto_quality(ctx) if quality in (None, "auto") else quality
        self.q = QUALITY[self.quality]
        self.terrain = terrain
        # the sun's shadow map (medium, high); the low preset lays a flat shadow on the ground instead
        self.shadow = SunShadow(ctx, int(self.q.get("shadow_px") or 1), int(self.q.get("shadow_taps", 1)))
        self.scenery = scenery if scenery is not None else scenery_mod.build(terrain)
        forest = scenery_mod.forest_alpha(terrain) if hasattr(scenery_mod, "forest_alpha") else None
        self.terrain_r = TerrainRenderer(ctx, terrain, forest, self.quality)
        self.sky_prog = program(ctx, "sky_vs.glsl", "sky_fs.glsl")
        self.sky_vao = ctx.vertex_array(self.sky_prog, [])
        self.mesh_prog = program(ctx, "mesh_vs.glsl", "mesh_fs.glsl")
        self.tree_prog = program(ctx, "tree_vs.glsl", "mesh_fs.glsl")
        # scenery (static, world coordinates)
        sv, self.scenery_chunks = scenery_chunks(self.scenery, terrain)
        self.scenery_vao = ctx.vertex_array(self.mesh_prog, [(ctx.buffer(sv.tobytes()), "3f 3f 3f 1f",
                                                              "in_position", "in_normal", "in_color", "in_part")])
        self.scenery_tris = len(sv) // 3
        n, e = self.scenery.landmarks.get("windsock", (0.0, 0.0))
        self._sock_top = np.array([n, e, -terrain.height_at(n, e) - 6.0])
        self.sock_vao = None
        self.set_wind((0.0, 0.0, 0.0))
        # the roads, the railway, the river and the town's streets on the ground
        from .ribbons import RibbonRenderer
        lines = (self.scenery.network.lines() if self.scenery.network is not None else []) + list(self.scenery.streets)
        from types import SimpleNamespace
        self.ribbons = RibbonRenderer(ctx, SimpleNamespace(lines=lambda: lines), terrain, self.quality,
                                      self.shadow.defines() if self.q.get("terrain_shadow") else None)
        # trees: one unit mesh, instances chosen each frame near the eye
        tm = tree_mesh(self.q["tree_sides"])
        self.tree_tris = len(tm) // 3
        self.tree_inst = ctx.buffer(reserve=self.q["max_trees"] * 24, dynamic=True)
        self.tree_vao = ctx.vertex_array(self.tree_prog, [
            (ctx.buffer(tm.astype("f4").tobytes()), "3f 3f", "in_position", "in_normal"),
            (self.tree_inst, "4f 2f/i", "in_inst", "in_inst2")])
        self.aircraft = {}
        self._frame_t = None
        self.set_aircraft(compiled, livery)
        self.set_time_of_day(13.0)
        self.stats = FrameStats()
        self._identity_parts = np.tile(np.eye(4, dtype="f4"), (aircraft_mesh.MAX_PARTS, 1, 1)).tobytes()
        # reduced-resolution scene target (software GL pays per pixel), stretched onto the window
        self.render_scale = float(self.q.get("scale", 1.0))
        self._scene_fbo = None
        self.upscale_prog = program(ctx, "upscale_vs.glsl", "upscale_fs.glsl")
        self.upscale_vao = ctx.vertex_array(self.upscale_prog, [])

    def _scene_target(self, w, h):
        """The offscreen colour + depth target for a window of w x h at the render scale."""
        sw, sh = max(int(round(w * self.render_scale)), 1), max(int(round(h * self.render_scale)), 1)
        if self._scene_fbo is None or self._scene_fbo.size != (sw, sh):
            if self._scene_fbo is not None:
                for a in (*self._scene_fbo.color_attachments, self._scene_fbo.depth_attachment):
                    a.release()
                self._scene_fbo.release()
            ctx = self.ctx
            tex = ctx.texture((sw, sh), 4)      # RGBA8: llvmpipe samples it ~1.5 ms a frame faster than RGB8
            # stretched with a bilinear filter: smooth edges, not a staircase of doubled pixels
            tex.filter = (ctx.LINEAR, ctx.LINEAR)
            tex.repeat_x = tex.repeat_y = False
            self._scene_fbo = ctx.framebuffer(color_attachments=[tex], depth_attachment=ctx.depth_renderbuffer((sw, sh)))
        return self._scene_fbo

    def set_aircraft(self, compiled, livery=None):
        """The player's aircraft: its look (visual.toml and the livery, render/model/) where it has
        one, else the slab model from its physics sections (aircraft_mesh)."""
        from .aircraft_draw import AircraftDrawer
        from .model import looks
        cg = np.asarray(compiled.cg_m, dtype=np.float64)
        lk = looks.look(compiled, self.quality, livery=livery)
        if lk is not None:
            drawer = AircraftDrawer(self.ctx, lk, cg, low=self.quality == "low", shadow_defines=self.shadow.defines())
            self.aircraft = {"mesh": lk.model, "drawer": drawer, "cg": cg, "livery": lk.livery}
            from .effects import Effects
            muzzles = None
            if getattr(compiled.spec, "guns", None):
                from ..world.combat import gun_muzzles
                muzzles = gun_muzzles(compiled)
            if getattr(self, "effects", None) is not None:
                self.effects.release()
            self.effects = Effects(self.ctx, lk.model, cg, muzzles)
            return
        m = aircraft_mesh.build(compiled)
        vao = self.ctx.vertex_array(self.mesh_prog, [(self.ctx.buffer(m.vertices.tobytes()), "3f 3f 3f 1f",
                                                      "in_position", "in_normal", "in_color", "in_part")])
        self.aircraft = {"mesh": m, "vao": vao, "cg": cg, "livery": None}

    def set_wind(self, wind_ned_ms) -> None:
        """The windsock shows the scenario's wind (the steady wind: render-side, no physics)."""
        sv = windsock_mesh(self._sock_top, wind_ned_ms)
        if self.sock_vao is not None:
            self.sock_vao.release()
            self.sock_buf.release()
        self.sock_buf = self.ctx.buffer(sv.tobytes())
        self.sock_vao = self.ctx.vertex_array(self.mesh_prog, [(self.sock_buf, "3f 3f 3f 1f",
                                                               "in_position", "in_normal", "in_color", "in_part")])
        self.sock_tris = len(sv) // 3

    def set_time_of_day(self, hours: float):
        """The sun and sky for local solar time ``hours`` (a scenario's time_of_day_h)."""
        from .sun import light_at
        self.light = light_at(float(hours))
        self.sun_ned = np.array(self.light.sun_ned)

    def _common(self):
        li = self.light
        return {"u_sun_ned": tuple(self.sun_ned), "u_fog_density": self.q["fog"],
                "u_sky_zenith": li.sky_zenith, "u_sky_horizon": li.sky_horizon,
                "u_sun_color": li.sun_color, "u_ambient": li.ambient}

    def render(self, fbo, view: View, pose: Pose | None, cockpit: bool = False, covered_rows: int = 0):
        """Draw the scene into fbo (at the preset's render scale, then stretched); returns the
        projection. The bottom covered_rows rows of the window are left undrawn: an opaque
        overlay (the cockpit panel) covers them."""
        ctx = self.ctx
        fbo.use()
        w, h = fbo.viewport[2], fbo.viewport[3]     # the window's current size (ctx.screen's .size is stale)
        fbo.viewport = (0, 0, w, h)
        covered = int(max(0, min(covered_rows, h - 1)))
        if self.render_scale >= 0.999:
            return self._render_scene(fbo, w, h, view, pose, cockpit, covered)
        target = self._scene_target(w, h)
        target.use()
        target.viewport = (0, 0, *target.size)
        # the scene's rows below the cover, less one for the stretch's rounding
        m_proj = self._render_scene(target, w, h, view, pose, cockpit,
                                    max(int(covered * target.size[1] / h) - 1, 0))
        # sampling the scene waits for it to be drawn: wait here, with the GIL released, not
        # inside a moderngl call that holds it (the physics thread would miss its ticks)
        _finish_releasing_gil(ctx)
        fbo.use()
        fbo.viewport = (0, 0, w, h)
        ctx.disable(ctx.DEPTH_TEST)
        if covered:
            fbo.scissor = (0, covered, w, h - covered)
        target.color_attachments[0].use(0)
        set_uniform(self.upscale_prog, "u_scene", 0)
        self.upscale_vao.render(vertices=3)
        if covered:
            fbo.scissor = None
        ctx.enable(ctx.DEPTH_TEST)
        return m_proj

    def _render_scene(self, fbo, w, h, view: View, pose: Pose | None, cockpit: bool, covered: int = 0):
        ctx = self.ctx
        aspect = w / max(h, 1)
        m_proj = view.m_proj(aspect)
        m_view = view.m_view
        common = self._common()
        ctx.enable_only(ctx.DEPTH_TEST)
        ctx.depth_func = "<"
        fbo.clear(0.7, 0.8, 0.9, 1.0, depth=1.0)
        tris = 0
        eye = view.eye_ned_m
        self._shadow_pass(fbo, view, pose, cockpit)
        if covered:          # rows under an opaque overlay: not rasterised at all
            vw, vh = fbo.viewport[2], fbo.viewport[3]
            fbo.scissor = (0, covered, vw, max(vh - covered, 1))
        # aircraft first (nearest)
        if pose is not None:
            tris += self._draw_aircraft(view, m_proj, pose, common, cockpit)
            ck = getattr(self, "cockpit3d", None)
            if ck is not None and getattr(self, "show_panel", False) and self._frame_parts is not None:
                tris += ck.draw(view, m_proj, common, self._frame_parts[1], self.shadow)
        combat = getattr(self, "combat", None)      # other aircraft, tracers, targets (render/combat_draw.py)
        if combat is not None:
            tris += combat.draw(view, m_proj, common)
        # scenery
        p = self.mesh_prog
        set_uniform(p, "m_proj", m_proj)
        set_uniform(p, "m_view", m_view)
        for k, v in common.items():
            set_uniform(p, k, v)
        set_uniform(p, "m_model", translate(-eye))
        p["u_parts"].write(self._identity_parts)
        set_uniform(p, "u_gloss", 0.0)
        tris += self._draw_scenery(view) + self.sock_tris
        self.sock_vao.render()
        tris += self._draw_trees(view, m_proj, common)
        tris += self.terrain_r.draw(view, m_proj, common, self.terrain.airfield,
                                    self.shadow if self.q.get("shadow_px") else None)
        tris += self.terrain_r.draw_numbers(view, m_proj, common)
        pixel_rad = view.fovy_rad / max(fbo.viewport[3], 1)
        tris += self.ribbons.draw(view, m_proj, common, self.shadow, pixel_rad)
        if not self.q.get("terrain_shadow") and pose is not None and getattr(self, "_frame_parts", None) is not None:
            tris += self._flat_shadow(view, m_proj, pose)
        # sky where nothing was drawn
        ctx.depth_func = "<="
        sp = self.sky_prog
        rot = m_proj @ m_view
        set_uniform(sp, "u_ned_from_clip", np.linalg.inv(rot))
        for k, v in common.items():
            set_uniform(sp, k, v)
        self.sky_vao.render(vertices=3)
        ctx.depth_func = "<"
        clouds = getattr(self, "clouds", None)      # the World's published cumulus, read only (render/clouds.py)
        if clouds is not None and len(clouds):
            if getattr(self, "clouds_r", None) is None:
                from .clouds import CloudRenderer
                self.clouds_r = CloudRenderer(ctx, volumetric=self.quality == "high", noise_tex=self.terrain_r.noise_tex)
            tris += self.clouds_r.draw(view, m_proj, common, clouds)
        tris += self._draw_trails(fbo, view, m_proj, common, pose, combat)
        tris += self._draw_effects(view, m_proj, common, pose, combat)
        tris += self._draw_glass(view, m_proj, common, pose, cockpit, combat)
        if covered:
            fbo.scissor = None
        self.stats.triangles = tris + 1
        self.stats.terrain_nodes = self.terrain_r.stats.terrain_nodes
        self.stats.terrain_triangles = self.terrain_r.stats.terrain_triangles
        return m_proj

    def _draw_effects(self, view, m_proj, common, pose, combat) -> int:
        """Exhaust smoke, muzzle flashes, sparks and debris, dust, vapour, contrails, the jets'
        flames (render/effects.py)."""
        fx = getattr(self, "effects", None)
        if fx is None or pose is None:
            return 0
        frame = combat.frame if combat is not None else None
        opp = combat.opponent_view if combat is not None else None
        snap = pose.snapshot
        fx.update(snap.time_s + pose.alpha * 0.02, pose, frame, opp)
        flames = []
        m = self.aircraft["mesh"]
        if m.nozzles and (snap.afterburner > 0.0 or snap.jet_spool > 0.0):
            R = dcm(pose.quat_wxyz)
            pos = np.asarray(pose.position_ned_m, dtype=np.float64)
            cg = self.aircraft["cg"]
            noz = [(pos + (np.asarray(p) - cg) @ R.T, r) for p, r in m.nozzles]
            flames.append((noz, -R[:, 0], float(snap.afterburner), float(snap.jet_spool)))
        if opp is not None and opp.visible and combat.opp is not None and "drawer" in combat.opp:
            om = combat.opp["mesh"]
            if om.nozzles and opp.afterburner > 0.0:
                R = dcm(opp.quat_wxyz)
                pos = np.asarray(opp.position_ned_m, dtype=np.float64)
                noz = [(pos + (np.asarray(p) - combat.opp["cg"]) @ R.T, r) for p, r in om.nozzles]
                flames.append((noz, -R[:, 0], float(opp.afterburner), 1.0))
        fx.nozzle_glow(flames)
        return fx.draw(view, m_proj, common, snap.time_s, flames)

    def _draw_trails(self, fbo, view, m_proj, common, pose, combat) -> int:
        """Coolant vapour, oil smoke, fuel mist and fire behind a damaged aircraft (render/damage_fx.py)."""
        own = pose.snapshot.smoke if pose is not None else ()
        frame = combat.frame if combat is not None else None
        other = frame.opponent_smoke if frame is not None else ()
        fx = getattr(self, "trails_r", None)
        if fx is None:
            if not own and not other:
                return 0
            from .damage_fx import TrailRenderer
            fx = self.trails_r = TrailRenderer(self.ctx)
        t = pose.snapshot.time_s if pose is not None else (frame.tick * 0.02 if frame is not None else 0.0)
        tr = fx.trails
        if t < getattr(self, "_trail_t", -1.0):
            tr.clear()                      # a reset: time went back
        self._trail_t = t
        if own:
            tr.emit("player", own, pose.position_ned_m, pose.quat_wxyz, self.aircraft["cg"], t)
        o = combat.opponent_view if combat is not None else None
        if other and o is not None and o.visible and combat.opp is not None:
            tr.emit("opponent", other, o.position_ned_m, o.quat_wxyz, combat.opp["cg"], t)
        return fx.draw(fbo, view, m_proj, common, t)

    def _pose_parts(self, pose: Pose, view, cockpit):
        """The player's drawer, model matrix and part matrices for this frame (the propeller
        turned by the time since the last frame)."""
        a = self.aircraft
        dr = a["drawer"]
        snap = pose.snapshot
        t = snap.time_s + pose.alpha * 0.02
        dt = 0.0 if self._frame_t is None or t < self._frame_t else min(t - self._frame_t, 0.1)
        self._frame_t = t
        dr.spin(snap.engine_rpm, dt)
        model = dr.model_matrix(pose.position_ned_m, pose.quat_wxyz, view.eye_ned_m)
        parts = dr.parts(pose.deflections_rad, pose.airbrake, pose.gear_up, pose.slat_positions,
                         snap.section_damage, snap.stores_on, cockpit=cockpit)
        return dr, model, parts

    def _shadow_pass(self, fbo, view, pose, cockpit):
        """The sun's shadow map round the player's aircraft (its own shadow and the one it casts
        on the ground); none with the sun below the horizon."""
        sh = self.shadow
        sh.on = False
        if pose is None or "drawer" not in self.aircraft:
            self._frame_parts = None
            return
        if self.sun_ned[2] > -0.02 or not self.q.get("shadow_px"):
            self._frame_parts = self._pose_parts(pose, view, cockpit)
            return
        dr, model, parts = self._pose_parts(pose, view, cockpit)
        self._frame_parts = (dr, model, parts)
        rel = np.asarray(pose.position_ned_m, dtype=np.float64) - view.eye_ned_m
        clip = sh.begin(self.sun_ned, rel, 0.62 * dr.model.extent_m + 1.0)
        dr.draw_depth(sh.prog, clip, model, parts)
        combat = getattr(self, "combat", None)
        if combat is not None:
            combat.draw_depth(sh, view)
        fbo.use()

    def _draw_scenery(self, view) -> int:
        """The buildings of the 1 km cells in the preset's range and not behind the eye."""
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        fwd = np.asarray(view.forward, dtype=np.float64)
        rng = self.q.get("buildings_m", 20000.0)
        from .ribbons import runs
        spans = []
        for first, count, centre, radius in self.scenery_chunks:
            rel = centre - eye
            d = float(np.linalg.norm(rel))
            if d - radius > rng or float(rel @ fwd) < -radius:
                continue
            spans.append((first, count))
        n = 0
        for first, count in runs(spans):
            self.scenery_vao.render(vertices=count, first=first)
            n += count // 3
        return n

    def _flat_shadow(self, view, m_proj, pose) -> int:
        """The low preset's shadow of the aircraft: its skin flattened along the sun's rays onto
        the ground below it, drawn once per pixel (render/aircraft_draw.py)."""
        pos = np.asarray(pose.position_ned_m, dtype=np.float64)
        g = self.terrain.height_at(pos[0], pos[1])
        if -pos[2] - g > 400.0 or self.sun_ned[2] > -0.05:
            return 0
        dr, model, parts = self._frame_parts
        return dr.draw_flat_shadow(view, m_proj, model, parts, self.sun_ned, -g - view.eye_ned_m[2])

    def _draw_glass(self, view, m_proj, common, pose, cockpit, combat) -> int:
        tris = 0
        if combat is not None and hasattr(combat, "draw_glass"):
            tris += combat.draw_glass(view, m_proj, common)
        fp = getattr(self, "_frame_parts", None)
        if pose is not None and fp is not None:
            dr, model, parts = fp
            tris += dr.draw_glass(view, m_proj, common, model, parts, inside=cockpit)
        return tris

    def _draw_aircraft(self, view, m_proj, pose: Pose, common, cockpit):
        a = self.aircraft
        if "drawer" in a:
            fp = getattr(self, "_frame_parts", None)
            if fp is None:
                fp = self._frame_parts = self._pose_parts(pose, view, cockpit)
            dr, model, parts = fp
            return dr.draw(view, m_proj, common, model, parts, shadow=self.shadow)
        mesh = a["mesh"]
        p = self.mesh_prog
        R = dcm(pose.quat_wxyz)
        model = mat4(R, np.asarray(pose.position_ned_m) - view.eye_ned_m) @ translate(-a["cg"])
        set_uniform(p, "m_proj", m_proj)
        set_uniform(p, "m_view", view.m_view)
        set_uniform(p, "m_model", model)
        for k, v in common.items():
            set_uniform(p, k, v)
        parts = mesh.part_transforms(pose.deflections_rad, pose.airbrake, pose.gear_up, pose.slat_positions,
                                     pose.snapshot.section_damage, pose.snapshot.stores_on)
        if cockpit:
            for k in mesh.fuselage_parts:
                parts[k, :3, :3] = 0.0
        p["u_parts"].write(np.ascontiguousarray(np.transpose(parts, (0, 2, 1)).astype("f4")).tobytes())
        set_uniform(p, "u_gloss", 0.5)
        a["vao"].render()
        return mesh.n_triangles

    def _draw_trees(self, view, m_proj, common):
        t = self.scenery.trees
        if len(t) == 0:
            return 0
        eye = view.eye_ned_m
        rel = np.empty((len(t), 3))
        rel[:, 0] = t[:, 0] - eye[0]
        rel[:, 1] = t[:, 1] - eye[1]
        rel[:, 2] = -t[:, 2] - eye[2]
        rng = self.q["trees_m"]
        d2 = rel[:, 0] ** 2 + rel[:, 1] ** 2
        near = d2 < rng * rng
        ahead = rel @ view.forward > -30.0
        sel = np.nonzero(near & ahead)[0]
        if len(sel) > self.q["max_trees"]:
            sel = sel[np.argsort(d2[sel])[: self.q["max_trees"]]]
        n = len(sel)
        if n == 0:
            return 0
        inst = np.empty((n, 6), dtype="f4")
        inst[:, :3] = rel[sel] + np.array([0.0, 0.0, 0.5])
        inst[:, 3] = t[sel, 3]
        inst[:, 4] = t[sel, 4]
        inst[:, 5] = t[sel, 5]
        self.tree_inst.orphan(self.q["max_trees"] * 24)
        self.tree_inst.write(inst.tobytes())
        p = self.tree_prog
        set_uniform(p, "m_proj", m_proj)
        set_uniform(p, "m_view", view.m_view)
        for k, v in common.items():
            set_uniform(p, k, v)
        set_uniform(p, "u_gloss", 0.0)
        self.tree_vao.render(instances=n)
        self.stats.trees = n
        return n * self.tree_tris
