"""The winch launch: a cable from the glider's hook to a winch at the far end of the field.

Force/speed law: the winch's engine and drum give a pull that falls with the speed at
which the cable is wound in, ``T = throttle * T_max * (1 - v_cable / v_free)`` (a
torque-converter winch's characteristic, linearised), never negative.

The winch driver flies the launch with the glider, as real launches are driven: he opens up
smoothly over the first seconds ("all out": the glider accelerated to flying speed on the
ground run), then watches the glider and works the throttle to hold its airspeed at the launch
speed (the glider's ``launch_speed_ms``): more power when it is slow, less when it is fast. He
sees its speed change a second late (``DRIVER_LAG_S``) and eases off as the glider nears the
top (cable steeper than 45 degrees). He has no tension gauge: a pilot who pulls up hard on the
cable raises the tension himself (the cable is wound in more slowly, the winch pulls harder).

The cable runs straight from the hook to the winch (sag and cable drag are left out,
which makes the release a little higher than a real 1000 m cable would give). It breaks
at the weak link when the tension exceeds its rating; it is released by the pilot
(``release()``), or automatically by the hook's back-release when it pulls more than
``BACK_RELEASE_DEG`` below the horizon (the glider nearly over the winch).

Everything here is numpy; ``update`` runs once per tick in the physics thread's world
hook and writes the force into the env vector (E_EXT_FORCE, E_EXT_POINT).
"""
from __future__ import annotations

import math

import numpy as np

from ..physics.atmosphere import isa
from ..physics.named import AircraftView
from ..physics.named_env import Environment
from ..physics.quat import cross3, dot3, mat3_vec, norm3

BACK_RELEASE_DEG = 75.0
RHO0 = 1.225
ALL_OUT_S = 1.5          # the driver opens up over this ...
TAKEOFF_PULL_G = 1.0     # ... to a pull of the glider's weight (about 1 g on the ground run)
CLIMB_FROM = 0.6         # ... until the glider flies at this share of its launch speed
CLIMB_PULL_G = 0.8       # the climb's pull he starts from, glider weights ...
CLIMB_CABLE_MS = 18.0    # ... at this cable speed
DRIVER_LAG_S = 1.0       # he sees the glider's speed this late
DRIVER_KP = 2.0          # throttle per unit relative speed error ...
DRIVER_KI = 0.25         # ... and its integral, per second
THROTTLE_RATE = 0.5      # he moves the throttle this fast at most, per second
DEFAULT_LAUNCH_SPEED_MS = 100.0 / 3.6


