"""Where a climb's excess power comes from (issue 30): the power budget of the best steady climb,
term by term, from the same trims the tunnel flies.

    python -m flightsim.tunnel breakdown --aircraft spitfire --altitude-m 0 [--power wep] [--json]

At the best climb (flightsim.tools.perf.best_climb; a jet: the best Ps at 1 g, flightsim.tools.maneuver) the
steady climb balances along the flight path

    T_prop cos(alpha) + F_exhaust cos(alpha) = D + W sin(gamma)

and, times the speed, the power budget: the shaft power times the propeller's efficiency, plus the
exhaust jets' thrust power, less the drag power, is the climb's power W V sin(gamma). The drag is
split into the parts the model computes separately:

* **cooling**: the radiators' and oil coolers' drag areas at their trimmed exit flaps (the same trim
  flown with those drag areas zeroed: the difference along the path);
* **induced**: the wing's induced angle (lifting-line theory, physics/aero.py) tilting its lift back,
  ``L alpha_i``;
* **profile and the rest**: what remains (sections' table drag, the body, the tail's trim load, the
  spanwise flow, the gear doors).

Beside the budget, the **drag due to lift** the full model has at that speed: pulls at 1, 1.5 and
2 g (flightsim.tools.maneuver.Rig) give CD against CL^2; its slope k is read as a span efficiency
``e = 1 / (pi A k)``, to set beside a whole aircraft's measured or estimated e.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics.atmosphere import isa
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from . import maneuver, perf

G0 = 9.80665
KMH = 3.6


def _along_path_force(trimmer, t) -> float:
    """The force along the velocity (N) at the trim's point, with the trimmer's model as it is."""
    f, _ = trimmer.forces(t.tas_ms, t.alpha_rad, t.gamma_rad, t.pitch_cmd, t.throttle)
    return f[0] * math.cos(t.alpha_rad) + f[2] * math.sin(t.alpha_rad)


def drag_due_to_lift(sim, altitude_m: float, tas_ms: float, power: str, load_factors=(1.0, 1.5, 2.0)) -> dict:
    """CD = CD0 + k CL^2 fitted through pulls at this speed; k as a span efficiency e."""
    rig = maneuver.Rig(sim, altitude_m, "max" if power in ("wep", "max") else power)
    data = AircraftData(sim.compiled.model)
    area = data.wing_area_m2
    aspect = data.wing_span_m ** 2 / area
    qs = 0.5 * isa(altitude_m)[2] * tas_ms * tas_ms * area
    pts = []
    guess = (0.05, 0.0)
    for n in load_factors:
        p = rig.pull(tas_ms, n, guess)
        if not p.ok:
            continue
        guess = (p.alpha_rad, p.pitch_cmd)
        rig.trimmer.forces(tas_ms, p.alpha_rad, 0.0, p.pitch_cmd, rig.throttle)
        out = AircraftView(None, rig.trimmer.diag)
        thrust = out.jet_thrust_n if data.jets else out.thrust_n + out.exhaust_thrust_n
        drag = thrust * math.cos(p.alpha_rad) - rig.weight_n * p.ps_ms / tas_ms
        pts.append((n * rig.weight_n / qs, drag / qs))
    if len(pts) < 2:
        return {"k": None, "e": None, "cd0": None}
    cl = np.array([p[0] for p in pts])
    cd = np.array([p[1] for p in pts])
    k, cd0 = np.polyfit(cl * cl, cd, 1)
    k_planform = data.wing_induced_k()
    return {"k": round(float(k), 5), "e": round(float(1.0 / (math.pi * aspect * k)), 3), "cd0": round(float(cd0), 5),
            "aspect_ratio": round(float(aspect), 3),
            "e_planform": round(float(1.0 / (math.pi * aspect * k_planform)), 3),
            "cl": [round(float(x), 3) for x in cl], "cd": [round(float(x), 5) for x in cd]}


def climb_breakdown(aircraft: str, altitude_m: float = 0.0, power: str = "wep", mass_kg: float | None = None) -> dict:
    """The power budget of the best climb of a propeller aircraft (JSON-ready)."""
    sim = perf._sim(aircraft, mass_kg)
    data = AircraftData(sim.compiled.model)
    if not data.powered or data.jets:
        raise ValueError(f"{aircraft}: the climb breakdown is for a propeller aircraft "
                         f"({'a glider has no climb' if not data.powered else 'a jet: see tunnel climb'})")
    t, rate, _ = perf.best_climb(aircraft, altitude_m, power, sim=sim)
    out = AircraftView(t.state, t.diag.copy())
    w = sim.compiled.mass_kg * G0
    v = t.tas_ms
    ca = math.cos(t.alpha_rad)
    thrust_prop = out.thrust_n
    thrust_exh = out.exhaust_thrust_n
    drag = (thrust_prop + thrust_exh) * ca - w * math.sin(t.gamma_rad)
    # cooling drag: the same point with the coolers' drag areas zeroed
    trimmer = sim.trimmer(altitude_m, perf.power_ctrl(power, gear_up=1.0), plant_in_jacobian=False)
    base = _along_path_force(trimmer, t)
    saved = data.cooler_drag_areas_m2
    try:
        data.cooler_drag_areas_m2 = np.zeros(4)
        cooling = _along_path_force(trimmer, t) - base
    finally:
        data.cooler_drag_areas_m2 = saved
    induced = w * math.cos(t.gamma_rad) * math.tan(out.wing_induced_alpha_rad)
    shaft = out.shaft_power_w
    eta = out.propeller_efficiency
    rho = out.air_density_kgm3
    qs = 0.5 * rho * v * v * data.wing_area_m2
    factor = perf.acceleration_factor(v, altitude_m)
    lift = drag_due_to_lift(sim, altitude_m, v, power)
    # the propeller's operating point: J = V / (n D), CP = P / (rho n^3 D^5)
    n_rps = out.engine_rpm / 60.0 * data.propeller_gear_ratio
    dia = data.propeller_diameter_m
    j = v / (n_rps * dia)
    cp = shaft / (rho * n_rps ** 3 * dia ** 5)
    kw = 1e-3
    return {
        "aircraft": aircraft, "altitude_m": float(altitude_m), "power": perf.power_label(sim, power),
        "mass_kg": round(float(sim.compiled.mass_kg), 1),
        "tas_kmh": round(v * KMH, 1), "ias_kmh": round(out.ias_kmh, 1),
        "alpha_deg": round(math.degrees(t.alpha_rad), 2), "cl": round(w * math.cos(t.gamma_rad) / qs, 4),
        "best_climb_ms": round(rate, 3), "steady_climb_ms": round(v * math.sin(t.gamma_rad), 3),
        "acceleration_factor": round(factor, 4),
        "shaft_power_kw": round(shaft * kw, 1), "shaft_power_hp": round(shaft / 745.7, 0),
        "propeller_efficiency": round(eta, 4), "rpm": round(out.engine_rpm, 0),
        "advance_ratio": round(j, 3), "power_coefficient": round(cp, 4),
        "propeller_thrust_n": round(thrust_prop, 1), "exhaust_thrust_n": round(thrust_exh, 1),
        "drag_n": round(drag, 1), "cooling_drag_n": round(cooling, 1), "induced_drag_n": round(induced, 1),
        "profile_and_other_drag_n": round(drag - cooling - induced, 1),
        "power_budget_kw": {
            "propeller_thrust_power": round(thrust_prop * ca * v * kw, 1),
            "exhaust_thrust_power": round(thrust_exh * ca * v * kw, 1),
            "cooling_drag_power": round(-cooling * v * kw, 1),
            "induced_drag_power": round(-induced * v * kw, 1),
            "profile_and_other_drag_power": round(-(drag - cooling - induced) * v * kw, 1),
            "climb_power": round(w * v * math.sin(t.gamma_rad) * kw, 1),
        },
        "drag_due_to_lift": lift,
    }


def print_breakdown(r: dict) -> None:
    print(f"{r['aircraft']} best climb at {r['altitude_m']:.0f} m, {r['power']}, {r['mass_kg']:.0f} kg: "
          f"{r['best_climb_ms']:.2f} m/s at {r['ias_kmh']:.0f} km/h IAS ({r['tas_kmh']:.0f} TAS), "
          f"alpha {r['alpha_deg']:.1f} deg, CL {r['cl']:.3f}")
    print(f"  shaft {r['shaft_power_kw']:.0f} kW ({r['shaft_power_hp']:.0f} hp) at {r['rpm']:.0f} rpm, "
          f"propeller efficiency {r['propeller_efficiency']:.3f} at J {r['advance_ratio']:.2f}, CP {r['power_coefficient']:.3f}")
    print(f"  thrust: propeller {r['propeller_thrust_n']:.0f} N, exhaust {r['exhaust_thrust_n']:.0f} N;  "
          f"drag {r['drag_n']:.0f} N "
          f"= cooling {r['cooling_drag_n']:.0f} + induced {r['induced_drag_n']:.0f} + profile and other "
          f"{r['profile_and_other_drag_n']:.0f}")
    for k, v in r["power_budget_kw"].items():
        print(f"  {k.replace('_', ' '):32s} {v:8.1f} kW")
    lift = r["drag_due_to_lift"]
    if lift["k"] is not None:
        print(f"  drag due to lift at this speed: CD = {lift['cd0']:.4f} + {lift['k']:.4f} CL^2 "
              f"(span efficiency e = {lift['e']:.3f}; the wing's planform alone {lift['e_planform']:.3f}, "
              f"A {lift['aspect_ratio']:.2f})")
