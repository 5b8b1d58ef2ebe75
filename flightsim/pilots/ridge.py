"""``RidgePilot``: beats along a ridge in the lift of the wind blowing up its face.
"""
from __future__ import annotations

import math

import numpy as np

from ..runtime.handoff import ControlInputs
from .flying import Attitude, ScenarioPilot, clip, wrap_pi


class RidgePilot(ScenarioPilot):
    """Ridge soaring: beats along the windward face in the lift band.

    The pilot sees the hill: looking across the beat (along the wind) it picks out where
    the windward face is steepest -- where the wind is thrown up hardest -- and flies
    along over it, crabbing to hold that line (the wind drifts the glider toward the
    crest and the lee). Lower than ``min_agl_m`` it moves out from the face. After
    ``beat_m`` along the ridge it turns back, always away from the slope (into wind),
    and beats the other way, at ``ias_kmh`` (a little over min sink: margin near the
    ground, penetration into the wind)."""

    def __init__(self, terrain, wind_from_deg, ridge_heading_rad, ias_kmh=90.0, min_agl_m=100.0, beat_m=2500.0):
        super().__init__()
        self.terrain = terrain
        to = math.radians(wind_from_deg + 180.0)
        self.downwind = np.array([math.cos(to), math.sin(to)])
        self.beat_hdg = ridge_heading_rad
        self.ias = ias_kmh / 3.6
        self.min_agl = min_agl_m
        self.beat_m = beat_m
        self.beat_start = None
        self.phase = "beat"
        self.turn_dir = 1
        self.beats = 0
        self._next_look = -1.0
        self.face_offset_m = 0.0

    def slope_side(self) -> np.ndarray:
        """Unit vector across the beat toward the slope (the downwind side)."""
        f = np.array([math.cos(self.beat_hdg), math.sin(self.beat_hdg)])
        right = np.array([-f[1], f[0]])
        return right if right @ self.downwind > 0 else -right

    def look(self, a: Attitude) -> float:
        """Across the beat, how far toward the slope (+) the steepest windward face lies."""
        side = self.slope_side()
        s = np.arange(-1200.0, 1201.0, 40.0)
        p = a.position_ned_m[:2][None, :] + s[:, None] * side[None, :]
        h = self.terrain.height_at(p[:, 0], p[:, 1])
        rise = np.gradient(h, s)                       # ground rising toward the downwind side
        k = int(np.argmax(rise))
        return float(s[k]) if rise[k] > 0.05 else 0.0

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        p = a.position_ned_m[:2]
        if self.beat_start is None:
            self.beat_start = p.copy()
        if self.phase == "turn":
            if abs(wrap_pi(self.beat_hdg - a.track_rad)) < math.radians(20.0):
                self.phase = "beat"
                self.beat_start = p.copy()
            else:
                return self.fly(a, dt, self.turn_dir * math.radians(35.0), self.ias)
        f = np.array([math.cos(self.beat_hdg), math.sin(self.beat_hdg)])
        if float((p - self.beat_start) @ f) > self.beat_m:
            # away from the slope: the turn whose first half heads upwind
            right = np.array([-f[1], f[0]])
            self.turn_dir = -1 if right @ self.slope_side() > 0 else 1
            self.beat_hdg = wrap_pi(self.beat_hdg + math.pi)
            self.beats += 1
            self.phase = "turn"
            return self.fly(a, dt, self.turn_dir * math.radians(35.0), self.ias)
        if a.time_s >= self._next_look:
            self._next_look = a.time_s + 1.0
            self.face_offset_m = self.look(a)
        want_off = self.face_offset_m - max(self.min_agl - a.agl_m, 0.0) * 3.0
        side = self.slope_side()
        toward = math.atan2(side[1], side[0])
        # the track toward the line over the face: up to 35 degrees off the beat heading
        cut = clip(want_off / 250.0, -1.0, 1.0) * math.radians(35.0)
        want = self.beat_hdg + cut * (1.0 if wrap_pi(toward - self.beat_hdg) > 0 else -1.0)
        err = wrap_pi(want - a.track_rad)
        bank = clip(1.5 * err, -math.radians(25.0), math.radians(25.0))
        return self.fly(a, dt, bank, self.ias)
