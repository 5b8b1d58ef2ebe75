"""An aircraft's exterior from its visual.toml and its physics data: skins, pieces, parts.

``build(compiled, visual)`` lofts the fuselage and the other bodies, the canopy's glass and
frame, the spinner and the blades, the wings and tails (cut where the physics' strips
meet, controls and slats where the physics has them), exhausts, gun barrels, gear legs
that fold about their hinges, stores and the pilot. It returns the triangles (position,
normal, atlas uv, part) and the skins, which render/model/paint.py paints into the atlas.
Numpy only: no GL here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import fittings, loft
from .assembly import Assembly
from .parts import MAX_PARTS, Part
from .skin import Piece, Skin, mesh_piece, pack
from .surfaces import (
    SLAT_CHORD,
    SLAT_DROOP_DEG,
    SLAT_OUT_DOWN,
    SLAT_OUT_FORWARD,
    Segment,
    SurfaceShape,
    segments,
    surface_skin,
    v_of_chord,
)

ATLAS_PX = 2048
DETAIL = {"high": 1.0, "medium": 0.65, "low": 0.4}   # grid density factor of each level of detail


@dataclass
class ExteriorModel:
    vertices: np.ndarray           # (n, 10) float32: position 3, normal 3, atlas uv 2, part 1, inside paint 1
    indices: np.ndarray            # (m, 3) int32
    glass_vertices: np.ndarray     # (k, 7) float32: position 3, normal 3, part 1 (the canopy's glass)
    glass_indices: np.ndarray
    parts: list
    skins: list
    cockpit_parts: set = field(default_factory=set)
    propeller: dict | None = None  # position, axis, radius_m, blades, ratio (prop rpm per engine rpm), part
    exhausts: list = field(default_factory=list)     # (point, outward direction) of each stub or nozzle
    nozzles: list = field(default_factory=list)      # (point, radius) of each jet nozzle
    wingtips: list = field(default_factory=list)     # the wing tips' points (vapour trails)
    extent_m: float = 1.0
    cockpit: dict | None = None    # the panel's face, the eye, the sight's glass (render/cockpit3d.py)

    @property
    def n_triangles(self) -> int:
        return len(self.indices)

    def part_transforms(self, *args, **kw):
        from .parts import transforms
        return transforms(self.parts, *args, **kw)




# ---------------------------------------------------------------------------- bodies
def _ends_warp(t):
    """Closer spacing at both ends (noses and tails curve there)."""
    return 0.55 * t + 0.45 * (0.5 - 0.5 * np.cos(np.pi * t))


def _body(a: Assembly, body, kind: str, name: str, y_sign: int = 1, cockpit=None):
    lf = loft.Loft(body.stations, y_m=body.y_m * y_sign)
    meta = {"finish": body.finish, "loft": lf}
    sk = a.skin(Skin(name, kind, lf.fn, (lf.length_m, max(lf.girth_m, 0.05)),
                     side=int(np.sign(body.y_m * y_sign)) if body.y_m else 0, meta=meta))
    nu = max(8, lf.length_m / 0.12)
    nv = 40 if kind == "fuselage" else 20
    if cockpit is None:
        a.add(sk, 0, nu, nv, u_warp=_ends_warp)
    else:
        # the skin over the cockpit opening is its own part: hidden in the cockpit view
        ua, ub, vc, part = cockpit
        a.add(sk, 0, nu * ua + 2, nv, u=(0.0, ua))
        a.add(sk, 0, nu * (ub - ua) + 2, nv * (1 - 2 * vc) + 2, u=(ua, ub), v=(vc, 1.0 - vc))
        a.add(sk, part, nu * (ub - ua) + 2, nv * vc + 2, u=(ua, ub), v=(0.0, vc))
        a.add(sk, part, nu * (ub - ua) + 2, nv * vc + 2, u=(ua, ub), v=(1.0 - vc, 1.0))
        a.add(sk, 0, nu * (1 - ub) + 2, nv, u=(ub, 1.0))
    if body.mouth or body.exit:
        for at, on in ((0.0, body.mouth), (1.0, body.exit)):
            if not on:
                continue
            x = float(lf.x_of(at))
            depth = 0.25 * (float(lf.bottom(x)) - float(lf.top(x))) * (1 if at == 0.0 else -1)

            def fn(u, v, x=x, depth=depth):
                rim = lf.section(np.full(np.shape(u), x), 2 * np.pi * np.asarray(v))
                centre = np.array([x - depth, lf.y_m, float(lf.widest(x))])
                return rim + (centre - rim) * np.asarray(u, dtype=np.float64)[..., None]
            d = a.skin(Skin(f"{name}_{'mouth' if at == 0.0 else 'exit'}", "dark", fn, (0.1, 0.1),
                            orient=-1.0 if at == 0.0 else 1.0))
            a.add(d, 0, 3, nv)
    return lf


def _cockpit_cut(lf, canopy, cockpit=None):
    """The (u, v) rectangle of the fuselage skin under the canopy: the cockpit opening, from
    the instrument panel (the glare shield's lip) to the canopy's rear."""
    xs = [s.x_m for s in canopy.stations]
    x_front = canopy.windscreen[1] if canopy.windscreen else xs[0]
    if cockpit is not None:
        x_front = max(x_front, cockpit.panel_x_m)
    x_rear = xs[-1]
    ua, ub = lf.u_of(x_front), lf.u_of(x_rear)
    # round the section, as far as the glass's sill width at the widest canopy station
    mid = min(canopy.stations, key=lambda s: -s.half_width_m)
    half = 0.92 * mid.half_width_m
    x = mid.x_m
    phis = np.linspace(0.0, 0.5 * np.pi, 200)
    ys = lf.section(np.full(200, x), phis)[:, 1] - lf.y_m
    k = int(np.argmax(ys >= half)) if np.any(ys >= half) else 100
    return min(ua, ub), max(ua, ub), float(phis[k] / (2 * np.pi))


# ---------------------------------------------------------------------------- canopy
def _canopy(a: Assembly, canopy, cockpit_part):
    cl = loft.CanopyLoft(canopy.stations)
    L = cl.x_front - cl.x_rear
    glass = a.skin(Skin("canopy_glass", "glass", cl.fn, (L, 1.5)))
    a.glass.append(Piece(glass, 0.0, 1.0, 0.0, 1.0, a.n(max(L / 0.08, 8)), a.n(24), 0))

    def band(x_at, width, t0=-1.0, t1=1.0, lift=0.006):
        def fn(u, v):
            t = t0 + (t1 - t0) * np.asarray(u, dtype=np.float64)
            x = x_at + (np.asarray(v, dtype=np.float64) - 0.5) * width
            p = cl.arch(x, t)
            mid_z = 0.5 * (cl.sill(x) + cl.top(x))
            out = p - np.stack(np.broadcast_arrays(x, 0.0 * x, mid_z), axis=-1)
            out[..., 0] = 0.0
            n = out / np.maximum(np.linalg.norm(out, axis=-1, keepdims=True), 1e-9)
            return p + n * lift
        return fn

    frames = list(canopy.frames_x_m)
    thick = []
    if canopy.windscreen:
        thick = list(canopy.windscreen)
    for x in frames + thick:
        w = 0.05 if x in thick else 0.035
        x = min(max(x, cl.x_rear + 0.5 * w), cl.x_front - 0.5 * w)
        sk = a.skin(Skin(f"frame_{x:.2f}", "frame", band(x, w), (2.2 * float(cl.half(x)) + 0.2, w), orient=1.0))
        a.add(sk, 0, 16, 2)

    def rail(t_of_x, width):
        def fn(u, v):
            x = cl.x_front + (cl.x_rear - cl.x_front) * np.asarray(u, dtype=np.float64)
            t = t_of_x(x) + (np.asarray(v, dtype=np.float64) - 0.5) * width
            p = cl.arch(x, np.clip(t, -1.0, 1.0))
            mid_z = 0.5 * (cl.sill(x) + cl.top(x))
            out = p - np.stack(np.broadcast_arrays(x, 0.0 * x, mid_z), axis=-1)
            out[..., 0] = 0.0
            return p + out / np.maximum(np.linalg.norm(out, axis=-1, keepdims=True), 1e-9) * 0.006
        return fn

    for side in (-1.0, 1.0):       # the sill rails
        sk = a.skin(Skin(f"sill_{side:+.0f}", "frame", rail(lambda x, s=side: s * 0.985, 0.03), (L, 0.06)))
        a.add(sk, 0, L / 0.1, 2)
    if canopy.centre_bar:
        sk = a.skin(Skin("centre_bar", "frame", rail(lambda x: 0.0, 0.05), (L, 0.05)))
        a.add(sk, 0, L / 0.1, 2)
    for z in canopy.side_bars:
        for side in (-1.0, 1.0):
            def t_of(x, z=z, s=side):
                h = np.maximum(cl.sill(x) - cl.top(x), 1e-6)
                e = 2.0 / np.maximum(cl.n(x), 1.0)
                c = np.clip((cl.sill(x) - z) / h, 0.0, 1.0) ** (1.0 / e)
                return s * (1.0 - np.arccos(c) / (0.5 * np.pi))
            sk = a.skin(Skin(f"side_bar_{z:.2f}_{side:+.0f}", "frame", rail(t_of, 0.035), (L, 0.04)))
            a.add(sk, 0, L / 0.1, 2)
    if canopy.armour_glass and canopy.windscreen:
        xw = min(canopy.windscreen) - 0.03
        h = float(cl.sill(xw) - cl.top(xw))
        c = (xw, 0.0, float(cl.top(xw)) + 0.55 * h)
        g = a.skin(Skin("armour_glass", "glass", loft.box(c, (0.018, 0.6 * float(cl.half(xw)), 0.3 * h)), (0.3, 0.3)))
        a.glass.append(Piece(g, 0.0, 1.0, 0.0, 1.0, 8, 6, 0))
    return cl


# ---------------------------------------------------------------------------- propeller
def _propeller(a: Assembly, visual, prop_spec, engine_spec):
    if visual.spinner is None or prop_spec is None:
        return None
    sp = visual.spinner
    pos = np.asarray(prop_spec["position_m"], dtype=np.float64)
    axis = np.array([1.0, 0.0, 0.0]) if prop_spec.get("rotation", "clockwise") == "clockwise" else \
        np.array([-1.0, 0.0, 0.0])
    part = a.part(Part("propeller", pivot=np.array([pos[0], 0.0, sp.z_m]), axis=axis))
    fn = loft.revolution(sp.tip_x_m, sp.base_x_m, lambda t: sp.radius_m * loft.ogive(t), centre=(0.0, sp.z_m))
    length = sp.tip_x_m - sp.base_x_m
    a.add(a.skin(Skin("spinner", "spinner", fn, (length * 1.3, 2 * np.pi * sp.radius_m))), part, 10, 24)
    blade_part = a.part(Part("blades", pivot=np.array([pos[0], 0.0, sp.z_m]), axis=axis))
    R = 0.5 * float(prop_spec["diameter_m"])
    look = visual.propeller
    r0 = 0.75 * sp.radius_m
    stations = np.asarray(prop_spec.get("station_r_fraction") or [0.25, 0.75, 0.95])
    twist = np.asarray(prop_spec.get("station_twist_deg") or [25.0, 0.0, -6.0])
    tr = np.asarray(prop_spec.get("station_thickness_ratio") or [0.2, 0.08, 0.06])
    beta75 = float(prop_spec.get("fine_pitch_deg", 25.0)) + 8.0
    blades = int(prop_spec["blades"])
    c_root = look.blade_root_chord_m if look else 0.2
    c_max = look.blade_max_chord_m if look else 0.25
    c_tip = look.blade_tip_chord_m if look else 0.15
    round_tip = (look.tip if look else "round") == "round"

    def chord(f):
        c = np.where(f < 0.6, c_root + (c_max - c_root) * np.sin(0.5 * np.pi * f / 0.6),
                     c_max + (c_tip - c_max) * np.clip((f - 0.6) / 0.4, 0.0, 1.0) ** 1.6)
        if round_tip:          # the last tenth of the radius rounds off to the tip
            c = c * np.sqrt(np.clip(1.0 - ((f - 0.9) / 0.1).clip(0.0, 1.0) ** 2, 0.0, 1.0)) + 0.004
        return c

    for b in range(blades):
        th = 2 * np.pi * b / blades
        radial = np.array([0.0, math.sin(th), -math.cos(th)])
        motion = np.cross(axis, radial)

        def fn(u, v, radial=radial, motion=motion):
            r = r0 + (R - r0) * np.asarray(u, dtype=np.float64)
            f = r / R
            c = chord(f)
            beta = np.radians(beta75 + np.interp(f, stations, twist - np.interp(0.75, stations, twist)))
            t = np.interp(f, stations, tr)
            cc, side = loft_chord(v)
            thick = 0.5 * t * c * np.sqrt(np.clip(cc * (1 - cc), 0.0, 0.25)) * 2.0 * side
            xi = (0.4 - cc) * c                    # along the chord, + toward the leading edge
            lead = np.cos(beta)[..., None] * motion + np.sin(beta)[..., None] * axis * np.sign(axis[0])
            normal = -np.sin(beta)[..., None] * motion + np.cos(beta)[..., None] * axis * np.sign(axis[0])
            base = np.array([pos[0], 0.0, sp.z_m]) + radial * r[..., None]
            return base + lead * xi[..., None] + normal * thick[..., None]
        sk = a.skin(Skin(f"blade_{b}", "blade", fn, (R - r0, 2.1 * c_max), orient=1.0,
                         meta={"r0": r0, "R": R}))
        a.add(sk, blade_part, 14, 8)
    ratio = 1.0
    if engine_spec is not None:
        ratio = float(engine_spec.get("propeller_gear_ratio", 1.0))
    return {"position": np.array([pos[0], 0.0, sp.z_m]), "axis": axis, "radius_m": R, "blades": blades,
            "ratio": ratio, "part": part}


def loft_chord(v):
    """Round a thin blade section: chord fraction and side from v (as the wings' wrap)."""
    from .surfaces import chord_of_v
    return chord_of_v(v)


# ---------------------------------------------------------------------------- surfaces
def _surfaces(a: Assembly, compiled, visual, own_parts: bool):
    """Every lifting surface (each side of a mirrored one); the wing tips' points."""
    tips = []
    section_parts = {}          # one part per physics section, however its skin is cut
    for srf in visual.surfaces:
        for side in ((1, -1) if srf.mirror else (1,)):
            tip = _surface(a, compiled, srf, SurfaceShape(srf, side), own_parts, section_parts)
            if tip is not None:
                tips.append(tip)
    return tips


SURFACE_NV = 30                 # the skin's rows round the chord


class _Movers:
    """One part per moving surface however many stretches of skin it spans: turning about the
    hinge line of its whole span (a control's physics section, its hinge, its kind)."""

    def __init__(self, a: Assembly, shape, segs, compiled):
        self.a, self.shape, self.compiled = a, shape, compiled
        self.groups: dict = {}
        for g in segs:
            if g.control >= 0:
                self.groups.setdefault(self._control_key(g), []).append(g)
            if g.slat:
                self.groups.setdefault(("slat", g.section), []).append(g)
        self.made: dict = {}

    @staticmethod
    def _control_key(g):
        return ("control", g.control, round(g.hinge, 4), g.split, g.pivot_x_m)

    def _whole(self, key):
        gs = self.groups[key]
        return Segment(min(x.s0 for x in gs), max(x.s1 for x in gs), gs[0].section, gs[0].control, gs[0].hinge,
                       gs[0].slat, gs[0].airbrake, gs[0].split, gs[0].pivot_x_m)

    def control(self, g):
        key = self._control_key(g)
        if key not in self.made:
            self.made[key] = self.a.part(_control_part(self.shape, self._whole(key), self.compiled))
            self.a.parts[self.made[key]].owner = g.section
        return self.made[key]

    def slat(self, g):
        key = ("slat", g.section)
        if key not in self.made:
            self.made[key] = self.a.part(_slat_part(self.shape, self._whole(key), self.compiled))
        return self.made[key]


def _surface(a: Assembly, compiled, srf, shape, own_parts: bool, section_parts: dict):
    """One side of one surface: its skin cut by the physics' segments, its explicit airbrake
    blades, the cap of an open end; returns its tip's point for a wing, else None."""
    name = srf.name if shape.side > 0 else f"{srf.name}_left"
    sk = a.skin(surface_skin(shape, name))
    segs = segments(shape, compiled, srf.group, srf.controls)
    span = shape.span_m
    movers = _Movers(a, shape, segs, compiled)
    for seg in segs:
        _segment(a, compiled, srf, shape, sk, name, seg, movers, own_parts, section_parts)
    for br in srf.airbrakes:          # explicit blades (visual.toml), moved by the physics' airbrakes
        mid = 0.5 * (br.from_m + br.to_m)
        owner = next((g.section for g in segs if g.s0 <= mid <= g.s1), -1)
        _airbrake(a, shape, Segment(br.from_m, br.to_m, owner), br.from_m, br.to_m, br.chord_at, br.height_m,
                  br.faces)
    if not shape.closed:
        cap = a.skin(Skin(f"{name}_cap", srf.group, shape.cap_fn, (0.3, 2.1 * float(shape.chord(span))),
                          orient=float(shape.side), side=shape.side, meta={"shape": shape, "cap": True}))
        last = segs[-1] if segs else None
        part = section_parts.get(last.section, 0) if last is not None else 0
        a.add(cap, part, 2, SURFACE_NV)
    if srf.group == "wing":
        return shape.point(np.array(span * 0.995), np.array(0.5), 0.0)
    return None


def _segment(a: Assembly, compiled, srf, shape, sk, name: str, seg, movers: _Movers, own_parts: bool,
             section_parts: dict) -> None:
    """One stretch of a surface's skin: fixed, slatted, split-flapped, hinged or all-moving."""
    nv = SURFACE_NV
    span = shape.span_m
    u0, u1 = seg.s0 / span, seg.s1 / span
    nu = max((seg.s1 - seg.s0) / 0.16, 2)
    tip_seg = seg.s1 >= span - 1e-6
    warp = None
    if tip_seg and shape.closed:
        nu += 8
        warp = _tip_warp
    fixed = 0
    if own_parts and seg.section >= 0:          # one part per physics section, however cut
        fixed = section_parts.get(seg.section)
        if fixed is None:
            fixed = section_parts[seg.section] = a.part(
                Part("section", seg.section, np.asarray(compiled.sections[seg.section].pos)))
    if seg.control >= 0 and seg.hinge <= 1e-6:
        # all-moving: the whole chord turns about its pivot line
        a.add(sk, movers.control(seg), nu, nv, u=(u0, u1), u_warp=warp)
        return
    vh_u, vh_l = (v_of_chord(seg.hinge, True), v_of_chord(seg.hinge, False)) if seg.control >= 0 \
        else (0.0, 1.0)
    if seg.control >= 0 and seg.split:
        # a split flap: the upper skin stays, the lower skin behind the hinge turns down
        a.add(sk, fixed, nu, nv * vh_u + 2, u=(u0, u1), v=(0.0, vh_u), u_warp=warp)
        a.add(sk, fixed, nu, nv * (vh_l - vh_u) + 2, u=(u0, u1), v=(vh_u, vh_l), u_warp=warp)
        ctl = movers.control(seg)
        a.add(sk, ctl, nu, nv * (1.0 - vh_l) + 2, u=(u0, u1), v=(vh_l, 1.0), u_warp=warp)
        if seg.airbrake and not srf.airbrakes:
            _airbrake(a, shape, seg)
        return
    if seg.slat:
        vs_u, vs_l = v_of_chord(SLAT_CHORD, True), v_of_chord(SLAT_CHORD, False)
        a.add(sk, fixed, nu, nv * (vs_u - vh_u) + 2, u=(u0, u1), v=(vh_u, vs_u), u_warp=warp)
        a.add(sk, fixed, nu, nv * (vh_l - vs_l) + 2, u=(u0, u1), v=(vs_l, vh_l), u_warp=warp)
        slat = movers.slat(seg)
        a.add(sk, slat, nu, nv * (vs_l - vs_u) + 4, u=(u0, u1), v=(vs_u, vs_l), u_warp=warp)
    else:
        a.add(sk, fixed, nu, nv * (vh_l - vh_u) + 2, u=(u0, u1), v=(vh_u, vh_l), u_warp=warp)
    if seg.control >= 0:
        ctl = movers.control(seg)
        a.add(sk, ctl, nu, nv * vh_u + 2, u=(u0, u1), v=(0.0, vh_u), u_warp=warp)
        a.add(sk, ctl, nu, nv * (1.0 - vh_l) + 2, u=(u0, u1), v=(vh_l, 1.0), u_warp=warp)
        for who, c in ((fixed, seg.hinge + 0.004), (ctl, seg.hinge - 0.004)):
            face = a.skin(Skin(f"{name}_hinge_{seg.s0:.2f}_{who}", "dark",
                               shape.hinge_fn(seg.s0, seg.s1, c), (0.05, 0.05)))
            a.add(face, who, nu, 2)
    if seg.airbrake and not srf.airbrakes:
        _airbrake(a, shape, seg, seg.s0 + 0.08 * (seg.s1 - seg.s0), seg.s1 - 0.08 * (seg.s1 - seg.s0),
                  0.5, 0.16 * float(shape.chord(0.5 * (seg.s0 + seg.s1))), "both")


def _tip_warp(t):
    return np.sin(0.5 * np.pi * t) ** 0.8


def _hinge_axis(shape: SurfaceShape, seg, c: float, compiled, section: int, side: float = 0.0):
    p0 = shape.point(np.array(seg.s0), np.array(c), side)
    p1 = shape.point(np.array(seg.s1), np.array(c), side)
    axis = p1 - p0
    axis /= max(np.linalg.norm(axis), 1e-9)
    if section >= 0 and float(np.dot(axis, compiled.sections[section].span_ax)) < 0:
        axis = -axis            # the physics' sign of a deflection: about its own span axis
    return 0.5 * (p0 + p1), axis


def _control_part(shape, seg, compiled) -> Part:
    if seg.hinge <= 1e-6 and seg.pivot_x_m is not None:
        # all-moving: the chord fraction of the pivot line at the segment's middle
        mid = 0.5 * (seg.s0 + seg.s1)
        le, te = shape.le_te(np.array(mid))
        c = float(np.clip((float(le) - seg.pivot_x_m) / max(float(le - te), 1e-6), 0.0, 1.0))
        pivot, axis = _hinge_axis(shape, seg, c, compiled, seg.control)
        return Part("control", seg.control, pivot, axis)
    if seg.split:                # hinged at the lower skin
        pivot, axis = _hinge_axis(shape, seg, seg.hinge, compiled, seg.control, side=-1.0)
        return Part("control", seg.control, pivot, axis)
    pivot, axis = _hinge_axis(shape, seg, seg.hinge, compiled, seg.control)
    return Part("control", seg.control, pivot, axis)


def _slat_part(shape, seg, compiled) -> Part:
    pivot, axis = _hinge_axis(shape, seg, SLAT_CHORD, compiled, seg.section)
    c = float(shape.chord(0.5 * (seg.s0 + seg.s1)))
    fwd = np.array([1.0, 0.0, 0.0])
    out = (SLAT_OUT_FORWARD * fwd - SLAT_OUT_DOWN * shape.up) * c
    return Part("slat", seg.section, pivot, axis, open_m=out, droop_rad=math.radians(SLAT_DROOP_DEG))


def _airbrake(a: Assembly, shape, seg, s0: float, s1: float, chord_at: float, height_m: float, faces: str):
    """A Schempp-Hirth airbrake: blades that rise out of the skin (the upper, the lower or
    both) between spans s0 and s1 at a chord fraction, as the physics' airbrakes deploy."""
    sides = {"upper": (1.0,), "lower": (-1.0,), "both": (1.0, -1.0)}[faces]
    for sgn in sides:
        base0 = shape.point(np.array(s0), np.array(chord_at), sgn)
        base1 = shape.point(np.array(s1), np.array(chord_at), sgn)
        travel_dir = shape.up * sgn
        part = a.part(Part("airbrake", seg.section, 0.5 * (base0 + base1), travel_dir, travel_m=height_m))

        def fn(u, v, b0=base0, b1=base1, d=travel_dir):
            p = b0 + (b1 - b0) * np.asarray(u, dtype=np.float64)[..., None]
            return p - d * height_m * 0.98 + d * (height_m * np.asarray(v, dtype=np.float64))[..., None]
        sk = a.skin(Skin(f"airbrake_{s0:.2f}_{sgn:+.0f}_{shape.side}", "metal", fn, (0.1, 0.1)))
        a.add(sk, part, 4, 2)




# ---------------------------------------------------------------------------- build
def build(compiled, visual, detail: str = "high", atlas_px: int = ATLAS_PX) -> ExteriorModel:
    """The exterior of ``compiled`` shaped by ``visual`` (aircraft_data.visual.VisualSpec). Each
    lifting section's stretch of skin is a part of its own (a section shot away takes it
    along) where the shader's part slots allow; else they stay rigid."""
    try:
        return _build(compiled, visual, detail, atlas_px, own_parts=True)
    except _TooManyParts:
        return _build(compiled, visual, detail, atlas_px, own_parts=False)


class _TooManyParts(ValueError):
    pass


def _build(compiled, visual, detail, atlas_px, own_parts) -> ExteriorModel:
    a = Assembly(DETAIL[detail])
    spec = compiled.spec
    cockpit_part = a.part(Part("cockpit"))
    cut = None
    fus_loft = loft.Loft(visual.fuselage.stations)
    if visual.canopy is not None:
        ua, ub, vc = _cockpit_cut(fus_loft, visual.canopy, visual.cockpit)
        cut = (ua, ub, vc, cockpit_part)
    _body(a, visual.fuselage, "fuselage", "fuselage", 1, cut)
    for b in visual.bodies:
        for side in ((1, -1) if b.mirror else (1,)):
            _body(a, b, "body", b.name if side > 0 else f"{b.name}_left", side)
    if visual.canopy is not None:
        _canopy(a, visual.canopy, cockpit_part)
    pp = spec.powerplant or {}
    prop = _propeller(a, visual, pp.get("propeller"), pp.get("engine"))
    tips = _surfaces(a, compiled, visual, own_parts)
    exhausts, nozzles = fittings.exhausts(a, visual)
    fittings.barrels(a, visual)
    fittings.struts(a, visual)
    fittings.gear(a, compiled, visual)
    fittings.stores(a, compiled)
    fittings.pilot(a, visual, cockpit_part)
    cockpit = fittings.cockpit_interior(a, visual, fus_loft)
    if len(a.parts) > MAX_PARTS:
        if own_parts:
            raise _TooManyParts()
        raise ValueError(f"{len(a.parts)} moving parts; the shader takes {MAX_PARTS}")
    pack(a.skins, atlas_px)
    verts, idx = _merge([mesh_piece(p) for p in a.pieces])
    gv, gi = _merge([mesh_piece(p) for p in a.glass])
    gv = np.ascontiguousarray(np.concatenate([gv[:, :6], gv[:, 8:9]], axis=1)) if len(gv) else np.zeros((0, 7), "f4")
    cg = np.asarray(compiled.cg_m, dtype=np.float64)
    extent = float(np.max(np.linalg.norm(verts[:, :3] - cg, axis=1))) if len(verts) else 1.0
    return ExteriorModel(verts, idx, gv, gi, a.parts, a.skins, {cockpit_part}, prop, exhausts, nozzles, tips, extent,
                         cockpit)


def _merge(meshes):
    if not meshes:
        return np.zeros((0, 10), np.float32), np.zeros((0, 3), np.int32)
    vs, ids, base = [], [], 0
    for v, t in meshes:
        vs.append(v)
        ids.append(t + base)
        base += len(v)
    return np.concatenate(vs), np.concatenate(ids).astype(np.int32)


def overall_dimensions(model: ExteriorModel, compiled, attitude: str = "level") -> dict:
    """Length (nose to tail, no gear), span (tip to tip) and height (from the ground with the
    gear down: at the three-point attitude of a tail-wheel aircraft, or level; a propeller's
    blade standing vertical counts, as published heights do) of the built skin, metres."""
    v = model.vertices
    part = v[:, 8].astype(int)
    kinds = np.array([p.kind for p in model.parts])
    P = v[:, :3].astype(np.float64)
    airframe = ~np.isin(kinds[part], ("gear", "store", "blades", "airbrake", "cockpit"))
    length = float(P[airframe, 0].max() - P[airframe, 0].min())
    span = float(2.0 * np.abs(P[airframe, 1]).max())
    contacts = np.array([g["position_m"] for g in compiled.spec.gear], dtype=np.float64)
    top = P[~np.isin(kinds[part], ("gear", "store", "airbrake"))]
    if model.propeller is not None:      # a blade straight up
        pr = model.propeller
        top = np.vstack([top, pr["position"] + np.array([0.0, 0.0, -pr["radius_m"]])])
    if attitude == "three_point" and len(contacts) >= 2:
        # the tail wheel or skid is the aft-most contact, the mains the others (their middle)
        k = int(np.argmin(contacts[:, 0]))
        t = contacts[k]
        mains = np.delete(contacts, k, axis=0)
        if len(mains):
            m = mains.mean(axis=0)
            theta = math.atan((t[2] - m[2]) / (t[0] - m[0]))      # the nose-up pitch that puts both on the ground
            c, s = math.cos(theta), math.sin(theta)
            R = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
            ground = float((R @ m)[2])
            return {"length_m": length, "span_m": span, "height_m": float(ground - (top @ R.T)[:, 2].min())}
    ground = float(contacts[:, 2].max()) if len(contacts) else float(P[:, 2].max())
    return {"length_m": length, "span_m": span, "height_m": float(ground - top[:, 2].min())}
