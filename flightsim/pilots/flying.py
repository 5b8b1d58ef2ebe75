"""What every scenario pilot shares: the readings a pilot has (``Attitude``: attitude, rates,
airspeed, height, vario, from a ``Sim`` or a snapshot-like object), the closed loops from what a
pilot aims for to stick forces (``Flyer``), the common pilot (``ScenarioPilot``: the controls it started
with, the time step, the output) and the geometry a pilot flies by (runway frame, bearing).

No knowledge of the model's internals: the pilots fly the aircraft the way a pilot would, through
the same ControlInputs (stick forces) as the player, so what they achieve is what the flight model
allows.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics.named import AircraftView, Readouts
from ..runtime.handoff import ControlInputs, euler_from_quat

G0 = 9.80665


def clip(x, lo=-1.0, hi=1.0):
    """x held within lo..hi (by default a control's travel, -1..1)."""
    return lo if x < lo else hi if x > hi else x


def wrap_pi(a):
    """An angle, rad, wrapped into -pi..pi."""
    return (a + math.pi) % (2 * math.pi) - math.pi


class Attitude:
    """Air data a pilot has, from a Sim (state + diag) or from a Snapshot (the game's handoff).

    Attitude, body rates, airspeeds, altitude and height above the ground, the ground
    velocity (GPS), position (GPS) and the controls as they are now."""

    def __init__(self, src):
        if hasattr(src, "state") and hasattr(src, "diag"):          # a Sim (physics.named readouts)
            v = src if isinstance(src, Readouts) else AircraftView(src.state, src.diag)
            q = v.quat_wxyz
            self.p, self.q, self.r = (float(x) for x in v.body_rates_rads)
            self.ias_ms = v.ias_ms
            self.tas_ms = v.tas_ms
            self.altitude_m = v.altitude_m
            self.agl_m = v.height_agl_m
            self.on_ground = v.on_ground
            self.beta = v.beta_rad
            self.alpha = v.alpha_rad
            self.position_ned_m = v.position_ned_m
            self.velocity_ned_ms = v.velocity_ned_ms
            self.time_s = v.time_s
            self.controls = ControlInputs.from_array(src.ctrl)
            self.strike = v.struck
            self.nz = v.nz_g
        else:                                                       # a Snapshot
            q = src.quat_wxyz
            self.p, self.q, self.r = (float(v) for v in src.omega_body_rads)
            self.ias_ms = float(src.ias_ms)
            self.tas_ms = float(src.tas_ms)
            self.altitude_m = float(src.altitude_m)
            self.agl_m = float(src.height_agl_m)
            self.on_ground = int(src.on_ground) > 0
            self.beta = float(src.beta_rad)
            self.alpha = float(src.alpha_rad)
            self.position_ned_m = np.array(src.position_ned_m, dtype=np.float64)
            self.velocity_ned_ms = np.array(src.velocity_ned_ms, dtype=np.float64)
            self.time_s = float(src.time_s)
            self.controls = src.controls
            self.strike = int(src.strike_index) >= 0
            self.nz = float(src.nz_g)
        self.roll, self.pitch, self.heading = euler_from_quat(q)
        sr, cr = math.sin(self.roll), math.cos(self.roll)
        # Euler angle rates (what the horizon shows moving)
        self.roll_rate = self.p + (self.q * sr + self.r * cr) * math.tan(max(min(self.pitch, 1.5), -1.5))
        self.pitch_rate = self.q * cr - self.r * sr
        self.energy_height_m = self.altitude_m + self.tas_ms * self.tas_ms / (2.0 * G0)

    @property
    def vs_ms(self) -> float:
        return -float(self.velocity_ned_ms[2])

    @property
    def track_rad(self) -> float:
        return math.atan2(self.velocity_ned_ms[1], self.velocity_ned_ms[0])


class AttitudeFlyer:
    """Pitch, bank and heading targets to stick forces (the winch launch flies by these)."""

    def __init__(self, pitch_trim=0.0):
        self.pitch_trim = pitch_trim

    def fly_attitude(self, a: Attitude, pitch_target, roll_target, heading_target=None, kp=4.0):
        pitch = clip(kp * (pitch_target - a.pitch) - 1.2 * a.q + 0.6 * (abs(math.sin(a.roll)) * 0.3))
        roll = clip(2.5 * (roll_target - a.roll) - 0.8 * a.p)
        yaw = clip(3.0 * a.beta - 0.5 * a.r)        # + beta: air from the right, right rudder centres the ball
        if heading_target is not None and abs(roll_target) < 0.05:
            # straight: rudder and a little bank to hold the heading
            err = wrap_pi(heading_target - a.heading)
            roll = clip(2.5 * (clip(1.5 * err, -0.3, 0.3) - a.roll) - 0.8 * a.p)
            if a.on_ground:
                yaw = clip(4.0 * err - 1.0 * a.r)
        return pitch, roll, yaw


# ---------------------------------------------------------------------------- the hands and feet
class Flyer:
    """Closed loops from what a pilot aims for (bank angle, airspeed or pitch attitude, no
    slip) to stick forces, the way a pilot flies on instruments and the horizon:

    * bank: PI on the bank angle with damping on the roll rate (a glider's aileron is held
      against the overbanking tendency in a steep turn: the integral finds that);
    * airspeed with the elevator: the speed error moves the pitch-attitude target (P + I,
      slow: the phugoid), and a PI loop with pitch-rate damping holds that attitude; the
      integral is the trim the pilot winds in, and the turn's extra elevator comes in with
      the load factor as a feed-forward;
    * rudder: the ball (sideslip) centred, P + I, and the yaw rate damped about the yaw rate
      a coordinated turn at this bank has.

    Integrators are clamped (no wind-up) and reset when a pilot changes phase."""

    def __init__(self, bank_kp=2.4, bank_ki=0.5, bank_kd=1.2, pitch_kp=2.5, pitch_ki=1.2, pitch_kd=1.0,
                 speed_kp=0.012, speed_ki=0.0025, yaw_kp=3.0, yaw_ki=1.0, yaw_kd=0.6, turn_ff=0.12):
        self.k = dict(bank_kp=bank_kp, bank_ki=bank_ki, bank_kd=bank_kd, pitch_kp=pitch_kp, pitch_ki=pitch_ki,
                      pitch_kd=pitch_kd, speed_kp=speed_kp, speed_ki=speed_ki, yaw_kp=yaw_kp, yaw_ki=yaw_ki,
                      yaw_kd=yaw_kd, turn_ff=turn_ff)
        self.reset()

    def reset(self, keep_trim=True):
        self.i_roll = 0.0
        self.i_yaw = 0.0
        if not keep_trim or not hasattr(self, "i_pitch"):
            self.i_pitch = 0.0
        self.theta_base = None

    def bank(self, a: Attitude, bank_rad: float, dt: float) -> float:
        k = self.k
        e = wrap_pi(bank_rad - a.roll)
        if abs(e) < 0.15:                 # the integral trims out the last degrees, not the roll-in
            lim = 0.3 / max(k["bank_ki"], 1e-6)
            self.i_roll = clip(self.i_roll + e * dt, -lim, lim)
        return clip(k["bank_kp"] * e + k["bank_ki"] * self.i_roll - k["bank_kd"] * a.roll_rate)

    def attitude(self, a: Attitude, pitch_rad: float, dt: float) -> float:
        k = self.k
        e = pitch_rad - a.pitch
        steep = abs(a.roll) > math.radians(55.0)
        if not steep:                     # steeply banked the elevator turns more than it pitches: no wind-up
            self.i_pitch = clip(self.i_pitch + k["pitch_ki"] * e * dt, -0.8, 0.8)
        c = max(math.cos(a.roll), 0.5)
        ff = k["turn_ff"] * (1.0 / c - 1.0)
        out = self.i_pitch + ff + k["pitch_kp"] * e - k["pitch_kd"] * a.pitch_rate
        if steep:                         # overbanked: unload, roll level first (no spiral dive)
            out = min(out, self.i_pitch)
        return clip(out)

    def speed(self, a: Attitude, ias_ms: float, dt: float, pitch_lo=-0.45, pitch_hi=0.35) -> float:
        """Elevator for an airspeed: nose down when slow, up when fast."""
        k = self.k
        err = a.ias_ms - ias_ms
        if self.theta_base is None:
            self.theta_base = a.pitch
        self.theta_base = clip(self.theta_base + k["speed_ki"] * err * dt, pitch_lo, pitch_hi)
        target = clip(self.theta_base + k["speed_kp"] * err, pitch_lo, pitch_hi)
        self.pitch_target = target
        return self.attitude(a, target, dt)

    def rudder(self, a: Attitude, dt: float) -> float:
        k = self.k
        v = max(a.tas_ms, 5.0)
        r_turn = G0 * math.sin(a.roll) * math.cos(a.pitch) / v     # a coordinated turn's yaw rate
        self.i_yaw = clip(self.i_yaw + a.beta * dt, -0.5 / max(k["yaw_ki"], 1e-6), 0.5 / max(k["yaw_ki"], 1e-6))
        return clip(k["yaw_kp"] * a.beta + k["yaw_ki"] * self.i_yaw - k["yaw_kd"] * (a.r - r_turn))


class ScenarioPilot:
    """Common to the scenario pilots: the controls it started with (trim, brakes), a Flyer,
    the time step from the readings, and the output."""

    def __init__(self):
        self.flyer = Flyer()
        self.base: ControlInputs | None = None
        self.t_prev = None
        self.phase = "start"
        self.bank_ref = 0.0
        self.terrain_watch = None          # a TerrainWatch (terrain_watch.py): fly() turns away from a hill

    def reading(self, src) -> tuple[Attitude, float]:
        a = Attitude(src)
        if self.base is None:
            self.base = a.controls
        dt = 0.02 if self.t_prev is None else max(a.time_s - self.t_prev, 0.0)
        self.t_prev = a.time_s
        return a, dt

    @staticmethod
    def valid(a: Attitude) -> bool:
        """Before the first physics step the air data are zeros: nothing to fly on yet."""
        return a.tas_ms > 0.5 or a.on_ground

    def set_phase(self, phase: str):
        if phase != self.phase:
            self.phase = phase
            self.flyer.reset()

    def roll_in(self, target_rad: float, dt: float, rate_rad_s=math.radians(10.0)) -> float:
        """The bank the pilot aims for, moved toward the wanted one at a steady roll rate."""
        step = rate_rad_s * dt
        self.bank_ref += clip(target_rad - self.bank_ref, -step, step)
        return self.bank_ref

    def terrain_bank(self, a: Attitude, bank_rad: float, turn_bank_rad=math.radians(30.0)) -> float:
        """The bank wanted, or the turn away from a hill the terrain watch sees ahead."""
        w = self.terrain_watch
        if w is None or a.on_ground or not w.update(a.position_ned_m, a.velocity_ned_ms, a.time_s):
            return bank_rad
        return w.turn * turn_bank_rad

    def fly(self, a: Attitude, dt: float, bank_rad: float, ias_ms: float, roll_rate_rad_s=math.radians(10.0),
            **kw) -> ControlInputs:
        """Bank (rolled in at a steady rate), airspeed with the elevator, ball centred; with a
        terrain watch, the turn away from a hill ahead comes first (30 degrees, rolled in briskly)."""
        turned = self.terrain_bank(a, bank_rad)
        if turned != bank_rad:
            bank_rad, roll_rate_rad_s = turned, max(roll_rate_rad_s, math.radians(20.0))
        f = self.flyer
        return self.base.replace(pitch=f.speed(a, ias_ms, dt),
                                 roll=f.bank(a, self.roll_in(bank_rad, dt, roll_rate_rad_s), dt),
                                 yaw=f.rudder(a, dt), **kw)


# ---------------------------------------------------------------------------- landing
def runway_frame(airfield, north_m, east_m):
    """(along, right) of a point in the runway's axes: along from the runway's centre
    toward its heading, right of the centreline."""
    return airfield.from_world(north_m, east_m)


# ---------------------------------------------------------------------------- soaring flight
def glide_loss_m(length_m, tailwind_ms, tas_ms, glide_ratio):
    """Height lost gliding ``length_m`` over the ground at ``glide_ratio`` (still air) and
    ``tas_ms``, with ``tailwind_ms`` along the way (a headwind negative): the glide stretched or
    shortened by the ground speed, taken as no less than 0.3 of the airspeed. Works on arrays."""
    return length_m * (tas_ms / glide_ratio) / np.maximum(tas_ms + tailwind_ms, 0.3 * tas_ms)


def bearing_to(from_ne, to_ne) -> float:
    """The bearing from one (north, east) point to another, rad clockwise from north."""
    return math.atan2(to_ne[1] - from_ne[1], to_ne[0] - from_ne[0])
