"""The propeller's map (issue 30): thrust and power coefficients and efficiency against the advance
ratio at a fixed blade angle, from the same powerplant balance the game and the trims fly.

    python -m flightsim.tunnel propeller --aircraft p51d [--blade-angle-deg 25,35,45] [--altitude-m H] [--json]

The propeller's pitch is held at each blade angle (its pitch stops both set there: a fixed-pitch
propeller), and at each true airspeed the powerplant is balanced at a part throttle (physics/
plant_trim.py: the rpm where the engine's torque meets the propeller's, the induced velocities
converged); the diagnostics give the thrust, the torque and the rpm, so

    J = V / (n D),  CT = T / (rho n^2 D^4),  CP = 2 pi Q / (rho n^2 D^5),  efficiency = J CT / CP.

The blade angle is the model's, at 0.75 R from the section's chord line (NACA's propeller reports
measure it from a Clark Y's flat face, about 2 deg less: tests/physics/test_propeller_naca640.py
flies NACA TR-640's propeller this way). A glider or a jet has no propeller: refused in one line.
"""
from __future__ import annotations

import copy
import math

import numpy as np

from ..aircraft_data.compile import compile_aircraft
from ..aircraft_data.loader import load_aircraft
from ..physics.atmosphere import isa
from ..physics.dynamics import derivative
from ..physics.named import N_DIAGNOSTICS, AircraftView, Controls
from ..physics.named_model import AircraftData
from ..physics.plant_trim import plant_trim
from ..physics.scratch import make_scratch
from ..physics.state import make_env, make_state, settle_surfaces

THROTTLE = 0.25                 # part throttle: the rpm stays near a propeller test's
SPEEDS_MS = tuple(range(10, 161, 5))


def fixed_pitch(spec, blade_angle_deg: float):
    """A copy of ``spec`` whose propeller is held at ``blade_angle_deg`` (both pitch stops there)."""
    spec = copy.deepcopy(spec)
    spec.powerplant["propeller"].update(fine_pitch_deg=blade_angle_deg, coarse_pitch_deg=blade_angle_deg)
    return spec


def _propeller_spec(aircraft: str):
    spec = load_aircraft(aircraft)
    pp = spec.powerplant or {}
    if "propeller" not in pp:
        if not pp:
            raise ValueError(f"{aircraft} is a glider: it has no propeller to map (its cards: tunnel polar, tunnel climb)")
        raise ValueError(f"{aircraft} has jet engines, no propeller to map (see tunnel climb and tunnel turn)")
    return spec


def map_points(compiled, speeds_ms=SPEEDS_MS, altitude_m: float = 1000.0, throttle: float = THROTTLE) -> list[dict]:
    """(J, CT, CP, efficiency, rpm) of the compiled aircraft's propeller at each true airspeed, the
    powerplant balanced at ``throttle``; points with the propeller stopped or not thrusting left out."""
    model, tables = compiled.model, compiled.tables
    data = AircraftData(model)
    gear, diameter = data.propeller_gear_ratio, data.propeller_diameter_m
    ws, R, fm, deriv, _, _ = make_scratch(model)
    rho = isa(altitude_m)[2]
    env = make_env()
    out = []
    for tas in speeds_ms:
        s = make_state((0.0, 0.0, -altitude_m), (float(tas), 0.0, 0.0), 0.0, 0.0, 0.0)
        c = Controls(throttle=throttle, prop_rpm=1.0).array
        settle_surfaces(s, c)
        plant_trim(model, tables, s, c, env, ws)
        diag = np.zeros(N_DIAGNOSTICS)
        derivative(s, c, env, np.full((1, 1), -1e6), model, tables, diag, deriv, ws, R, fm)
        v = AircraftView(s, diag)
        n = v.engine_rpm * gear / 60.0
        if n < 1.0:
            continue
        ct = v.thrust_n / (rho * n * n * diameter ** 4)
        cp = 2.0 * math.pi * v.propeller_torque_nm / (rho * n * n * diameter ** 5)
        if ct <= 0.0 or cp <= 0.0:
            break
        j = tas / (n * diameter)
        out.append({"tas_ms": float(tas), "propeller_rpm": round(n * 60.0, 1), "advance_ratio": round(j, 4),
                    "thrust_coefficient": round(ct, 5), "power_coefficient": round(cp, 5),
                    "efficiency": round(j * ct / cp, 4)})
    return out


def propeller_map(aircraft: str, blade_angles_deg=None, altitude_m: float = 1000.0) -> dict:
    """The map at each blade angle (default: the aircraft's fine-pitch stop, and 10 and 20 deg above it)."""
    spec = _propeller_spec(aircraft)
    prop = spec.powerplant["propeller"]
    if blade_angles_deg is None:
        fine = prop["fine_pitch_deg"]
        blade_angles_deg = (fine, fine + 10.0, fine + 20.0)
    curves = []
    for beta in blade_angles_deg:
        pts = map_points(compile_aircraft(fixed_pitch(spec, beta)), altitude_m=altitude_m)
        peak = max(pts, key=lambda p: p["efficiency"]) if pts else None
        curves.append({"blade_angle_deg": float(beta), "points": pts, "peak": peak})
    return {"aircraft": aircraft, "propeller": prop["name"], "diameter_m": prop["diameter_m"],
            "blades": int(prop["blades"]), "altitude_m": altitude_m, "throttle": THROTTLE, "curves": curves}


def print_map(r: dict) -> None:
    print(f"{r['aircraft']}: {r['propeller']} ({r['diameter_m']:.2f} m), {r['altitude_m']:.0f} m, "
          f"throttle {r['throttle']:.2f}")
    for c in r["curves"]:
        pk = c["peak"]
        head = f"  blade angle {c['blade_angle_deg']:.1f} deg"
        print(head + (f": peak efficiency {pk['efficiency']:.3f} at J {pk['advance_ratio']:.2f}" if pk else ": no thrust"))
        for p in c["points"]:
            print(f"    J {p['advance_ratio']:5.2f}  CT {p['thrust_coefficient']:7.4f}  CP {p['power_coefficient']:7.4f}  "
                  f"efficiency {p['efficiency']:5.3f}  ({p['tas_ms']:.0f} m/s, {p['propeller_rpm']:.0f} rpm)")
