"""A jet fighter's performance cards: energy-maneuverability figures of the full model
(flightsim.tools.maneuver), each a pull or a set of pulls at the figure's condition; results kept per
aircraft, weight, altitude and power so that the cards that share a sweep fly it once."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from ..physics.atmosphere import isa
from ..physics.named_model import AircraftData
from ..tools import maneuver


@lru_cache(maxsize=8)
def _sim_for(aircraft: str, mass_kg: float | None, stores: tuple):
    return maneuver.sim_for(aircraft, mass_kg, stores)


def _sim(aircraft: str, cond):
    """The aircraft at the figure's weight, carrying its stores (SAC's missiles: in the weight)."""
    return _sim_for(aircraft, cond["mass_kg"], tuple(cond.get("stores") or ()))


def _power(cond, default="max") -> str:
    return cond["power"] or default


def _mach(cond) -> float:
    """The condition's Mach number (or its true or indicated airspeed as one)."""
    if cond.get("mach"):
        return cond["mach"]
    t, _, rho, a = isa(cond["altitude_m"])
    if cond.get("tas_kmh"):
        return cond["tas_kmh"] / 3.6 / a
    if cond.get("ias_kmh"):
        return cond["ias_kmh"] / 3.6 * math.sqrt(1.225 / rho) / a
    raise ValueError("the figure needs mach, tas_kmh or ias_kmh")


@lru_cache(maxsize=32)
def _curve_for(aircraft, mass_kg, stores, altitude_m, power):
    return maneuver.turn_curve(_sim_for(aircraft, mass_kg, stores), altitude_m, power)


def _curve(aircraft, cond):
    return _curve_for(aircraft, cond["mass_kg"], tuple(cond.get("stores") or ()), cond["altitude_m"], _power(cond))


def level_mach(aircraft, cond) -> float:
    return maneuver.level_mach(_sim(aircraft, cond), cond["altitude_m"], _power(cond))


def max_climb_rate(aircraft, cond) -> float:
    return maneuver.best_ps(_sim(aircraft, cond), cond["altitude_m"], _power(cond))[0]


def ceiling(aircraft, cond) -> float:
    rate = cond.get("rate_ms")
    return maneuver.ceiling(_sim(aircraft, cond), _power(cond), 0.508 if rate is None else rate)


def sustained_turn_rate(aircraft, cond) -> float:
    """At the condition's Mach number, or (without one) the best over the sweep."""
    if cond.get("mach") or cond.get("ias_kmh") or cond.get("tas_kmh"):
        rig = maneuver.Rig(_sim(aircraft, cond), cond["altitude_m"], _power(cond))
        p = rig.sustained(_mach(cond) * rig.sound_ms)
        if p is None:
            raise RuntimeError("no sustained turn: the aircraft loses energy even at 1 g there")
        return p.turn_rate_dps
    return _curve(aircraft, cond)["sustained_peak"]["sustained_dps"]


def sustained_load_factor(aircraft, cond) -> float:
    rig = maneuver.Rig(_sim(aircraft, cond), cond["altitude_m"], _power(cond))
    p = rig.sustained(_mach(cond) * rig.sound_ms)
    if p is None:
        raise RuntimeError("no sustained turn: the aircraft loses energy even at 1 g there")
    return p.n


def instantaneous_turn_rate(aircraft, cond) -> float:
    """At the condition's Mach number, or (without one) the peak: at the corner speed."""
    if cond.get("mach") or cond.get("ias_kmh") or cond.get("tas_kmh"):
        rig = maneuver.Rig(_sim(aircraft, cond), cond["altitude_m"], _power(cond))
        return rig.max_pull(_mach(cond) * rig.sound_ms).turn_rate_dps
    c = _curve(aircraft, cond)
    return c["corner"]["turn_rate_dps"] if c["corner"] else c["instantaneous_peak"]["instantaneous_dps"]


def corner_speed(aircraft, cond) -> float:
    c = _curve(aircraft, cond)
    if not c["corner"]:
        raise RuntimeError("the g limit is not reached at any speed here")
    return c["corner"]["ias_kmh"]


def acceleration_time(aircraft, cond) -> float:
    return maneuver.acceleration_time(_sim(aircraft, cond), cond["altitude_m"], cond["mach"],
                                      cond["mach_to"], _power(cond))


FIGURES = {
    "level_mach": level_mach, "max_climb_rate": max_climb_rate, "ceiling": ceiling,
    "sustained_turn_rate": sustained_turn_rate, "instantaneous_turn_rate": instantaneous_turn_rate,
    "sustained_load_factor": sustained_load_factor, "acceleration_time": acceleration_time,
    "corner_speed": corner_speed,
}


