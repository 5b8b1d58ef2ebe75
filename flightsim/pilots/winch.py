"""The winch launch of seed 004 (``WinchPilot``): wings level and straight on the ground run, a
gentle rotation after lift-off into the full climb, speed held with pitch in the climb, release
at the top when the cable pulls steeply down, then lower the nose; and the glider's day
(``WinchLaunchPilot``): the launch, then soaring round the field.
"""
from __future__ import annotations

import math

from ..runtime.handoff import ControlInputs
from .flying import Attitude, AttitudeFlyer, ScenarioPilot, clip
from .soaring import SoaringPilot


class WinchPilot(AttitudeFlyer):
    def __init__(self, winch, heading_rad, climb_pitch_deg=45.0, climb_ias_kmh=105.0):
        super().__init__()
        self.winch = winch
        self.heading = heading_rad
        self.climb_pitch = math.radians(climb_pitch_deg)
        self.climb_ias = climb_ias_kmh / 3.6
        self.phase = "ground run"
        self.pitch_target = 0.0
        self.t_air = 0.0

    def __call__(self, sim, dt_s=0.02) -> ControlInputs:
        a = Attitude(sim)
        if self.phase == "ground run":
            if not a.on_ground and a.agl_m > 1.5:
                self.phase = "rotation"
                self.pitch_target = max(a.pitch, 0.05)
            p, r, y = self.fly_attitude(a, 0.08 if a.ias_ms > 15 else a.pitch, 0.0, self.heading)
            if a.ias_ms < 15:
                p = 0.0
            return ControlInputs(pitch=p, roll=r, yaw=y)
        if self.phase in ("rotation", "climb"):
            if not self.winch.attached:
                self.phase = "glide"
            else:
                self.t_air += dt_s
                if self.phase == "rotation":
                    # "maintain a shallow climb until adequate speed is seen with continued
                    # acceleration, then allow the glider to rotate at a controlled pace" (BGA,
                    # Managing flying risk: winch launching): about 6 deg/s toward the climb
                    # attitude once clear of the ground at the launch speed
                    ready = a.agl_m > 3.0 and a.ias_ms >= 0.9 * self.climb_ias
                    rate = math.radians(6.0) if ready or a.agl_m > 20.0 else math.radians(2.0)
                    self.pitch_target = min(self.pitch_target + rate * dt_s, self.climb_pitch)
                    if self.pitch_target >= self.climb_pitch:
                        self.phase = "climb"
                else:
                    # fly the speed with the pitch: too slow, lower the nose
                    top = self.climb_pitch - max(0.0, math.radians(self.winch.angle_deg - 40.0))
                    self.pitch_target = clip(self.pitch_target + 0.02 * (a.ias_ms - self.climb_ias) * dt_s,
                                              math.radians(10.0), max(top, math.radians(10.0)))
                # the top: the cable pulls steeply down -> release
                if self.winch.angle_deg > 65.0:
                    self.winch.release()
                # in the climb: wings level, ball in the middle (no heading chasing at 40 degrees pitch)
                p, r, y = self.fly_attitude(a, self.pitch_target, 0.0)
                return ControlInputs(pitch=p, roll=r, yaw=y)
        # after release: lower the nose to a glide
        p, r, y = self.fly_attitude(a, math.radians(-4.0), 0.0, self.heading)
        return ControlInputs(pitch=p, roll=r, yaw=y)


class WinchLaunchPilot(ScenarioPilot):
    """The glider's day: the winch launch (WinchPilot), then soaring round the field (a
    SoaringPilot keeping the field within reach, taking the thermals it meets), and after
    ``soar_s`` (three minutes; or when the height band says so) the circuit and the landing
    back on the runway (``circuit``: a CircuitPilot)."""

    def __init__(self, winch, heading_rad, home, circuit=None, ceiling_m=None, clouds=None, wind_ne_ms=(0.0, 0.0),
                 soar_s=180.0):
        super().__init__()
        self.launch = WinchPilot(winch, heading_rad)
        self.soar = SoaringPilot(goal_ne=None, ceiling_m=ceiling_m, clouds=clouds, home=home, circuit=circuit,
                                 wind_ne_ms=wind_ne_ms, land_after_s=soar_s)
        self.phase = "launch"
        self._glide_t = None

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if self.phase == "launch":
            c = self.launch(src, dt if dt > 0 else 0.02)
            if self.launch.phase == "glide":
                self._glide_t = a.time_s if self._glide_t is None else self._glide_t
                if a.time_s - self._glide_t > 4.0:            # nose lowered, speed back: soar
                    self.phase = "soar"
                    self.soar.base = c.replace(pitch=0.0, roll=0.0, yaw=0.0)
                    self.soar.bank_ref = a.roll
            return c
        return self.soar(src)
