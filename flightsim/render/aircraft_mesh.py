"""An aircraft's 3D model generated from its own data (numpy only, no GL, no artist).

Every lifting section becomes an airfoil-shaped slab with its chord, span, dihedral and
incidence (the compiled section axes); its control surface is the rear part of the slab,
hinged on the span axis, and moves by the deflection the physics reports. A section with
an automatic slat has its front SLAT_CHORD of chord as a part of its own, which runs out
forward and down and droops a little as the physics' slat position goes 0 to 1. Sections
with an airbrake get a plate that rises out of the upper surface. The body sections give
the fuselage (length from their chord, width and height from their spans), mass items named
``pilot`` place the canopy, gear legs get wheels (hidden when a retractable gear is up).

Vertices are in body axes (FRD, metres from the datum); each carries a part index, and
``part_transforms`` gives the 4x4 per-part matrices for a pose (part 0 = rigid).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..aircraft_data.damage import stores_of
from .model.parts import MAX_PARTS, Part, transforms

# an automatic leading-edge slat (Bf 109 style): its chord, and where it goes fully open,
# as fractions of the section's chord (about 6 % forward and 3 % down) with a few degrees
# of nose-down droop about its trailing edge
SLAT_CHORD = 0.18
SLAT_OUT_FORWARD = 0.06
SLAT_OUT_DOWN = 0.03
SLAT_DROOP_DEG = 5.0
WHITE = (0.94, 0.94, 0.92)
SURFACE = (0.86, 0.86, 0.85)
TIP = (0.93, 0.3, 0.12)
CANOPY = (0.08, 0.12, 0.18)
DARK = (0.08, 0.08, 0.08)
BRAKE = (0.75, 0.76, 0.78)
STORE_BOMB = (0.28, 0.30, 0.22)
STORE_TANK = (0.70, 0.72, 0.74)


@dataclass
class AircraftMesh:
    vertices: np.ndarray      # (n, 10) float32: position 3, normal 3, colour 3, part 1
    parts: list
    fuselage_parts: set       # part indices hidden in the cockpit view
    n_triangles: int

    def part_transforms(self, deflections_rad, airbrake: float, gear_up: float, slat_positions=None,
                        section_damage=None, stores_on=None) -> np.ndarray:
        """(MAX_PARTS, 4, 4) matrices for a pose (model/parts.py's transforms, the same rules as
        the painted models): control deflections, slats 0..1, airbrakes 0..1, gear 0 down .. 1
        up, sections shot away hidden, the stores not on hidden."""
        return transforms(self.parts, deflections_rad, airbrake, gear_up, slat_positions, section_damage, stores_on)


class _Builder:
    """Triangles gathered one by one (a flat one's normal from its winding, or given), turned
    into the (n, 10) vertex array at the end in one numpy pass: buildings, trees and the
    fallback aircraft are thousands of triangles, and a cross product per call cost a warm
    start most of a second."""
    NAN3 = (float("nan"),) * 3

    def __init__(self):
        self.tris = []      # per triangle: 3 positions, 3 normals (NaN: from the winding), colour, part

    def tri(self, a, b, c, col, part, n=None):
        nn = self.NAN3 if n is None else tuple(n)
        self.tris.append((*a, *b, *c, *nn, *nn, *nn, *col, part))

    def quad(self, a, b, c, d, col, part):
        self.tri(a, b, c, col, part)
        self.tri(a, c, d, col, part)

    def smooth_quad(self, ps, ns, col, part):
        """Quad with per-vertex normals (ps, ns: 4 each)."""
        for i, j, k in ((0, 1, 2), (0, 2, 3)):
            self.tris.append((*ps[i], *ps[j], *ps[k], *ns[i], *ns[j], *ns[k], *col, part))

    def array(self):
        if not self.tris:
            return np.zeros((0, 10), np.float32)
        t = np.array(self.tris, dtype=np.float64)
        P = t[:, 0:9].reshape(-1, 3, 3)
        N = t[:, 9:18].reshape(-1, 3, 3)
        flat = np.isnan(N[:, 0, 0])
        n = np.cross(P[:, 1] - P[:, 0], P[:, 2] - P[:, 0])
        ln = np.linalg.norm(n, axis=1)
        keep = ~flat | (ln >= 1e-12)          # a flat triangle with no area has no normal: left out
        N[flat] = (n[flat] / np.maximum(ln[flat], 1e-300)[:, None])[:, None, :]
        rest = np.repeat(t[:, None, 18:22], 3, axis=1)
        out = np.concatenate([P, N, rest], axis=2)[keep]
        return out.reshape(-1, 10).astype(np.float32)


def airfoil_profile(thickness: float, camber: float = 0.0, n: int = 7):
    """Points (x/c from the leading edge, z/c up) along upper and lower surfaces, NACA 4-digit shape."""
    x = (1 - np.cos(np.linspace(0.0, math.pi, n))) / 2
    yt = 5 * thickness * (0.2969 * np.sqrt(x) - 0.126 * x - 0.3516 * x ** 2 + 0.2843 * x ** 3 - 0.1036 * x ** 4)
    yc = np.where(x < 0.4, camber / 0.16 * (0.8 * x - x * x), camber / 0.36 * (0.2 + 0.8 * x - x * x))
    return x, yc + yt, yc - yt


def _profile_at(xs, thickness: float, camber: float):
    """Upper and lower surface (z/c) of the NACA 4-digit shape at chord fractions xs."""
    xs = np.asarray(xs, dtype=np.float64)
    yt = 5 * thickness * (0.2969 * np.sqrt(xs) - 0.126 * xs - 0.3516 * xs ** 2 + 0.2843 * xs ** 3
                          - 0.1036 * xs ** 4)
    yc = np.where(xs < 0.4, camber / 0.16 * (0.8 * xs - xs * xs), camber / 0.36 * (0.2 + 0.8 * xs - xs * xs))
    return yc + yt, yc - yt


def _slab(b: _Builder, origin, chord_ax, normal, span_ax, chord, span, x0, x1, thickness, camber, col, part,
          tip_col=None, tip_frac=0.0, tip_side=0, n=7, caps=(True, True), stations=None):
    """An airfoil slab between chord fractions x0..x1 (from the LE), span centred on origin.
    ``stations``: the chord fractions of its facets, the shape taken exactly there (else an
    even spacing over the n-point profile)."""
    if stations is None:
        x, up, lo = airfoil_profile(thickness, camber, n)
        xs = np.linspace(x0, x1, max(2, int(round((x1 - x0) * (n - 1))) + 1))
        zu = np.interp(xs, x, up)
        zl = np.interp(xs, x, lo)
    else:
        xs = np.asarray(stations, dtype=np.float64)
        zu, zl = _profile_at(xs, thickness, camber)
    if x1 >= 0.999:
        zu[-1] = zl[-1] = 0.5 * (zu[-1] + zl[-1])

    def P(xc, zc, s):
        return origin + chord_ax * (0.25 - xc) * chord + normal * zc * chord + span_ax * s

    stations = [-span / 2, span / 2]
    if tip_col is not None and tip_frac > 0:
        cut = span / 2 - tip_frac * span
        stations = [-span / 2, cut, span / 2] if tip_side > 0 else [-span / 2, -cut, span / 2]
    for k in range(len(stations) - 1):
        s0, s1 = stations[k], stations[k + 1]
        c = col
        if tip_col is not None and len(stations) == 3 and ((tip_side > 0 and k == 1) or (tip_side < 0 and k == 0)):
            c = tip_col
        for i in range(len(xs) - 1):
            b.quad(P(xs[i], zu[i], s0), P(xs[i], zu[i], s1), P(xs[i + 1], zu[i + 1], s1), P(xs[i + 1], zu[i + 1], s0),
                   c, part)
            b.quad(P(xs[i], zl[i], s0), P(xs[i + 1], zl[i + 1], s0), P(xs[i + 1], zl[i + 1], s1), P(xs[i], zl[i], s1),
                   c, part)
        if x0 > 0.001:   # the hinge face
            b.quad(P(xs[0], zu[0], s0), P(xs[0], zl[0], s0), P(xs[0], zl[0], s1), P(xs[0], zu[0], s1), c, part)
        if x1 < 0.999:
            b.quad(P(xs[-1], zu[-1], s0), P(xs[-1], zu[-1], s1), P(xs[-1], zl[-1], s1), P(xs[-1], zl[-1], s0), c, part)
    for s, on in ((-span / 2, caps[0]), (span / 2, caps[1])):
        if not on:
            continue
        for i in range(len(xs) - 1):
            b.quad(P(xs[i], zu[i], s), P(xs[i], zl[i], s), P(xs[i + 1], zl[i + 1], s), P(xs[i + 1], zu[i + 1], s),
                   col, part)


def _fuselage(b: _Builder, nose_x, length, width, height, z_c, canopy_x, part, n_around=12, n_len=18):
    """A lofted body: elliptic frames, full pod at the front tapering to a boom."""
    t = np.linspace(0.0, 1.0, n_len)

    def shape(t):
        nose = np.sqrt(np.clip(t / 0.22, 0, 1)) * (1 - 0.35 * np.clip((0.22 - t) / 0.22, 0, 1) ** 2)
        taper = 1.0 - 0.72 * np.clip((t - 0.3) / 0.55, 0, 1) ** 0.8
        return np.maximum(np.minimum(nose, taper), 0.0) * np.where(t > 0.97, 0.7, 1.0)

    sh = shape(t)
    mean = max(float(np.mean(sh)), 0.3)
    W = width / mean
    H = height / mean
    phi = np.linspace(0, 2 * math.pi, n_around + 1)
    xs = nose_x - t * length
    # the pod hangs below the boom line
    zc = z_c + 0.22 * H * (sh - sh[-1]) * 0.5
    rings = []
    norms = []
    for i in range(n_len):
        w = max(W * sh[i] / 2, 0.01)
        h = max(H * sh[i] / 2, 0.01)
        ring = np.stack([np.full_like(phi, xs[i]), w * np.cos(phi), zc[i] + h * np.sin(phi)], axis=1)
        nrm = np.stack([np.zeros_like(phi), np.cos(phi) / w, np.sin(phi) / h], axis=1)
        nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
        rings.append(ring)
        norms.append(nrm)
    for i in range(n_len - 1):
        for j in range(n_around):
            xm = 0.5 * (xs[i] + xs[i + 1])
            upper = math.sin(0.5 * (phi[j] + phi[j + 1])) < -0.35
            col = CANOPY if (upper and canopy_x[0] <= xm <= canopy_x[1]) else WHITE
            ps = [rings[i][j], rings[i + 1][j], rings[i + 1][j + 1], rings[i][j + 1]]
            ns = [norms[i][j], norms[i + 1][j], norms[i + 1][j + 1], norms[i][j + 1]]
            # outward winding
            b.smooth_quad(ps[::-1], ns[::-1], col, part)
    # nose cap and tail cap
    for i, sgn in ((0, 1.0), (n_len - 1, -1.0)):
        c = np.array([xs[i] + sgn * 0.02, 0.0, zc[i]])
        for j in range(n_around):
            b.tri(c, rings[i][j], rings[i][j + 1], WHITE, part)


def _wheel(b: _Builder, centre, radius, width, part, n=10):
    a = np.linspace(0, 2 * math.pi, n + 1)
    for i in range(n):
        p = [np.array([centre[0] + radius * math.cos(t), centre[1] + s * width / 2, centre[2] + radius * math.sin(t)])
             for t, s in ((a[i], -1), (a[i + 1], -1), (a[i + 1], 1), (a[i], 1))]
        b.quad(p[0], p[1], p[2], p[3], DARK, part)
        for s in (-1, 1):
            b.tri(np.array([centre[0], centre[1] + s * width / 2, centre[2]]),
                  p[0] if s < 0 else p[3], p[1] if s < 0 else p[2], (0.3, 0.3, 0.32), part)


def _slat_part(s, k: int, chord: float, thick: float, camber: float) -> Part:
    """Section k's slat: pivoting about the middle of its trailing edge, running out forward
    (along the chord) and down (against the section normal)."""
    zu, zl = _profile_at([SLAT_CHORD], thick, camber)
    zmid = 0.5 * float(zu[0] + zl[0])
    pivot = s.pos + s.chord_ax * (0.25 - SLAT_CHORD) * chord + s.normal * zmid * chord
    out = (SLAT_OUT_FORWARD * s.chord_ax - SLAT_OUT_DOWN * s.normal) * chord
    return Part("slat", k, pivot, s.span_ax.copy(), open_m=out, droop_rad=math.radians(SLAT_DROOP_DEG))


def build(compiled) -> AircraftMesh:
    """The aircraft as slabs from its data: each lifting section (its fixed part, control surface,
    slat and airbrake moving on their own), the fuselage, the stores and the gear."""
    b = _Builder()
    parts = [Part("rigid")]
    fuselage_parts = set()
    spec = compiled.spec
    secs = compiled.sections
    tips = _tip_sections(secs)
    body = [s for s in secs if s.spec["group"] == "body"]
    # bombs and drop tanks (a missile store is a row of rounds for the mass and drag: not drawn)
    stores = [(k, st) for k, st in enumerate(stores_of(spec)) if st["kind"] != "missile"]
    # each lifting section a part of its own, so that one shot away can be hidden (when the
    # shader's part slots allow: a big aircraft keeps its sections rigid)
    n_moving = sum(1 for s in secs if s.spec["control"] is not None) + sum(
        1 for s in secs if s.spec.get("slat_airfoil") is not None) + sum(1 for s in secs if s.spec["airbrake_dcd"] > 0)
    own_parts = 2 + n_moving + len(spec.gear) + len(stores) + sum(1 for s in secs if s.spec["group"] != "body") \
        <= MAX_PARTS
    for k, s in enumerate(secs):
        if s.spec["group"] != "body":
            _lifting_section(b, parts, spec, k, s, k in tips, own_parts)
    if body:
        pi = len(parts)
        parts.append(Part("rigid"))
        fuselage_parts.add(pi)
        _body(b, spec, body, pi)
    # stores: bombs and drop tanks as eight-sided bodies with pointed ends (shown while on)
    for k, st in stores:
        pi = len(parts)
        parts.append(Part("store", k, np.asarray(st["position_m"], dtype=np.float64)))
        col = STORE_BOMB if st["kind"] == "bomb" else STORE_TANK
        _store(b, np.asarray(st["position_m"], dtype=np.float64), np.asarray(st["size_m"], dtype=np.float64), col, pi)
    for g in spec.gear:
        _gear_leg(b, parts, g)
    if len(parts) > MAX_PARTS:
        raise ValueError(f"{len(parts)} moving parts; the shader takes {MAX_PARTS}")
    v = b.array()
    return AircraftMesh(v, parts, fuselage_parts, len(v) // 3)


def _tip_sections(secs) -> set:
    """The outermost section on each side of the wing and the tailplane (they get a colour band)."""
    tips = set()
    for grp in ("wing", "htail"):
        members = [k for k, s in enumerate(secs) if s.spec["group"] == grp]
        for side in (1, -1):
            m = [k for k in members if np.sign(secs[k].pos[1]) == side]
            if m:
                tips.add(max(m, key=lambda k: abs(secs[k].pos[1])))
    return tips


def _lifting_section(b, parts, spec, k, s, tip: bool, own_parts: bool) -> None:
    """One lifting section: its fixed slab (a part of its own when ``own_parts``), its slat, its
    control surface hinged at the airfoil's control chord, its airbrake plates."""
    sp = s.spec
    fixed = 0
    if own_parts:
        fixed = len(parts)
        parts.append(Part("section", k, s.pos.copy()))
    chord, span = sp["chord_m"], sp["span_m"]
    af = spec.airfoils.get(sp["airfoil"])
    thick = (af.thickness_ratio if af is not None and getattr(af, "thickness_ratio", None) else
             (0.15 if sp["group"] == "wing" else 0.10))
    camber = 0.03 if sp["group"] == "wing" else 0.0
    tip_side = int(np.sign(s.pos[1])) if tip else 0
    # span axis points outboard on the right and inboard on the left (it is chord x normal)
    tip_sign = tip_side * (1 if np.dot(s.span_ax, [0, 1, 0]) >= 0 else -1)
    tip_kw = dict(tip_col=TIP, tip_frac=min(0.35 / span, 0.3), tip_side=tip_sign) if tip else {}
    cf = ((af.control_chord_fraction if af is not None else 0.0) or 0.25) if sp["control"] is not None else 0.0
    hinge = 1.0 - cf
    if sp.get("slat_airfoil") is not None:
        # the fixed wing behind the slat, its shape taken at the same chord station as the slat's back
        xs = np.linspace(SLAT_CHORD, hinge, max(2, int(round((hinge - SLAT_CHORD) * 6)) + 1))
        _slab(b, s.pos, s.chord_ax, s.normal, s.span_ax, chord, span, SLAT_CHORD, hinge, thick, camber, WHITE,
              fixed, stations=xs, **tip_kw)
        pi = len(parts)
        parts.append(_slat_part(s, k, chord, thick, camber))
        xs = SLAT_CHORD * (1.0 - np.cos(np.linspace(0.0, 0.5 * math.pi, 7)))   # a round nose
        _slab(b, s.pos, s.chord_ax, s.normal, s.span_ax, chord, span, 0.0, SLAT_CHORD, thick, camber, SURFACE, pi,
              stations=xs, **tip_kw)
    else:
        _slab(b, s.pos, s.chord_ax, s.normal, s.span_ax, chord, span, 0.0, hinge, thick, camber, WHITE, fixed,
              **tip_kw)
    if sp["control"] is not None:
        pi = len(parts)
        x, up, lo = airfoil_profile(thick, camber)
        zmid = 0.5 * (np.interp(hinge, x, up) + np.interp(hinge, x, lo))
        pivot = s.pos + s.chord_ax * (0.25 - hinge) * chord + s.normal * zmid * chord
        parts.append(Part("control", k, pivot, s.span_ax.copy()))
        _slab(b, s.pos, s.chord_ax, s.normal, s.span_ax, chord, span, hinge, 1.0, thick, camber, SURFACE, pi,
              **tip_kw)
    if sp["airbrake_dcd"] > 0:
        pi = len(parts)
        h = 0.28 * chord
        parts.append(Part("airbrake", k, s.pos.copy(), s.normal.copy(), travel_m=h))
        for xc in (0.5, 0.56):
            base = s.pos + s.chord_ax * (0.25 - xc) * chord + s.normal * (0.05 * chord - h)
            a = base - s.span_ax * 0.4 * span
            c = base + s.span_ax * 0.4 * span
            b.quad(a, c, c + s.normal * h, a + s.normal * h, BRAKE, pi)


def _body(b, spec, body, pi: int) -> None:
    """The fuselage round the body sections, from its nose to its tail as the structure reaches
    (contact points and mass items go beyond the aero body's equivalent plate), the canopy over the pilot."""
    hz = [s for s in body if abs(s.normal[2]) > 0.5]
    vt = [s for s in body if abs(s.normal[2]) <= 0.5]
    ref = (hz or body)[0]
    width = hz[0].spec["span_m"] if hz else 0.6
    height = vt[0].spec["span_m"] if vt else width
    pts = [np.asarray(c["position_m"]) for c in spec.contacts if abs(c["position_m"][1]) < 0.5]
    pts += [np.asarray(m["position_m"]) + [0.5 * m["size_m"][0], 0, 0] for m in spec.masses]
    nose_x = max([ref.pos[0] + 0.25 * ref.spec["chord_m"]] + [float(q[0]) for q in pts])
    tail_x = min([ref.pos[0] - 0.75 * ref.spec["chord_m"]] + [float(q[0]) for q in pts])
    length = nose_x - tail_x
    pilot = [m for m in spec.masses if "pilot" in m["name"]]
    if pilot:
        px = pilot[0]["position_m"][0]
        canopy = (px - 0.35, px + 0.85)
    else:
        canopy = (nose_x - 0.3 * length, nose_x - 0.1 * length)
    _fuselage(b, nose_x, length, width, height, ref.pos[2], canopy, pi)


def _gear_leg(b, parts, g) -> None:
    """A leg: a skid where it does not steer and is a skid or soft (a glider's), else a wheel; its
    part retracts with the gear."""
    p = np.asarray(g["position_m"], dtype=np.float64)
    pi = len(parts)
    parts.append(Part("gear", pivot=p + np.array([0, 0, -0.3]), retractable=bool(g["retractable"])))
    if g["steering_max_deg"] == 0.0 and ("skid" in g["name"] or g["stiffness_n_per_m"] < 30000):
        b.quad(p + [0.15, -0.03, -0.02], p + [0.15, 0.03, -0.02], p + [-0.15, 0.03, -0.02], p + [-0.15, -0.03, -0.02],
               DARK, pi)
        b.quad(p + [0.15, -0.03, -0.02], p + [-0.15, -0.03, -0.02], p + [-0.15, -0.03, -0.12], p + [0.15, -0.03, -0.12],
               DARK, pi)
        b.quad(p + [0.15, 0.03, -0.02], p + [0.15, 0.03, -0.12], p + [-0.15, 0.03, -0.12], p + [-0.15, 0.03, -0.02],
               DARK, pi)
    else:
        r = 0.19
        _wheel(b, p + np.array([0.0, 0.0, -r]), r, 0.12, pi)


def _store(b, centre, size, col, part, n=8):
    """A store: an n-sided body of revolution along x, its middle half cylindrical, pointed ends."""
    lx, ly, lz = size
    stations = [(-0.5, 0.0), (-0.3, 1.0), (0.25, 1.0), (0.5, 0.15)]
    ring = [(math.cos(2 * math.pi * j / n), math.sin(2 * math.pi * j / n)) for j in range(n)]
    pts = [[centre + np.array([x * lx, c * 0.5 * ly * r, s_ * 0.5 * lz * r]) for c, s_ in ring] for x, r in stations]
    for i in range(len(stations) - 1):
        for j in range(n):
            a, bb = pts[i][j], pts[i][(j + 1) % n]
            c, d = pts[i + 1][(j + 1) % n], pts[i + 1][j]
            b.quad(a, bb, c, d, col, part)
            b.quad(a, d, c, bb, col, part)          # both faces: the winding does not matter


def section_extent(compiled) -> float:
    """Largest distance of any section end from the CG (for cameras and culling), m."""
    d = 0.0
    for s in compiled.sections:
        for e in (-0.5, 0.5):
            d = max(d, float(np.linalg.norm(s.pos + s.span_ax * e * s.spec["span_m"] - compiled.cg_m)))
    return d


__all__ = ["AircraftMesh", "build", "section_extent", "MAX_PARTS"]
