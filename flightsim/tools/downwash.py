"""The downwash at the tail by Silverstein and Katzoff's method, beside the model's (issue 30).

    python -m flightsim.tunnel downwash --aircraft p51d [--ias-kmh V] [--altitude-m H] [--json]

The model's downwash at the horizontal tail is one number per unit wing CL (aircraft_data/compile.py,
a horseshoe estimate for an elliptic load): it does not see where along the span the wing carries its
lift, so lowering part-span flaps changes it only through the wing's CL. Silverstein, Katzoff and
Bullivant (NACA Report 651, 1939) measured the downwash behind plain and flapped wings and found it
given, within the tests' scatter, by the Biot-Savart law applied to the span load of lifting-line
theory, with the trailing vortex sheet taken flat (its rolling-up may be neglected) but displaced
downward by the downwash itself; NACA Report 648 (Silverstein and Katzoff, 1939) turns that into
design charts. This card does the same calculation on the aircraft's own geometry:

* the span load of Glauert's lifting line (Anderson, Fundamentals of Aerodynamics, s5.3.2) through
  the wing's strips: their chords, incidences and, from their tables at the flown deflections, lift
  slopes and zero-lift angles, at the angle of attack that gives the model's wing CL;
* the sheet shed from each strip's trailing edge (a flap's lowered by its deflection) along the
  free stream, its centre line lowered by 3/4 of the downwash times the distance (the sheet leaves
  the wing at about half the far downwash and reaches the tail at the full), iterated;
* the downwash averaged over the tail's span, weighted by chord.

Both are flown in the configurations of the ``trim_change_flaps`` card (trimmed with the gear down,
then with the flaps down at the same speed and throttle): the model's downwash and the method's, and
what the flaps change at constant wing CL. A research card: it reads the model, changes nothing.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics.dynamics import derivative
from ..physics.named import AircraftView, section_airflow
from ..physics.named_model import AircraftData
from ..physics.scratch import make_scratch
from ..physics.section_tables import coefficients
from ..validate.flight import test_sim

N_MODES = 40            # Glauert's sine modes across the span (collocation points)
N_PANELS = 120          # horseshoes across the span for the Biot-Savart sum
TAIL_SAMPLES = 10       # points across each tail strip
SHEET_DROP = 0.75       # the sheet's centre line below the free-stream line through the trailing edge,
#                         as a share of downwash x distance
MAX_SWEEP_DEG = 15.0    # the method is for straight wings (NACA 648's charts: unswept, aspect ratio 6-12)
FLAP_CHORD = 0.25       # a flap's share of the chord where its table names none


def vortex_segment(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Velocity at ``points`` (n, 3) induced by a straight vortex filament of unit strength from a to
    b (Biot-Savart, Katz and Plotkin s2.11); zero on the filament's own line."""
    r1 = points - a
    r2 = points - b
    r0 = b - a
    cross = np.cross(r1, r2)
    c2 = np.einsum("ij,ij->i", cross, cross)
    n1 = np.linalg.norm(r1, axis=1)
    n2 = np.linalg.norm(r2, axis=1)
    on_line = c2 < 1e-12 * max(float(r0 @ r0), 1e-12)
    c2 = np.where(on_line, 1.0, c2)
    k = (r1 @ r0 / np.maximum(n1, 1e-12) - r2 @ r0 / np.maximum(n2, 1e-12)) / (4.0 * math.pi * c2)
    return np.where(on_line[:, None], 0.0, cross * k[:, None])


