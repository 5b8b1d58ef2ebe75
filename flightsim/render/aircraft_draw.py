"""Drawing one aircraft's look (render/model/looks.py) in GL: its painted skin, its canopy
glass and its propeller disc, moved by the pose the physics publishes.

``draw`` puts the opaque skin into the scene (depth written), ``draw_glass`` the glass and
the turning propeller's disc after everything opaque (blended, depth tested, not
written), ``draw_depth`` the skin into the sun's shadow map. The propeller's angle is the
integral of its rpm over the frames drawn (render-side state only).
"""
from __future__ import annotations

import math

import numpy as np

from ..runtime.handoff import dcm
from .glutil import mat4, program, see_through, set_scene, set_uniform, translate, vertex_array
from .model.parts import MAX_PARTS

LAYOUT = (("3f", "in_position"), ("3f", "in_normal"), ("2f", "in_uv"), ("1f", "in_part"), ("1f", "in_inside"))
DISC_RPM = 260.0            # above this the blades blur into a disc
GLASS_TINT = (0.55, 0.62, 0.66)


class AircraftDrawer:
    def __init__(self, ctx, look, cg_m, low: bool = False, shadow_defines: dict | None = None,
                 anisotropy: float = 4.0):
        self.ctx = ctx
        self.look = look
        self.model = m = look.model
        self.cg = np.asarray(cg_m, dtype=np.float64)
        self.prog = program(ctx, "aircraft_vs.glsl", "aircraft_fs.glsl", shadow_defines)
        self.glass_prog = self._program(ctx, "glass")
        self.disc_prog = program(ctx, "plate_vs.glsl", "propdisc_fs.glsl")
        self.vbo = ctx.buffer(np.ascontiguousarray(m.vertices, dtype="f4").tobytes())
        self.ibo = ctx.buffer(np.ascontiguousarray(m.indices, dtype="i4").tobytes())
        self.vao = vertex_array(ctx, self.prog, self.vbo, LAYOUT, self.ibo)
        self.depth_vao = None
        atlas = look.atlas
        if low:                     # the low preset: half the texels (the level below in the mip chain)
            a = atlas.astype(np.uint16)     # (integer sums: a float mean cost a warm start 0.16 s an aircraft)
            atlas = ((a[0::2, 0::2] + a[1::2, 0::2] + a[0::2, 1::2] + a[1::2, 1::2] + 2) >> 2).astype(np.uint8)
        self.tex = ctx.texture((atlas.shape[1], atlas.shape[0]), 4, np.ascontiguousarray(atlas).tobytes())
        self.tex.build_mipmaps()
        self.tex.filter = (ctx.LINEAR_MIPMAP_LINEAR, ctx.LINEAR)
        try:
            self.tex.anisotropy = anisotropy     # a preset's: software GL pays dearly for it
        except Exception:            # not every driver has anisotropic filtering
            pass
        self.glass_vao = None
        if len(m.glass_indices):
            self.gvbo = ctx.buffer(np.ascontiguousarray(m.glass_vertices, dtype="f4").tobytes())
            self.gibo = ctx.buffer(np.ascontiguousarray(m.glass_indices, dtype="i4").tobytes())
            self.glass_vao = vertex_array(ctx, self.glass_prog, self.gvbo,
                                          (("3f", "in_position"), ("3f", "in_normal"), ("1f", "in_part")), self.gibo)
        self.disc_vao = None
        if m.propeller is not None:
            self.disc_vao = vertex_array(ctx, self.disc_prog, ctx.buffer(_disc(m.propeller).tobytes()),
                                         (("3f", "in_position"), ("3f", "in_normal"), ("2f", "in_uv")))
        self.prop_angle = 0.0
        self.prop_rpm = 0.0
        self.flat_vao = None            # the low preset's flat shadow (made when first drawn)
        self.flat_prog = None

    @staticmethod
    def _program(ctx, name):
        """Its own programs: a drawer thrown away (release_gl on a scenario switch) takes its
        programs with it, never another drawer's."""
        return program(ctx, f"{name}_vs.glsl", f"{name}_fs.glsl")

    # ------------------------------------------------------------------ per frame
    def spin(self, engine_rpm: float, dt_s: float):
        """Turn the propeller by its rpm (the engine's times the reduction gear) over dt_s."""
        pr = self.model.propeller
        if pr is None:
            return
        self.prop_rpm = max(float(engine_rpm), 0.0) * pr["ratio"]
        self.prop_angle = (self.prop_angle + self.prop_rpm / 60.0 * 2 * math.pi * max(dt_s, 0.0)) % (2 * math.pi)

    def model_matrix(self, position_ned_m, quat_wxyz, eye_ned_m):
        R = dcm(quat_wxyz)
        return mat4(R, np.asarray(position_ned_m, dtype=np.float64) - eye_ned_m) @ translate(-self.cg)

    def parts(self, deflections_rad, airbrake, gear_up, slats, damage, stores_on, cockpit=False):
        blur = self.prop_rpm > DISC_RPM
        m = self.model
        out = m.part_transforms(deflections_rad, airbrake, gear_up, slats, damage, stores_on,
                                propeller_rad=self.prop_angle, cockpit=cockpit, hide_blades=blur)
        return np.ascontiguousarray(np.transpose(out, (0, 2, 1)).astype("f4")).tobytes()

    def draw(self, view, m_proj, common, model, parts_bytes, shadow=None, ground=(0.3, 0.34, 0.24)):
        p = self.prog
        set_scene(p, m_proj, view.m_view, common, model=model)
        set_uniform(p, "u_interior", tuple(float(c) for c in self.look.interior))
        set_uniform(p, "u_ground", tuple(float(c) for c in ground))
        set_uniform(p, "u_parts", parts_bytes)
        self.tex.use(0)
        set_uniform(p, "u_paint", 0)
        if shadow is not None:
            shadow.bind(p)
        else:
            set_uniform(p, "u_shadow_on", 0.0)
        self.vao.render()
        return self.model.n_triangles

    def draw_depth(self, shadow_prog, clip_matrix, model, parts_bytes):
        if self.depth_vao is None:
            self.depth_vao = vertex_array(self.ctx, shadow_prog, self.vbo, LAYOUT, self.ibo)
        set_uniform(shadow_prog, "m_proj", clip_matrix)
        set_uniform(shadow_prog, "m_view", np.eye(4))
        set_uniform(shadow_prog, "m_model", model)
        set_uniform(shadow_prog, "u_parts", parts_bytes)
        self.depth_vao.render()

    def draw_flat_shadow(self, view, m_proj, model, parts_bytes, sun_ned, ground_z_rel: float) -> int:
        """The skin squashed along the sun's rays onto the level ground at ground_z_rel (NED down,
        relative to the eye) in one dark shade. Its fragments all lie in that plane, so depth
        written with the test 'less' lets only the first darken a pixel (no double shadow where
        the wing and the fuselage overlap)."""
        if self.flat_vao is None:
            self.flat_prog = program(self.ctx, "flatshadow_vs.glsl", "flatshadow_fs.glsl")
            self.flat_vao = vertex_array(self.ctx, self.flat_prog, self.vbo, LAYOUT, self.ibo)
        p = self.flat_prog
        set_uniform(p, "m_proj", m_proj)
        set_uniform(p, "m_view", view.m_view)
        set_uniform(p, "m_model", model)
        set_uniform(p, "u_sun_ned", tuple(float(x) for x in sun_ned))
        set_uniform(p, "u_ground_z", float(ground_z_rel))
        set_uniform(p, "u_parts", parts_bytes)
        ctx = self.ctx
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        self.flat_vao.render()
        ctx.disable(ctx.BLEND)
        return self.model.n_triangles

    def draw_glass(self, view, m_proj, common, model, parts_bytes, inside: bool = False):
        with see_through(self.ctx):
            tris = 0
            if self.glass_vao is not None:
                g = self.glass_prog
                set_scene(g, m_proj, view.m_view, common, model=model)
                set_uniform(g, "u_tint", GLASS_TINT)
                set_uniform(g, "u_inside", 1.0 if inside else 0.0)
                set_uniform(g, "u_parts", parts_bytes)
                self.glass_vao.render()
                tris += len(self.model.glass_indices)
            pr = self.model.propeller
            if self.disc_vao is not None and self.prop_rpm > DISC_RPM * 0.6 and not inside:
                d = self.disc_prog
                R = dcm_about(pr["axis"], self.prop_angle)
                set_scene(d, m_proj, view.m_view, common, model=model @ mat4(R, pr["position"] - R @ pr["position"]))
                lv = self.look.livery
                set_uniform(d, "u_radius", float(pr["radius_m"]))
                set_uniform(d, "u_strength", float(min((self.prop_rpm - 0.6 * DISC_RPM) / (0.8 * DISC_RPM), 1.0)))
                set_uniform(d, "u_blade", tuple(float(c) for c in lv.propeller_blade))
                set_uniform(d, "u_tip", tuple(float(c) for c in lv.propeller_tip))
                set_uniform(d, "u_tip_m", float(lv.propeller_tip_m))
                self.disc_vao.render()
                tris += 128
            return tris

    def release(self):
        for o in (self.vao, self.vbo, self.ibo, self.tex, self.glass_vao, self.disc_vao, self.depth_vao, self.prog,
                  self.glass_prog, self.disc_prog, self.flat_vao, self.flat_prog):
            if o is not None:
                o.release()


def dcm_about(axis, angle):
    from .glutil import axis_angle
    return axis_angle(np.asarray(axis, dtype=np.float64), float(angle))


def _disc(prop, n=64) -> np.ndarray:
    """The propeller's disc: a fan of triangles (position, normal, uv: radius fraction)."""
    c = np.asarray(prop["position"], dtype=np.float64) + np.array([-0.02, 0.0, 0.0])
    R = prop["radius_m"]
    out = []
    nrm = (1.0, 0.0, 0.0)
    for k in range(n):
        a0, a1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n
        p0 = c + R * np.array([0.0, math.sin(a0), -math.cos(a0)])
        p1 = c + R * np.array([0.0, math.sin(a1), -math.cos(a1)])
        for p, u in ((c, 0.0), (p0, 1.0), (p1, 1.0)):
            out.append((*p, *nrm, u, 0.0))
    return np.array(out, dtype="f4")


__all__ = ["AircraftDrawer", "MAX_PARTS"]
