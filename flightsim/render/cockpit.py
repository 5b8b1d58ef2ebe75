"""The cockpit instrument panel (``--view cockpit``): round gauges drawn over the scene.

Glider (the Astir): airspeed indicator in km/h with the flight manual's arcs and marks,
total-energy variometer, altimeter, G meter, a compass on the glare shield, the slip
ball, the yaw string on the canopy, the blue airbrake and green trim levers, and lamps
for the gear (with the gear-up-airbrakes-out warning), wheel brake, winch cable and stall.
Powered aircraft: the same flight instruments in their units (mph, ft, ft/min) plus the
piston-engine gauges whose snapshot fields exist (RPM, manifold pressure, oil and
coolant temperature, fuel).

Everything static (panel, faces, scales, numerals) is built once per window size into
one vertex buffer and one text batch; per frame only the needles, ball, string, lever
handles and a few labels change: two draw calls of triangles plus two text batches.
"""
from __future__ import annotations

import math

import numpy as np

from ..instruments import values as V
from . import dials as D
from .canvas import Canvas
from .overlay import MONO, SANS_CONDENSED, CachedLayer, ShapeBuffer, TextBank

PANEL = (0.105, 0.105, 0.115, 1.0)
PANEL_EDGE = (0.05, 0.05, 0.055, 1.0)
SLOT = (0.02, 0.02, 0.02, 1.0)
COMPASS_CARDS = {0: "N", 30: "3", 60: "6", 90: "E", 120: "12", 150: "15", 180: "S", 210: "21", 240: "24",
                 270: "W", 300: "30", 330: "33"}
LAMP_OFF = (0.16, 0.16, 0.17, 1.0)


