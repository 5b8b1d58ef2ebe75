"""The 3D cockpit: the instrument panel as geometry in the aircraft, the sight's reticle at
infinity on its reflector glass (or the jet's HUD on its combiner).

The cockpit itself is part of the aircraft's model (render/model/exterior.py: the panel's
board, the glare shield, the sight's body and glass, the armour, the canopy's frame and
the nose ahead, all seen from the design eye point with the skin over the cockpit
opening hidden). This module adds what moves:

- the instruments, drawn by the same CockpitPanel as the 2D panel view (the same values in
  the same units) into a texture each frame, put on the panel's face in the scene, lit by
  the sun and shaded by the aircraft's own shadow;
- the gunsight's reticle: lines whose directions are fixed in the aircraft (the guns'
  harmonisation), projected like stars are, so they stay on the target whichever way the
  head moves, and shown only through the sight's glass: a Spitfire's GM2 (a 100 mil ring
  with a cross and the range bars), a P-51D's K-14 (a ring of six diamonds round a pipper,
  which the gyro leads by the turn), a Bf 109's Revi (a ring with a broken cross); the
  F-15C's HUD symbology clipped to its combiner.
"""
from __future__ import annotations

import math

import numpy as np

from .glutil import program, set_scene, set_uniform, vertex_array

PANEL_PX = (1024, 576)              # the 2D panel's layout size (its scale k = 0.8); a preset may ask less
RETICLE = {"gm2": (1.0, 0.55, 0.25), "revi16b": (1.0, 0.62, 0.22), "k14": (1.0, 0.52, 0.28)}


class Cockpit3D:
    def __init__(self, ctx, model, instrument_panel, shadow_defines: dict | None = None, panel_px=PANEL_PX):
        self.ctx = ctx
        self.ck = model.cockpit
        self.panel = instrument_panel        # render.cockpit.CockpitPanel
        self.panel_px = w, h = tuple(int(v) for v in panel_px)
        self.tex = ctx.texture((w, h), 4)
        self.tex.filter = (ctx.LINEAR, ctx.LINEAR)
        self.fbo = ctx.framebuffer(color_attachments=[self.tex])
        self.prog = program(ctx, "plate_vs.glsl", "panel3d_fs.glsl", shadow_defines)
        self.quad = None
        self._quad_key = None
        self.top_row = 0.0

    def _build_quad(self):
        """The panel's face as a quad in body axes, its texture's rows placed so the 2D panel's
        top edge meets the glare shield."""
        ck = self.ck
        w, h = self.panel_px
        hw = ck["instruments_half_width"]
        s = 2 * hw / w                                  # metres per texel
        x = ck["panel_x"]
        z_top_row = ck["panel_top"] + 0.012             # the panel's top edge, just under the shield's lip
        rows = (0.0, float(h))
        zs = [z_top_row + (self.top_row - r) * s for r in rows]   # z grows downward
        v = [r / h for r in rows]
        pts = [(x, -hw, zs[0], 0.0, v[0]), (x, hw, zs[0], 1.0, v[0]), (x, hw, zs[1], 1.0, v[1]),
               (x, -hw, zs[0], 0.0, v[0]), (x, hw, zs[1], 1.0, v[1]), (x, -hw, zs[1], 0.0, v[1])]
        data = np.array([(px, py, pz, -1.0, 0.0, 0.0, u, vv) for px, py, pz, u, vv in pts], dtype="f4")
        if self.quad is not None:
            self.quad.release()
        self.quad = vertex_array(self.ctx, self.prog, self.ctx.buffer(data.tobytes()),
                                 (("3f", "in_position"), ("3f", "in_normal"), ("2f", "in_uv")))

    def update_texture(self, inst, snap, now_s: float):
        """Draw the instruments into the panel's texture (the 2D panel's own drawing)."""
        from .overlay import pixel_projection
        ctx = self.ctx
        w, h = self.panel_px
        fbo = self.fbo
        with pixel_projection(w, h):
            fbo.use()
            fbo.viewport = (0, 0, w, h)
            fbo.clear(0.0, 0.0, 0.0, 0.0)
            ctx.disable(ctx.DEPTH_TEST)
            ctx.enable(ctx.BLEND)
            ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
            self.panel.draw(w, h, inst, snap, now_s, fbo)
            ctx.disable(ctx.BLEND)
        top = float(self.panel.top_y)
        if self.quad is None or top != self.top_row:
            self.top_row = top
            self._build_quad()

    def draw(self, view, m_proj, common, model_matrix, shadow=None):
        """The panel's face into the scene (after the aircraft, before the terrain)."""
        if self.quad is None:
            return 0
        p = self.prog
        set_scene(p, m_proj, view.m_view, common, model=model_matrix)
        self.tex.use(1)
        set_uniform(p, "u_panel", 1)
        if shadow is not None:
            shadow.bind(p)
        self.ctx.enable(self.ctx.DEPTH_TEST)
        self.quad.render()
        return 2

    def release(self):
        for o in (self.quad, self.fbo, self.tex, self.prog):
            if o is not None:
                o.release()


