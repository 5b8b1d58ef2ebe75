"""The winch launch: a cable from the glider's hook to a winch at the far end of the field.

Force/speed law: the winch's engine and drum give a pull that falls with the speed at
which the cable is wound in, ``T = throttle * T_max * (1 - v_cable / v_free)`` (a
torque-converter winch's characteristic, linearised), never negative. The winch driver
opens up over the first second (taking up the slack, "all out"), then works the
throttle to hold the cable speed near 24 m/s, the usual practice of driving for the
glider's launch speed, with the pull never above 90% of the weak link's rating, and
eases off as the glider nears the top (cable steeper than 45 degrees).

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

from ..physics import layout as L

BACK_RELEASE_DEG = 75.0
TARGET_CABLE_SPEED_MS = 22.0


class Winch:
    def __init__(self, winch_ned_m, hook_body_m, cable_length_m=1000.0, weak_link_n=5000.0,
                 max_pull_n=7000.0, free_speed_ms=55.0, driver_limit_n=None):
        self.winch = np.array(winch_ned_m, dtype=np.float64)
        self.hook = np.array(hook_body_m, dtype=np.float64)
        self.cable_length_m = float(cable_length_m)
        self.weak_link_n = float(weak_link_n)
        self.max_pull_n = float(max_pull_n)
        self.free_speed_ms = float(free_speed_ms)
        # the driver keeps the pull under this (set for the glider's weak link; a wrong
        # setting or a weaker link than briefed breaks it)
        self.driver_limit_n = 0.9 * self.weak_link_n if driver_limit_n is None else float(driver_limit_n)
        self.attached = True
        self.event = ""              # "released", "back-release", "weak link broke"
        self.t_s = 0.0
        self.throttle = 0.0
        self.tension_n = 0.0
        self.max_tension_n = 0.0
        self.cable_speed_ms = 0.0
        self.angle_deg = 0.0         # cable below the horizon, seen from the hook
        self.release_height_m = None
        self._pending_release = False

    def release(self):
        self._pending_release = True

    def hook_state(self, state):
        """Hook position (NED) and velocity over the ground (NED) from the state."""
        w, x, y, z = state[L.S_QUAT:L.S_QUAT + 4]
        R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        return R, state[L.S_POS:L.S_POS + 3] + R @ self.hook, R @ (state[L.S_VEL:L.S_VEL + 3]
                                                                    + np.cross(state[L.S_OMEGA:L.S_OMEGA + 3], self.hook))

    def update(self, env, state, dt_s: float, cg_m) -> None:
        env[L.E_EXT_FORCE:L.E_EXT_FORCE + 3] = 0.0
        if not self.attached:
            return
        self.t_s += dt_s
        R, p, v = self.hook_state(state)
        d = self.winch - p
        dist = float(np.linalg.norm(d))
        u = d / max(dist, 1e-6)                       # unit vector hook -> winch
        self.cable_speed_ms = float(v @ u)            # rate of winding in
        self.angle_deg = math.degrees(math.asin(max(-1.0, min(1.0, u[2]))))
        altitude = -float(state[L.S_POS + 2])
        if self._pending_release or self.angle_deg > BACK_RELEASE_DEG or dist < 30.0:
            self.event = "released" if self._pending_release else "back-release"
            self._drop(altitude)
            return
        # the driver: open up over the first second, then hold the cable speed
        if self.t_s < 1.0:
            want = 0.8 * self.t_s
        else:
            want = 0.8 + 0.1 * (TARGET_CABLE_SPEED_MS - self.cable_speed_ms)
        if self.angle_deg > 45.0:      # near the top the driver eases off
            want *= max(0.3, 1.0 - (self.angle_deg - 45.0) / 30.0)
        want = min(max(want, 0.1), 1.0)
        self.throttle += max(-0.5 * dt_s, min(0.5 * dt_s * 4, want - self.throttle))
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
        env[L.E_EXT_FORCE:L.E_EXT_FORCE + 3] = self.tension_n * u
        env[L.E_EXT_POINT:L.E_EXT_POINT + 3] = self.hook

    def _drop(self, altitude_m):
        self.attached = False
        self.tension_n = 0.0
        self.release_height_m = altitude_m


def winch_for(compiled, terrain, start_ned_m, heading_rad, cable_length_m=1000.0, **kw) -> Winch:
    """A winch cable_length_m ahead of a glider standing at start_ned_m, heading heading_rad."""
    hook = compiled.spec.aircraft.get("winch_hook_m")
    if hook is None:
        hook = tuple(compiled.cg_m + np.array([0.1, 0.0, 0.5]))
    n = start_ned_m[0] + cable_length_m * math.cos(heading_rad)
    e = start_ned_m[1] + cable_length_m * math.sin(heading_rad)
    winch = (n, e, -float(terrain.height_at(n, e)) - 1.0)
    return Winch(winch, hook, cable_length_m, **kw)
