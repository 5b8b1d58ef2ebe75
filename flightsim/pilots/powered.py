"""The powered aircraft's pilots: ``CruisePilot`` (level cruise on a heading) and ``TakeoffPilot``
(the take-off run, rotation, gear up and climb-out; a jet's rotation and climb-out speeds below).
"""
from __future__ import annotations

import math

from ..runtime.handoff import ControlInputs
from .flying import G0, Attitude, ScenarioPilot, clip, wrap_pi

JET_ROTATE_KMH = 250.0       # a jet fighter's rotation: the F-15C's nose-wheel lift-off, 128-141 KCAS (T.O. fig. A3-6)


JET_CLIMB_KMH = 650.0        # its climb-out speed (about 350 KCAS)


JET_CLIMB_THROTTLE = 0.8     # military power once the gear is up (the F-15C's military detent)
# The jet's stick asks its flight-control law for a load factor (1 + s (g_limit - 1) back, 1 + s (1 -
# JET_G_MIN) forward), 8 g per unit of stick on the F-15C: the Flyer's attitude loop, made for an
# elevator, pulled 20 g per radian of pitch error and the F-15C porpoised after lift-off (pitch 22 to
# -4 deg, -1.5 to +3.8 g, a 2 s cycle; the same in free air from a 10 deg step). Its pitch is flown as
# a pitch rate instead, asked of the law as the load factor that gives it: JET_PITCH_K per second of
# the error, at most JET_PITCH_RATE. The law takes about 0.6 s to reach 63 % of a load factor at 400
# km/h, so the loop stays well below that: 0.4/s settles a 10 deg step without overshoot past 1 deg,
# 0.7/s and above oscillate (measured Nov 2026).
JET_PITCH_K = 0.4            # 1/s
JET_PITCH_RATE = math.radians(8.0)
JET_G_MIN = -3.0             # the law's negative limit (the F-15C's g_min)


# ---------------------------------------------------------------------------- powered aircraft
class CruisePilot(ScenarioPilot):
    """Level cruise for a powered aircraft: height held with the pitch attitude (P + I on
    the height error, climb rate damped), airspeed with the throttle (P + I), wings level
    on a heading, ball centred. The governor lever stays where it is (constant speed)."""

    def __init__(self, altitude_m=None, ias_kmh=None, heading_rad=None):
        super().__init__()
        self.altitude = altitude_m
        self.ias = None if ias_kmh is None else ias_kmh / 3.6
        self.heading = heading_rad
        self.i_alt = 0.0
        self.throttle = None
        self.i_thr = 0.0

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        if self.altitude is None:
            self.altitude = a.altitude_m
        if self.ias is None:
            self.ias = a.ias_ms
        if self.heading is None:
            self.heading = a.heading
        if self.throttle is None:
            self.throttle = self.base.throttle if self.base.throttle > 0 else 0.7
            self.i_thr = self.throttle
        f = self.flyer
        err = wrap_pi(self.heading - a.heading)
        bank = self.terrain_bank(a, clip(1.0 * err, -math.radians(25.0), math.radians(25.0)))
        if self.terrain_watch is not None and self.terrain_watch.climb:
            self.altitude = max(self.altitude, a.altitude_m + 150.0)      # over the hill ahead as it turns
        herr = self.altitude - a.altitude_m
        self.i_alt = clip(self.i_alt + 0.0005 * herr * dt, -0.1, 0.1)
        want_vs = clip(0.1 * herr, -8.0, 8.0)
        v = max(a.tas_ms, 30.0)
        pitch_t = clip(a.alpha + self.i_alt + math.asin(clip(want_vs / v, -0.3, 0.3))
                        + 0.01 * (want_vs - a.vs_ms), -0.3, 0.35)
        spd = self.ias - a.ias_ms
        self.i_thr = clip(self.i_thr + 0.01 * spd * dt, 0.05, 1.0)
        thr = clip(self.i_thr + 0.05 * spd, 0.05, 1.0)
        return self.base.replace(pitch=f.attitude(a, pitch_t, dt), roll=f.bank(a, self.roll_in(bank, dt), dt),
                                 yaw=f.rudder(a, dt), throttle=thr, gear_up=1.0, brake_left=0.0, brake_right=0.0)


