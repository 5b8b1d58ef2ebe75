"""Handling cards: what the pilot feels in pitch, and how hard the aircraft can turn.

* ``stick_force_per_g``: trimmed in level flight at the test speed, a steady pull of a given
  force (the stick is a force request, seed 000), held until the short-period motion has
  settled (1.5 s, before the speed has changed much): force / (n - 1), from two small forces.
* trim changes (pass/fail): the elevator that holds steady flight, trimmed in one configuration
  and then in another at the same speed (flaps down, gear up) or at a higher speed with the
  power and trim unchanged (speed stability). "Nose heavy" is more nose-up elevator needed.
* turns (model only, no published figure): the sustained turn, the highest load factor a
  level trim at full power holds at each speed (the trim flown with gravity scaled by n: the
  energy method of turn performance), and the instantaneous turn, the peak load factor of a
  full-force pull from level flight at that speed (6-DOF); turn rate g sqrt(n^2 - 1) / V,
  radius V^2 / (g sqrt(n^2 - 1)).
"""
from __future__ import annotations

import math

from ..physics.named import AircraftView, Controls
from ..physics.named_env import Environment
from ..physics.state import make_ctrl
from .flight import POWER, base_controls, tas_from_ias, test_sim, trim_straight

G = 9.80665
DT = 0.02
PULL_S = 1.5           # the instantaneous turn's pull: stick to full force in this time


def stick_force_per_g(aircraft, cond) -> float:
    """N per g at the condition's IAS and altitude (level flight, cruise power)."""
    sim = test_sim(aircraft, cond["mass_kg"])
    f_max = sim.compiled.spec.controls["elevator"]["max_force_n"]
    slopes = []
    for frac in (0.03, 0.06):
        if trim_straight(sim, cond["ias_kmh"], cond["altitude_m"], cond["config"], cond["power"] or "cruise") is None:
            raise RuntimeError("no level trim at the test speed")
        c = sim.controls.copy()
        c.pitch = frac
        for _ in range(int(1.5 / DT)):
            sim.step(c.array)
        slopes.append(frac * f_max / (sim.nz_g - 1.0))
    return sum(slopes) / len(slopes)


def steady_flight(sim, ias_kmh, altitude_m, config, power, throttle=None):
    """The elevator (pitch command) of steady straight flight; with ``throttle`` the power is held
    there (a climb or dive), else level flight with the power set."""
    tas = tas_from_ias(ias_kmh, altitude_m)
    base = base_controls(sim, config, power)
    if throttle is not None:
        Controls(base).throttle = throttle
        tr = sim.trimmer(altitude_m, base, plant_in_jacobian=False)
        t = tr.climb(tas) if sim.powered else tr.glide(tas)
    else:
        t = trim_straight(sim, ias_kmh, altitude_m, config, power)
    if t is None or not t.ok:
        raise RuntimeError(f"no steady flight at {ias_kmh:.0f} km/h IAS ({config})")
    return t


def trim_change(aircraft, cond, before: str, after: str) -> tuple[float, str]:
    """Elevator after minus before, at the same IAS and the same throttle (positive: more nose-up
    needed, the aircraft has become nose heavy), and the observation in words."""
    sim = test_sim(aircraft, cond["mass_kg"])
    t0 = steady_flight(sim, cond["ias_kmh"], cond["altitude_m"], before, cond["power"] or "cruise")
    t1 = steady_flight(sim, cond["ias_kmh"], cond["altitude_m"], after, cond["power"] or "cruise", t0.throttle)
    d = t1.pitch_cmd - t0.pitch_cmd
    heavy = "nose heavy" if d > 0 else "tail heavy"
    return d, (f"at {cond['ias_kmh']:.0f} km/h IAS the elevator for steady flight goes from {t0.pitch_cmd:+.3f} "
               f"({before.replace('_', ' ')}) to {t1.pitch_cmd:+.3f} ({after.replace('_', ' ')}) of its travel: {heavy}")


