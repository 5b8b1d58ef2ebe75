"""The sun's shadow map: what the aircraft shade, on themselves and on the ground near them.

One orthographic depth map looks down the sun's rays at a box round the player's aircraft
(and whatever else is drawn into it); every shader that receives shadows includes
shaders/shadow.glsl and gets ``u_shadow_mat``, the map's matrix for points given as NED
relative to the eye, like everything the renderer draws. The box follows the aircraft, so
its shadow on the runway or a field is sharp at any height it can be seen from; beyond the
box nothing is shadowed (the presets' budgets, render/renderer.py QUALITY).
"""
from __future__ import annotations

import numpy as np

from .glutil import program


def sun_basis(sun_ned):
    """Right, up and forward (toward the ground, along the rays) unit vectors of the sun's view."""
    f = -np.asarray(sun_ned, dtype=np.float64)
    f /= np.linalg.norm(f)
    ref = np.array([1.0, 0.0, 0.0]) if abs(f[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    r = np.cross(f, ref)
    r /= np.linalg.norm(r)
    u = np.cross(r, f)
    return r, u, f


def shadow_matrix(sun_ned, centre_rel, radius_m: float) -> np.ndarray:
    """4x4: a point (NED relative to the eye) -> the map's (x, y, depth) in 0..1, for a box of
    half size radius_m round centre_rel (NED relative to the eye)."""
    r, u, f = sun_basis(sun_ned)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = r, u, f
    c = np.asarray(centre_rel, dtype=np.float64)
    m[:3, 3] = -m[:3, :3] @ c
    depth = 4.0 * radius_m
    s = np.diag([0.5 / radius_m, 0.5 / radius_m, 0.5 / depth, 1.0])
    s[:3, 3] = (0.5, 0.5, 0.5)
    return s @ m


class SunShadow:
    def __init__(self, ctx, size_px: int = 2048, taps: int = 9):
        """taps: what the receivers' shaders sample (their SHADOW_TAPS define: defines())."""
        self.ctx = ctx
        self.size = max(int(size_px), 1)
        self.taps = taps
        self.depth = ctx.depth_texture((self.size, self.size))
        self.depth.compare_func = "<="
        self.depth.filter = (ctx.LINEAR, ctx.LINEAR)           # the hardware's 2x2 comparison filter
        self.depth.repeat_x = self.depth.repeat_y = False
        self.fbo = ctx.framebuffer(depth_attachment=self.depth)
        self.prog = program(ctx, "aircraft_vs.glsl", "depth_fs.glsl")
        self.matrix = np.eye(4)
        self.on = False

    def defines(self) -> dict:
        """The #defines of a program that receives these shadows (glutil.program)."""
        return {"SHADOW_TAPS": self.taps if self.size > 1 else 0}

    def begin(self, sun_ned, centre_rel, radius_m: float):
        """Clear the map for a box round centre_rel; returns the matrix the casters are drawn with
        (as m_proj @ m_view: the shadow program takes it as m_proj with an identity view)."""
        self.matrix = shadow_matrix(sun_ned, centre_rel, radius_m)
        self.fbo.use()
        self.fbo.viewport = (0, 0, self.size, self.size)
        self.fbo.clear(depth=1.0)
        self.ctx.enable(self.ctx.DEPTH_TEST)
        self.on = True
        return self.begin_matrix()

    def begin_matrix(self):
        """The casters' matrix for the map begun last: the map's 0..1 to GL's clip -1..1."""
        to_clip = np.diag([2.0, 2.0, 2.0, 1.0])
        to_clip[:3, 3] = -1.0
        return to_clip @ self.matrix

    def bind(self, prog, unit: int = 5):
        """The receivers' uniforms (and the map on texture unit ``unit``)."""
        from .glutil import set_uniform
        set_uniform(prog, "u_shadow_on", 1.0 if self.on else 0.0)
        # a sampler2DShadow must never share a unit with a plain sampler: bound even when off
        self.depth.use(unit)
        set_uniform(prog, "u_shadow", unit)
        if not self.on:
            return
        set_uniform(prog, "u_shadow_mat", self.matrix)
        set_uniform(prog, "u_shadow_texel", 1.0 / self.size)

    def release(self):
        self.fbo.release()
        self.depth.release()
        self.prog.release()
