"""Take-off and landing cards, flown in 6-DOF on a flat, hard runway at sea level, no wind.

* ``takeoff_roll``: parked with the brakes on in the take-off configuration (flaps set before
  the run), then the game's take-off pilot (flightsim.pilots.autopilot.TakeoffPilot: brakes off, power
  opened over 3 s, tail wheel held down early, tail up; a nose-wheel aircraft on its attitude from
  the start): the ground run is the distance from
  brake release to the lift-off speed the condition gives (``ias_kmh``, the manual's for the
  weight), as performance calculations reckon it. (Without one: to the last wheel leaving the
  ground after the pilot's rotation.) The game's pilot rotates slowly and lifts off about
  20 km/h later; the manual's speed is the one a pilot flying for a short run leaves at.
* ``landing_roll``: the run from touchdown to a stop. The aircraft is put on the runway in its
  three-point attitude, gear and flaps down, power off, rolling at its touchdown speed (the
  condition's ``ias_kmh``, else ``TOUCHDOWN_OVER_STALL`` times the model's own landing-
  configuration stall speed at that weight: a three-point landing touches down just above the
  stall); the pilot brings the stick back as the speed falls, keeps straight with the rudder and
  the brakes (``landing_run`` says how straight), and brakes with ``BRAKING`` of the brakes' full
  force on average from ``BRAKE_AFTER_S`` (firm
  braking, assumed: at half the force the P-51D noses over), or the condition's ``braking``
  where the manual says how hard (a nose-wheel trainer's "maximum braking": 1).
* ``takeoff_distance``: the take-off as ``takeoff_roll`` flies it (rotation at the condition's
  ``ias_kmh``), on to the wheels 50 ft above the runway, climbing at the condition's
  ``obstacle_ias_kmh`` (a manual's speed at the obstacle): the distance from brake release.
* ``run_up_carb_heat``: the before-take-off check of a carburetted engine, brakes held: the
  throttle set for the run-up's rpm, then full carburettor heat, and the rpm it drops by.
"""
from __future__ import annotations

import math

import numpy as np

from ..aircraft_data.compile import aircraft_with_mass
from ..physics.named import AircraftView, Controls
from ..physics.state import flat_terrain
from ..pilots.autopilot import TakeoffPilot
from ..sim import Sim
from ..world.flight_log import CRASH_STRIKE_MS
from .flight import CONFIG
from .performance import stall_speed

DT = 0.02
TOUCHDOWN_OVER_STALL = 1.05
BRAKING = 0.4
BRAKE_AFTER_S = 1.0
STEER_BRAKE = 4.0             # differential braking per radian of heading off the runway...
STEER_LEAD_S = 0.5            # ...and per rad/s of yaw rate times this (the swing's lead)
TAIL_DOWN_PER_RAD = 20.0      # back stick per radian the pitch falls below the three-point attitude
OBSTACLE_M = 15.24           # 50 ft


def _runway_sim(aircraft, mass_kg, config) -> Sim:
    sim = Sim(aircraft_with_mass(aircraft, mass_kg), terrain=flat_terrain(0.0))
    sim.spawn_on_ground(0.0, 0.0, 0.0, settle_s=2.0)
    c = CONFIG[config]
    sim.controls.flap = c["flap"]
    sim.set_surface("flap", c["flap"])                     # set before the run
    sim.controls.gear_up = c["gear_up"]
    return sim


def _takeoff_pilot(sim, **kw) -> TakeoffPilot:
    """The game's take-off pilot; a nose-wheel aircraft runs on its attitude from the start (no tail
    wheel to hold down)."""
    if sim.compiled.spec.nose_wheel:
        kw["tail_up_kmh"] = 0.0
    return TakeoffPilot(0.0, **kw)


def _fly_until(sim, pilot, done, seconds: float, late: str) -> float:
    """Fly ``pilot`` until ``done(sim)``: the distance over the ground from where it started (m);
    refused if the take-off strikes the ground or ``late`` after ``seconds``."""
    start = sim.position_ned_m
    for _ in range(int(seconds / DT)):
        sim.step(pilot(sim).to_array())
        if done(sim):
            return float(np.hypot(*(sim.position_ned_m - start)[:2]))
        if sim.strike_speed_ms > CRASH_STRIKE_MS:
            raise RuntimeError("the take-off struck the ground")
    raise RuntimeError(late)


def takeoff_roll(aircraft, cond) -> float:
    """The ground run (m); ``ias_kmh`` in the condition: the lift-off speed the manual gives for
    the weight (the pilot starts the rotation just short of it)."""
    sim = _runway_sim(aircraft, cond["mass_kg"], cond["config"] or "takeoff")
    v_lof = cond.get("ias_kmh")
    pilot = _takeoff_pilot(sim, rotate_kmh=v_lof) if v_lof else _takeoff_pilot(sim)

    def lifted_off(s):
        return (not s.on_ground and s.height_agl_m > 0.5) or bool(v_lof and s.ias_kmh >= v_lof)
    return _fly_until(sim, pilot, lifted_off, 90.0, "no lift-off within 90 s")