def glauert_load(y: np.ndarray, chord: np.ndarray, slope: np.ndarray, alpha_rad: np.ndarray,
                 semi_span: float) -> tuple[np.ndarray, float]:
    """Glauert's lifting line at the collocation points y = -s cos(theta): the sine coefficients A_n
    of the circulation Gamma = 2 b V sum A_n sin(n theta) for local lift slopes (per rad) and angles
    of attack (zero-lift angles already taken off), and the wing's CL = pi AR A_1 (AR from the span
    and the area the chords give)."""
    n = np.arange(1, len(y) + 1)
    theta = np.arccos(np.clip(-y / semi_span, -1.0, 1.0))
    b = 2.0 * semi_span
    sin_nt = np.sin(np.outer(theta, n))
    m = 4.0 * b / (slope * chord)[:, None] * sin_nt + n[None, :] * sin_nt / np.sin(theta)[:, None]
    coeffs = np.linalg.solve(m, alpha_rad)
    # the area through the same points: S = integral of c dy = s * integral of c sin(theta) dtheta
    area = semi_span * float(np.sum(chord * np.sin(theta))) * math.pi / len(y)
    return coeffs, math.pi * b * b / area * coeffs[0]


def circulation(coeffs: np.ndarray, y: np.ndarray, semi_span: float, speed: float = 1.0) -> np.ndarray:
    """Gamma(y) of Glauert's series."""
    theta = np.arccos(np.clip(-np.asarray(y) / semi_span, -1.0, 1.0))
    n = np.arange(1, len(coeffs) + 1)
    return 2.0 * (2.0 * semi_span) * speed * (np.sin(np.outer(np.atleast_1d(theta), n)) @ coeffs)


def sheet_downwash(points, weights, strips, gamma_at, semi_span, alpha_rad, drop_m) -> float:
    """Mean downwash angle (rad, + down) over ``points`` from horseshoes across the span: bound on
    each strip's quarter-chord line, legs back to its trailing edge, then with the free stream to the
    points' station (lowered by ``drop_m``) and on to infinity. Unit free stream."""
    downstream = -np.array([math.cos(alpha_rad), 0.0, math.sin(alpha_rad)])
    normal = np.array([-math.sin(alpha_rad), 0.0, math.cos(alpha_rad)])
    edges = np.linspace(-semi_span, semi_span, N_PANELS + 1)
    vel = np.zeros_like(points)
    x_tail = float(np.mean(points[:, 0]))
    for k in range(N_PANELS):
        y_mid = 0.5 * (edges[k] + edges[k + 1])
        s = strip_at(strips, y_mid)
        g = float(gamma_at(y_mid))
        a = np.array([s["x"], edges[k], s["z"]])
        b = np.array([s["x"], edges[k + 1], s["z"]])
        te = s["te"]
        dist = abs(s["x"] - x_tail)
        drop = np.array([0.0, 0.0, drop_m])
        ta, tb = a + te, b + te
        ma, mb = ta + downstream * dist + drop, tb + downstream * dist + drop
        far = downstream * 1.0e4
        v = (vortex_segment(points, a, b) + vortex_segment(points, b, tb) + vortex_segment(points, tb, mb)
             + vortex_segment(points, mb, mb + far) - vortex_segment(points, a, ta)
             - vortex_segment(points, ta, ma) - vortex_segment(points, ma, ma + far))
        vel += g * v
    return float(np.sum(weights * (vel @ normal)) / np.sum(weights))


def strip_at(strips: list[dict], y: float) -> dict:
    """The wing strip whose span covers y (the outermost beyond the tip)."""
    side = [s for s in strips if (s["y"] >= 0.0) == (y >= 0.0)] or strips
    for s in sorted(side, key=lambda s: abs(s["y"])):
        if abs(y - s["y"]) <= s["half"] + 1e-9:
            return s
    return max(side, key=lambda s: abs(s["y"]))


def _strip_zero_lift(tables, table: int, delta) -> tuple[float, float]:
    """Lift slope (per rad) and zero-lift angle (rad) of an airfoil table (slat shut) at a
    deflection, from its values at -2 and +4 deg."""
    a1, a2 = math.radians(-2.0), math.radians(4.0)
    c1 = float(coefficients(tables, table, a1, delta)[0])
    c2 = float(coefficients(tables, table, a2, delta)[0])
    slope = (c2 - c1) / (a2 - a1)
    return slope, a1 - c1 / slope