RUNWAY_YAW_DAMPING = 5.0     # rudder (of its travel) per rad/s of yaw rate on the take-off run


class TakeoffPilot(ScenarioPilot):
    """A tail-wheel fighter's take-off: brakes off, full power (opened over 3 s), stick
    back on the early run (tail wheel steering), rudder against the swing, tail up at
    ``tail_up_kmh``, rotate at ``rotate_kmh``, climb at ``climb_kmh``, gear up once
    climbing 30 m up, then a CruisePilot's climb to ``cruise_alt_agl_m``."""

    def __init__(self, heading_rad, tail_up_kmh=110.0, rotate_kmh=160.0, climb_kmh=270.0):
        super().__init__()
        self.heading = heading_rad
        self.tail_up = tail_up_kmh / 3.6
        self.rotate = rotate_kmh / 3.6
        self.climb = climb_kmh / 3.6
        self.phase = "run"
        self.t0 = None
        self.gear = 0.0

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if self.t0 is None:
            self.t0 = a.time_s
        if getattr(src, "jets", 0):
            self.g_limit = float(getattr(src, "g_limit", 0.0) or 9.0)
            return self._jet(a, dt)
        f = self.flyer
        thr = clip((a.time_s - self.t0) / 3.0, 0.0, 1.0)
        herr = wrap_pi(self.heading - a.heading)
        if self.phase == "run":
            yaw = self._runway_rudder(a, herr, dt)
            roll = clip(2.0 * (0.0 - a.roll) - 0.5 * a.p)
            if a.ias_ms < self.tail_up:
                pitch = 0.5                                            # tail wheel held down: it steers
            else:
                pitch = f.attitude(a, math.radians(2.0), dt)          # tail up, accelerate
            if a.ias_ms >= self.rotate:
                self.phase = "rotate"
                self.pitch_t = a.pitch
            return self.base.replace(pitch=pitch, roll=roll, yaw=yaw, throttle=thr, prop_rpm=1.0,
                                     brake_left=0.0, brake_right=0.0)
        if self.phase == "rotate":
            self.pitch_t = min(self.pitch_t + math.radians(3.0) * dt, math.radians(10.0))
            if not a.on_ground and a.agl_m > 5.0:
                self.set_phase("climb")
            bank = clip(1.0 * herr, -0.1, 0.1)
            # the run's rudder law and its trim carried on: raising the nose swings a single-engine
            # fighter (gyroscopic precession, P-factor), and the wheels are still on the runway
            yaw = self._runway_rudder(a, herr, dt)
            return self.base.replace(pitch=f.attitude(a, self.pitch_t, dt), roll=f.bank(a, bank, dt),
                                     yaw=yaw, throttle=thr, prop_rpm=1.0, brake_left=0.0, brake_right=0.0)
        # climb: the lift-off attitude held until clear of the ground and accelerating, then
        # the climb speed with the pitch; wings level on the runway heading, gear up once clear
        if a.agl_m > 30.0 and a.vs_ms > 1.0:
            self.gear = 1.0
        bank = clip(1.0 * herr, -math.radians(15.0), math.radians(15.0))
        if self.phase == "climb" and (a.agl_m < 50.0 and a.ias_ms < self.climb - 10.0 / 3.6):
            return self.base.replace(pitch=f.attitude(a, math.radians(9.0), dt), roll=f.bank(a, bank, dt),
                                     yaw=f.rudder(a, dt), throttle=1.0, prop_rpm=1.0, gear_up=self.gear,
                                     brake_left=0.0, brake_right=0.0)
        self.phase = "climb out"
        bank = self.terrain_bank(a, bank)
        return self.base.replace(pitch=f.speed(a, self.climb, dt, pitch_lo=math.radians(4.0), pitch_hi=0.3),
                                 roll=f.bank(a, self.roll_in(bank, dt), dt), yaw=f.rudder(a, dt), throttle=1.0,
                                 prop_rpm=1.0, gear_up=self.gear, brake_left=0.0, brake_right=0.0)

    def _runway_rudder(self, a: Attitude, herr: float, dt: float) -> float:
        """Rudder on the runway against the heading error and, mostly, against the swing (the yaw
        rate), with a trim that learns the torque and P-factor. With a third of this damping the
        P-51D weaved +/-7 deg at 130-170 km/h, tail up (the Spitfire 1.3, the Bf 109 2.4); with it
        1.4, 0.7 and 1.2 deg (measured Nov 2026)."""
        f = self.flyer
        yaw = clip(4.0 * herr - RUNWAY_YAW_DAMPING * a.r + f.i_yaw)
        f.i_yaw = clip(f.i_yaw + 0.5 * herr * dt, -0.5, 0.5)
        return yaw

    def _jet(self, a: Attitude, dt: float) -> ControlInputs:
        """A tricycle jet's take-off (the snapshot says it has jets): brakes off, full afterburner
        (the throttle opened over 3 s), nose wheel steering on the run, the stick fully back at
        JET_ROTATE_KMH (the law's ground mode holds the rotation to 6 deg/s) until 7 deg of pitch, then
        10 deg held to lift-off and 50 m up; gear up once climbing 30 m up, military power, then the
        climb speed with the pitch, at least 8 deg of it (at 4 deg the jet sank back from 65 to 34 m
        as it accelerated). In the air the stick asks the flight-control law for a load factor: the
        pitch is flown as a pitch rate (_jet_pitch)."""
        f = self.flyer
        herr = wrap_pi(self.heading - a.heading)
        thr = clip((a.time_s - self.t0) / 3.0, 0.0, 1.0)
        steer = clip(4.0 * herr - 1.5 * a.r)
        if self.phase == "run":
            if a.ias_ms >= JET_ROTATE_KMH / 3.6:
                self.phase = "rotate"
            return self.base.replace(pitch=0.0, roll=clip(2.0 * (0.0 - a.roll) - 0.5 * a.p), yaw=steer,
                                     throttle=thr, brake_left=0.0, brake_right=0.0)
        if self.phase == "rotate":
            if not a.on_ground and a.agl_m > 5.0:
                self.set_phase("climb")
            pitch = 1.0 if a.pitch < math.radians(7.0) and a.on_ground else self._jet_pitch(a, math.radians(10.0))
            return self.base.replace(pitch=pitch, roll=clip(2.0 * (0.0 - a.roll) - 0.5 * a.p), yaw=steer,
                                     throttle=thr, brake_left=0.0, brake_right=0.0)
        if a.agl_m > 30.0 and a.vs_ms > 1.0:
            self.gear = 1.0
        thr = 1.0 if self.gear < 1.0 else JET_CLIMB_THROTTLE
        bank = clip(1.0 * herr, -math.radians(15.0), math.radians(15.0))
        if self.phase == "climb" and a.agl_m < 50.0:
            return self.base.replace(pitch=self._jet_pitch(a, math.radians(10.0)), roll=f.bank(a, bank, dt),
                                     yaw=f.rudder(a, dt), throttle=thr, gear_up=self.gear, brake_left=0.0,
                                     brake_right=0.0)
        self.phase = "climb out"
        bank = self.terrain_bank(a, bank)
        f.speed(a, JET_CLIMB_KMH / 3.6, dt, pitch_lo=math.radians(8.0), pitch_hi=0.35)   # the attitude for the speed
        return self.base.replace(pitch=self._jet_pitch(a, f.pitch_target),
                                 roll=f.bank(a, self.roll_in(bank, dt), dt), yaw=f.rudder(a, dt), throttle=thr,
                                 gear_up=self.gear, brake_left=0.0, brake_right=0.0)

    def _jet_pitch(self, a: Attitude, pitch_rad: float) -> float:
        """The stick that asks the jet's law for the load factor of a pitch rate toward this attitude:
        the flight path's cos(gamma) over cos(bank), plus V q / g."""
        q = clip(JET_PITCH_K * (pitch_rad - a.pitch), -JET_PITCH_RATE, JET_PITCH_RATE)
        gamma = math.asin(clip(a.vs_ms / max(a.tas_ms, 1.0), -1.0, 1.0))
        n = math.cos(gamma) / max(math.cos(a.roll), 0.5) + a.tas_ms * q / G0
        return clip((n - 1.0) / (self.g_limit - 1.0) if n >= 1.0 else (n - 1.0) / (1.0 - JET_G_MIN))