# ---------------------------------------------------------------------------- the sight
def _project(points_ned_rel, view, m_proj, w, h):
    """Screen pixels of points given as NED relative to the eye (None behind the eye)."""
    p = np.asarray(points_ned_rel, dtype=np.float64)
    clip = (m_proj @ view.m_view @ np.c_[p, np.ones(len(p))].T).T
    out = np.full((len(p), 2), np.nan)
    ok = clip[:, 3] > 1e-6
    out[ok, 0] = (clip[ok, 0] / clip[ok, 3] * 0.5 + 0.5) * w
    out[ok, 1] = (clip[ok, 1] / clip[ok, 3] * 0.5 + 0.5) * h
    return out


def glass_rect(sight, R, eye_rel_body, view, m_proj, w, h):
    """The combiner glass's bounding box on the screen (x0, y0, x1, y1) or None (out of view)."""
    corners = (np.asarray(sight["corners"]) - eye_rel_body) @ R.T
    px = _project(corners, view, m_proj, w, h)
    if np.any(np.isnan(px)):
        return None
    x0, y0 = px.min(axis=0)
    x1, y1 = px.max(axis=0)
    if x1 < 0 or y1 < 0 or x0 > w or y0 > h:
        return None
    return (max(x0, 0.0), max(y0, 0.0), min(x1, w), min(y1, h))


def reticle_lines(kind: str, mils_per_rad: float = 1000.0, lead_mils=(0.0, 0.0)):
    """The reticle as line segments in (right, up) milliradians from the sight line."""
    segs = []

    def circle(r, n=48, cx=0.0, cy=0.0, gaps=0):
        for k in range(n):
            a0, a1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n
            if gaps and any(abs(((a0 + a1) / 2 - g + math.pi) % (2 * math.pi) - math.pi) < 0.18
                            for g in np.linspace(0, 2 * math.pi, gaps, endpoint=False)):
                continue
            segs.append((cx + r * math.cos(a0), cy + r * math.sin(a0), cx + r * math.cos(a1), cy + r * math.sin(a1)))

    if kind == "gm2":                  # Barr & Stroud GM2: 100 mil ring, the cross with a gap, range bars
        circle(50.0)
        circle(2.0, 12)
        for s in (-1, 1):
            segs.append((s * 8.0, 0.0, s * 70.0, 0.0))
            segs.append((0.0, s * 8.0, 0.0, s * 70.0))
            segs.append((s * 25.0, 30.0, s * 25.0, 40.0))        # the span bars
    elif kind == "revi16b":            # Revi C/12D / 16B: a ring, the cross broken at the middle
        circle(50.0, gaps=4)
        circle(1.5, 10)
        for s in (-1, 1):
            segs.append((s * 10.0, 0.0, s * 60.0, 0.0))
            segs.append((0.0, s * 10.0, 0.0, s * 60.0))
    elif kind == "k14":                # K-14: the gyro reticle (six diamonds round a pipper), led by the turn
        lx, ly = lead_mils
        circle(1.2, 10, lx, ly)
        r = 45.0
        for k in range(6):
            a = math.pi / 2 + 2 * math.pi * k / 6
            cx, cy = lx + r * math.cos(a), ly + r * math.sin(a)
            d = 3.5
            segs += [(cx - d, cy, cx, cy + d), (cx, cy + d, cx + d, cy), (cx + d, cy, cx, cy - d), (cx, cy - d, cx - d, cy)]
        circle(70.0, 64)                  # the fixed ring (the K-14's fixed reticle)
        segs += [(-4.0, 0.0, 4.0, 0.0), (0.0, -4.0, 0.0, 4.0)]
    return np.array(segs, dtype=np.float64).reshape(-1, 4) / mils_per_rad


def reticle_screen(kind, R, depression_rad, view, m_proj, w, h, lead_rad=(0.0, 0.0)):
    """The reticle's segments in screen pixels: its directions are fixed in the aircraft
    (depressed below the body axis by the guns' harmonisation), at infinity."""
    segs = reticle_lines(kind, lead_mils=(lead_rad[0] * 1000.0, lead_rad[1] * 1000.0))
    out = []
    for cols in ((0, 1), (2, 3)):
        right = segs[:, cols[0]]
        up = segs[:, cols[1]] - depression_rad
        d_body = np.stack([np.ones_like(right), np.tan(right), -np.tan(up)], axis=1)
        d_body /= np.linalg.norm(d_body, axis=1, keepdims=True)
        d_ned = d_body @ R.T * 1000.0
        out.append(_project(d_ned, view, m_proj, w, h))
    return np.concatenate(out, axis=1)


def k14_lead(omega_body_rads, range_m: float = 300.0, muzzle_ms: float = 870.0):
    """The K-14's lead for the turn: the sight line led by the rates times the time of flight
    (right, up) in radians (a fixed range: the real sight's range is set by the pilot)."""
    tof = range_m / muzzle_ms
    q, r = float(omega_body_rads[1]), float(omega_body_rads[2])
    return (-r * tof * 0.5, q * tof * 0.5)