def _flown(aircraft: str, ias_kmh: float, altitude_m: float, config: str, throttle=None):
    """The trim (as the trim_change card flies it), and the sections' airflow and the readouts after
    one derivative of it."""
    from ..validate.handling import steady_flight
    sim = test_sim(aircraft)
    t = steady_flight(sim, ias_kmh, altitude_m, config, "cruise", throttle)
    ws, R, fm, deriv, _new, _backup = make_scratch(sim.model)
    diag = np.zeros_like(sim.diag)
    derivative(t.state, t.ctrl, sim.env, sim.terrain, sim.model, sim.tables, diag, deriv, ws, R, fm)
    data = AircraftData(sim.model, sim.tables)
    return sim, t, section_airflow(ws, data.n_sections), AircraftView(t.state, diag)


def method_downwash(sim, air: dict, view) -> dict:
    """The NACA 648/651 downwash at the tail for the flown state: ``air`` the sections' airflow
    (physics.named.section_airflow), ``view`` its readouts."""
    data = AircraftData(sim.model, sim.tables)
    airfoils = sim.compiled.spec.airfoils
    names = sorted(airfoils)                 # the tables' order (aircraft_data/compile.py)
    alpha = view.alpha_rad
    pos, chords, spans = data.section_position_m, data.section_chord_m, data.section_span_m
    chord_ax, normal, span_ax = data.section_chord_axis, data.section_normal, data.section_span_axis
    flapped = data.section_gains[:, 3] != 0.0
    table = data.section_airfoil_table
    strips = []
    for i in data.wing_sections:
        delta = float(air["deflection_rad"][i])
        slope, a0 = _strip_zero_lift(sim.tables, int(table[i]), delta)
        chord = float(chords[i])
        te = -chord_ax[i] * 0.75 * chord
        if flapped[i] and delta != 0.0:
            # the flap's trailing edge, turned down about its hinge
            share = airfoils[names[int(table[i])]].control_chord_fraction or FLAP_CHORD
            flap = -chord_ax[i] * math.cos(delta) - normal[i] * math.sin(delta)
            te = -chord_ax[i] * (0.75 - share) * chord + flap * share * chord
        strips.append(dict(y=float(pos[i, 1]), half=0.5 * float(spans[i]) * abs(span_ax[i, 1]), x=float(pos[i, 0]),
                           z=float(pos[i, 2]), chord=chord, slope=slope, alpha=float(air["alpha_rad"][i]) - a0, te=te))
    tail = data.sections_of("htail")
    if not strips or not tail:
        raise ValueError("the downwash card needs a wing and a horizontal tail")
    side = sorted((s for s in strips if s["y"] > 0.0), key=lambda s: s["y"])
    sweep = math.degrees(math.atan2(side[0]["x"] - side[-1]["x"], side[-1]["y"] - side[0]["y"])) if len(side) > 1 else 0.0
    if abs(sweep) > MAX_SWEEP_DEG:
        raise ValueError(f"the wing's quarter-chord line is swept {sweep:.0f} deg: the lifting line and NACA 648's "
                         f"charts are for straight wings (up to {MAX_SWEEP_DEG:.0f} deg)")
    semi = max(abs(s["y"]) + s["half"] for s in strips)
    theta = (np.arange(N_MODES) + 0.5) * math.pi / N_MODES
    y = -semi * np.cos(theta)
    at = [strip_at(strips, v) for v in y]
    chord = np.array([s["chord"] for s in at])
    slope = np.array([s["slope"] for s in at])
    local = np.array([s["alpha"] for s in at]) - alpha        # each strip's angle at zero body alpha
    target = view.wing_cl
    lo, hi = -0.5, 0.8                                        # body alpha giving the model's wing CL
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if glauert_load(y, chord, slope, local + mid, semi)[1] < target:
            lo = mid
        else:
            hi = mid
    coeffs, cl = glauert_load(y, chord, slope, local + mid, semi)
    pts, wts = [], []
    for i in tail:
        for k in range(TAIL_SAMPLES):
            t = ((k + 0.5) / TAIL_SAMPLES - 0.5) * spans[i]
            pts.append(pos[i] + t * span_ax[i])
            wts.append(chords[i])
    points, weights = np.array(pts), np.array(wts)
    dist = abs(float(np.mean([s["x"] for s in strips])) - float(np.mean(points[:, 0])))
    eps, drop = 0.0, 0.0
    for _ in range(4):
        eps = sheet_downwash(points, weights, strips, lambda v: circulation(coeffs, v, semi)[0], semi, alpha, drop)
        drop = SHEET_DROP * dist * eps
    return dict(cl_wing=cl, downwash_deg=math.degrees(eps), sheet_drop_m=drop)