# ---------------------------------------------------------------------------- model only (jets)
def _flown(aircraft, tas_ms, altitude_m, seconds, **controls):
    """Trimmed level flight, then the controls held: the series of (t, nz, p deg/s, alpha deg). (Over
    the Sim's flat ground at 0 m: fly at least a few hundred metres up.)"""
    if altitude_m < 300.0:
        raise ValueError(f"fly these above the ground: {altitude_m:.0f} m is too low")
    sim = _sim_for(aircraft, None, ())
    from ..sim import Sim
    s = Sim(sim.compiled)
    s.spawn_trimmed_level(tas_ms, altitude_m)
    for k, v in controls.items():
        setattr(s.controls, k, v)
    rows = []
    for i in range(int(round(seconds / s.dt_s))):
        s.step()
        rows.append((s.time_s, s.nz_g, math.degrees(s.body_rates_rads[0]), s.alpha_deg))
    return rows


def g_limiter_step(aircraft, altitude_m: float = 3000.0, mach: float = 0.85) -> dict:
    """Full aft stick from trimmed level flight above the corner speed: the peak and the held load factor."""
    a = isa(altitude_m)[3]
    rows = _flown(aircraft, mach * a, altitude_m, 4.0, pitch=1.0)
    nz = [r[1] for r in rows]
    t9 = next((r[0] for r in rows if r[1] >= 8.5), None)
    return {"altitude_m": altitude_m, "mach": mach, "peak_g": max(nz), "held_g": sum(nz[-50:]) / 50.0,
            "to_8_5_g_s": t9, "series": [[r[0], r[1], r[3]] for r in rows]}


def roll_law(aircraft, altitude_m: float = 3000.0, machs=(0.4, 0.6, 0.8, 0.95)) -> list[dict]:
    """Full lateral stick from trimmed level flight: the roll rate reached (law on) and with the law off
    (the stick moving the roll surfaces to their stops: what the airframe itself gives)."""
    a = isa(altitude_m)[3]
    out = []
    for m in machs:
        on = _flown(aircraft, m * a, altitude_m, 1.5, roll=1.0)
        off = _flown(aircraft, m * a, altitude_m, 1.5, roll=1.0, fcs_direct=1.0)
        out.append({"mach": m, "law_dps": max(r[2] for r in on), "surfaces_full_dps": max(r[2] for r in off)})
    return out


def model_only(aircraft) -> list[dict]:
    """A jet's cards with no published figure to compare, and its energy-maneuverability curves."""
    out = []
    sim = _sim_for(aircraft, None, ())
    curves = {}
    for alt in (0.0, 4572.0, 9144.0):
        c = maneuver.turn_curve(sim, alt, "max")
        curves[alt] = c
        corner = c["corner"]
        sus = c["sustained_peak"]
        out.append({"card": "em_turn", "result": c,
                    "summary": f"{alt:.0f} m, {c['mass_kg']:.0f} kg, maximum power: "
                               + (f"corner {corner['ias_kmh']:.0f} km/h IAS (M {corner['mach']:.2f}), "
                                  f"{corner['turn_rate_dps']:.1f} deg/s at 9 g; " if corner else "9 g not reached; ")
                               + (f"best sustained {sus['sustained_dps']:.1f} deg/s at M {sus['mach']:.2f} "
                                  f"({sus['sustained_g']:.1f} g)" if sus else "no sustained turn")})
    step = g_limiter_step(aircraft)
    out.append({"card": "g_limiter", "result": step,
                "summary": f"full aft stick at M {step['mach']:.2f}, {step['altitude_m']:.0f} m: peak "
                           f"{step['peak_g']:.2f} g, held {step['held_g']:.2f} g, 8.5 g after "
                           f"{step['to_8_5_g_s'] or 0:.1f} s (the law's limit 9 g)"})
    roll = roll_law(aircraft)
    out.append({"card": "roll_law", "result": roll,
                "summary": "; ".join(f"M {r['mach']:.2f}: {r['law_dps']:.0f} deg/s with the law, "
                                     f"{r['surfaces_full_dps']:.0f} with the roll surfaces at their stops" for r in roll)
                           + " (no published F-15C roll rate found; McDonnell's stability data give 131-173 deg/s "
                             "at M 0.6-0.8, f15c_performance.md s5)"})
    speeds = []
    for alt in (0.0, 3048.0, 6096.0, 9144.0, 11000.0, 13716.0, 15240.0):
        try:
            speeds.append({"altitude_m": alt, "max": maneuver.level_mach(sim, alt, "max"),
                           "military": maneuver.level_mach(sim, alt, "military")})
        except RuntimeError:
            pass
    out.append({"card": "level_mach_curve", "result": speeds,
                "summary": "; ".join(f"{s['altitude_m']:.0f} m: M {s['max']:.2f} max, {s['military']:.2f} military"
                                     for s in speeds)})
    return out