def takeoff_distance(aircraft, cond) -> float:
    """Brake release to the wheels 50 ft up (m): rotation at the condition's ``ias_kmh``, the climb at
    its ``obstacle_ias_kmh`` (without one, 1.1 times the lift-off speed)."""
    sim = _runway_sim(aircraft, cond["mass_kg"], cond["config"] or "takeoff")
    wheels = sim.height_agl_m                  # the CG's height parked: the wheels are on the runway
    v_lof = cond["ias_kmh"]
    if not v_lof:
        raise RuntimeError("the take-off distance card needs the lift-off speed (ias_kmh)")
    pilot = _takeoff_pilot(sim, rotate_kmh=v_lof, climb_kmh=cond.get("obstacle_ias_kmh") or 1.1 * v_lof)
    return _fly_until(sim, pilot, lambda s: s.height_agl_m - wheels >= OBSTACLE_M, 120.0, "not 50 ft up within 120 s")


def landing_roll(aircraft, cond) -> float:
    return landing_run(aircraft, cond)["distance_m"]


def landing_run(aircraft, cond) -> dict:
    """The landing card's run from touchdown to a stop: its length (m); how straight it ran, the
    largest heading off the runway's (deg) and where it stopped across the runway (m); and how far
    the pitch fell below the touchdown attitude (deg: the tail rising)."""
    config = cond["config"] or "landing"
    touchdown_kmh = cond.get("ias_kmh") or TOUCHDOWN_OVER_STALL * stall_speed(aircraft, dict(cond, config=config))
    sim = _runway_sim(aircraft, cond["mass_kg"], config)
    v = touchdown_kmh / 3.6                     # sea level: IAS = TAS
    theta = sim.euler_rad[1]
    sim.set_velocity_body(v * math.cos(theta), 0.0, v * math.sin(theta))
    c = sim.controls.copy()
    c.set(throttle=0.0, pitch=0.0, brake_left=0.0, brake_right=0.0)    # (stick back as the speed falls: below)
    start = sim.position_ned_m
    braking = cond.get("braking") or BRAKING
    worst = tail_rise = 0.0
    for k in range(int(120.0 / DT)):
        psi, r = sim.euler_rad[2], sim.yaw_rate_rads
        worst = max(worst, abs(psi))
        tail_rise = max(tail_rise, theta - sim.euler_rad[1])
        if k * DT >= BRAKE_AFTER_S:
            # even braking, and more on the side the nose must swing back to, as a pilot keeps a
            # tail-wheel aircraft straight (with the rudder alone the heavy P-51D weaved +/-24 deg,
            # and the tyres' side forces shortened its run by a tenth)
            d = min(braking, max(-braking, STEER_BRAKE * (psi + STEER_LEAD_S * r)))
            c.set(brake_left=min(1.0, braking + d), brake_right=min(1.0, braking - d))
        # the stick comes back as the wing stops flying, never so far that the aircraft balloons
        # back into the air, and further back as soon as the tail rises from the three-point
        # attitude: the tail held down (tail wheel steering, no nosing over). Without that the
        # P-51D wheelbarrowed from 14 to -2 deg of pitch after touching down
        back = max(0.0, 1.0 - sim.ias_ms / v) if k else 0.0
        c.pitch = min(1.0, back + TAIL_DOWN_PER_RAD * max(0.0, theta - sim.euler_rad[1]))
        # straight down the runway with the rudder (and the tail wheel it steers)
        c.yaw = min(1.0, max(-1.0, -4.0 * psi - 1.5 * r))
        sim.step(c.array)
        if np.linalg.norm(sim.velocity_ned_ms[:2]) < 0.5:
            off = sim.position_ned_m - start
            return {"distance_m": float(np.hypot(*off[:2])), "max_heading_deg": math.degrees(worst),
                    "across_m": float(off[1]), "tail_rise_deg": math.degrees(tail_rise)}
        if sim.strike_speed_ms > CRASH_STRIKE_MS:
            raise RuntimeError("the landing run struck the ground (nosed over)")
    raise RuntimeError("not stopped within 120 s")


RUN_UP_RPM = 1700.0          # the POH's run-up rpm (Cessna 172P, section 4: before take-off)


def run_up_carb_heat(aircraft, mass_kg=None, run_up_rpm: float = RUN_UP_RPM) -> dict:
    """Parked, brakes on, engine running: the throttle set (by bisection) for ``run_up_rpm``, held
    15 s, then full carburettor heat for 15 s: the rpm before and after, and full throttle's
    static rpm."""
    sim = _runway_sim(aircraft, mass_kg, "clean")
    c = Controls(sim.ctrl.copy(), brake_left=1.0, brake_right=1.0)

    def rpm_at(throttle, heat, seconds=15.0):
        c.throttle, c.carb_heat = throttle, heat
        for _ in range(int(seconds / DT)):
            sim.step(c.array)
        return AircraftView(sim.state, sim.diag).engine_rpm
    lo, hi = 0.2, 0.5
    for _ in range(8):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if rpm_at(mid, 0.0, 6.0) < run_up_rpm else (lo, mid)
    cold = rpm_at(hi, 0.0)
    hot = rpm_at(hi, 1.0)
    return {"throttle": hi, "cold_rpm": cold, "heated_rpm": hot, "drop_rpm": cold - hot,
            "static_rpm": rpm_at(1.0, 0.0)}