def downwash_card(aircraft: str, ias_kmh: float | None = None, altitude_m: float | None = None) -> dict:
    """The model's and the method's downwash at the tail, gear down with the flaps up and down (at the
    trim_change_flaps card's speed and altitude unless given)."""
    card_ias, card_alt = trim_card_condition(aircraft)
    ias_kmh = card_ias if ias_kmh is None else ias_kmh
    altitude_m = card_alt if altitude_m is None else altitude_m
    out = dict(aircraft=aircraft, ias_kmh=ias_kmh, altitude_m=altitude_m, configs=[])
    throttle = None
    for config in ("gear_down", "landing"):
        sim, t, air, view = _flown(aircraft, ias_kmh, altitude_m, config, throttle)
        throttle = t.throttle
        if config == "landing" and not np.any(AircraftData(sim.model).section_gains[:, 3]):
            break                                    # no flaps
        meth = method_downwash(sim, air, view)
        cl = view.wing_cl
        model_eps = math.degrees(view.downwash_rad)
        out["configs"].append(dict(
            config=config, alpha_deg=math.degrees(view.alpha_rad), cl_wing=cl, model_downwash_deg=model_eps,
            method_downwash_deg=meth["downwash_deg"], sheet_drop_m=meth["sheet_drop_m"],
            model_per_cl_deg=model_eps / cl, method_per_cl_deg=meth["downwash_deg"] / cl, elevator=float(t.pitch_cmd)))
    if len(out["configs"]) == 2:
        up, down = out["configs"]
        out["flaps_change_at_constant_cl_deg"] = {
            "model": down["model_downwash_deg"] - up["model_per_cl_deg"] * down["cl_wing"],
            "method": down["method_downwash_deg"] - up["method_per_cl_deg"] * down["cl_wing"]}
    return out


def trim_card_condition(aircraft: str) -> tuple[float, float]:
    """IAS (km/h) and altitude (m) of the aircraft's trim_change_flaps card; without one, 1.4 times
    its power-off landing stall at sea level."""
    from ..aircraft_data.loader import load_aircraft
    refs = load_aircraft(aircraft).references
    for b in (refs.behaviours if refs is not None else []):
        if b.card == "trim_change_flaps" and b.cond.get("ias_kmh"):
            return float(b.cond["ias_kmh"]), float(b.cond.get("altitude_m") or 0.0)
    from .perf import stall_speed
    return 1.4 * stall_speed(aircraft, landing=True)[0], 0.0



def print_downwash(r: dict) -> None:
    print(f"{r['aircraft']}: downwash at the tail, {r['ias_kmh']:.0f} km/h IAS, {r['altitude_m']:.0f} m "
          "(model | NACA 648/651 method: lifting-line load, Biot-Savart sheet)")
    for c in r["configs"]:
        print(f"  {c['config']:9s}  alpha {c['alpha_deg']:5.1f} deg  wing CL {c['cl_wing']:.3f}  "
              f"downwash {c['model_downwash_deg']:5.2f} | {c['method_downwash_deg']:5.2f} deg  "
              f"({c['model_per_cl_deg']:.2f} | {c['method_per_cl_deg']:.2f} deg per unit CL)")
    ch = r.get("flaps_change_at_constant_cl_deg")
    if ch:
        print(f"  the flaps' change at constant wing CL: model {ch['model']:+.2f} deg, method {ch['method']:+.2f} deg "
              "(+: more downwash, the tail pushed down, nose up)")
