"""What the air and the ground show of a flight: exhaust smoke, muzzle flashes and gun smoke,
hit sparks and falling debris, an aircraft breaking up, dust at touchdown and on the take-off
run, wingtip vapour in a hard pull, contrails high up, a jet's afterburner flame.

Render-side state only: the emitters read what the physics publishes (the player's
snapshot and pose, the combat frame) and the aircraft's look (exhaust stubs, nozzles, wing
tips, gun muzzles, in body axes); particles live in one numpy pool, integrate their own
drift, growth and fading, and are drawn as camera-facing soft quads, the smoke and dust
blended far to near, the fire, flashes and sparks added on top. Nothing here reaches back
into the physics.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..runtime.handoff import dcm
from .glutil import program, see_through, set_scene, set_uniform

MAX_PARTICLES = 6000
CONTRAIL_ALT_M = 8500.0        # persistent contrails above about 8.5 km (ambient below about -40 C)
VAPOUR_G = 4.5                 # wingtip vapour in pulls harder than this (a humid day's threshold)


@dataclass(frozen=True)
class Kind:
    rgba: tuple                # at birth
    size_m: float              # at birth
    growth_ms: float           # m/s of size
    life_s: float
    additive: bool = False
    gravity: float = 0.0       # of g (debris falls, smoke rises a little: negative)
    drag_per_s: float = 0.5    # how fast it loses its speed in the air
    fade_in_s: float = 0.0


KINDS = {
    "exhaust": Kind((0.38, 0.39, 0.42, 0.16), 0.25, 0.9, 1.4),
    "gunsmoke": Kind((0.75, 0.75, 0.75, 0.30), 0.4, 2.0, 1.2, drag_per_s=2.0),
    "flash": Kind((1.0, 0.85, 0.45, 1.0), 0.8, 0.0, 0.05, additive=True),
    "spark": Kind((1.0, 0.75, 0.35, 1.0), 0.25, -0.2, 0.35, additive=True, gravity=1.0, drag_per_s=1.5),
    "debris": Kind((0.12, 0.12, 0.12, 0.95), 0.35, 0.0, 6.0, gravity=1.0, drag_per_s=0.3),
    "fireball": Kind((1.0, 0.55, 0.15, 0.9), 6.0, 14.0, 1.1, additive=True, drag_per_s=2.0),
    "blast_smoke": Kind((0.12, 0.11, 0.10, 0.65), 7.0, 5.0, 9.0, gravity=-0.02, drag_per_s=1.2, fade_in_s=0.3),
    "dust": Kind((0.55, 0.48, 0.36, 0.40), 1.0, 3.0, 2.5, drag_per_s=1.5, fade_in_s=0.1),
    "vapour": Kind((1.0, 1.0, 1.0, 0.45), 0.35, 0.4, 0.6, drag_per_s=0.0),
    "contrail": Kind((1.0, 1.0, 1.0, 0.55), 1.5, 0.9, 25.0, drag_per_s=0.0, fade_in_s=0.5),
    "glow": Kind((1.0, 0.55, 0.25, 0.7), 1.0, 0.0, 0.001, additive=True, drag_per_s=0.0),   # this frame only
}
KIND_NAMES = list(KINDS)


class Particles:
    """The pool: world positions (NED), velocities, birth times, kinds."""

    def __init__(self, capacity: int = MAX_PARTICLES):
        self.pos = np.zeros((capacity, 3))
        self.vel = np.zeros((capacity, 3))
        self.born = np.full(capacity, -1e9)
        self.dies = np.full(capacity, -1e9)       # born + the kind's life: when it is gone
        self.kind = np.zeros(capacity, dtype=np.int64)
        self.scale = np.ones(capacity)
        self.next = 0
        self.capacity = capacity
        self.life = np.array([KINDS[k].life_s for k in KIND_NAMES])
        self.drag = np.array([KINDS[n].drag_per_s for n in KIND_NAMES])
        self.gravity = np.array([KINDS[n].gravity for n in KIND_NAMES])

    def clear(self):
        self.born[:] = -1e9
        self.dies[:] = -1e9

    def emit(self, kind: str, pos, vel, t_s: float, scale=1.0):
        pos = np.atleast_2d(np.asarray(pos, dtype=np.float64))
        n = len(pos)
        if n == 0:
            return
        vel = np.broadcast_to(np.asarray(vel, dtype=np.float64), pos.shape)
        idx = (self.next + np.arange(n)) % self.capacity
        self.next = int((self.next + n) % self.capacity)
        self.pos[idx] = pos
        self.vel[idx] = vel
        self.born[idx] = t_s
        self.kind[idx] = KIND_NAMES.index(kind)
        self.dies[idx] = t_s + self.life[self.kind[idx]]
        self.scale[idx] = np.broadcast_to(np.asarray(scale, dtype=np.float64), (n,))

    def alive(self, t_s: float) -> np.ndarray:
        return np.nonzero((self.born <= t_s) & (t_s < self.dies))[0]

    def step(self, dt: float, t_s: float):
        """Drift, drag and gravity over dt: the particles alive at t_s (the dead are not worth
        moving, and most of the pool is dead)."""
        if dt <= 0.0:
            return
        i = self.alive(t_s)
        k = self.kind[i]
        vel = self.vel[i] * np.exp(-self.drag[k] * dt)[:, None]
        vel[:, 2] += 9.81 * self.gravity[k] * dt
        self.vel[i] = vel
        self.pos[i] += vel * dt


class Effects:
    """The emitters for the player's aircraft (and the opponent's destruction), and the drawing."""

    def __init__(self, ctx, model=None, cg_m=None, muzzles=None):
        self.ctx = ctx
        self.p = Particles()
        self.prog = program(ctx, "particle_vs.glsl", "particle_fs.glsl")
        self.flame_prog = program(ctx, "flame_vs.glsl", "flame_fs.glsl")
        self.buf = ctx.buffer(reserve=MAX_PARTICLES * 6 * 10 * 4, dynamic=True)
        self.vao = ctx.vertex_array(self.prog, [(self.buf, "3f 2f 4f 1f", "in_pos", "in_uv", "in_rgba", "in_soft")])
        self.flame_buf = ctx.buffer(reserve=8 * 18 * 6 * 4, dynamic=True)
        self.flame_vao = ctx.vertex_array(self.flame_prog, [(self.flame_buf, "3f 2f 1f", "in_pos", "in_uv", "in_heat")])
        self.model = model
        self.cg = np.zeros(3) if cg_m is None else np.asarray(cg_m, dtype=np.float64)
        self.muzzles = np.zeros((0, 3)) if muzzles is None else np.asarray(muzzles, dtype=np.float64)
        self.t = None
        self._last = {}
        self._was = {}
        self.drawn = 0

    # ------------------------------------------------------------------ emitters
    def _every(self, key, t, rate):
        last = self._last.get(key)
        if last is not None and t - last < 1.0 / rate:
            return False
        self._last[key] = t
        return True

    def _world(self, pts_body, R, pos):
        return np.asarray(pos, dtype=np.float64) + (np.asarray(pts_body, dtype=np.float64).reshape(-1, 3) - self.cg) @ R.T

    def update(self, t_s: float, pose=None, frame=None, opponent_view=None, opponent_cg=None):
        """Advance to t_s and emit what this moment shows."""
        if self.t is not None and t_s < self.t - 1e-6:
            self.p.clear()              # a reset: time went back
            self._was = {}
        dt = 0.0 if self.t is None else min(max(t_s - self.t, 0.0), 0.1)
        self.t = t_s
        self.p.step(dt, t_s)
        if pose is not None:
            self._player(t_s, pose, frame)
        if frame is not None:
            self._combat(t_s, frame, opponent_view, opponent_cg)

    def _player(self, t, pose, frame):
        snap = pose.snapshot
        R = dcm(pose.quat_wxyz)
        pos = np.asarray(pose.position_ned_m, dtype=np.float64)
        vel = np.asarray(pose.velocity_ned_ms, dtype=np.float64)
        m = self.model
        air = vel                                  # the air carries what is left behind (no wind here)
        if m is not None and m.exhausts and snap.engine_rpm > 300.0 and self._every("exhaust", t, 12.0):
            load = max(float(snap.engine_load), 0.0)
            stubs = np.array([p for p, d in m.exhausts])
            dirs = np.array([d for p, d in m.exhausts])
            pick = stubs[:: max(len(stubs) // 4, 1)]
            out = dirs[:: max(len(stubs) // 4, 1)] @ R.T * 6.0
            self.p.emit("exhaust", self._world(pick, R, pos), air * 0.85 + out, t, 0.6 + 0.8 * load)
        alt = float(snap.altitude_m)
        if m is not None and alt > CONTRAIL_ALT_M and float(snap.tas_ms) > 60.0 and self._every("contrail", t, 20.0):
            src = [p for p, r in m.nozzles] or [p for p, d in m.exhausts[:1]] + [p for p, d in m.exhausts[-1:]]
            if src:
                self.p.emit("contrail", self._world(src, R, pos), air * 0.0, t,
                            min((alt - CONTRAIL_ALT_M) / 1500.0, 1.0))
        if m is not None and m.wingtips and float(snap.nz_g) > VAPOUR_G and self._every("vapour", t, 40.0):
            k = min((float(snap.nz_g) - VAPOUR_G) / 3.0, 1.0)
            self.p.emit("vapour", self._world(m.wingtips, R, pos), air * 0.0, t, 0.5 + k)
        # the guns
        fired = frame is not None and snap.controls.fire > 0.5 and frame.player_ammo > 0
        if fired and len(self.muzzles):
            muzz = self._world(self.muzzles, R, pos)
            self.p.emit("flash", muzz + vel * 0.012, vel, t, 0.8 + 0.5 * (int(t * 50) % 2))
            if self._every("gunsmoke", t, 15.0):
                self.p.emit("gunsmoke", muzz, vel * 0.7, t)
        # touchdown and the ground run: dust from the wheels
        on = bool(snap.on_ground)
        was = self._was.get("on_ground")
        speed = float(np.linalg.norm(vel[:2]))
        if on and (was is False) and speed > 15.0:
            self._dust(t, pos, vel, R, 14, 1.4)
        elif on and speed > 12.0 and self._every("dust", t, 8.0):
            self._dust(t, pos, vel, R, 2, 0.8 * min(speed / 40.0, 1.0))
        self._was["on_ground"] = on
        # striking the ground hard: the aircraft breaks up
        struck = int(snap.strike_index) >= 0 and float(snap.strike_speed_ms) > 20.0
        if struck and not self._was.get("struck"):
            self.explode(t, pos, vel * 0.3)
        self._was["struck"] = struck

    def _dust(self, t, pos, vel, R, n, scale):
        rng = np.random.default_rng(int(t * 1000) & 0xFFFF)
        feet = pos + rng.normal(0.0, 1.2, (n, 3)) * [1.0, 1.0, 0.0] + R[:, 0] * -2.0
        v = vel * 0.2 + rng.normal(0.0, 2.0, (n, 3)) * [1.0, 1.0, 0.3] + [0.0, 0.0, -1.0]
        self.p.emit("dust", feet, v, t, scale)

    def _combat(self, t, frame, opp, opp_cg):
        rng = np.random.default_rng(frame.tick)
        for point, kind, age in frame.hits:
            if point is None or age > 0.03:
                continue
            p = np.asarray(point, dtype=np.float64)
            self.p.emit("spark", p + rng.normal(0.0, 0.2, (6, 3)), rng.normal(0.0, 25.0, (6, 3)), t)
            if kind in ("aircraft", "player"):
                self.p.emit("debris", np.tile(p, (2, 1)), rng.normal(0.0, 8.0, (2, 3)), t, rng.uniform(0.3, 1.0, 2))
            elif kind == "burst":                     # a missile's warhead: a puff of dark smoke
                self.p.emit("blast_smoke", p + rng.normal(0.0, 1.5, (4, 3)), rng.normal(0.0, 4.0, (4, 3)), t,
                            rng.uniform(0.3, 0.5, 4))
            elif kind == "ground":                    # a missile into the ground: earth thrown up and smoke
                self.p.emit("dust", p + rng.normal(0.0, 2.0, (8, 3)) * [1.0, 1.0, 0.0],
                            rng.normal(0.0, 6.0, (8, 3)) * [1.0, 1.0, 0.5] + [0.0, 0.0, -8.0], t, rng.uniform(1.5, 3.0, 8))
                self.p.emit("blast_smoke", p + rng.normal(0.0, 1.5, (4, 3)), rng.normal(0.0, 3.0, (4, 3)) + [0.0, 0.0, -2.0],
                            t, rng.uniform(0.4, 0.7, 4))
        if opp is not None:
            alive = bool(opp.alive)
            if self._was.get("opp_alive") and not alive:
                self.explode(t, np.asarray(opp.position_ned_m, dtype=np.float64), np.zeros(3))
            self._was["opp_alive"] = alive

    def explode(self, t, pos, vel):
        """An aircraft breaking up: a fireball, black smoke and the pieces flying."""
        rng = np.random.default_rng(int(t * 997) & 0xFFFF)
        pos = np.asarray(pos, dtype=np.float64)
        self.p.emit("fireball", pos + rng.normal(0.0, 2.0, (8, 3)), vel + rng.normal(0.0, 6.0, (8, 3)), t,
                    rng.uniform(0.6, 1.3, 8))
        self.p.emit("blast_smoke", pos + rng.normal(0.0, 3.0, (10, 3)), vel * 0.5 + rng.normal(0.0, 3.0, (10, 3)), t,
                    rng.uniform(0.7, 1.4, 10))
        self.p.emit("debris", pos + rng.normal(0.0, 1.0, (40, 3)), vel + rng.normal(0.0, 18.0, (40, 3)), t,
                    rng.uniform(0.2, 1.6, 40))
        self.p.emit("spark", pos + rng.normal(0.0, 1.0, (30, 3)), vel + rng.normal(0.0, 35.0, (30, 3)), t)

    # ------------------------------------------------------------------ drawing
    def _quads(self, idx, eye, view, t):
        p = self.p
        kinds = [KINDS[KIND_NAMES[k]] for k in range(len(KIND_NAMES))]
        age = t - p.born[idx]
        kk = p.kind[idx]
        size0 = np.array([k.size_m for k in kinds])[kk]
        growth = np.array([k.growth_ms for k in kinds])[kk]
        life = p.life[kk]
        fade_in = np.array([k.fade_in_s for k in kinds])[kk]
        rgba = np.array([k.rgba for k in kinds])[kk].copy()
        size = np.maximum(size0 + growth * age, 0.05) * p.scale[idx]
        f = age / life
        a = rgba[:, 3] * (1.0 - f) ** 1.5 * np.clip(age / np.maximum(fade_in, 1e-3), 0.0, 1.0)
        a = np.where(fade_in > 0, a, rgba[:, 3] * (1.0 - f) ** 1.5)
        fire = np.array([k.additive for k in kinds])[kk]
        # fire cools as it ages: yellow to deep red
        rgba[:, 1] = np.where(fire, rgba[:, 1] * (1.0 - 0.6 * f), rgba[:, 1])
        rgba[:, 2] = np.where(fire, rgba[:, 2] * (1.0 - f), rgba[:, 2])
        rgba[:, 3] = a
        rel = p.pos[idx] - eye
        right = np.asarray(view.right, dtype=np.float64)
        up = -np.asarray(view.down, dtype=np.float64)
        dist = np.linalg.norm(rel, axis=1)
        size = np.maximum(size, dist * 0.003)            # never thinner than about a pixel
        corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1)], dtype=np.float64)
        out = np.empty((len(idx), 6, 10), dtype=np.float32)
        half = 0.5 * size
        for c, (cx, cy) in enumerate(corners):
            out[:, c, 0:3] = rel + (right * cx + up * cy) * half[:, None]
            out[:, c, 3] = cx
            out[:, c, 4] = cy
        out[:, :, 5:9] = rgba[:, None, :]
        out[:, :, 9] = np.where(KIND_NAMES.index("debris") == kk, 0.0, 1.0)[:, None]
        return out, fire, dist

    def draw(self, view, m_proj, common, t_s: float, flames=()) -> int:
        """The particles (smoke blended far to near, then fire added on top) and the jets' flames."""
        if self.t is None:
            return 0
        t = self.t
        idx = self.p.alive(t)
        tris = 0
        ctx = self.ctx
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        if len(idx):
            quads, fire, dist = self._quads(idx, eye, view, t)
            pr = self.prog
            set_scene(pr, m_proj, view.m_view, common)
            for additive in (False, True):        # smoke and dust, then sparks and flashes (added light)
                sel = np.nonzero(fire == additive)[0]
                if len(sel) == 0:
                    continue
                sel = sel[np.argsort(-dist[sel], kind="stable")]
                data = np.ascontiguousarray(quads[sel].reshape(-1, 10))
                self.buf.orphan(MAX_PARTICLES * 6 * 10 * 4)
                self.buf.write(data.tobytes())
                set_uniform(pr, "u_additive", 1.0 if additive else 0.0)
                with see_through(ctx, additive):
                    self.vao.render(vertices=len(data))
                tris += len(data) // 3
        for fl in flames:                 # (nozzles in the world, the jet's axis aft, afterburner, spool)
            tris += self._flames(view, m_proj, *fl)
        self.drawn = tris
        return tris

    def nozzle_glow(self, flames) -> None:
        """The hot nozzles seen from behind (where the plume's planes are edge-on): a glow at each
        exit, brighter and larger with the afterburner; emitted for this frame only."""
        if self.t is None:
            return
        for noz, axis, ab, spool in flames:
            if ab <= 0.02 and spool <= 0.3:
                continue
            for c, r in noz:
                self.p.emit("glow", np.asarray(c) + np.asarray(axis) * 0.3, np.zeros(3), self.t,
                            1.5 * r * (0.55 + 0.9 * ab) + 0.1 * spool)

    def _flames(self, view, m_proj, nozzles_world, axis_world, strength, spool) -> int:
        """The jets' flames: crossed quads along each nozzle's axis, a blue-white core and orange
        plume with shock diamonds (additive); only a faint heat glow at military power."""
        if len(nozzles_world) == 0 or (strength <= 0.02 and spool <= 0.05):
            return 0
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        ax = np.asarray(axis_world, dtype=np.float64)
        length = 1.0 + 5.5 * strength
        verts = []
        for c, r in nozzles_world:
            c = np.asarray(c, dtype=np.float64) - eye
            ref = np.array([0.0, 0.0, 1.0]) if abs(ax[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
            e1 = np.cross(ax, ref)
            e1 /= np.linalg.norm(e1)
            e2 = np.cross(ax, e1)
            for k in range(3):
                a = math.pi * k / 3
                w = (e1 * math.cos(a) + e2 * math.sin(a)) * r * 0.9
                p0, p1 = c - w, c + w
                q0, q1 = p0 + ax * length, p1 + ax * length
                for (p, u, v) in ((p0, 0.0, -1.0), (p1, 0.0, 1.0), (q1, 1.0, 1.0), (p0, 0.0, -1.0), (q1, 1.0, 1.0),
                                  (q0, 1.0, -1.0)):
                    verts.append((*p, u, v, strength))
        data = np.array(verts, dtype="f4")
        self.flame_buf.orphan(8 * 18 * 6 * 4)
        self.flame_buf.write(data.tobytes())
        pr = self.flame_prog
        set_scene(pr, m_proj, view.m_view)
        set_uniform(pr, "u_time", float(self.t or 0.0))
        with see_through(self.ctx, additive=True):
            self.flame_vao.render(vertices=len(data))
        return len(data) // 3

    def release(self):
        for o in (self.vao, self.buf, self.prog, self.flame_vao, self.flame_buf, self.flame_prog):
            o.release()
