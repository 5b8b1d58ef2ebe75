"""``LandingPilot``: the final approach (airbrakes on the glide path), round-out and hold-off,
and the landing run (the CircuitPilot, circuit.py, flies it to here)."""
from __future__ import annotations

import math

import numpy as np

from ..runtime.handoff import ControlInputs
from .flying import ScenarioPilot, clip, runway_frame, wrap_pi


def runway_reading(pilot, src):
    """The pilot's reading of the aircraft (ScenarioPilot.reading) in the runway's frame: (reading,
    dt, metres along the runway from its centre, metres right of the centreline, height above
    the field), or None when the reading is not one to fly by."""
    a, dt = pilot.reading(src)
    if not pilot.valid(a):
        return None
    af = pilot.af
    along, right = runway_frame(af, a.position_ned_m[0], a.position_ned_m[1])
    return a, dt, along, right, a.altitude_m - af.elevation_m


class LandingPilot(ScenarioPilot):
    """Final approach and landing, as taught on gliders:

    * approach at ``ias_kmh`` (90-100 km/h; plus half the headwind the pilot has been
      told of), speed held with the elevator throughout;
    * the glide path: a straight line to the aim point (``aim_along_m`` along the runway
      from its centre) at the angle the approach started on (3.5..7 degrees); the
      airbrakes hold it (P + I on the height error above the path: high -> more brake);
      the path meets the ground ``float_m`` short of the aim, the round-out and hold-off
      carrying the glider the rest of the way;
    * lined up with the centreline: track toward a point ahead on the centreline, bank
      limited (20 degrees, 5 near the ground), ball centred;
    * round-out from about 6 m (wheel height): the sink rate asked for falls with the
      height (0.45 * height, at least 0.25 m/s), the pitch follows it, airbrakes left
      where they are; hold-off: the nose comes up as the speed bleeds off until the
      glider settles on its wheel, wings level;
    * on the ground: airbrakes out, wings level with the aileron, straight with the
      rudder, stick back (tail down), wheel brake below 50 km/h.
    """

    def __init__(self, airfield, aim_along_m=-150.0, ias_kmh=95.0, headwind_ms=0.0, flare_m=6.0,
                 wheel_below_cg_m=0.6, hold_off_m=0.3, touchdown_pitch_deg=7.0, float_m=120.0):
        super().__init__()
        self.hold_m = hold_off_m
        self.touch_pitch = math.radians(touchdown_pitch_deg)
        # the round-out and hold-off carry the glider this far past where the path meets the ground
        self.float_m = float_m
        self.af = airfield
        self.aim = aim_along_m
        self.ias = (ias_kmh + 0.5 * max(headwind_ms, 0.0) * 3.6) / 3.6
        self.flare_m = flare_m
        self.wheel_m = wheel_below_cg_m
        self.gamma = None
        self.i_brake = 0.4
        self.airbrake = 0.4
        self.phase = "approach"
        self.pitch_ref = None
        self.touchdown_t = None

    def __call__(self, src, dt_s=None) -> ControlInputs:
        seen = runway_reading(self, src)
        if seen is None:
            return self.base
        a, dt, along, right, h = seen
        af = self.af
        wheel = a.agl_m - self.wheel_m
        to_aim = self.aim - self.float_m - along          # the path meets the ground short of the touchdown point
        if self.gamma is None:
            self.gamma = clip(math.atan2(h, max(to_aim, 1.0)), math.radians(3.5), math.radians(7.0))
        f = self.flyer
        # lateral: toward a point on the centreline ahead (closer in as the ground nears)
        look = clip(8.0 * a.tas_ms, 80.0, 250.0)
        want_track = af.heading_rad + math.atan2(-right, look)
        max_bank = math.radians(20.0) if wheel > 30.0 else math.radians(5.0 + 15.0 * max(wheel - 5.0, 0.0) / 25.0)
        if self.phase == "approach":
            bank = clip(2.0 * wrap_pi(want_track - a.track_rad), -max_bank, max_bank)
            h_ref = math.tan(self.gamma) * max(to_aim, 0.0)
            err = h - h_ref
            self.i_brake = clip(self.i_brake + 0.004 * err * dt, 0.0, 1.0)
            self.airbrake = clip(self.i_brake + 0.04 * err, 0.0, 1.0)
            if wheel < self.flare_m or a.on_ground:
                self.set_phase("flare")
                self.pitch_ref = a.pitch
            else:
                return self.fly(a, dt, bank, self.ias, airbrake=self.airbrake)
        if self.phase == "flare":
            if a.on_ground:
                self.set_phase("ground")
                self.touchdown_t = a.time_s
            else:
                # ask for a sink that falls with the height; pitch follows (no stall: the
                # touchdown comes as the speed bleeds off with the nose up)
                # toward a hold-off a foot above the runway; the nose comes up to hold it as the
                # speed bleeds away, up to the tail-down attitude, and then it settles
                want_vs = clip(-0.45 * (wheel - self.hold_m), -3.0, 0.1)
                top = self.touch_pitch
                self.pitch_ref = clip(self.pitch_ref + 0.08 * (want_vs - a.vs_ms) * dt, -0.2, top)
                target = clip(self.pitch_ref + 0.03 * (want_vs - a.vs_ms), -0.2, top)
                bank = clip(2.0 * wrap_pi(want_track - a.track_rad), -max_bank, max_bank)
                return self.base.replace(pitch=f.attitude(a, target, dt), roll=f.bank(a, self.roll_in(bank, dt), dt),
                                         yaw=f.rudder(a, dt), airbrake=self.airbrake)
        # on the ground: straight and wings level, airbrakes out, brake once slow
        gs = float(np.hypot(*a.velocity_ned_ms[:2]))
        brake = 1.0 if a.ias_ms < 50.0 / 3.6 else 0.0
        yaw = clip(3.0 * wrap_pi(af.heading_rad - a.heading) - 0.8 * a.r)
        roll = clip(2.5 * (0.0 - a.roll) - 0.8 * a.p)
        # the tail-down attitude held (not hauled back: at speed that would fly it off again)
        pitch = f.attitude(a, self.touch_pitch, dt) if gs > 1.0 else 0.0
        return self.base.replace(pitch=pitch, roll=roll, yaw=yaw, airbrake=1.0, brake_left=brake, brake_right=brake)
