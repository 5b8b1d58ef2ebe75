"""Heads-up display and overlays: lines through moderngl, text through pyglet labels.

Reads the interpolated Pose (and its newest Snapshot) only. In the ``hud`` view a
pitch ladder, horizon and flight-path marker are projected through the same camera as
the scene; every view shows the numbers (IAS, altitude, vario, heading, g) and F1
shows the key list.
"""
from __future__ import annotations

import math

import numpy as np

from .glutil import program, set_uniform

HELP = """flightsim - keys

Arrow keys / W S A D   pitch and roll (Up/W = nose down)
Q / E                  rudder left / right
B                      airbrakes out / in
Page Up / Page Down    pitch trim nose up / down
Space                  wheel brake        G  gear up/down
1 cockpit  2 chase  3 orbit  4 tower/fly-by  5 HUD
C / V                  next view
mouse drag             look around (cockpit) / orbit
mouse wheel            orbit zoom
P                      pause        R  reset
F11                    fullscreen   F1 this help
Esc                    quit"""

GREEN = (0.35, 1.0, 0.45, 0.95)


class Hud:
    def __init__(self, ctx, aircraft_name: str = ""):
        import pyglet  # the window layer: only imported where a window exists
        self.pyglet = pyglet
        self.ctx = ctx
        self.prog = program(ctx, "hud_vs.glsl", "hud_fs.glsl")
        self.buf = ctx.buffer(reserve=4096 * 24, dynamic=True)
        self.vao = ctx.vertex_array(self.prog, [(self.buf, "2f 4f", "in_pos", "in_color")])
        self.batch = pyglet.graphics.Batch()
        self.help_batch = pyglet.graphics.Batch()
        mk = lambda **kw: pyglet.text.Label("", font_name=("DejaVu Sans Mono", "Courier New", "monospace"),
                                            font_size=13, batch=self.batch, color=(255, 255, 255, 235), **kw)
        self.title = mk(x=12, y=0, anchor_y="top")
        self.left = mk(x=12, y=12, anchor_y="bottom", multiline=True, width=360)
        self.right = mk(x=0, y=12, anchor_x="right", anchor_y="bottom", multiline=True, width=300, align="right")
        self.centre = pyglet.text.Label("", font_size=22, weight="bold", x=0, y=0, anchor_x="center",
                                        batch=self.batch, color=(255, 80, 60, 255))
        self.help = pyglet.text.Label(HELP, font_name=("DejaVu Sans Mono", "Courier New", "monospace"), font_size=13,
                                      multiline=True, width=620, x=0, y=0, anchor_x="center", anchor_y="center",
                                      batch=self.help_batch, color=(255, 255, 255, 255))
        self.aircraft_name = aircraft_name
        self.show_help = False
        self._cache = {}

    def _set(self, label, text):
        if self._cache.get(id(label)) != text:
            label.text = text
            self._cache[id(label)] = text

    # ------------------------------------------------------------------ lines
    def _ladder(self, view, m_proj, pose, w, h, out):
        vp = m_proj @ view.m_view

        def project(d):
            c = vp @ np.array([d[0], d[1], d[2], 0.0])
            if c[3] <= 1e-6:
                return None
            return ((c[0] / c[3] + 1) * 0.5 * w, (c[1] / c[3] + 1) * 0.5 * h)

        def dir_of(az, el):
            return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])

        hdg = math.atan2(view.forward[1], view.forward[0])
        for deg in range(-30, 35, 5):
            el = math.radians(deg)
            half = math.radians(10.0 if deg == 0 else 4.0)
            a = project(dir_of(hdg - half, el))
            b = project(dir_of(hdg + half, el))
            if a is None or b is None:
                continue
            if deg == 0:
                out += [(*a, *GREEN), (*b, *GREEN)]
            else:
                # a gap in the middle; dashed below the horizon
                m = (0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]))
                for p, q in ((a, m), (m, b)):
                    g = (p[0] + (q[0] - p[0]) * (0.35 if p is m else 0.0), p[1] + (q[1] - p[1]) * (0.35 if p is m else 0.0))
                    e = (q[0] - (q[0] - p[0]) * (0.35 if q is m else 0.0), q[1] - (q[1] - p[1]) * (0.35 if q is m else 0.0))
                    if deg < 0:
                        mid = ((g[0] + e[0]) / 2, (g[1] + e[1]) / 2)
                        out += [(*g, *GREEN), (*mid, *GREEN)]
                    else:
                        out += [(*g, *GREEN), (*e, *GREEN)]
        v = np.asarray(pose.velocity_ned_ms)
        if np.linalg.norm(v) > 2.0:
            fpm = project(v / np.linalg.norm(v))
            if fpm is not None:
                x, y = fpm
                r = 9
                for k in range(12):
                    a0, a1 = 2 * math.pi * k / 12, 2 * math.pi * (k + 1) / 12
                    out += [(x + r * math.cos(a0), y + r * math.sin(a0), *GREEN),
                            (x + r * math.cos(a1), y + r * math.sin(a1), *GREEN)]
                out += [(x - r - 12, y, *GREEN), (x - r, y, *GREEN), (x + r, y, *GREEN), (x + r + 12, y, *GREEN),
                        (x, y + r, *GREEN), (x, y + r + 8, *GREEN)]
        # boresight
        cx, cy = w / 2, h / 2
        out += [(cx - 14, cy, *GREEN), (cx - 5, cy, *GREEN), (cx + 5, cy, *GREEN), (cx + 14, cy, *GREEN)]

    def draw(self, fbo, view, m_proj, pose, mode: str, extra: str = ""):
        ctx = self.ctx
        w, h = fbo.viewport[2], fbo.viewport[3]
        ctx.disable(ctx.DEPTH_TEST)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        lines = []
        tris = []
        if pose is not None and mode == "hud":
            self._ladder(view, m_proj, pose, w, h, lines)
        # panels behind the text
        for (x0, y0, x1, y1) in ((6, 6, 250, 140), (w - 230, 6, w - 6, 140)):
            tris += [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)]
        if self.show_help:
            tris += [(w / 2 - 340, h / 2 - 190), (w / 2 + 340, h / 2 - 190), (w / 2 + 340, h / 2 + 190),
                     (w / 2 - 340, h / 2 - 190), (w / 2 + 340, h / 2 + 190), (w / 2 - 340, h / 2 + 190)]
        set_uniform(self.prog, "u_screen", (float(w), float(h)))
        data = [(x, y, 0.0, 0.0, 0.0, 0.45) for x, y in tris]
        if data:
            arr = np.array(data, dtype="f4")
            self.buf.orphan(max(arr.nbytes, 24))
            self.buf.write(arr.tobytes())
            self.vao.render(mode=ctx.TRIANGLES, vertices=len(arr))
        if lines:
            arr = np.array(lines, dtype="f4")
            self.buf.orphan(max(arr.nbytes, 24))
            self.buf.write(arr.tobytes())
            ctx.line_width = 1.0
            self.vao.render(mode=ctx.LINES, vertices=len(arr))
        # text
        if pose is not None:
            s = pose.snapshot
            roll, pitch, yaw = s.euler_rad
            self._set(self.left, f"IAS  {s.ias_ms * 3.6:6.0f} km/h\nTAS  {s.tas_ms * 3.6:6.0f} km/h\n"
                                 f"ALT  {s.altitude_m:6.0f} m\nAGL  {s.height_agl_m:6.0f} m\n"
                                 f"VARIO {s.vertical_speed_ms:+5.1f} m/s")
            self._set(self.right, f"HDG {math.degrees(yaw) % 360:5.0f}\nG  {s.nz_g:+5.2f}\n"
                                  f"AoA {math.degrees(s.alpha_rad):5.1f}\nBRK {s.airbrake * 100:4.0f}%\n"
                                  f"TRIM {s.controls.pitch_trim:+5.2f}")
            warn = "PAUSED" if s.paused else ("STALL" if s.stalled_sections >= 2 and not s.on_ground else "")
            self._set(self.centre, warn)
        self._set(self.title, f"{self.aircraft_name}   view: {mode}   {extra}   F1 help")
        self.title.y = h - 10
        self.right.x = w - 14
        self.centre.x, self.centre.y = w // 2, int(h * 0.68)
        self.help.x, self.help.y = w // 2, h // 2
        self.batch.draw()
        if self.show_help:
            self.help_batch.draw()
        ctx.disable(ctx.BLEND)
