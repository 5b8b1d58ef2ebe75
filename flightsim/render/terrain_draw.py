"""The terrain as the renderer draws it: a quadtree of nodes over the shared heightfield
(terrain_select.py picks them), shaded by terrain_paint.glsl and the preset's shader; the
ground's noise texture; the runway's numbers painted on it."""
from __future__ import annotations

import numpy as np

from .camera import View
from .glutil import program, see_through, set_scene, set_uniform
from .presets import QUALITY, FrameStats
from .terrain_select import pack_levels, select_nodes


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


# shader variants (AIRFIELD, WATER): each node is drawn by the one with just what it reaches
VARIANTS = ((0, 0), (1, 0), (0, 1), (1, 1))
AIRFIELD_MARGIN_M = 400.0       # terrain_paint.glsl paint_airfield: the runway's box and this much round it


def node_variants(inst: np.ndarray, zmin_m: np.ndarray, grid: int, terrain, airfield) -> np.ndarray:
    """Index into VARIANTS per node (rows of first row, first column, step): AIRFIELD where the
    node's square meets the airfield's painted box (a separating-axis test), WATER where its
    lowest ground is at the water's level (terrain_fs.glsl's test, per vertex)."""
    dx = terrain.spacing_m
    size = inst[:, 2].astype(np.float64) * grid * dx
    half = 0.5 * size
    cn = terrain.origin_ne_m[0] + inst[:, 0] * dx + half - airfield.north_m    # square's centre from the runway's
    ce = terrain.origin_ne_m[1] + inst[:, 1] * dx + half - airfield.east_m
    f, r = airfield.axes()
    box = (airfield.length_m / 2 + AIRFIELD_MARGIN_M, AIRFIELD_MARGIN_M)       # half extents along f, r
    apart = (np.abs(cn) > half + abs(f[0]) * box[0] + abs(r[0]) * box[1]) | \
            (np.abs(ce) > half + abs(f[1]) * box[0] + abs(r[1]) * box[1])
    for axis, h in ((f, box[0]), (r, box[1])):
        apart |= np.abs(cn * axis[0] + ce * axis[1]) > h + half * (abs(axis[0]) + abs(axis[1]))
    water = zmin_m <= terrain.water_level_m + 0.05
    return (~apart).astype(np.int64) + 2 * water.astype(np.int64)     # VARIANTS' order


EDGE_STEPS = np.array([(-1, 0), (0, 1), (1, 0), (0, -1)])    # a node's neighbour across its edge 0..3 (row, column)


def skirt_edges(inst: np.ndarray, grid: int, root_cells: int) -> np.ndarray:
    """(n, 4) bool: which edges of each node (rows of first row, first column, step) need a skirt.
    Two nodes of one size side by side share their edge's samples exactly; an edge that borders
    a node of another size (or none: culled, past the map) may open a crack, so it hangs one:
    both sides of a change of level, the fine one's hiding where its ground dips below the
    coarse edge, the coarse one's where it rises above."""
    size = (grid * inst[:, 2]).astype(np.int64)
    lev = np.round(np.log2(root_cells / size)).astype(np.int64)
    r = np.floor_divide(inst[:, 0].astype(np.int64), size)
    c = np.floor_divide(inst[:, 1].astype(np.int64), size)
    span = 1 << 24
    key = lambda lv, rr, cc: (lv * span + (rr + 2)) * span + (cc + 2)
    drawn = key(lev, r, c)
    out = np.empty((len(inst), 4), bool)
    for e, (dr, dc) in enumerate(EDGE_STEPS):
        out[:, e] = ~np.isin(key(lev, r + dr, c + dc), drawn)
    return out


def closed_minima(h: np.ndarray, grid: int, n_levels: int) -> list:
    """Per quadtree level (root first), the lowest sample of each node's (grid + 1)^2 samples,
    its far edges included (the quadtree's own minima stop one sample short of them)."""
    n = (h.shape[0] - 1) // grid
    idx = np.arange(0, n * grid, grid)
    rows = np.minimum(np.minimum.reduceat(h[:n * grid], idx, 0), h[grid:n * grid + 1:grid])
    leaf = np.minimum(np.minimum.reduceat(rows[:, :n * grid], idx, 1), rows[:, grid:n * grid + 1:grid])
    out = [leaf]
    while len(out) < n_levels:
        m = out[0]
        out.insert(0, np.minimum(np.minimum(m[0::2, 0::2], m[1::2, 0::2]), np.minimum(m[0::2, 1::2], m[1::2, 1::2])))
    return out