class Winch:
    def __init__(self, winch_ned_m, hook_body_m, cable_length_m=1000.0, weak_link_n=5000.0,
                 max_pull_n=7000.0, free_speed_ms=55.0, launch_speed_ms=DEFAULT_LAUNCH_SPEED_MS,
                 glider_weight_n=3700.0, driver_limit_n=None):
        self.winch = np.array(winch_ned_m, dtype=np.float64)
        self.hook = np.array(hook_body_m, dtype=np.float64)
        self.cable_length_m = float(cable_length_m)
        self.weak_link_n = float(weak_link_n)
        self.max_pull_n = float(max_pull_n)
        self.free_speed_ms = float(free_speed_ms)
        self.launch_speed_ms = float(launch_speed_ms)       # the glider's IAS the driver drives for
        self.glider_weight_n = float(glider_weight_n)
        # a winch whose pull is capped (a pressure relief set for the glider): none by default
        self.driver_limit_n = math.inf if driver_limit_n is None else float(driver_limit_n)
        self.attached = True
        self.event = ""              # "released", "back-release", "weak link broke"
        self.t_s = 0.0
        self.throttle = 0.0
        self.tension_n = 0.0
        self.max_tension_n = 0.0
        self.cable_speed_ms = 0.0
        self.angle_deg = 0.0         # cable below the horizon, seen from the hook
        self.release_height_m = None
        self.ias_ms = 0.0            # the glider's airspeed, and as the driver sees it (a second late)
        self.max_ias_ms = 0.0
        self._ias_seen = 0.0
        self._power = 0.0            # the driver's slow part of the throttle (integral)
        self._climbing = False       # past the ground run: the driver holds the launch speed
        self._pending_release = False
        self.release_taken = False       # the last update took the pilot's release

    def release(self):
        self._pending_release = True

    def hook_state(self, state):
        """Hook position (NED) and velocity over the ground (NED) from the state."""
        a = AircraftView(state)
        R = a.body_to_ned()
        return (R, a.position_ned_m + mat3_vec(R, self.hook),
                mat3_vec(R, a.velocity_body_ms + cross3(a.body_rates_rads, self.hook)))

    def update(self, env, state, dt_s: float, cg_m) -> None:
        Environment(env).clear_external_force()
        # the release, read once (the pilot pulls it from another thread): what this step took
        self.release_taken, self._pending_release = self._pending_release, False
        if not self.attached:
            return
        self.t_s += dt_s
        R, p, v = self.hook_state(state)
        d = self.winch - p
        dist = norm3(d)
        u = d / max(dist, 1e-6)                       # unit vector hook -> winch
        self.cable_speed_ms = dot3(v, u)              # rate of winding in
        self.angle_deg = math.degrees(math.asin(max(-1.0, min(1.0, u[2]))))
        altitude = AircraftView(state).altitude_m
        if self.release_taken or self.angle_deg > BACK_RELEASE_DEG or dist < 30.0:
            self.event = "released" if self.release_taken else "back-release"
            self._drop(altitude)
            return
        self.ias_ms = self._airspeed(env, state, R, altitude)
        self.max_ias_ms = max(self.max_ias_ms, self.ias_ms)
        seen = self._ias_seen + (self.ias_ms - self._ias_seen) * min(1.0, dt_s / DRIVER_LAG_S)
        # he sees it late, but sees it accelerate: his judgement runs that trend on by his lag
        judged = seen + DRIVER_LAG_S * (seen - self._ias_seen) / dt_s
        self._ias_seen = seen
        # the driver: all out over the first seconds to a pull of about the glider's weight; once the
        # glider flies, its launch speed held (the power he has found plus a correction for what he sees)
        available = self.max_pull_n * max(1.0 - max(self.cable_speed_ms, 0.0) / self.free_speed_ms, 0.05)
        if not self._climbing and judged >= CLIMB_FROM * self.launch_speed_ms:
            self._climbing = True      # flying: from here he drives for the launch speed, starting
            #                            from the power that holds about the glider's weight on the
            #                            cable in the climb (the cable wound in at about 18 m/s)
            self._power = min(CLIMB_PULL_G * self.glider_weight_n
                              / (self.max_pull_n * max(1.0 - CLIMB_CABLE_MS / self.free_speed_ms, 0.05)), 1.0)
        if not self._climbing:
            want = min(TAKEOFF_PULL_G * self.glider_weight_n / available, 1.0) * min(self.t_s / ALL_OUT_S, 1.0)
            self._power = want
        else:
            err = (self.launch_speed_ms - judged) / self.launch_speed_ms
            self._power = min(max(self._power + DRIVER_KI * err * dt_s, 0.0), 1.0)
            want = self._power + DRIVER_KP * err
        if self.angle_deg > 45.0:      # near the top the driver eases off
            want = min(want, max(0.3, 1.0 - (self.angle_deg - 45.0) / 30.0))
        want = min(max(want, 0.0), 1.0)
        self.throttle += max(-THROTTLE_RATE * dt_s, min(THROTTLE_RATE * dt_s, want - self.throttle))
        pull = self.throttle * self.max_pull_n * max(0.0, 1.0 - max(self.cable_speed_ms, 0.0) / self.free_speed_ms)
        pull = min(pull, self.driver_limit_n)
        # the cable is an elastic line: slack (never longer than its length from the winch)
        # carries nothing; taut it carries the winch's pull
        self.tension_n = pull if dist <= self.cable_length_m + 5.0 else pull + 2e4 * (dist - self.cable_length_m - 5.0)
        self.max_tension_n = max(self.max_tension_n, self.tension_n)
        if self.tension_n > self.weak_link_n:
            self.event = "weak link broke"
            self._drop(altitude)
            return
        Environment(env).set_external_force(self.tension_n * u, self.hook)

    @staticmethod
    def _airspeed(env, state, R, altitude_m) -> float:
        """The glider's indicated airspeed (m/s) through the steady wind: what the driver judges."""
        v = mat3_vec(R, AircraftView(state).velocity_body_ms) - Environment(env).wind_ned_ms
        return norm3(v) * math.sqrt(float(isa(altitude_m)[2]) / RHO0)

    def _drop(self, altitude_m):
        self.attached = False
        self.tension_n = 0.0
        self.release_height_m = altitude_m


def winch_for(compiled, terrain, start_ned_m, heading_rad, cable_length_m=1000.0, **kw) -> Winch:
    """A winch cable_length_m ahead of a glider standing at start_ned_m, heading heading_rad; its
    driver drives for the glider's launch speed ([aircraft] winch_launch_kmh)."""
    if compiled.spec.aircraft.get("winch_launch_kmh"):
        kw.setdefault("launch_speed_ms", compiled.spec.aircraft["winch_launch_kmh"] / 3.6)
    kw.setdefault("glider_weight_n", compiled.mass_kg * 9.80665)
    hook = compiled.spec.aircraft.get("winch_hook_m")
    if hook is None:
        hook = tuple(compiled.cg_m + np.array([0.1, 0.0, 0.5]))
    n = start_ned_m[0] + cable_length_m * math.cos(heading_rad)
    e = start_ned_m[1] + cable_length_m * math.sin(heading_rad)
    winch = (n, e, -float(terrain.height_at(n, e)) - 1.0)
    return Winch(winch, hook, cable_length_m, **kw)
