"""Starting a flight-test card: the aircraft trimmed in straight flight at a test condition.

A test pilot sets up each card the same way: the weight and configuration loaded, the
altitude and indicated airspeed, power set, trimmed hands off in straight flight. Here
that is a trim of the full model (flightsim.physics.trim), placed in free air: level flight
where the power can hold the speed, else the climb or dive the set power gives at that
speed (a dive for speeds above the level top speed, as flight tests reach them), and a
glider's steady glide.
"""
from __future__ import annotations

import math

from ..aircraft_data.compile import aircraft_with_mass
from ..physics.atmosphere import isa
from ..physics.named import Controls
from ..physics.state import flat_terrain, make_ctrl
from ..sim import Sim

RHO0 = 1.225
KMH = 3.6
POWER = {"wep": dict(throttle=1.0, wep=1.0), "military": dict(throttle=1.0, wep=0.0),
         "cruise": dict(throttle=0.6, wep=0.0), "idle": dict(throttle=0.0, wep=0.0)}
CONFIG = {"clean": dict(gear_up=1.0, flap=0.0), "gear_down": dict(gear_up=0.0, flap=0.0),
          "landing": dict(gear_up=0.0, flap=1.0), "takeoff": dict(gear_up=0.0, flap=0.4),
          "airbrakes": dict(gear_up=0.0, flap=0.0, airbrake=1.0)}


def tas_from_ias(ias_kmh: float, altitude_m: float) -> float:
    """True airspeed (m/s) for an indicated (equivalent) airspeed at this altitude, ISA."""
    return ias_kmh / KMH * math.sqrt(RHO0 / float(isa(altitude_m)[2]))


def base_controls(sim: Sim, config: str = "clean", power: str | None = None, prop_rpm: float = 1.0):
    """The controls a card starts from: configuration (gear, flaps, airbrakes), power and the
    propeller's rpm lever (1: its top, the cards' usual; 0: the least rpm it governs)."""
    c = dict(CONFIG[config])            # (an aircraft without flaps or a retractable wheel ignores them)
    if sim.powered:
        c.update(POWER[power or "military"], prop_rpm=prop_rpm)
    return make_ctrl(**c)


def test_sim(aircraft, mass_kg: float | None = None) -> Sim:
    """The aircraft at a card's weight (ballast at the CG), in free air (no ground near)."""
    return Sim(aircraft_with_mass(aircraft, mass_kg), terrain=flat_terrain(-1.0e6))


def trim_straight(sim: Sim, ias_kmh: float, altitude_m: float, config: str = "clean", power: str | None = None,
                  prop_rpm: float = 1.0):
    """Trim ``sim`` in straight flight at this indicated airspeed and altitude and place it there
    (heading north); returns the trim, or None where the aircraft has no such steady flight
    (slower than its stall, or out of elevator travel)."""
    tas = tas_from_ias(ias_kmh, altitude_m)
    base = base_controls(sim, config, power, prop_rpm)
    tr = sim.trimmer(altitude_m, base, plant_in_jacobian=False)
    t = None
    if sim.powered:
        level = tr.level(tas, (0.02, 0.6, 0.0))
        if level.ok and 0.0 <= level.throttle <= Controls(base).throttle + 1e-9:
            t = level
        else:                          # faster than the set power holds level: the dive it gives
            t = tr.climb(tas, (0.02, -0.05, 0.0))
    else:
        t = tr.glide(tas)
    if t is None or not t.ok or not t.within_travel:
        return None
    if sim.powered:
        t = tr.lateral(t)              # aileron and rudder tabs against torque and P-factor
        if not t.ok:
            return None
    sim.place_trim(t, altitude_m)
    return t