def node_mesh(G: int):
    """One node's grid, (G+1)^2 vertices (row, column, 0), and one skirt along its row-0 edge
    (row 0, column, 1): vertices and triangle indices, the grid's 6 G^2 first, the skirt's 6 G after."""
    ii, jj = np.meshgrid(np.arange(G + 1), np.arange(G + 1), indexing="ij")
    verts = [np.stack([ii.ravel(), jj.ravel(), np.zeros(ii.size)], axis=1)]
    idx = []
    vid = lambda i, j: i * (G + 1) + j
    for i in range(G):
        for j in range(G):
            a0, b0, c0, d0 = vid(i, j), vid(i + 1, j), vid(i + 1, j + 1), vid(i, j + 1)
            idx += [a0, b0, c0, a0, c0, d0] if (i + j) % 2 == 0 else [a0, b0, d0, b0, c0, d0]
    base = (G + 1) ** 2
    verts.append(np.array([(0.0, j, 1.0) for j in range(G + 1)]))
    for j in range(G):
        t0, t1, s0, s1 = vid(0, j), vid(0, j + 1), base + j, base + j + 1
        idx += [t0, s0, s1, t0, s1, t1]
    return np.concatenate(verts), idx


def height_levels(h: np.ndarray, G: int):
    """The quadtree's levels, root first: (lowest, highest) height of every node, the leaves G
    cells a side; and the heights the leaves cover."""
    cells = h.shape[0] - 1
    levels = []
    nleaf = max(cells // G, 1)
    hh = h[:nleaf * G + 1, :nleaf * G + 1]
    starts = np.arange(0, nleaf * G, G)
    lo = np.minimum.reduceat(np.minimum.reduceat(hh[:-1, :-1], starts, 0), starts, 1)
    hi = np.maximum.reduceat(np.maximum.reduceat(hh[:-1, :-1], starts, 0), starts, 1)
    while True:
        levels.insert(0, (lo, hi))
        if lo.shape[0] == 1 or lo.shape[0] % 2:
            break
        lo = np.minimum(np.minimum(lo[0::2, 0::2], lo[1::2, 0::2]), np.minimum(lo[0::2, 1::2], lo[1::2, 1::2]))
        hi = np.maximum(np.maximum(hi[0::2, 0::2], hi[1::2, 0::2]), np.maximum(hi[0::2, 1::2], hi[1::2, 1::2]))
    return levels, hh


class TerrainRenderer:
    def __init__(self, ctx, terrain, forest=None, quality="low"):
        self.ctx = ctx
        self.terrain = terrain
        self.q = QUALITY[quality]
        self.GRID = self.q["grid"]      # cells per node side
        h = terrain.heights_m
        rows, cols = h.shape
        shader = self.q.get("terrain_shader", "terrain")
        defines = {"GRID_CELLS": int(self.q["grid"]), "GROUND_DETAIL": int(self.q.get("ground_detail", 0.0) > 0.5),
                   "TERRAIN_SHADOW": int(bool(self.q.get("terrain_shadow"))),
                   "SHADOW_TAPS": int(self.q.get("shadow_taps", 0)) if self.q.get("terrain_shadow") else 0}
        # software GL shades both sides of every branch, so the airfield's paint and the water are
        # compiled into their own variants, drawn only on the nodes that reach them (VARIANTS)
        self.progs = {v: program(ctx, f"{shader}_vs.glsl", f"{shader}_fs.glsl",
                                 dict(defines, AIRFIELD=v[0], WATER=v[1])) for v in VARIANTS}
        self.prog = self.progs[(1, 1)]
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
        # one grid mesh for every node, (G+1)^2 vertices, and one skirt along its row-0 edge: the
        # vertex shader turns the skirt onto whichever edge an instance names (terrain_paint.glsl
        # node_cell). Skirts hang only from edges that border a node of another size (the cracks
        # of the level of detail are there): skirt_edges.
        G = self.GRID
        verts, idx = node_mesh(G)
        self.n_grid_indices = 6 * G * G
        self.n_skirt_indices = 6 * G
        self.vbo = vbo = ctx.buffer(verts.astype("f4").tobytes())
        self.ibo = ibo = ctx.buffer(np.array(idx, dtype="i4").tobytes())
        # every node is one instance of the grid: (first row, first column, step, skirt depth), every
        # skirt one of the skirt: the same and its edge. The nodes go out in a few draw calls, each
        # with its own instance buffer: llvmpipe shades vertices and bins triangles inside the draw
        # call, which holds the GIL; shorter calls let the physics thread in between.
        self.n_chunks = int(self.q.get("draw_chunks", 1))
        self.insts = [ctx.buffer(reserve=4096 * 16, dynamic=True) for _ in range(self.n_chunks + len(VARIANTS))]
        self.vaos = {(v, k): ctx.vertex_array(self.progs[v], [(vbo, "3f", "in_grid"), (b, "4f/i", "in_node")], ibo)
                     for v in VARIANTS for k, b in enumerate(self.insts)}
        self.skirt_insts = {v: ctx.buffer(reserve=4 * 4096 * 20, dynamic=True) for v in VARIANTS}
        self.skirt_vaos = {v: ctx.vertex_array(self.progs[v], [(vbo, "3f", "in_grid"),
                                                               (self.skirt_insts[v], "4f 1f/i", "in_node", "in_edge")], ibo)
                           for v in VARIANTS}
        # quadtree levels: min/max height of each node (cells = 2^k leaves)
        cells = rows - 1
        self.levels, hh = height_levels(h, G)
        self.root_cells = cells // self.levels[0][0].shape[0]
        self.lowest = closed_minima(hh, G, len(self.levels))
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
        set_scene(p, m_proj, view.m_view, common)
        set_uniform(p, "u_eye", tuple(float(x) for x in view.eye_ned_m))
        self.numbers_tex.use(2)
        set_uniform(p, "u_tex", 2)
        with see_through(self.ctx):
            self.numbers_vao.render(vertices=12)
        return 4

    def lowest_ground(self, inst: np.ndarray) -> np.ndarray:
        """Each node's lowest ground sample, its edges included (m); nodes past the map's edge
        (its heights clamped there) take the nearest edge node's."""
        size = (self.GRID * inst[:, 2]).astype(np.int64)
        lev = np.round(np.log2(self.root_cells / size)).astype(np.int64)
        out = np.empty(len(inst))
        for k in np.unique(lev):
            m = self.lowest[k]
            sel = lev == k
            r = np.clip(np.floor_divide(inst[sel, 0].astype(np.int64), size[sel]), 0, m.shape[0] - 1)
            c = np.clip(np.floor_divide(inst[sel, 1].astype(np.int64), size[sel]), 0, m.shape[1] - 1)
            out[sel] = m[r, c]
        return out

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
        t = self.terrain
        vp = m_proj @ view.m_view
        nodes = self.select(view, vp)
        dx = t.spacing_m
        if len(nodes) == 0:
            self.stats.terrain_nodes = self.stats.terrain_triangles = 0
            return 0
        inst = np.asarray(nodes, dtype="f4").reshape(-1, 3)
        inst = np.column_stack([inst, 4.0 + 0.15 * inst[:, 2] * dx]).astype("f4")
        # near to far, so the depth test throws away hidden terrain before it is shaded
        half = 0.5 * self.GRID * inst[:, 2]
        dn = t.origin_ne_m[0] + (inst[:, 0] + half) * dx - view.eye_ned_m[0]
        de = t.origin_ne_m[1] + (inst[:, 1] + half) * dx - view.eye_ned_m[1]
        inst = inst[np.argsort(dn * dn + de * de, kind="stable")]
        zmin = self.lowest_ground(inst)
        variant = node_variants(inst, zmin, self.GRID, t, airfield)
        used = [v for i, v in enumerate(VARIANTS) if np.any(variant == i)]
        f, _ = airfield.axes()
        for v in used:
            p = self.progs[v]
            set_scene(p, m_proj, view.m_view, common)
            set_uniform(p, "u_grid", (t.origin_ne_m[0], t.origin_ne_m[1], t.spacing_m))
            set_uniform(p, "u_cam_ned", tuple(view.eye_ned_m))
            set_uniform(p, "u_water_m", t.water_level_m)
            set_uniform(p, "u_rwy", (airfield.north_m, airfield.east_m, f[0], f[1]))
            set_uniform(p, "u_rwy_dim", (airfield.length_m / 2, airfield.width_m / 2, 75.0, 7.5))
            set_uniform(p, "u_height", 0)
            set_uniform(p, "u_normal", 1)
            set_uniform(p, "u_noise", 3)
            if shadow is not None:
                shadow.bind(p)
        self.height_tex.use(0)
        self.normal_tex.use(1)
        self.noise_tex.use(3)
        k = 0
        skirts = skirt_edges(inst, self.GRID, self.root_cells)
        for v in used:
            mine = variant == VARIANTS.index(v)
            group = inst[mine]
            # a few draw calls per frame in all (llvmpipe holds the GIL inside one: shorter calls
            # let the physics thread in between)
            n_parts = max(1, int(round(self.n_chunks * len(group) / len(inst))))
            for part in np.array_split(group, n_parts):
                if len(part) == 0 or k >= len(self.insts):
                    continue
                buf = self.insts[k]
                buf.orphan(4096 * 16)      # a fresh store: never wait for last frame's draw
                buf.write(np.ascontiguousarray(part).tobytes())
                self.vaos[(v, k)].render(vertices=self.n_grid_indices, instances=len(part))
                k += 1
            hang = skirts[mine]
            rows = np.nonzero(hang)
            if len(rows[0]):
                sk = np.column_stack([group[rows[0]], rows[1].astype("f4")]).astype("f4")
                buf = self.skirt_insts[v]
                buf.orphan(4 * 4096 * 20)
                buf.write(np.ascontiguousarray(sk).tobytes())
                self.skirt_vaos[v].render(vertices=self.n_skirt_indices, first=self.n_grid_indices, instances=len(sk))
        self.stats.skirts = int(skirts.sum())
        self.stats.terrain_nodes = len(nodes)
        self.stats.terrain_triangles = len(nodes) * 2 * self.GRID ** 2 + self.stats.skirts * 2 * self.GRID
        return self.stats.terrain_triangles
