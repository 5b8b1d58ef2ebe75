"""Terrain awareness: the look along the flight path a pilot keeps, and the turn away from a
hill that it makes (issue 33).

``clearance_ahead`` is the least height above the ground along the path flown straight on for
some seconds (the velocity kept, climb or sink included). ``TerrainWatch`` is the pilot's
habit: every half second it looks ``seconds`` ahead; closer than ``clearance_m`` to the ground
there, it looks the same distance along tracks 45, 90 and 135 degrees either side and turns to
the side that opens up most (``turn``: -1 left, +1 right, 0 carry on), keeping that turn until
the way ahead is clear by another ``hysteresis_m``. A powered pilot also climbs (``climb``).
"""
from __future__ import annotations

import math

import numpy as np

SIDE_ANGLES_RAD = np.radians([45.0, 90.0, 135.0])


def clearance_ahead(terrain, position_ned_m, velocity_ned_ms, seconds: float, step_s: float = 1.0) -> float:
    """Least height above the terrain, m, along the straight path from a point at a velocity
    (NED) for ``seconds`` (sampled every ``step_s``)."""
    t = np.arange(step_s, seconds + 0.5 * step_s, step_s)
    p = np.asarray(position_ned_m, dtype=np.float64)
    v = np.asarray(velocity_ned_ms, dtype=np.float64)
    pts = p[None, :] + t[:, None] * v[None, :]
    ground = terrain.height_at(pts[:, 0], pts[:, 1])
    return float(np.min(-pts[:, 2] - ground))


def _turned(v, angle_rad):
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]])


class TerrainWatch:
    def __init__(self, terrain, seconds=30.0, clearance_m=60.0, hysteresis_m=40.0, every_s=0.5):
        self.terrain = terrain
        self.seconds = seconds
        self.clearance = clearance_m
        self.hysteresis = hysteresis_m
        self.every = every_s
        self.turn = 0
        self.ahead_m = math.inf
        self._next = -math.inf

    def update(self, position_ned_m, velocity_ned_ms, time_s) -> int:
        """Look (every ``every_s``), and say which way to turn: -1, 0 or +1."""
        if time_s < self._next:
            return self.turn
        self._next = time_s + self.every
        v = np.asarray(velocity_ned_ms, dtype=np.float64)
        self.ahead_m = clearance_ahead(self.terrain, position_ned_m, v, self.seconds)
        if self.turn != 0:
            if self.ahead_m > self.clearance + self.hysteresis:
                self.turn = 0
            return self.turn
        if self.ahead_m >= self.clearance:
            return 0
        best, best_side = -math.inf, 1
        for side in (1, -1):
            c = max(clearance_ahead(self.terrain, position_ned_m, _turned(v, side * a), self.seconds)
                    for a in SIDE_ANGLES_RAD)
            if c > best:
                best, best_side = c, side
        self.turn = best_side
        return self.turn

    @property
    def climb(self) -> bool:
        """The way ahead is closer than the clearance: a powered aircraft climbs as it turns."""
        return self.turn != 0 and self.ahead_m < self.clearance
