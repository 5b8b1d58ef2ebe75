"""Drawing the air combat: the other aircraft, tracers, hit flashes and the balloons; missiles (a
body, the motor's plume, a smoke trail kept here by serial number), flares and chaff (issue 35).

Reads only immutable data: the ``CombatFrame`` pair the physics thread publishes
(flightsim.world.combat) and the player's interpolated Pose. The opponent is drawn with
the same generated mesh as any aircraft (aircraft_mesh.build from its data, tinted olive
drab so friend and foe differ), interpolated between the two frames with the player's
interpolation fraction (the frames are timed like the snapshots). Tracers are thin
camera-facing quads along each tracer round's path over the last 30 ms (a streak, as the
eye sees a burning tracer), hits are short flashes, balloons low-poly spheres.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from ..runtime.handoff import dcm
from ..world.combat import interpolate_view
from . import aircraft_mesh
from .glutil import mat4, program, set_scene, set_uniform, translate

BANDIT_TINT = np.array([0.55, 0.62, 0.42])      # olive drab over the generated white
TRACER_RGBA = (1.0, 0.78, 0.35, 1.0)
FLASH_RGBA = (1.0, 0.95, 0.7, 1.0)
TRACER_HEAD_RGBA = (1.0, 0.92, 0.6, 1.0)
STREAK_S = 0.06                                 # tracer streak, seconds of flight (the eye's persistence)
TRACER_WIDTH_M = 0.22
MAX_QUADS = 4096


def sphere_mesh(n_lat=8, n_lon=12, colour=(0.78, 0.79, 0.80)) -> np.ndarray:
    """Unit sphere for the mesh program (position, normal, colour, part)."""
    b = aircraft_mesh._Builder()
    for i in range(n_lat):
        t0, t1 = math.pi * i / n_lat, math.pi * (i + 1) / n_lat
        for j in range(n_lon):
            p0, p1 = 2 * math.pi * j / n_lon, 2 * math.pi * (j + 1) / n_lon
            pts = [np.array([math.sin(t) * math.cos(p), math.sin(t) * math.sin(p), -math.cos(t)])
                   for t, p in ((t0, p0), (t1, p0), (t1, p1), (t0, p1))]
            b.tri(pts[0], pts[1], pts[2], colour, 0, n=None)
            b.tri(pts[0], pts[2], pts[3], colour, 0, n=None)
    v = b.array()
    v[:, 3:6] = v[:, 0:3] / np.linalg.norm(v[:, 0:3], axis=1, keepdims=True)   # smooth normals
    return v


def streak_quads(points_a, points_b, eye, width) -> np.ndarray:
    """Camera-facing quads (two triangles each) from a[i] to b[i], positions relative to the
    eye: (n * 6, 3)."""
    a = np.asarray(points_a, dtype=np.float64) - eye
    b = np.asarray(points_b, dtype=np.float64) - eye
    d = b - a
    side = np.cross(d, a)
    n = np.linalg.norm(side, axis=1, keepdims=True)
    # at least 6 mrad wide: a far tracer stays a couple of pixels wide even in the low preset's
    # half-resolution scene (2.7 mrad a pixel at 720p), where 3 mrad fell between the pixels
    # (a burning tracer's glow is seen well beyond the size of the bullet)
    half = 0.5 * np.maximum(width, 0.006 * np.linalg.norm(a, axis=1, keepdims=True))
    side = side / np.maximum(n, 1e-9) * half
    v = np.empty((len(a), 6, 3))
    v[:, 0] = a - side
    v[:, 1] = a + side
    v[:, 2] = b + side
    v[:, 3] = a - side
    v[:, 4] = b + side
    v[:, 5] = b - side
    return v.reshape(-1, 3)


def billboards(centres, sizes, eye) -> np.ndarray:
    """Camera-facing squares (two triangles each) around each centre, relative to the eye:
    (n * 6, 3)."""
    c = np.asarray(centres, dtype=np.float64).reshape(-1, 3) - eye
    d = c / np.maximum(np.linalg.norm(c, axis=1, keepdims=True), 1e-6)
    side = np.cross(d, np.array([0.0, 0.0, -1.0]))
    bad = np.linalg.norm(side, axis=1) < 1e-3
    side[bad] = (0.0, 1.0, 0.0)
    side /= np.linalg.norm(side, axis=1, keepdims=True)
    up = np.cross(side, d)
    h = 0.5 * np.asarray(sizes, dtype=np.float64).reshape(-1, 1)
    s, u = side * h, up * h
    v = np.empty((len(c), 6, 3))
    v[:, 0] = c - s - u
    v[:, 1] = c + s - u
    v[:, 2] = c + s + u
    v[:, 3] = c - s - u
    v[:, 4] = c + s + u
    v[:, 5] = c - s + u
    return v.reshape(-1, 3)


class CombatRenderer:
    """GL resources for the combat; ``update`` each frame, then the Renderer calls ``draw``."""

    def __init__(self, ctx, renderer, opponent_compiled=None):
        self.ctx = ctx
        self.mesh_prog = renderer.mesh_prog
        self.tracer_prog = program(ctx, "tracer_vs.glsl", "tracer_fs.glsl")
        self.opp = None
        self._opp_t = None
        self._opp_parts = None          # (key, (drawer, model, parts)): this frame's, see _opponent_parts
        self.opponent_compiled = opponent_compiled
        self.repaint(renderer)
        if opponent_compiled is not None and self.opp is None:
            m = aircraft_mesh.build(opponent_compiled)
            v = m.vertices.copy()
            v[:, 6:9] *= BANDIT_TINT
            vao = ctx.vertex_array(self.mesh_prog, [(ctx.buffer(v.astype("f4").tobytes()), "3f 3f 3f 1f",
                                                     "in_position", "in_normal", "in_color", "in_part")])
            from ..world.combat import gun_muzzles
            self.opp = {"mesh": m, "vao": vao, "cg": np.asarray(opponent_compiled.cg_m, dtype=np.float64),
                        "muzzles": gun_muzzles(opponent_compiled)}
        sv = sphere_mesh()
        self.sphere_vao = ctx.vertex_array(self.mesh_prog, [(ctx.buffer(sv.astype("f4").tobytes()), "3f 3f 3f 1f",
                                                             "in_position", "in_normal", "in_color", "in_part")])
        self.sphere_tris = len(sv) // 3
        self.quad_buf = ctx.buffer(reserve=MAX_QUADS * 6 * 7 * 4, dynamic=True)
        self.quad_vao = ctx.vertex_array(self.tracer_prog, [(self.quad_buf, "3f 4f", "in_position", "in_color")])
        self._identity = np.tile(np.eye(4, dtype="f4"), (aircraft_mesh.MAX_PARTS, 1, 1)).tobytes()
        self.frame = None
        self.opponent_view = None
        self.trails: dict = {}          # missile serial -> its smoke trail's points (NED), newest last
        self._trail_tick = None
        self.drawn_tracers = 0
        self.opponent_drawn = False
        self.net_missiles = np.zeros((0, 9))     # the game sets the session's frame's munitions here each frame

    def update(self, frames, pose):
        """The frames to draw for this render: the opponent between the two frames at the
        player's interpolation fraction when they are the same two ticks as the pose's."""
        prev, curr = frames
        self.frame = curr
        self.opponent_view = None
        if curr is not None and curr.tick != self._trail_tick:
            self._trail_tick = curr.tick
            self.trails = missile_trails(self.trails, curr.missiles)
        if curr is None or curr.opponent is None:
            return
        alpha = 1.0
        if pose is not None and prev is not None and curr.tick == pose.snapshot.tick and prev.tick == curr.tick - 1:
            alpha = pose.alpha
        self.opponent_view = interpolate_view(prev.opponent if prev is not None else None, curr.opponent, alpha)

    shadow = None            # the renderer's SunShadow (the opponent receives the sun's shadows too)

    def repaint(self, renderer) -> None:
        """The opponent's look in the other side's livery from the player's (again, after the
        player's livery changed)."""
        oc = self.opponent_compiled
        if oc is None:
            return
        from ..world.combat import gun_muzzles
        from .aircraft_draw import AircraftDrawer
        from .model import looks
        mine = renderer.aircraft.get("livery")
        lk = looks.look(oc, renderer.quality, not_side=mine.side if mine is not None else "allied")
        if lk is None:
            return
        if self.opp is not None and "drawer" in self.opp:
            self.opp["drawer"].release()
        cg = np.asarray(oc.cg_m, dtype=np.float64)
        self.opp = {"mesh": lk.model, "drawer": AircraftDrawer(self.ctx, lk, cg, low=renderer.quality == "low",
                                                               shadow_defines=renderer.shadow.defines(),
                                                               anisotropy=renderer.q.get("anisotropy", 1.0)),
                    "cg": cg, "muzzles": gun_muzzles(oc)}

    def _opponent_parts(self, view):
        """The opponent's drawer, model matrix and part matrices for this frame's view: worked
        out once a frame (the shadow map, the skin and the glass all draw with them)."""
        o = self.opponent_view
        key = (self.frame.tick if self.frame is not None else None, tuple(view.eye_ned_m), tuple(o.position_ned_m),
               tuple(o.quat_wxyz), id(self.opp["drawer"]))
        if self._opp_parts is not None and self._opp_parts[0] == key:
            return self._opp_parts[1]
        self._opp_parts = (key, self._opponent_pose(view))
        return self._opp_parts[1]

    def _opponent_pose(self, view):
        o = self.opponent_view
        dr = self.opp["drawer"]
        t = self.frame.tick * 0.02 if self.frame is not None else 0.0
        dt = 0.0 if self._opp_t is None or t < self._opp_t else min(t - self._opp_t, 0.1)
        self._opp_t = t
        dr.spin(o.engine_rpm, dt)
        model = dr.model_matrix(o.position_ned_m, o.quat_wxyz, view.eye_ned_m)
        parts = dr.parts(o.deflections_rad, o.airbrake, o.gear_up, o.slat_positions, o.damage, o.stores_on)
        return dr, model, parts

    def draw_depth(self, shadow, view):
        """The opponent into the sun's shadow map, when it is near enough to be in it."""
        self.shadow = shadow
        o = self.opponent_view
        if o is None or not o.visible or self.opp is None or "drawer" not in self.opp:
            return
        dr, model, parts = self._opponent_parts(view)
        clip = shadow.begin_matrix() if hasattr(shadow, "begin_matrix") else None
        if clip is not None:
            dr.draw_depth(shadow.prog, clip, model, parts)

    def draw_glass(self, view, m_proj, common) -> int:
        o = self.opponent_view
        if o is None or not o.visible or self.opp is None or "drawer" not in self.opp:
            return 0
        dr, model, parts = self._opponent_parts(view)
        return dr.draw_glass(view, m_proj, common, model, parts)

    def draw(self, view, m_proj, common) -> int:
        f = self.frame
        if f is None:
            return 0
        tris = 0
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        p = self.mesh_prog
        set_scene(p, m_proj, view.m_view, common)
        # --- the opponent
        self.opponent_drawn = False
        o = self.opponent_view
        if o is not None and o.visible and self.opp is not None and "drawer" in self.opp:
            dr, model, parts = self._opponent_parts(view)
            tris += dr.draw(view, m_proj, common, model, parts, shadow=self.shadow)
            self.opponent_drawn = True
            for k, v in common.items():          # the drawer's program took them; the mesh program next
                set_uniform(p, k, v)
        elif o is not None and o.visible and self.opp is not None:
            mesh = self.opp["mesh"]
            R = dcm(o.quat_wxyz)
            set_uniform(p, "m_model", mat4(R, np.asarray(o.position_ned_m) - eye) @ translate(-self.opp["cg"]))
            parts = mesh.part_transforms(o.deflections_rad, o.airbrake, o.gear_up, o.slat_positions, o.damage,
                                         o.stores_on)
            set_uniform(p, "u_parts", np.ascontiguousarray(np.transpose(parts, (0, 2, 1)).astype("f4")).tobytes())
            set_uniform(p, "u_gloss", 0.4)
            self.opp["vao"].render()
            tris += mesh.n_triangles
            self.opponent_drawn = True
        # --- balloons
        t = f.targets
        if len(t):
            set_uniform(p, "u_parts", self._identity)
            set_uniform(p, "u_gloss", 0.6)
            for row in t:
                if row[4] < 0.5:
                    continue
                m = translate(row[:3] - eye) @ np.diag([row[3], row[3], row[3], 1.0])
                set_uniform(p, "m_model", m)
                self.sphere_vao.render()
                tris += self.sphere_tris
        # --- tracers and hit flashes: unlit quads
        quads = []
        b = f.bullets
        tr = b[b[:, 6] > 0.5] if len(b) else b
        if len(tr):
            head = tr[:, 0:3]
            tail = head - tr[:, 3:6] * STREAK_S
            v = streak_quads(tail, head, eye, TRACER_WIDTH_M)
            quads.append(np.hstack([v, np.tile(TRACER_RGBA, (len(v), 1))]))
            # the burning head: a point of light that shows even end-on (a tracer coming
            # toward you, or going away along your line of sight)
            dist = np.linalg.norm(head - eye, axis=1)
            v = billboards(head, np.maximum(0.6, 0.006 * dist), eye)
            quads.append(np.hstack([v, np.tile(TRACER_HEAD_RGBA, (len(v), 1))]))
        # muzzle flashes of an opponent that is firing (flickering frame to frame)
        if o is not None and o.visible and o.firing and self.opp is not None and len(self.opp["muzzles"]):
            R = dcm(o.quat_wxyz)
            m = np.asarray(o.position_ned_m) + (self.opp["muzzles"] - self.opp["cg"]) @ R.T
            flick = 0.7 + 0.6 * (f.tick % 2)
            dist = np.linalg.norm(m - eye, axis=1)
            v = billboards(m, np.maximum(0.9, 0.006 * dist) * flick, eye)
            quads.append(np.hstack([v, np.tile(FLASH_RGBA, (len(v), 1))]))
        self.drawn_tracers = len(tr)
        for point, kind, age in f.hits:
            if point is None:
                continue
            v = billboards([point], [1.5 + 3.0 * age], eye)
            rgba = (FLASH_RGBA[0], FLASH_RGBA[1] * (1 - 0.6 * age), FLASH_RGBA[2] * (1 - age), 1.0)
            quads.append(np.hstack([v, np.tile(rgba, (len(v), 1))]))
        quads += weapon_quads(f, self.trails, eye, self.net_missiles)
        if quads:
            q = np.concatenate(quads)[: MAX_QUADS * 6].astype("f4")
            tp = self.tracer_prog
            set_scene(tp, m_proj, view.m_view, common)
            self.quad_buf.orphan(MAX_QUADS * 6 * 7 * 4)
            self.quad_buf.write(q.tobytes())
            self.ctx.disable(self.ctx.CULL_FACE)
            self.quad_vao.render(vertices=len(q))
            tris += len(q) // 3
        return tris


