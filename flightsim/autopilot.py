"""Autopilots that fly through the same ControlInputs (stick forces) as the player.

They read the air data a pilot has (attitude, rates, airspeed, height, vario) from a
``Sim`` or a snapshot-like object and return a ControlInputs; the tests and the game's
demo/AI use them. No knowledge of the model's internals: they fly the aircraft the way
a pilot would, so what they achieve is what the flight model allows.

* ``WinchPilot``: the winch launch of seed 004 -- wings level and straight on the ground
  run, a gentle rotation after lift-off into the full climb, speed held with pitch in the
  climb, release at the top when the cable pulls steeply down, then lower the nose.
"""
from __future__ import annotations

import math

import numpy as np

from .handoff import ControlInputs, euler_from_quat
from .physics import layout as L


def _clip(x, lo=-1.0, hi=1.0):
    return lo if x < lo else hi if x > hi else x


def _wrap(a):
    return (a + math.pi) % (2 * math.pi) - math.pi


class Attitude:
    """Air data from a Sim (state + diag)."""

    def __init__(self, sim):
        s, d = sim.state, sim.diag
        self.roll, self.pitch, self.heading = euler_from_quat(s[L.S_QUAT:L.S_QUAT + 4])
        self.p, self.q, self.r = (float(v) for v in s[L.S_OMEGA:L.S_OMEGA + 3])
        self.ias_ms = float(d[L.D_IAS])
        self.altitude_m = float(-s[L.S_POS + 2])
        self.agl_m = float(d[L.D_HEIGHT_AGL])
        self.on_ground = int(d[L.D_ON_GROUND]) > 0
        self.beta = float(d[L.D_BETA])


class _Base:
    def __init__(self, pitch_trim=0.0):
        self.pitch_trim = pitch_trim

    def fly_attitude(self, a: Attitude, pitch_target, roll_target, heading_target=None, kp=4.0):
        pitch = _clip(kp * (pitch_target - a.pitch) - 1.2 * a.q + 0.6 * (abs(math.sin(a.roll)) * 0.3))
        roll = _clip(2.5 * (roll_target - a.roll) - 0.8 * a.p)
        yaw = _clip(-3.0 * a.beta - 0.5 * a.r + (0.0 if heading_target is None else 0.0))
        if heading_target is not None and abs(roll_target) < 0.05:
            # straight: rudder and a little bank to hold the heading
            err = _wrap(heading_target - a.heading)
            roll = _clip(2.5 * (_clip(1.5 * err, -0.3, 0.3) - a.roll) - 0.8 * a.p)
            if a.on_ground:
                yaw = _clip(4.0 * err - 1.0 * a.r)
        return pitch, roll, yaw


class WinchPilot(_Base):
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
                    # a gentle rotation: about 6 deg/s toward the climb attitude once 20 m up
                    rate = math.radians(6.0) if a.agl_m > 20.0 else math.radians(2.0)
                    self.pitch_target = min(self.pitch_target + rate * dt_s, self.climb_pitch)
                    if self.pitch_target >= self.climb_pitch:
                        self.phase = "climb"
                else:
                    # fly the speed with the pitch: too slow, lower the nose
                    top = self.climb_pitch - max(0.0, math.radians(self.winch.angle_deg - 40.0))
                    self.pitch_target = _clip(self.pitch_target + 0.02 * (a.ias_ms - self.climb_ias) * dt_s,
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