# ---------------------------------------------------------------------------- behaviours (jets)
def _mach_at(b) -> float:
    return b.cond.get("mach") or 0.85


def g_limit_held(aircraft, b):
    """Full aft stick from trimmed level flight above the corner speed: the load factor reaches the
    limit (``b.limit``, g) and passes it by no more than 5 %."""
    alt = b.cond["altitude_m"]
    rows = _flown(aircraft, _mach_at(b) * isa(alt)[3], alt, 3.0, pitch=1.0)
    nz = [r[1] for r in rows]
    peak = max(nz)
    t = next((r[0] for r in rows if r[1] >= b.limit - 0.2), None)
    ok = t is not None and peak <= 1.05 * b.limit
    return ok, (f"full aft stick at M {_mach_at(b):.2f}, {alt:.0f} m: {b.limit - 0.2:.1f} g after "
                f"{t:.1f} s, " if t is not None else f"full aft stick at M {_mach_at(b):.2f}, {alt:.0f} m: "
                f"never {b.limit - 0.2:.1f} g, ") + f"peak {peak:.2f} g against the limit {b.limit:.1f}"


def lift_limited_pull(aircraft, b):
    """Full aft stick below the corner speed: the law pulls to its angle-of-attack limit (within 3
    deg, passing it by no more than 4), the load factor stays short of the g limit: the wing, not
    the limiter, bounds the turn."""
    alt = b.cond["altitude_m"]
    rows = _flown(aircraft, _mach_at(b) * isa(alt)[3], alt, 3.0, pitch=1.0)
    a_max = math.degrees(AircraftData(_sim_for(aircraft, None, ()).compiled.model).alpha_limit_rad)
    alpha = max(r[3] for r in rows)
    peak = max(r[1] for r in rows)
    ok = a_max - 3.0 <= alpha <= a_max + 4.0 and peak < b.limit
    return ok, (f"full aft stick at M {_mach_at(b):.2f}, {alt:.0f} m: angle of attack up to {alpha:.1f} deg "
                f"(the law's limit {a_max:.0f}), load factor at most {peak:.2f} g (limit {b.limit:.0f})")


def afterburner_fuel(aircraft, b):
    """Fuel flow at full afterburner over military power, sea level static (b.low .. b.high)."""
    from ..physics.jet import jet_point
    model = _sim_for(aircraft, None, ()).compiled.model
    t, p, _, _ = isa(0.0)
    f_mil, ff_mil = jet_point(model, 1.0, 0.0, 0.0, 0.0, p, t, 0.0)
    f_ab, ff_ab = jet_point(model, 1.0, 1.0, 0.0, 0.0, p, t, 0.0)
    r = ff_ab / ff_mil
    return b.low <= r <= b.high, (f"sea level static: {ff_mil:.2f} kg/s per engine at military ({f_mil / 1000:.1f} kN), "
                                  f"{ff_ab:.2f} kg/s at full afterburner ({f_ab / 1000:.1f} kN): {r:.1f} times")


BEHAVIOURS = {"g_limit_held": g_limit_held, "lift_limited_pull": lift_limited_pull,
              "afterburner_fuel": afterburner_fuel}


# ---------------------------------------------------------------------------- the report's curves (jets)
def curves(aircraft, refs) -> dict:
    """Level Mach (maximum and military power) and the best climb against altitude at the published
    level-speed figure's weight, with the published points to draw over them."""
    lv = [f for f in refs.of("level_mach") if f.check] or refs.of("level_mach")
    mass = lv[0].cond["mass_kg"] if lv else None
    sim = _sim_for(aircraft, mass, ())
    rows = []
    for alt in (300.0, 3000.0, 6000.0, 9000.0, 11000.0, 12500.0, 13716.0, 15000.0, 16500.0):
        row: dict[str, Any] = {"altitude_m": alt}
        for power in ("max", "military"):
            try:
                row[f"{power}_mach"] = maneuver.level_mach(sim, alt, power)
            except RuntimeError:
                row[f"{power}_mach"] = None
        row["best_ps_ms"] = maneuver.best_ps(sim, alt, "max", np.arange(0.5, 2.45, 0.1))[0]
        rows.append(row)
    points = [{"altitude_m": f.cond["altitude_m"], "mach": f.value, "checked": f.check, "power": f.cond["power"]}
              for f in refs.of("level_mach")]
    return {"envelope": {"mass_kg": sim.compiled.mass_kg, "rows": rows, "points": points}}