TRAIL_POINTS = 150                              # 3 s of smoke behind a missile (a point a tick)
SMOKE_RGBA = (0.86, 0.86, 0.84, 1.0)
PLUME_RGBA = (1.0, 0.72, 0.3, 1.0)
MISSILE_RGBA = (0.75, 0.76, 0.78, 1.0)
FLARE_RGBA = (1.0, 0.93, 0.75, 1.0)
CHAFF_RGBA = (0.7, 0.72, 0.75, 1.0)


def missile_trails(trails: dict, missiles) -> dict:
    """Each flying missile's smoke trail with its newest point (its motor burning), by serial; the
    trails of missiles gone are dropped."""
    out = {}
    for m in missiles:
        key = int(m[8])
        pts = trails.get(key, [])
        if m[6] > 0.5:
            pts = (pts + [np.array(m[0:3])])[-TRAIL_POINTS:]
        out[key] = pts
    return out


def weapon_quads(frame, trails: dict, eye, net_missiles=None) -> list:
    """Missiles (a body, the motor's plume while it burns, the smoke trail), flares and chaff as
    camera-facing quads (position, colour) for the tracer program; ``net_missiles``: other players'
    missiles in flight (net/munitions.py, the same columns), bodies and plumes."""
    out = []
    if net_missiles is not None and len(net_missiles):
        out += weapon_quads(SimpleNamespace(missiles=net_missiles), {}, eye)
    ms = getattr(frame, "missiles", None)
    if ms is not None and len(ms):
        head = ms[:, 0:3]
        v = ms[:, 3:6]
        tail = head - v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1.0) * 3.0      # a 3 m body
        q = streak_quads(tail, head, eye, 0.2)
        out.append(np.hstack([q, np.tile(MISSILE_RGBA, (len(q), 1))]))
        burning = ms[:, 6] > 0.5
        if np.any(burning):
            dist = np.linalg.norm(tail[burning] - eye, axis=1)
            q = billboards(tail[burning], np.maximum(1.2, 0.005 * dist), eye)
            out.append(np.hstack([q, np.tile(PLUME_RGBA, (len(q), 1))]))
        for pts in trails.values():
            if len(pts) >= 2:
                a = np.array(pts[:-1])
                b = np.array(pts[1:])
                q = streak_quads(a, b, eye, 1.5)
                out.append(np.hstack([q, np.tile(SMOKE_RGBA, (len(q), 1))]))
    ds = getattr(frame, "decoys", None)
    if ds is not None and len(ds):
        dist = np.linalg.norm(ds[:, 0:3] - eye, axis=1)
        flare = ds[:, 3] < 0.5
        if np.any(flare):
            size = np.maximum(1.5, 0.008 * dist[flare]) * (1.0 - 0.6 * ds[flare, 4])
            q = billboards(ds[flare, 0:3], size, eye)
            out.append(np.hstack([q, np.tile(FLARE_RGBA, (len(q), 1))]))
        if np.any(~flare):
            q = billboards(ds[~flare, 0:3], np.maximum(2.0, 0.004 * dist[~flare]), eye)
            out.append(np.hstack([q, np.tile(CHAFF_RGBA, (len(q), 1))]))
    return out


def hud_text(frame) -> str:
    """One line for the HUD's readout: ammunition, score, range."""
    if frame is None:
        return ""
    s = f"AMMO {frame.player_ammo}  HITS {frame.hits_scored}  TAKEN {frame.hits_taken}"
    if frame.status:
        s += "  " + frame.status
    return s