class CockpitPanel:
    def __init__(self, ctx, spec, prog=None):
        self.ctx = ctx
        self.spec = spec
        self.static = ShapeBuffer(ctx, prog, 60000)
        self.dynamic = ShapeBuffer(ctx, self.static.prog, 12000)
        self.layer = CachedLayer(ctx)
        self.text_static = TextBank()
        self.text = TextBank()
        self._key = None
        self.cable = None           # winch cable: None (no winch), else (attached, last event)
        self.top_y = 0.0            # highest panel pixel (messages go above it)
        self.g = {}                 # layout: dials and positions

    # ------------------------------------------------------------------ layout (once per size)
    def _layout(self, w, h, engine, target):
        spec = self.spec
        k = min(h / 720.0, w / 1280.0)
        cx = w / 2.0
        self.k, self.cx = k, cx
        cv = Canvas()
        tb = self.text_static
        tb.clear()
        tb.begin()
        g = self.g = {}
        # the panel: a gently domed top edge under a darker glare-shield lip
        xs = np.linspace(0.0, w, 33)
        top = k * (212.0 + 32.0 * (1.0 - ((xs - cx) / (w / 2.0)) ** 2))
        self.top_y = float(top.max())
        upper = np.stack([xs, top], axis=1)
        lip = np.stack([xs, top - 9 * k], axis=1)
        bottom = np.stack([xs, np.zeros_like(xs)], axis=1)
        cv.strip(lip, bottom, PANEL, (0.085, 0.085, 0.095, 1.0), feather_top=False)
        cv.strip(upper, lip, PANEL_EDGE, PANEL_EDGE)
        # the three main flight instruments
        r = 86 * k
        cy = 124 * k
        g["asi"] = self._asi(cv, tb, cx - 232 * k, cy, r)
        g["vario"] = self._vario(cv, tb, cx, cy, r)
        g["alt"] = self._altimeter(cv, tb, cx + 232 * k, cy, r)
        self._compass_static(cv, cx, self.top_y + 24 * k, k)
        self._slip_static(cv, cx, 15 * k, k)
        g["string"] = (cx, self.top_y + 82 * k, 104 * k)
        if spec.glider:
            g["levers"] = [self._lever(cv, tb, "airbrake", "AIRBRAKE", cx - 565 * k, k, D.BLUE, "IN", "OUT"),
                           self._lever(cv, tb, "trim", "TRIM", cx - 470 * k, k, (0.15, 0.65, 0.25, 1.0),
                                       "NOSE\nDOWN", "NOSE\nUP")]
            g["gmeter"] = self._gmeter(cv, tb, cx + 420 * k, cy, 58 * k)
            g["lamps"] = self._lamps(cv, cx + 555 * k, [186, 146, 106, 66], k,
                                     ["gear", "brake", "cable", "stall"])
            g["engine"] = []
        else:
            # six engine gauges: four in the upper row, two beside the G meter's row (the oil
            # pressure joined the temperatures with the systems damage of issue 18); more (a light
            # aircraft's carburettor, suction and tank gauges), smaller: three a side above, three
            # beside the G meter's row
            if len(engine) <= 6:
                rg = 46 * k
                slots = [(cx - 540 * k, 158 * k), (cx - 415 * k, 158 * k), (cx + 415 * k, 158 * k),
                         (cx + 540 * k, 158 * k), (cx + 415 * k, 56 * k), (cx + 540 * k, 56 * k)]
            else:
                rg = 40 * k
                xs3 = (385 * k, 478 * k, 571 * k)
                slots = ([(cx - x, 160 * k) for x in xs3[::-1]] + [(cx + x, 160 * k) for x in xs3]
                         + [(cx + x, 56 * k) for x in xs3])
            g["engine"] = []
            for (gs, field), (x, y) in zip(engine, slots):
                d = D.Dial.linear(x, y, rg, gs.min, gs.max, 225.0, 270.0)
                D.small_gauge(cv, tb, ("eng", field), d, gs, gs.unit, gs.label)
                g["engine"].append((field, d))
            g["gmeter"] = self._gmeter(cv, tb, cx - 540 * k, 56 * k, 46 * k)
            g["levers"] = []
            g["lamps"] = self._lamps(cv, cx - 415 * k, [97, 70, 43, 16], k, ["gear", "stall", "flaps", "brake"],
                                     half_h=12.0)
        tb.end()
        self.static.upload(cv.array())
        x, y, w2, h2 = g["compass"]
        # below the glare-shield lip's lowest point the panel is opaque from edge to edge
        opaque = int(math.floor(float((top - 9 * k).min()))) - 1
        self.layer.build(w, h, self.static, [tb], (0, 0, w, min(h, math.ceil(y + h2 + 8 * k))), target, opaque)

    def covered_rows(self, w, h) -> int:
        """Rows from the window's bottom edge the panel covers opaquely (the scene behind them
        need not be drawn); 0 before the panel's first draw at this size."""
        return self.layer.covered_rows(w, h)

    # ------------------------------------------------------------------ the instruments
    def _asi(self, cv, tb, x, y, r):
        spec = self.spec
        vmin, vmax = spec.speed(spec.asi_min_kmh), spec.speed(spec.asi_max_kmh)
        lab = D.nice_step(0.615 * (vmax - vmin), 8)
        bp = vmin + lab * round(0.615 * (vmax - vmin) / lab)
        hi_lab = lab * 2.5 if (vmax - bp) / (lab * 2.5) <= 4 else lab * 5
        if abs(hi_lab / lab - 2.5) < 1e-9 and (bp % hi_lab) > 1e-6:
            hi_lab = lab * 2                       # numbers above the break on round values
            bp = hi_lab * round(bp / hi_lab)
        vmax = hi_lab * math.ceil(vmax / hi_lab - 1e-9)
        sweep, start = 305.0, 28.0
        bp_frac = 0.79
        d = D.Dial(x, y, r, (vmin, bp, vmax), (0.0, bp_frac, 1.0), start, sweep)
        D.face(cv, d)
        # colour arcs (outer band), then the radial marks
        for a in spec.arcs:
            D.band(cv, d, spec.speed(a.from_kmh), spec.speed(a.to_kmh), 0.885, 0.975,
                   D.ARC_COLOURS.get(a.color, D.WHITE))
        low = np.arange(vmin, bp + 1e-6, lab / 4)
        high = np.arange(bp, vmax + 1e-6, lab / 2)
        D.ticks(cv, d, low, 0.975, 0.09, 1.3 * r / 88)
        D.ticks(cv, d, high, 0.975, 0.09, 1.3 * r / 88)
        first_hi = hi_lab * math.floor(bp / hi_lab + 1e-9) + hi_lab
        major = list(np.arange(vmin, bp + 1e-6, lab)) + list(np.arange(first_hi, vmax + 1e-6, hi_lab))
        D.ticks(cv, d, major, 0.975, 0.17, 2.4 * r / 88)
        for m in spec.marks:
            v = spec.speed(m.at_kmh)
            if m.kind == "red_line":
                D.radial(cv, d, v, 0.78, 0.995, 3.2 * r / 88, D.RED)
            elif m.kind == "blue_line":
                D.radial(cv, d, v, 0.78, 0.995, 3.2 * r / 88, D.BLUE)
            elif m.kind == "yellow_triangle":
                D.triangle_mark(cv, d, v, 1.0, 0.84, 6.5 * r / 88, D.YELLOW)
            else:
                D.radial(cv, d, v, 0.86, 0.995, 1.5 * r / 88, D.WHITE)
        size = 10.0 * r / 88
        D.numerals(tb, "asi", d, major, [D.fmt(v) for v in major], 0.655, size)
        tb.put(("asi", "unit"), spec.speed_label, x, y + 0.36 * r, size=8.5 * r / 88, color=D.TEXT_DIM)
        tb.put(("asi", "name"), "AIRSPEED", x, y - 0.30 * r, size=7 * r / 88, color=D.TEXT_DIM)
        return d

    def _vario(self, cv, tb, x, y, r):
        spec = self.spec
        rng = spec.vertical_speed(spec.vario_range_ms)
        f = 1000.0 if rng > 50 else 1.0
        rng_u = round(rng / f)
        d = D.Dial.linear(x, y, r, -rng_u * f, rng_u * f, 105.0, 330.0)     # zero at 9 o'clock
        D.face(cv, d)
        # numerals at most six a side (a 30 m/s Luftwaffe variometer: every 5, ticks every 1)
        major_u = next(m for m in (1, 2, 5, 10, 20, 50) if rng_u / m <= 6.0 + 1e-9)
        step = f * (0.5 if rng_u <= 6 else major_u / 5.0 if major_u >= 5 else major_u / 2.0)
        vals = np.arange(-rng_u * f, rng_u * f + 1e-6, step)
        D.ticks(cv, d, vals, 0.975, 0.10, 1.3 * r / 88)
        major = np.arange(-rng_u * f, rng_u * f + 1e-6, f * major_u)
        D.ticks(cv, d, major, 0.975, 0.19, 2.6 * r / 88)
        D.ticks(cv, d, [0.0], 0.975, 0.26, 3.4 * r / 88)
        D.numerals(tb, "vario", d, major, [D.fmt(abs(v) / f) for v in major], 0.66, 12.5 * r / 88)
        unit = spec.vs_label if f == 1 else "x1000 " + spec.vs_label
        name = "TE VARIO" if spec.glider else "VERT SPEED"
        tb.put(("vario", "unit"), unit, x, y + 0.36 * r, size=8.5 * r / 88, color=D.TEXT_DIM)
        tb.put(("vario", "name"), name, x, y - 0.36 * r, size=7 * r / 88, color=D.TEXT_DIM)
        tb.put(("vario", "up"), "UP", x - 0.36 * r, y + 0.20 * r, size=6.5 * r / 88, color=D.TEXT_DIM)
        tb.put(("vario", "dn"), "DN", x - 0.36 * r, y - 0.20 * r, size=6.5 * r / 88, color=D.TEXT_DIM)
        self._vario_scale = f
        return d

    def _altimeter(self, cv, tb, x, y, r):
        spec = self.spec
        d = D.Dial.linear(x, y, r, 0.0, 1000.0, 0.0, 360.0)
        D.face(cv, d)
        D.ticks(cv, d, np.arange(0, 1000, 20), 0.975, 0.09, 1.3 * r / 88)
        D.ticks(cv, d, np.arange(0, 1000, 100), 0.975, 0.18, 2.6 * r / 88)
        D.numerals(tb, "alt", d, np.arange(0, 1000, 100), [str(i) for i in range(10)], 0.68, 14 * r / 88)
        # the pressure-setting window at 3 o'clock
        cv.rect(x + 0.22 * r, y - 0.09 * r, x + 0.50 * r, y + 0.09 * r, (0.0, 0.0, 0.0, 1.0))
        cv.polyline([(x + 0.22 * r, y - 0.09 * r), (x + 0.50 * r, y - 0.09 * r), (x + 0.50 * r, y + 0.09 * r),
                     (x + 0.22 * r, y + 0.09 * r)], 1.0, D.GREY, closed=True)
        tb.put(("alt", "qnh"), "1013", x + 0.36 * r, y, size=7 * r / 88, color=D.TEXT, font=MONO)
        tb.put(("alt", "unit"), "ALT", x, y + 0.34 * r, size=8 * r / 88, color=D.TEXT_DIM)
        tb.put(("alt", "x"), "x100 " + spec.altitude_label, x, y - 0.30 * r, size=7 * r / 88, color=D.TEXT_DIM)
        return d

    def _gmeter(self, cv, tb, x, y, r):
        spec = self.spec
        lo = math.floor(min(spec.g_limit_min, -1.0)) - 1
        hi = math.ceil(spec.g_limit_max) + 1
        # 0 g at 9 o'clock whatever the range: the start angle puts frac(0) at 270 deg
        d = D.Dial.linear(x, y, r, lo, hi, 270.0 - 300.0 * (0.0 - lo) / (hi - lo), 300.0)
        D.face(cv, d, screws=False)
        D.band(cv, d, spec.g_limit_min, spec.g_limit_max, 0.86, 0.96, (0.10, 0.55, 0.20, 1.0))
        D.radial(cv, d, spec.g_limit_max, 0.70, 0.99, max(2.0, 2.6 * r / 58), D.RED)
        D.radial(cv, d, spec.g_limit_min, 0.70, 0.99, max(2.0, 2.6 * r / 58), D.RED)
        D.ticks(cv, d, np.arange(lo, hi + 0.01, 0.5), 0.97, 0.10, 1.2)
        D.ticks(cv, d, np.arange(lo, hi + 0.01, 1.0), 0.97, 0.18, 2.0)
        labels = [v for v in range(lo, hi + 1) if v % 2 == 0]
        D.numerals(tb, "g", d, labels, [str(v) for v in labels], 0.62, 10 * r / 58)
        tb.put(("g", "unit"), "G", x + 0.38 * r, y - 0.02 * r, size=9 * r / 58, color=D.TEXT_DIM)
        return d

    def _compass_static(self, cv, x, y, k):
        w2, h2 = 80 * k, 19 * k
        cv.rounded_rect(x - w2 - 5 * k, y - h2 - 5 * k, x + w2 + 5 * k, y + h2 + 5 * k, 6 * k, (0.07, 0.07, 0.075, 1.0))
        cv.rect(x - w2, y - h2, x + w2, y + h2, (0.02, 0.02, 0.02, 1.0), (0.10, 0.10, 0.10, 1.0))
        self.g["compass"] = (x, y, w2, h2)

    def _slip_static(self, cv, x, y, k):
        half = 62 * k
        lim = math.radians(16.0)
        R = half / lim
        th = 8 * k
        cyc = y + R
        a0, a1 = -math.pi / 2 - lim, -math.pi / 2 + lim
        cv.sector(x, cyc, R - th - 1.5 * k, R + th + 1.5 * k, a0 - 0.01, a1 + 0.01, (0.02, 0.02, 0.02, 1.0))
        cv.sector(x, cyc, R - th, R + th, a0, a1, (0.78, 0.80, 0.70, 1.0), (0.62, 0.64, 0.56, 1.0))
        for s in (-1, 1):
            a = -math.pi / 2 + s * 1.15 * (7.5 * k) / R
            cv.lines([(x + (R - th) * math.cos(a), cyc + (R - th) * math.sin(a))],
                     [(x + (R + th) * math.cos(a), cyc + (R + th) * math.sin(a))], max(1.5 * k, 1.0),
                     (0.05, 0.05, 0.05, 1.0))
        self.g["slip"] = (x, cyc, R, lim, 7.0 * k)

    def _lever(self, cv, tb, key, title, x, k, colour, top_label, bottom_label):
        y0, y1 = 52 * k, 184 * k
        cv.rounded_rect(x - 7 * k, y0 - 6 * k, x + 7 * k, y1 + 6 * k, 6 * k, SLOT)
        for i in range(5):
            yy = y0 + (y1 - y0) * i / 4
            cv.lines([(x - 16 * k, yy)], [(x - 10 * k, yy)], max(1.2 * k, 1.0), D.GREY)
        tb.put(("lever", key), title, x, 26 * k, size=8 * k, color=D.TEXT_DIM, bold=True)
        tb.put(("lever", key, "top"), top_label, x + 30 * k, y1, size=6.5 * k, color=D.TEXT_DIM,
               anchor_x="left", multiline_width=60 * k)
        tb.put(("lever", key, "bot"), bottom_label, x + 30 * k, y0, size=6.5 * k, color=D.TEXT_DIM,
               anchor_x="left", multiline_width=60 * k)
        return (key, x, y0, y1, colour)

    def _lamps(self, cv, x, ys, k, names, half_h=16.0):
        out = []
        for name, yy in zip(names, ys):
            y = yy * k
            cv.rounded_rect(x - 54 * k, y - half_h * k, x + 54 * k, y + half_h * k, 5 * k, (0.03, 0.03, 0.03, 1.0))
            out.append((name, x, y, 50 * k, (half_h - 4.0) * k))
        return out

    # ------------------------------------------------------------------ per frame
    def draw(self, w, h, inst, snap, t_real: float, target=None) -> None:
        spec = self.spec
        readings = V.engine_readings(snap, spec.engine_gauges) if not spec.glider else []
        engine = tuple((g, g.field) for g, _ in readings)
        key = (w, h, tuple(f for _, f in engine))
        if key != self._key:
            self._layout(w, h, engine, target if target is not None else self.ctx.screen)
            self._key = key
        self.layer.draw(w, h)
        cv = Canvas()
        tb = self.text
        tb.begin()
        g, k = self.g, self.k
        # airspeed
        d = g["asi"]
        v = spec.speed(V.ias_kmh(snap))
        D.needle(cv, d.cx, d.cy, d.angle(max(v, d.values[0] - 0.0)), 0.90 * d.r, 6.5 * k, 0.22 * d.r, D.WHITE,
                 hub=0.09 * d.r)
        # variometer (total energy for a glider; a plain VSI for powered aircraft)
        d = g["vario"]
        vv = spec.vertical_speed(inst.vario.value if spec.glider else inst.vsi.value)
        D.needle(cv, d.cx, d.cy, d.angle(vv), 0.90 * d.r, 6.5 * k, 0.22 * d.r, D.WHITE, hub=0.09 * d.r)
        if spec.glider and inst.average_ms is not None:
            tb.put("avg", f"\u00d8{inst.average_ms:+.1f}", d.cx + 0.36 * d.r, d.cy, size=7.5 * k,
                   color=(255, 200, 80, 255), font=MONO)
        # altimeter: long hand one turn per 1000, short hand one turn per 10 000
        d = g["alt"]
        alt = spec.altitude(V.altitude_m(snap))
        D.needle(cv, d.cx, d.cy, d.angle((alt % 10000.0) / 10.0), 0.58 * d.r, 10.0 * k, 0.10 * d.r, D.WHITE)
        D.needle(cv, d.cx, d.cy, d.angle(alt % 1000.0), 0.90 * d.r, 5.0 * k, 0.20 * d.r, D.WHITE,
                 hub=0.08 * d.r)
        # G meter with telltales
        d = g["gmeter"]
        for val, col in ((inst.peak.max_g, D.ORANGE), (inst.peak.min_g, D.ORANGE)):
            D.needle(cv, d.cx, d.cy, d.angle(val), 0.80 * d.r, 2.5 * k, 0.0, col)
        D.needle(cv, d.cx, d.cy, d.angle(inst.g), 0.86 * d.r, 4.5 * k, 0.18 * d.r, D.WHITE, hub=0.10 * d.r)
        # engine gauges
        vals = dict((gs.field, val) for gs, val in readings)
        for field, d in g["engine"]:
            if field in vals:
                D.needle(cv, d.cx, d.cy, d.angle(vals[field]), 0.86 * d.r, 4.0 * k, 0.15 * d.r, D.WHITE,
                         hub=0.10 * d.r)
        self._compass(cv, tb, inst.heading, k)
        # slip ball
        x, cyc, R, lim, br = g["slip"]
        a = -math.pi / 2 + max(-lim * 0.93, min(lim * 0.93, V.slip_ball_rad(snap)))

        def ball(c):
            c.disc(0.0, 0.0, br, (0.03, 0.03, 0.03, 1.0))
            c.disc(-br * 0.3, br * 0.35, br * 0.28, (0.5, 0.5, 0.5, 1.0))
        cv.stamp(("ball", round(br, 2)), ball, x + R * math.cos(a), cyc + R * math.sin(a))
        # yaw string on the canopy (a glider's; a fighter pilot has the ball)
        if spec.glider:
            self._yaw_string(cv, snap, t_real)
        # levers
        for key, x, y0, y1, col in g["levers"]:
            if key == "airbrake":
                f = 1.0 - float(snap.airbrake)
            else:
                f = 0.5 + 0.5 * float(snap.controls.pitch_trim)        # top = nose down (lever forward)
                f = 1.0 - f
            y = y0 + (y1 - y0) * f

            def handle(c, col=col):
                c.rounded_rect(-17 * k, -8 * k, 17 * k, 8 * k, 4 * k, col)
                c.lines([(-12 * k, 0.0)], [(12 * k, 0.0)], max(1.2 * k, 1.0), (1, 1, 1, 0.6))
            cv.stamp(("handle", round(k, 3), tuple(col)), handle, x, y)
        self._lamps_dynamic(cv, tb, inst, snap, t_real)
        tb.end()
        self.dynamic.upload(cv.array())
        self.dynamic.draw(w, h)
        tb.draw()

    def _compass(self, cv, tb, heading, k):
        x, y, w2, h2 = self.g["compass"]
        px_per_deg = w2 / 35.0
        first = math.ceil((heading - 35.0) / 5.0) * 5
        p0, p1 = [], []
        for hh in range(int(first), int(heading + 35.0) + 1, 5):
            xx = x + (hh - heading) * px_per_deg
            tall = hh % 10 == 0
            p0.append((xx, y + h2))
            p1.append((xx, y + h2 - (9 if tall else 5) * k))
            card = hh % 360
            if card in COMPASS_CARDS:
                tb.put(("compass", card), COMPASS_CARDS[card], xx, y - 3 * k, size=10 * k,
                       color=(255, 255, 255, 255) if card % 90 else (255, 210, 90, 255), bold=True,
                       font=SANS_CONDENSED)
        cv.lines(p0, p1, max(1.3 * k, 1.0), D.WHITE)
        cv.lines([(x, y - h2 - 3 * k)], [(x, y + h2 + 3 * k)], max(2.0 * k, 1.2), D.RED)    # lubber line

    def _yaw_string(self, cv, snap, t):
        """The wool on the canopy: taped at its root, it turns within its first fifth into
        the relative wind and flutters at the tip; in still air it droops."""
        x, y, L = self.g["string"]
        k = self.k
        th = max(-1.0, min(1.0, 1.3 * V.yaw_string_rad(snap)))     # a little exaggerated, to be seen
        air = min(1.0, float(snap.tas_ms) / 15.0)
        n = 14
        ds = L / n
        px, py = x, y
        pts = [(px, py)]
        for i in range(1, n + 1):
            s = i / n
            ang = th * min(1.0, 5.0 * s) + (1.0 - air) * 2.6 * s          # along the wind; droop without air
            ang += air * (0.10 * s * s * math.sin(t * 23.0 - 7.0 * s) + 0.04 * s * math.sin(t * 41.0 + 3 * s))
            px += ds * math.sin(ang)
            py += ds * math.cos(ang)
            pts.append((px, py))
        cv.polyline(pts, max(3.2 * k, 1.6), (0.92, 0.28, 0.12, 1.0))
        cv.stamp(("tape", round(k, 3)), lambda c: c.rect(-7 * k, -4 * k, 7 * k, 4 * k, (0.85, 0.85, 0.80, 0.75)), x, y)

    def _lamps_dynamic(self, cv, tb, inst, snap, t):
        blink = (t * 3.0) % 1.0 < 0.6
        size = 8.0 * self.k
        for name, x, y, hw, hh in self.g["lamps"]:
            fill, txt, col = LAMP_OFF, name.upper(), (120, 120, 115, 255)
            if name == "gear":
                up = float(snap.gear_up) > 0.5
                if up and float(snap.airbrake) > 0.3:          # the glider gear warning: brakes out, wheel up
                    fill, txt, col = ((0.85, 0.1, 0.08, 1.0) if blink else LAMP_OFF), "GEAR UP!", (255, 255, 255, 255)
                elif up:
                    fill, txt, col = (0.85, 0.55, 0.05, 1.0), "GEAR UP", (20, 20, 20, 255)
                else:
                    fill, txt, col = (0.12, 0.60, 0.20, 1.0), "GEAR DOWN", (10, 10, 10, 255)
            elif name == "brake":
                c = snap.controls
                if max(c.brake_left, c.brake_right) > 0.05:
                    fill, txt, col = (0.85, 0.55, 0.05, 1.0), "WHEEL BRAKE", (20, 20, 20, 255)
                else:
                    txt = "WHEEL BRAKE"
            elif name == "cable":
                if self.cable is None:
                    txt = "NO CABLE"
                elif self.cable[0]:
                    fill, txt, col = (0.95, 0.80, 0.10, 1.0), "CABLE ON", (20, 20, 20, 255)
                else:
                    ev = self.cable[1]
                    txt = {"weak link broke": "LINK BROKE", "back-release": "BACK-REL."}.get(ev, "RELEASED")
                    if ev == "weak link broke":
                        fill, col = (0.85, 0.55, 0.05, 1.0), (20, 20, 20, 255)
                cv.stamp(("knob", round(self.k, 3)), lambda c: c.disc(0, 0, 7 * self.k, (0.95, 0.80, 0.10, 1.0)),
                         x - hw - 14 * self.k, y)      # the yellow release knob
            elif name == "stall":
                lvl = inst.stall_level
                if lvl == 2:
                    fill, col = ((0.9, 0.1, 0.08, 1.0) if blink else (0.35, 0.05, 0.04, 1.0)), (255, 255, 255, 255)
                elif lvl == 1:
                    fill, col = (0.85, 0.55, 0.05, 1.0), (20, 20, 20, 255)
            elif name == "flaps":
                fl = float(snap.controls.flap)
                txt = f"FLAPS {fl * 100:3.0f}%"
                if abs(fl) > 0.01:
                    fill, col = (0.75, 0.75, 0.75, 1.0), (20, 20, 20, 255)
            cv.stamp(("lamp", round(hw, 2), round(hh, 2), tuple(fill)),
                     lambda c, hw=hw, hh=hh, fill=fill: c.rounded_rect(-hw, -hh, hw, hh, 3 * self.k, fill), x, y)
            tb.put(("lamp", name), txt, x, y, size=size, color=col, bold=True, font=SANS_CONDENSED)
