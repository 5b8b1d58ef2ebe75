"""What a damaged aircraft trails: coolant vapour, oil smoke, a fuel mist, fire and smoke.

The physics says what leaks or burns where (``Snapshot.smoke`` for the player,
``CombatFrame.opponent_smoke`` for the AI: (kind, body point, strength) each, from
physics.damage.smoke_points); this module leaves puffs in the air behind the aircraft at
those points' world positions, ages them (they grow and fade where they were left: the air
carries them, the aircraft flies on) and draws them as soft round camera-facing puffs
(shaders/smoke_*.glsl), blended, after everything opaque. Render-side state only (where
the puffs were left); nothing here reaches back into the physics.
"""
from __future__ import annotations

import numpy as np

from ..runtime.handoff import dcm
from .combat_draw import billboards
from .glutil import set_scene

# kind: (rgba at birth, size at birth m, growth m/s, life s, puffs per second)
PUFFS = {
    "coolant": ((1.00, 1.00, 1.00, 0.55), 0.8, 2.0, 5.0, 30.0),
    "oil": ((0.35, 0.37, 0.42, 0.55), 0.8, 1.8, 6.0, 30.0),
    "fuel": ((0.95, 0.96, 1.00, 0.30), 0.5, 1.2, 3.0, 30.0),
    "fire": ((1.00, 0.62, 0.18, 0.95), 1.0, 1.5, 0.6, 40.0),
    "smoke": ((0.10, 0.10, 0.10, 0.60), 1.2, 2.5, 7.0, 25.0),
    "engine": ((0.18, 0.18, 0.19, 0.50), 0.7, 2.0, 4.0, 25.0),
}
UV = np.array([(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)])   # billboards' corners
MAX_PUFFS = 6000


class Trails:
    """Puffs left behind by any number of aircraft (keyed by who trails them)."""

    def __init__(self):
        self.pos = np.zeros((MAX_PUFFS, 3))
        self.born = np.full(MAX_PUFFS, -1e9)
        self.kind = np.zeros(MAX_PUFFS, dtype=np.int64)
        self.strength = np.zeros(MAX_PUFFS)
        self.next = 0
        self.kinds = list(PUFFS)
        self._last: dict = {}          # (who, kind, point) -> time of its last puff

    def clear(self):
        self.born[:] = -1e9
        self._last.clear()

    def emit(self, who, sources, position_ned_m, quat_wxyz, cg_m, t_s: float):
        """Leave puffs for an aircraft's sources (kind, body point, strength) at time t_s."""
        if not sources:
            return
        R = dcm(quat_wxyz)
        for kind, point, strength in sources:
            kinds = ("fire", "smoke") if kind == "fire" else (kind,)
            for kd in kinds:
                rate = PUFFS[kd][4] * (0.4 + 0.6 * strength)
                key = (who, kd, tuple(point))
                last = self._last.get(key)
                if last is not None and t_s - last < 1.0 / rate:
                    continue
                self._last[key] = t_s
                i = self.next
                self.next = (i + 1) % MAX_PUFFS
                self.pos[i] = np.asarray(position_ned_m) + R @ (np.asarray(point) - cg_m)
                self.born[i] = t_s
                self.kind[i] = self.kinds.index(kd)
                self.strength[i] = strength

    def quads(self, eye, t_s: float) -> np.ndarray:
        """(n * 6, 9) vertices (position relative to the eye, rgba, uv)."""
        age = t_s - self.born
        out = []
        for ki, kd in enumerate(self.kinds):
            rgba, size0, grow, life, _ = PUFFS[kd]
            sel = (self.kind == ki) & (age >= 0.0) & (age < life)
            if not np.any(sel):
                continue
            a = age[sel]
            size = (size0 + grow * a) * (0.5 + 0.5 * self.strength[sel])
            v = billboards(self.pos[sel], size, eye)
            col = np.empty((len(a), 4))
            col[:, 0:3] = rgba[0:3]
            col[:, 3] = rgba[3] * (1.0 - a / life)
            if kd == "fire":                    # flame: yellow at the root, red as it goes
                col[:, 1] *= 1.0 - 0.5 * a / life
            out.append(np.hstack([v, np.repeat(col, 6, axis=0), np.tile(UV, (len(a), 1))]))
        if not out:
            return np.zeros((0, 9))
        q = np.concatenate(out)
        # far ones first: blended back to front (near enough, puff by puff)
        d = np.linalg.norm(q[0::6, 0:3], axis=1)
        order = np.argsort(-d)
        return q.reshape(-1, 6, 9)[order].reshape(-1, 9)


class TrailRenderer:
    """GL side: one dynamic buffer, the smoke program, alpha blending, no depth writes."""

    def __init__(self, ctx):
        from .glutil import program
        self.ctx = ctx
        self.prog = program(ctx, "smoke_vs.glsl", "smoke_fs.glsl")
        self.buf = ctx.buffer(reserve=MAX_PUFFS * 6 * 9 * 4, dynamic=True)
        self.vao = ctx.vertex_array(self.prog, [(self.buf, "3f 4f 2f", "in_position", "in_color", "in_uv")])
        self.trails = Trails()
        self.drawn = 0

    def draw(self, fbo, view, m_proj, common, t_s: float) -> int:
        q = self.trails.quads(np.asarray(view.eye_ned_m, dtype=np.float64), t_s)
        self.drawn = len(q) // 6
        if len(q) == 0:
            return 0
        ctx = self.ctx
        p = self.prog
        set_scene(p, m_proj, view.m_view, common)
        self.buf.orphan(MAX_PUFFS * 6 * 9 * 4)
        self.buf.write(q.astype("f4").tobytes())
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        ctx.disable(ctx.CULL_FACE)
        fbo.depth_mask = False              # tested against the scene, not written: puffs do not hide puffs
        self.vao.render(vertices=len(q))
        fbo.depth_mask = True
        ctx.disable(ctx.BLEND)
        return len(q) // 3
