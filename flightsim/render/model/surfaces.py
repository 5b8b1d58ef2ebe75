"""Wings, tailplanes and fins as smooth skins through their planforms, cut where the
physics moves them.

A surface's outline is a monotone spline through the planform points of visual.toml (an
ellipse stays an ellipse), its sections NACA four-digit shapes with the thickness and
camber given, twisted by the incidence from root to tip. The physics' strips stay what
they are; this module only asks them where their controls, slats and airbrakes are and
which span each strip covers, so that a strip shot away takes its stretch of skin with it
and a control surface turns by the deflection its strip reports.

The skin map: u along the span (0 root .. 1 tip), v round the section from the trailing
edge over the upper surface to the leading edge (v = 0.5) and back under the lower
surface to the trailing edge (v = 1); chord fractions are spaced closer at the leading
edge, where the nose curves.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .loft import pchip
from .skin import Skin

SLAT_CHORD = 0.18          # the fraction of chord an automatic slat takes (Bf 109)
SLAT_OUT_FORWARD = 0.06
SLAT_OUT_DOWN = 0.03
SLAT_DROOP_DEG = 5.0


def naca_half_thickness(c, t):
    c = np.clip(c, 0.0, 1.0)
    return 5 * t * (0.2969 * np.sqrt(c) - 0.126 * c - 0.3516 * c ** 2 + 0.2843 * c ** 3 - 0.1036 * c ** 4)


def naca_camber(c, m, p=0.4):
    c = np.clip(c, 0.0, 1.0)
    if m <= 0:
        return np.zeros_like(c)
    return np.where(c < p, m / p ** 2 * (2 * p * c - c * c), m / (1 - p) ** 2 * (1 - 2 * p + 2 * p * c - c * c))


def chord_of_v(v):
    """Chord fraction (0 leading edge .. 1 trailing edge) and side (+1 upper, -1 lower) at v."""
    v = np.asarray(v, dtype=np.float64)
    t = np.abs(1.0 - 2.0 * v)
    return 1.0 - np.cos(0.5 * np.pi * t), np.where(v < 0.5, 1.0, -1.0)


def v_of_chord(c: float, upper: bool) -> float:
    t = 2.0 / np.pi * math.acos(1.0 - min(max(c, 0.0), 1.0))
    return 0.5 * (1.0 - t) if upper else 0.5 * (1.0 + t)


class SurfaceShape:
    """One side of a visual.toml surface (side +1: as given, -1: its mirror image)."""

    def __init__(self, srf, side: int = 1):
        self.srf = srf
        self.side = side
        pf = srf.planform
        self.span_m = float(pf[-1, 0])
        self.closed = srf.closed_tip
        s = pf[:, 0]
        chord = pf[:, 1] - pf[:, 2]
        mid = 0.5 * (pf[:, 1] + pf[:, 2])
        self._mid = pchip(s, mid)
        if self.closed:
            # chord ~ sqrt(distance to the tip) near a closed tip: interpolate chord^2 there
            self._c2 = pchip(s, chord ** 2)
            self._chord = lambda q: np.sqrt(np.maximum(self._c2(q), 0.0))
        else:
            self._chord = pchip(s, chord)
        dih = math.radians(srf.dihedral_deg)
        self.root = np.array([0.0, srf.root_yz_m[0], srf.root_yz_m[1]])
        self.span_dir = np.array([0.0, math.cos(dih), -math.sin(dih)])
        self.up = np.cross(self.span_dir, [1.0, 0.0, 0.0])
        if side < 0:
            self.root[1] *= -1
            self.span_dir[1] *= -1
            self.up[1] *= -1

    def le_te(self, s):
        m = self._mid(s)
        c = self._chord(s)
        return m + 0.5 * c, m - 0.5 * c

    def chord(self, s):
        return self._chord(s)

    def point(self, s, c, side):
        """Points at span s, chord fraction c, side +1 upper / -1 lower."""
        srf = self.srf
        f = np.clip(np.asarray(s, dtype=np.float64) / self.span_m, 0.0, 1.0)
        t = srf.thickness[0] + (srf.thickness[1] - srf.thickness[0]) * f
        inc = np.radians(srf.incidence_deg[0] + (srf.incidence_deg[1] - srf.incidence_deg[0]) * f)
        chord = self._chord(s)
        x_le = self._mid(s) + 0.5 * chord
        xi = (0.25 - c) * chord
        eta = (naca_camber(c, srf.camber) + side * naca_half_thickness(c, t)) * chord
        xr = xi * np.cos(inc) - eta * np.sin(inc)
        er = eta * np.cos(inc) + xi * np.sin(inc)
        x = x_le - 0.25 * chord + xr
        base = self.root + self.span_dir * np.asarray(s, dtype=np.float64)[..., None]
        out = base + self.up * er[..., None]
        out[..., 0] = x
        return out

    def fn(self, u, v):
        s = np.asarray(u, dtype=np.float64) * self.span_m
        c, side = chord_of_v(v)
        return self.point(s, c, side)

    def cap_fn(self, u, v):
        """A square tip's cap: the tip section closed onto its camber line (u 0 the skin's edge)."""
        s = np.full(np.shape(u), self.span_m)
        c, side = chord_of_v(v)
        outer = self.point(s, c, side)
        inner = self.point(s, c, 0.0 * side)
        return outer + (inner - outer) * np.asarray(u, dtype=np.float64)[..., None]

    def hinge_fn(self, s0, s1, c):
        """A flat strip across the section at chord fraction c between spans s0 and s1 (u
        along the span, v from the upper to the lower surface)."""
        def fn(u, v):
            s = s0 + (s1 - s0) * np.asarray(u, dtype=np.float64)
            cc = np.full(np.shape(s), c)
            a = self.point(s, cc, 1.0)
            b = self.point(s, cc, -1.0)
            return a + (b - a) * np.asarray(v, dtype=np.float64)[..., None]
        return fn

    def area_m2(self) -> float:
        s = np.linspace(0.0, self.span_m, 400)
        c = self.chord(s)
        return float(np.sum(0.5 * (c[1:] + c[:-1]) * np.diff(s)))



@dataclass
class Segment:
    """A stretch of a surface's span: which physics section it belongs to (shot away, it goes),
    and the moving parts it has."""
    s0: float
    s1: float
    section: int                 # index in compiled.sections (-1: none)
    control: int = -1            # the section whose deflection turns its control part (-1: none)
    hinge: float = 1.0           # chord fraction of the hinge (1: no control; 0: all-moving)
    slat: bool = False
    airbrake: bool = False
    split: bool = False          # a split flap: only the lower skin behind the hinge turns
    pivot_x_m: float | None = None   # an all-moving surface's pivot line


def section_span(shape: SurfaceShape, sec) -> tuple[float, float]:
    """The span range along the visual surface that a physics section covers."""
    d = np.asarray(sec.pos, dtype=np.float64) - shape.root
    s_mid = float(np.dot(d, shape.span_dir))
    half = 0.5 * float(sec.spec["span_m"]) * abs(float(np.dot(sec.span_ax, shape.span_dir)))
    return s_mid - half, s_mid + half


def segments(shape: SurfaceShape, compiled, group: str, explicit_controls=()) -> list[Segment]:
    """Cut the surface where the physics' sections of its group (on its side) meet, and where
    its explicit controls begin and end."""
    secs = compiled.sections
    spec = compiled.spec
    mine = []
    for k, sec in enumerate(secs):
        if sec.spec["group"] != group:
            continue
        y = float(sec.pos[1])
        if shape.srf.group == "vtail" and not shape.srf.mirror:
            if abs(y) > 0.3 + abs(shape.root[1]):
                continue
        elif np.sign(y) != shape.side and abs(y) > 1e-6:
            continue
        a, b = section_span(shape, sec)
        if b < -0.05 or a > shape.span_m + 0.05:
            continue
        mine.append((0.5 * (a + b), a, b, k))
    mine.sort()
    cuts = [0.0]
    for (m0, a0, b0, k0), (m1, a1, b1, k1) in zip(mine, mine[1:]):
        cuts.append(min(max(0.5 * (b0 + a1), cuts[-1] + 1e-3), shape.span_m))
    cuts.append(shape.span_m)
    owner = [k for _, _, _, k in mine] or [-1]
    extra = sorted({c.from_m for c in explicit_controls} | {c.to_m for c in explicit_controls})
    edges = sorted(set(cuts) | {e for e in extra if 0.0 < e < shape.span_m})
    out = []
    for s0, s1 in zip(edges, edges[1:]):
        if s1 - s0 < 1e-3:
            continue
        mid = 0.5 * (s0 + s1)
        idx = min(max(int(np.searchsorted(cuts, mid) - 1), 0), len(owner) - 1)
        k = owner[idx]
        seg = Segment(s0, s1, k)
        if k >= 0:
            sp = secs[k].spec
            seg.slat = sp.get("slat_airfoil") is not None
            seg.airbrake = sp["airbrake_dcd"] > 0
        if explicit_controls:
            for c in explicit_controls:
                if c.from_m - 1e-6 <= mid <= c.to_m + 1e-6:
                    seg.control = _section_with_control(mine, secs, c.control, mid, shape)
                    seg.hinge = max(1.0 - c.chord_fraction, 0.0)
                    seg.split = c.kind == "split"
                    seg.pivot_x_m = c.pivot_x_m
        elif k >= 0 and secs[k].spec["control"] is not None:
            af = spec.airfoils.get(secs[k].spec["airfoil"])
            cf = (getattr(af, "control_chord_fraction", 0.0) or 0.25) if af is not None else 0.25
            seg.control = k
            seg.hinge = 1.0 - cf
        out.append(seg)
    return out


def _section_with_control(mine, secs, control, s, shape):
    """The physics section with that control nearest to span s (its deflection turns the part)."""
    best, dist = -1, 1e9
    for m, a, b, k in mine:
        if secs[k].spec["control"] != control:
            continue
        d = 0.0 if a <= s <= b else min(abs(s - a), abs(s - b))
        if d < dist:
            best, dist = k, d
    return best


def surface_skin(shape: SurfaceShape, name: str) -> Skin:
    srf = shape.srf
    mean_chord = shape.area_m2() / max(shape.span_m, 1e-6)
    # cross(d/du, d/dv) is the span axis across the upper surface's forward run: outward on
    # the right-hand (as given) surface, inward on its mirror image
    return Skin(name, srf.group, shape.fn, (shape.span_m, 2.1 * mean_chord), orient=float(shape.side),
                side=shape.side, meta={"shape": shape})