def speed_stability(aircraft, cond) -> tuple[float, str]:
    """Trimmed level at the condition's IAS, then 20 % faster with the trim and throttle held:
    the elevator change (negative: the stick must go forward, the aircraft is tail heavy)."""
    sim = test_sim(aircraft, cond["mass_kg"])
    v = cond["ias_kmh"]
    t0 = steady_flight(sim, v, cond["altitude_m"], cond["config"], cond["power"] or "cruise")
    t1 = steady_flight(sim, 1.2 * v, cond["altitude_m"], cond["config"], cond["power"] or "cruise", t0.throttle)
    d = t1.pitch_cmd - t0.pitch_cmd
    return d, (f"trimmed at {v:.0f} km/h IAS (elevator {t0.pitch_cmd:+.3f}), at {1.2 * v:.0f} km/h the elevator "
               f"for steady flight is {t1.pitch_cmd:+.3f}: the stick must go "
               f"{'forward (tail heavy)' if d < 0 else 'back (nose heavy)'}, {abs(d) * 100:.1f} % of its travel")


def sustained_load_factor(sim, ias_kmh, altitude_m, power="wep") -> float | None:
    """The highest load factor a level trim at full power holds at this IAS with no wing section
    past its stall (the load factor raised in steps from 1 g, each trim started from the last,
    then bisected)."""
    tas = tas_from_ias(ias_kmh, altitude_m)
    base = make_ctrl(gear_up=1.0, prop_rpm=1.0, **POWER[power])
    air = Environment(sim.env)
    g0 = air.gravity_ms2
    guess = [None]

    def holds(n):
        air.gravity_ms2 = n * g0
        try:
            tr = sim.trimmer(altitude_m, base, plant_in_jacobian=False)
            t = tr.level(tas, guess[0] or (0.02, 0.6, 0.0))
        finally:
            air.gravity_ms2 = g0
        ok = (t.ok and t.within_travel and 0.0 <= t.throttle <= 1.0 and sim.powered
              and AircraftView(t.state, t.diag).stalled_wing_sections == 0)
        if ok:
            guess[0] = (t.alpha_rad, t.throttle, t.pitch_cmd)
        return ok
    if not holds(1.0):
        return None
    lo = 1.0
    while lo < 9.0 and holds(lo + 0.25):
        lo += 0.25
    hi = lo + 0.25
    for _ in range(6):
        mid = 0.5 * (lo + hi)
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return lo


def instantaneous_load_factor(sim, ias_kmh, altitude_m, power="military") -> float | None:
    """The peak load factor of a pull from level flight at this IAS to the stick's full force,
    the stick brought back over ``PULL_S`` as a pilot pulls to the buffet (6-DOF): the largest
    lift the wing gives before the speed bleeds off (a yank instead overshoots the stall
    angle before the lift has built, and reads low)."""
    if trim_straight(sim, ias_kmh, altitude_m, "clean", power) is None:
        return None
    c = sim.controls.copy()
    peak = 1.0
    for k in range(int((PULL_S + 1.0) / DT)):
        c.pitch = min(1.0, (k + 1) * DT / PULL_S)
        sim.step(c.array)
        peak = max(peak, sim.nz_g)
    return peak


def turn_curve(aircraft, altitude_m: float = 0.0, mass_kg=None, speeds_kmh=None) -> dict:
    """Sustained (powered aircraft) and instantaneous turn rate and radius against IAS."""
    sim = test_sim(aircraft, mass_kg)
    vne = sim.compiled.spec.aircraft["vne_kmh"]
    speeds = speeds_kmh or [round(vne * f / 10.0) * 10.0 for f in (0.25, 0.32, 0.4, 0.5, 0.6, 0.7, 0.8)]
    rows = []
    for v in speeds:
        tas = tas_from_ias(v, altitude_m)
        row = {"ias_kmh": v}
        for kind, fn in (("sustained", sustained_load_factor), ("instantaneous", instantaneous_load_factor)):
            n = fn(sim, v, altitude_m) if (kind == "instantaneous" or sim.powered) else None
            if n is not None and n > 1.0:
                k = math.sqrt(n * n - 1.0)
                row[kind] = {"load_factor": round(n, 2), "rate_dps": round(math.degrees(G * k / tas), 2),
                             "radius_m": round(tas * tas / (G * k), 1)}
        rows.append(row)
    return {"aircraft": aircraft, "altitude_m": altitude_m, "points": rows,
            "method": "sustained: level trim at full power with gravity scaled by n (energy method); "
                      f"instantaneous: peak n of a pull to full force over {PULL_S:.1f} s from level flight (6-DOF). "
                      "Near the stall the steady trims hold up to a tenth more than the pull's peak (why is not "
                      "settled: the pull bleeds speed and pitches, the trims do neither)"}
