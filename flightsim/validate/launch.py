"""Launch and soaring cards, flown in the game's own world (flightsim.world.assembly.World):
the winch with its driver, the weak link, a thermal.

* ``winch_launches``: the glider's winch scenario flown three ways: by the scenario's autopilot
  (flightsim.pilots.autopilot.WinchLaunchPilot), hands off with the trim set for the launch, and as a
  newcomer flies it on the keyboard (two short pulls after lift-off, otherwise hands off). Per
  launch: the highest airspeed on the cable from lift-off to release, the release height as a
  share of the cable, the mean and peak climb on the cable, how it ended.
* ``weak_link_pull``: full back stick held from 1 s after lift-off: does the link break, and at
  what tension.
* ``thermal_climb`` (model only): in the thermal scenario's strongest thermal, circled and centred
  by the autopilot's thermalling pilot from the vario: the mean climb once centred.
"""
from __future__ import annotations

import numpy as np

from ..physics.named import AircraftView
from ..physics.named_env import Environment
from ..pilots.autopilot import ThermalPilot, autopilot
from ..world.assembly import World
from ..world.scenario import all_scenarios

DT = 0.02


def _scenario(start_type: str, aircraft: str) -> str:
    """The first glider scenario with this start (the game's own winch; in the air, thermals to
    soar in and no task to fly)."""
    for sc in all_scenarios():
        soaring = int(sc.thermals["count"]) > 0 and not any(o["type"] == "turnpoint" for o in sc.objectives)
        if sc.kind == "glider" and sc.start["type"] == start_type and (start_type != "air" or soaring):
            return sc.name
    raise RuntimeError(f"no glider scenario with a {start_type} start")


def _fly_launch(aircraft: str, how: str, seconds: float = 90.0) -> dict:
    world = World(aircraft, _scenario("winch", aircraft))
    winch = world.winch
    pilot = autopilot(world.scenario, world.terrain, winch, world.weather) if how == "autopilot" else None
    base = world.initial_inputs
    snap = world.buffer.read()[1]
    launch_alt = world.spawn.altitude_m
    t_air = None
    max_ias = 0.0
    climbs = []
    trace = []                                  # every 0.5 s: the launch profile for the report
    for k in range(int(seconds / DT)):
        t = k * DT
        if pilot is not None:
            world.mailbox.post(pilot(snap))
        elif how != "hands off":
            pull = t_air is not None and ((t_air + 1.0 < t < t_air + 1.6) or (t_air + 4.0 < t < t_air + 4.6))
            stick = 1.0 if how == "weak link pull" and t_air is not None and t > t_air + 1.0 else (0.6 if pull else 0.0)
            world.mailbox.post(base.replace(pitch=stick))
        world.physics.tick(t)
        snap = world.buffer.read()[1]
        if t_air is None and snap.height_agl_m > 2.0:
            t_air = t
        if not winch.attached:
            break
        if t_air is not None:
            max_ias = max(max_ias, snap.ias_ms * 3.6)
            climbs.append(-float(snap.velocity_ned_ms[2]))
        if k % 25 == 0:
            trace.append((round(t, 2), round(snap.altitude_m - launch_alt, 1), round(snap.ias_ms * 3.6, 1),
                          round(-float(snap.velocity_ned_ms[2]), 2), round(winch.tension_n, 0)))
    height = None if winch.release_height_m is None else winch.release_height_m - launch_alt
    climbing = [c for c in climbs if c > 1.0]
    return {"how": how, "event": winch.event or "still on the cable", "max_ias_kmh": max_ias,
            "release_height_m": height,
            "release_share_pct": None if height is None else 100.0 * height / winch.cable_length_m,
            "mean_climb_ms": float(np.mean(climbing)) if climbing else 0.0,
            "max_climb_ms": float(max(climbs)) if climbs else 0.0,
            "max_tension_n": winch.max_tension_n, "weak_link_n": winch.weak_link_n,
            "launch_speed_kmh": winch.launch_speed_ms * 3.6, "cable_m": winch.cable_length_m,
            "trace": {"columns": ["time_s", "height_m", "ias_kmh", "climb_ms", "tension_n"], "rows": trace}}


def winch_launches(aircraft: str) -> list[dict]:
    return [_fly_launch(aircraft, how) for how in ("autopilot", "hands off", "newcomer")]


def weak_link_pull(aircraft: str) -> dict:
    return _fly_launch(aircraft, "weak link pull")


def thermal_climb(aircraft: str, seconds: float = 150.0, average_s: float = 60.0) -> dict:
    """The glider put 100 m off the centre of the thermal scenario's strongest thermal, 300 m
    under its cloud base; ThermalPilot circles and centres it from the vario: the mean climb
    over the last ``average_s``, beside the thermal's core strength."""
    world = World(aircraft, _scenario("air", aircraft))
    wx = world.weather
    k = max(range(len(wx.thermals)), key=lambda i: wx.thermals[i].strength(0.0))
    th = wx.thermals[k]
    now = Environment(world.physics.env).thermal(k)     # where it is now (it drifts with the wind)
    glider = AircraftView(world.physics.state)
    alt = min(th.base_m - 300.0, glider.altitude_m + 600.0)
    glider.set_position_ned(now["north_m"] - 100.0, now["east_m"], -alt)
    pilot = ThermalPilot()
    snap = world.buffer.read()[1]
    heights = []
    for k in range(int(seconds / DT)):
        world.mailbox.post(pilot(snap))
        world.physics.tick(k * DT)
        snap = world.buffer.read()[1]
        heights.append((snap.time_s, snap.altitude_m))
    t_end, h_end = heights[-1]
    t0, h0 = next((t, h) for t, h in heights if t >= t_end - average_s)
    return {"scenario": world.scenario.name, "core_strength_ms": th.strength(0.0), "radius_m": th.radius_m,
            "mean_climb_ms": (h_end - h0) / (t_end - t0), "seconds": seconds, "averaged_s": average_s,
            "trace": {"columns": ["time_s", "altitude_m"],
                      "rows": [(round(t, 2), round(h, 1)) for t, h in heights[::25]]}}
