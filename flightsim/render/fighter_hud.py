"""The fighter head-up display (``--view hud``): green symbology over the scene.

Pitch ladder and horizon (projected through the camera, so they sit on the real
horizon and roll with it), flight-path marker (the velocity vector), heading tape,
airspeed and altitude tapes with boxed readouts, vertical speed, G and peak G, angle of
attack, Mach, a gun cross on the gun line, and the stall warning. Piston-engine gauges
(RPM, manifold pressure, oil and coolant temperature, fuel) appear in a strip at the
bottom when the snapshot carries the engine fields.

All lines are feathered triangles in one buffer, drawn twice: a dark halo for contrast
against a bright sky, then the green.
"""
from __future__ import annotations

import math

import numpy as np

from ..instruments import values as V
from ..runtime.handoff import dcm
from . import dials as D
from .canvas import Canvas
from .overlay import MONO, CachedLayer, ShapeBuffer, TextBank

GREEN = (0.35, 1.0, 0.45, 0.95)
GREEN_TXT = (110, 255, 130, 245)
HALO = (0.0, 0.06, 0.0, 0.45)
GUN_DEPRESSION_DEG = 2.0     # gun line below the boresight (assumed; the P-51D's guns converge ~300 yd ahead)


class _Pen:
    """Lines drawn twice (halo, then green); segments are collected and emitted in one
    vectorised call per line width (hundreds of tiny numpy calls a frame cost more than
    the drawing)."""

    def __init__(self, k):
        self.k = k
        self.halo = Canvas()
        self.ink = Canvas()
        self._segs: dict = {}

    def lines(self, p0, p1, width=1.6):
        """Segments p0[i] -> p1[i] (sequences of points); kept as Python points until array()."""
        a, b = self._segs.setdefault(width, ([], []))
        a.extend(p0)
        b.extend(p1)

    def circle(self, x, y, r, width=1.6):
        # built once about the origin and moved (Canvas.stamp): the ring's geometry is the same every frame
        wh, wi = width + 2.2 * self.k, max(width * self.k, 1.3)
        self.halo.stamp(("hud_ring", r, wh, HALO), lambda c: c.ring(0.0, 0.0, r, wh, HALO), x, y)
        self.ink.stamp(("hud_ring", r, wi, GREEN), lambda c: c.ring(0.0, 0.0, r, wi, GREEN), x, y)

    def poly(self, pts, width=1.6, closed=False):
        pts = np.asarray(pts, dtype=np.float64)
        if closed:
            pts = np.concatenate([pts, pts[:1]])
        self.lines(pts[:-1], pts[1:], width)

    def array(self):
        if self._segs:                    # every width in one call each for the halo and the ink
            p0 = np.array([x for a, _ in self._segs.values() for x in a], dtype=np.float64).reshape(-1, 2)
            p1 = np.array([x for _, b in self._segs.values() for x in b], dtype=np.float64).reshape(-1, 2)
            w = np.concatenate([np.full(len(a), width) for width, (a, _) in self._segs.items()])
            self.halo.lines(p0, p1, w + 2.2 * self.k, HALO)
            self.ink.lines(p0, p1, np.where(w * self.k > 1.2, w * self.k, 1.3), GREEN)
        self._segs = {}
        out = Canvas()
        out.extend(self.halo)
        out.extend(self.ink)
        return out.array()


class _ShadowedText:
    """Two TextBanks: a dark copy one pixel down-right under every label (HUD text stays
    readable against a bright sky), then the green."""

    def __init__(self, k=1.0):
        self.shadow = TextBank()
        self.main = TextBank()
        self.k = k

    def begin(self):
        self.shadow.begin()
        self.main.begin()

    def put(self, key, text, x, y, **kw):
        d = max(1.0, 1.3 * self.k)
        sk = dict(kw)
        sk["color"] = (0, 25, 0, 200)
        self.shadow.put(key, text, x + d, y - d, **sk)
        self.main.put(key, text, x, y, **kw)

    def end(self):
        self.shadow.end()
        self.main.end()

    def draw(self):
        self.shadow.draw()
        self.main.draw()


class FighterHud:
    def __init__(self, ctx, spec, prog=None):
        self.ctx = ctx
        self.spec = spec
        self.buf = ShapeBuffer(ctx, prog, 20000)
        self.gauges_static = ShapeBuffer(ctx, self.buf.prog, 20000)
        self.gauges_dyn = ShapeBuffer(ctx, self.buf.prog, 4000)
        self.text = _ShadowedText()
        self.gauge_text = TextBank()
        self.gauge_layer = CachedLayer(ctx)     # the gauges' faces and numerals, drawn once per size
        self._gauge_key = None
        self._gauges = []

    # ------------------------------------------------------------------ projection
    @staticmethod
    def _projector(view, m_proj, w, h):
        vp = m_proj @ view.m_view

        def project(d):
            c = vp @ np.array([d[0], d[1], d[2], 0.0])
            if c[3] <= 1e-6:
                return None
            return np.array([(c[0] / c[3] + 1) * 0.5 * w, (c[1] / c[3] + 1) * 0.5 * h])
        return project

    def draw(self, w, h, view, m_proj, pose, inst, t_real: float, target=None) -> None:
        """The HUD for one frame: the ladder, the gun cross and flight-path marker, the heading
        and the speed and altitude tapes, the numbers, then the engine strip."""
        spec = self.spec
        s = pose.snapshot
        k = min(h / 720.0, w / 1280.0)
        cx, cy = w / 2.0, h / 2.0
        pen = _Pen(k)
        tb = self.text
        tb.k = k
        tb.begin()
        project = self._projector(view, m_proj, w, h)
        size = max(8.0, 11.0 * k)
        self._ladder(pen, tb, project, view, s, k, cx, cy, size)
        self._gun_and_path(pen, project, pose, s, k)
        self._heading_tape(pen, tb, inst, k, cx, h, size)
        self._tapes(pen, tb, spec, s, k, cx, cy, size)
        self._numbers(tb, spec, s, inst, k, cx, cy, size, t_real)
        tb.end()
        arr = pen.array()
        self.buf.upload(arr)
        self.buf.draw(w, h)
        tb.draw()
        self._engine_strip(w, h, s, k, target)

    def _ladder(self, pen, tb, project, view, s, k, cx, cy, size) -> None:
        """The pitch ladder and the horizon, centred on the nose's heading (dashed below it)."""
        R = np.asarray(view.forward)
        hdg = math.atan2(R[1], R[0])
        pitch = V.pitch_deg(s)

        def dir_of(az, el):
            return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])

        box_x, box_y = 300 * k, 250 * k
        for deg in V.ladder_rungs(pitch, 22.0, 5.0):
            el = math.radians(deg)
            half = math.radians(16.0 if deg == 0 else 5.5)
            a = project(dir_of(hdg - half / max(math.cos(el), 0.2), el))
            b = project(dir_of(hdg + half / max(math.cos(el), 0.2), el))
            if a is None or b is None:
                continue
            mid = 0.5 * (a + b)
            if deg != 0 and (abs(mid[0] - cx) > box_x or abs(mid[1] - cy) > box_y):
                continue
            u = (b - a) / max(np.linalg.norm(b - a), 1e-9)
            nrm = np.array([-u[1], u[0]])
            if deg == 0:
                gap = 0.10
                pen.lines([a, mid + (b - a) * gap], [mid - (b - a) * gap, b], 1.8)
                continue
            gap = 0.28
            inner_a, inner_b = mid - (mid - a) * gap, mid + (b - mid) * gap
            tick = nrm * (-9 * k if deg > 0 else 9 * k)
            if deg > 0:
                pen.lines([a, inner_b], [inner_a, b], 1.6)
            else:                                   # dashed below the horizon
                for p, q in ((a, inner_a), (inner_b, b)):
                    for f0 in (0.0, 0.4, 0.8):
                        pen.lines([p + (q - p) * f0], [p + (q - p) * min(f0 + 0.25, 1.0)], 1.6)
            pen.lines([a, b], [a + tick, b + tick], 1.6)
            rot = -math.degrees(math.atan2(u[1], u[0]))
            for side, p in (("L", a - u * 20 * k), ("R", b + u * 20 * k)):
                tb.put(("ladder", deg, side), f"{abs(deg)}", p[0], p[1], size=size * 0.9, color=GREEN_TXT,
                       font=MONO, bold=True, rotation=rot)

    def _gun_and_path(self, pen, project, pose, s, k) -> None:
        """The gun cross on the gun line, and the flight-path marker."""
        R_body = dcm(pose.quat_wxyz)
        dep = getattr(self, "gun_depression_deg", GUN_DEPRESSION_DEG)   # the aircraft's [guns] data when it has guns
        gun = project(R_body @ np.array([1.0, 0.0, math.tan(math.radians(dep))]))
        if gun is not None:
            gx, gy = gun
            g1, g2 = 4 * k, 13 * k
            pen.lines([(gx - g2, gy), (gx + g1, gy), (gx, gy - g2), (gx, gy + g1)],
                      [(gx - g1, gy), (gx + g2, gy), (gx, gy - g1), (gx, gy + g2)], 1.6)
        vdir = V.flight_path_ned(s)
        if vdir is not None:
            f = project(vdir)
            if f is not None:
                x, y = f
                r = 8 * k
                pen.circle(x, y, r, 1.6)
                pen.lines([(x - r - 13 * k, y), (x + r, y), (x, y + r)], [(x - r, y), (x + r + 13 * k, y),
                                                                           (x, y + r + 8 * k)], 1.6)

    def _heading_tape(self, pen, tb, inst, k, cx, h, size) -> None:
        """The heading tape along the bottom, its box over the pointer."""
        hd = inst.heading
        ty = h - 62 * k
        span, pxd = 30.0, 6.0 * k
        p0, p1 = [], []
        for off, lab in V.heading_tape(hd, span, 5.0, 10.0):
            xx = cx + off * pxd
            p0.append((xx, ty))
            p1.append((xx, ty + (10 if lab else 5) * k))
            if lab:
                tb.put(("hdg", lab), lab, xx, ty + 22 * k, size=size * 0.9, color=GREEN_TXT, font=MONO, bold=True)
        pen.lines(p0, p1, 1.4)
        pen.poly([(cx - 6 * k, ty - 10 * k), (cx, ty - 2 * k), (cx + 6 * k, ty - 10 * k)], 1.6)
        self._box(pen, tb, "hdg_box", f"{hd:03.0f}", cx, ty - 26 * k, 50 * k, 20 * k, size)

    def _tapes(self, pen, tb, spec, s, k, cx, cy, size) -> None:
        """The airspeed (left, with the corner speed's bracket) and altitude (right) tapes with their boxes."""
        sp = spec.speed(V.ias_kmh(s))
        alt = spec.altitude(V.altitude_m(s))
        self._tape(pen, tb, "spd", sp, cx - 330 * k, cy, k, size, left=True,
                   minor=10.0 if spec.speed_unit != "kmh" else 10.0, label_every=50.0, px_per=2.2 * k)
        if s.corner_ias_ms > 0.0:
            # the corner speed: a bracket on the speed tape where the g limit meets the wing's lift
            yy = cy + (spec.speed(s.corner_ias_ms * 3.6) - sp) * 2.2 * k
            if abs(yy - cy) < 125 * k:
                ex = cx - 330 * k + 38 * k
                pen.poly([(ex + 14 * k, yy - 7 * k), (ex + 4 * k, yy), (ex + 14 * k, yy + 7 * k)], 1.8)
                tb.put("corner", "C", ex + 22 * k, yy, size=size * 0.85, color=GREEN_TXT, font=MONO, bold=True)
        self._tape(pen, tb, "alt", alt, cx + 330 * k, cy, k, size, left=False,
                   minor=100.0 if spec.altitude_unit == "ft" else 20.0,
                   label_every=500.0 if spec.altitude_unit == "ft" else 100.0,
                   px_per=(0.22 if spec.altitude_unit == "ft" else 1.1) * k)
        tb.put("spd_unit", spec.speed_label.upper(), cx - 330 * k, cy + 150 * k, size=size * 0.8, color=GREEN_TXT,
               font=MONO)
        tb.put("alt_unit", spec.altitude_label.upper(), cx + 330 * k, cy + 150 * k, size=size * 0.8, color=GREEN_TXT,
               font=MONO)

    def _numbers(self, tb, spec, s, inst, k, cx, cy, size, t_real) -> None:
        """Vertical speed, G, peak G, AoA, Mach, the trim; a jet's energy; the stall warning flashing."""
        vs = spec.vertical_speed(inst.vsi.value)
        vs_txt = f"{vs:+5.0f}" if spec.vertical_speed_unit == "fpm" else f"{vs:+5.1f}"
        tb.put("vs", f"VS {vs_txt}", cx + 330 * k, cy - 150 * k, size=size, color=GREEN_TXT, font=MONO, bold=True)
        left = [f"G  {inst.g:4.1f}", f"PK {inst.peak.max_g:4.1f}", f"\u03b1 {V.aoa_deg(s):5.1f}",
                f"M  {V.mach(s):4.2f}"]
        stab = spec.stabilizer_deg(float(s.controls.pitch_trim))
        # the trim indicator: the tailplane's incidence where it trims (the Bf 109's wheel), else the tab
        left.append(f"STAB {stab:+4.1f}\u00b0" if stab is not None else f"TRIM {s.controls.pitch_trim:+4.2f}")
        if s.jets:
            left += self._energy_lines(s, spec)
        for i, line in enumerate(left):
            tb.put(("left", i), line, cx - 330 * k, cy - 150 * k - i * 22 * k, size=size, color=GREEN_TXT, font=MONO,
                   bold=True)
        if inst.stall_level and (t_real * 3.0) % 1.0 < 0.65:
            tb.put("hud_stall", "STALL" if inst.stall_level == 2 else "AOA", cx, cy - 95 * k, size=size * 1.3,
                   color=GREEN_TXT, font=MONO, bold=True)

    @staticmethod
    def _energy_lines(s, spec) -> list[str]:
        """A jet's energy cues: specific excess power, thrust state, fuel, the g limit in force."""
        # Ps in ft/s (the energy-maneuverability charts' unit) on a panel in feet, else m/s
        ps = s.ps_ms / 0.3048 if spec.altitude_unit == "ft" else s.ps_ms
        ps_txt = f"{ps:+5.0f}"
        if s.jets_running == 0:
            thrust = "ENG OUT"
        elif s.afterburner > 0.02:
            thrust = f"AB {100 * s.afterburner:3.0f}%"
        else:
            thrust = "MIL" if s.jet_spool > 0.97 else f"PWR {100 * s.jet_spool:3.0f}%"
        if s.jets_running and s.jets_running < s.jets:
            thrust += f" {s.jets_running}/{s.jets}"
        fuel = V.engine_value(s, "fuel_lb") if spec.altitude_unit == "ft" else s.fuel_kg
        lines = [f"Ps {ps_txt}", thrust, f"FUEL {fuel:5.0f}"]
        if s.fcs_direct:
            lines.append("FCS OFF")
        elif s.g_limit:
            lines.append(f"GLIM {s.g_limit:3.1f}")
        return lines

    def _box(self, pen, tb, key, text, x, y, hw, hh, size):
        pen.poly([(x - hw / 2, y - hh / 2), (x + hw / 2, y - hh / 2), (x + hw / 2, y + hh / 2),
                  (x - hw / 2, y + hh / 2)], 1.4, closed=True)
        tb.put(key, text, x, y, size=size, color=GREEN_TXT, font=MONO, bold=True)

    def _tape(self, pen, tb, key, value, x, y, k, size, left, minor, label_every, px_per):
        """A vertical moving scale: ticks every ``minor`` units, numbers every ``label_every``,
        the current value boxed at the centre (the box points at the scale)."""
        half = 125 * k
        sgn = -1.0 if left else 1.0
        edge = x - sgn * 38 * k            # the scale's inner edge, toward the screen centre
        lo = value - half / px_per
        first = math.ceil(lo / minor) * minor
        p0, p1 = [], []
        v = first
        while v <= value + half / px_per:
            yy = y + (v - value) * px_per
            is_lab = abs(v / label_every - round(v / label_every)) < 1e-6
            p0.append((edge, yy))
            p1.append((edge + sgn * (12 if is_lab else 6) * k, yy))
            if is_lab and abs(yy - y) > 26 * k:
                tb.put((key, round(v)), f"{v:.0f}", edge + sgn * 44 * k, yy, size=size * 0.85, color=GREEN_TXT,
                       font=MONO, anchor_x="center")
            v += minor
        pen.lines(p0, p1, 1.3)
        pen.lines([(edge, y - half)], [(edge, y + half)], 1.3)
        bx = edge + sgn * 46 * k
        hw, hh = 70 * k, 24 * k
        pen.poly([(edge + sgn * 4 * k, y), (edge + sgn * 12 * k, y + hh / 2), (bx + sgn * hw / 2, y + hh / 2),
                  (bx + sgn * hw / 2, y - hh / 2), (edge + sgn * 12 * k, y - hh / 2)], 1.6, closed=True)
        pen.halo.rect(min(edge + sgn * 12 * k, bx + sgn * hw / 2), y - hh / 2, max(edge + sgn * 12 * k,
                      bx + sgn * hw / 2), y + hh / 2, (0.0, 0.05, 0.0, 0.55))
        tb.put((key, "box"), f"{value:.0f}", bx + sgn * 4 * k, y, size=size * 1.1, color=GREEN_TXT, font=MONO,
               bold=True)

    def _engine_strip(self, w, h, s, k, target=None):
        readings = V.engine_readings(s, self.spec.engine_gauges, powered=not self.spec.glider)
        if not readings:
            return
        fields = tuple(g.field for g, _ in readings)
        key = (w, h, fields)
        r = 44 * k
        if key != self._gauge_key:
            cv = Canvas()
            self.gauge_text.clear()
            self.gauge_text.begin()
            self._gauges = []
            x0 = w - 18 * k - r * 1.1 - (len(readings) - 1) * 2.45 * r
            for i, (gs, _) in enumerate(readings):
                d = D.Dial.linear(x0 + i * 2.45 * r, 18 * k + r * 1.1, r, gs.min, gs.max, 225.0, 270.0)
                D.small_gauge(cv, self.gauge_text, ("eng", gs.field), d, gs, gs.unit, gs.label)
                self._gauges.append((gs.field, d))
            self.gauge_text.end()
            arr = cv.array()
            self.gauges_static.upload(arr)
            # faces, bands, ticks and numerals go into a cached layer (software GL paid ~2.5 ms a
            # frame to draw them from their vertices and labels); the needles stay live
            pad = 4.0 * k
            x0r, y0r = max(float(arr[:, 0].min()) - pad, 0.0), max(float(arr[:, 1].min()) - pad, 0.0)
            x1r, y1r = min(float(arr[:, 0].max()) + pad, w), min(float(arr[:, 1].max()) + pad, h)
            self.gauge_layer.build(w, h, self.gauges_static, [self.gauge_text], (x0r, y0r, x1r, y1r),
                                   target if target is not None else self.ctx.screen)
            self._gauge_key = key
        vals = {g.field: v for g, v in readings}
        cv = Canvas()
        for field, d in self._gauges:
            D.needle(cv, d.cx, d.cy, d.angle(vals[field]), 0.86 * d.r, 3.5 * k, 0.15 * d.r, D.WHITE, hub=0.1 * d.r)
        self.gauge_layer.draw(w, h)
        self.gauges_dyn.upload(cv.array())
        self.gauges_dyn.draw(w, h)
