"""Autopilots that fly through the same ControlInputs (stick forces) as the player.

Every pilot is called with a Sim or a Snapshot (the game's handoff: what the mailbox
writer sees) and returns a ControlInputs; ``autopilot(scenario, terrain, winch,
weather)`` picks the pilot for a scenario. The closed loops are in ``Flyer`` (bank, airspeed
or attitude with the elevator, the ball); the pilots: ``ThermalPilot`` (circles and
centres a thermal from the vario), ``SoaringPilot`` / ``CrossCountryPilot`` (glide
to a goal or the task's turnpoints, circle in the lift met), ``RidgePilot``,
``LandingPilot`` (final, airbrakes on the glide path, round-out, hold-off),
``CircuitPilot`` (join, downwind, base, then the LandingPilot), ``WinchLaunchPilot``
(WinchPilot then soaring), ``CruisePilot`` and ``TakeoffPilot`` (the P-51D).

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
from collections import deque

import numpy as np

from .handoff import ControlInputs, euler_from_quat
from .physics.named import AircraftView, Readouts


G0 = 9.80665


def _clip(x, lo=-1.0, hi=1.0):
    return lo if x < lo else hi if x > hi else x


def _wrap(a):
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


class _Base:
    def __init__(self, pitch_trim=0.0):
        self.pitch_trim = pitch_trim

    def fly_attitude(self, a: Attitude, pitch_target, roll_target, heading_target=None, kp=4.0):
        pitch = _clip(kp * (pitch_target - a.pitch) - 1.2 * a.q + 0.6 * (abs(math.sin(a.roll)) * 0.3))
        roll = _clip(2.5 * (roll_target - a.roll) - 0.8 * a.p)
        yaw = _clip(3.0 * a.beta - 0.5 * a.r)        # + beta: air from the right, right rudder centres the ball
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
        e = _wrap(bank_rad - a.roll)
        if abs(e) < 0.15:                 # the integral trims out the last degrees, not the roll-in
            lim = 0.3 / max(k["bank_ki"], 1e-6)
            self.i_roll = _clip(self.i_roll + e * dt, -lim, lim)
        return _clip(k["bank_kp"] * e + k["bank_ki"] * self.i_roll - k["bank_kd"] * a.roll_rate)

    def attitude(self, a: Attitude, pitch_rad: float, dt: float) -> float:
        k = self.k
        e = pitch_rad - a.pitch
        steep = abs(a.roll) > math.radians(55.0)
        if not steep:                     # steeply banked the elevator turns more than it pitches: no wind-up
            self.i_pitch = _clip(self.i_pitch + k["pitch_ki"] * e * dt, -0.8, 0.8)
        c = max(math.cos(a.roll), 0.5)
        ff = k["turn_ff"] * (1.0 / c - 1.0)
        out = self.i_pitch + ff + k["pitch_kp"] * e - k["pitch_kd"] * a.pitch_rate
        if steep:                         # overbanked: unload, roll level first (no spiral dive)
            out = min(out, self.i_pitch)
        return _clip(out)

    def speed(self, a: Attitude, ias_ms: float, dt: float, pitch_lo=-0.45, pitch_hi=0.35) -> float:
        """Elevator for an airspeed: nose down when slow, up when fast."""
        k = self.k
        err = a.ias_ms - ias_ms
        if self.theta_base is None:
            self.theta_base = a.pitch
        self.theta_base = _clip(self.theta_base + k["speed_ki"] * err * dt, pitch_lo, pitch_hi)
        target = _clip(self.theta_base + k["speed_kp"] * err, pitch_lo, pitch_hi)
        self.pitch_target = target
        return self.attitude(a, target, dt)

    def rudder(self, a: Attitude, dt: float) -> float:
        k = self.k
        v = max(a.tas_ms, 5.0)
        r_turn = G0 * math.sin(a.roll) * math.cos(a.pitch) / v     # a coordinated turn's yaw rate
        self.i_yaw = _clip(self.i_yaw + a.beta * dt, -0.5 / max(k["yaw_ki"], 1e-6), 0.5 / max(k["yaw_ki"], 1e-6))
        return _clip(k["yaw_kp"] * a.beta + k["yaw_ki"] * self.i_yaw - k["yaw_kd"] * (a.r - r_turn))


class _Pilot:
    """Common to the scenario pilots: the controls it started with (trim, brakes), a Flyer,
    the time step from the readings, and the output."""

    def __init__(self):
        self.flyer = Flyer()
        self.base: ControlInputs | None = None
        self.t_prev = None
        self.phase = "start"
        self.bank_ref = 0.0

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
        self.bank_ref += _clip(target_rad - self.bank_ref, -step, step)
        return self.bank_ref

    def fly(self, a: Attitude, dt: float, bank_rad: float, ias_ms: float, roll_rate_rad_s=math.radians(10.0),
            **kw) -> ControlInputs:
        """Bank (rolled in at a steady rate), airspeed with the elevator, ball centred."""
        f = self.flyer
        return self.base.replace(pitch=f.speed(a, ias_ms, dt),
                                 roll=f.bank(a, self.roll_in(bank_rad, dt, roll_rate_rad_s), dt),
                                 yaw=f.rudder(a, dt), **kw)


class Vario:
    """The pilot's total-energy variometer: d/dt of h + V^2/2g through a first-order lag."""

    def __init__(self, tau_s=1.0):
        self.tau = tau_s
        self.value = None
        self._e = None

    def update(self, a: Attitude, dt: float) -> float:
        if self._e is not None and dt > 0.0:
            raw = (a.energy_height_m - self._e) / dt
            self.value = raw if self.value is None else self.value + (raw - self.value) * (1.0 - math.exp(-dt / self.tau))
        self._e = a.energy_height_m
        return 0.0 if self.value is None else self.value


class WindEstimate:
    """Wind from GPS ground velocity minus the air velocity along the compass heading (TAS),
    low-passed over a couple of circles: the circling-drift estimate of a glide computer.
    Sideslip and the angle of attack in a bank bias a single reading; over whole circles
    that bias turns round with the heading and averages out."""

    def __init__(self, tau_s=30.0, initial=(0.0, 0.0)):
        self.tau = tau_s
        self.ne = np.array(initial, dtype=np.float64)

    def air_velocity(self, a: Attitude) -> np.ndarray:
        v = a.tas_ms * math.cos(a.pitch)
        return np.array([v * math.cos(a.heading), v * math.sin(a.heading)])

    def update(self, a: Attitude, dt: float) -> np.ndarray:
        raw = a.velocity_ned_ms[:2] - self.air_velocity(a)
        self.ne += (raw - self.ne) * (1.0 - math.exp(-dt / self.tau))
        return self.ne


class ThermalPilot(_Pilot):
    """Circles in a thermal and centres it from the variometer alone, as a pilot does.

    * Entry: straight on while the lift grows (Reichmann: fly on until it starts to
      weaken), then turn toward the wing the thermal lifted (felt as the aileron needed to
      hold the wings level), else ``direction`` (+1 right, -1 left).
    * Circling at ``bank_deg`` and ``ias_kmh``: bank held by the Flyer, speed with the
      elevator, ball centred.
    * Centring (Reichmann's rule, "widen toward the stronger lift, tighten away from it"):
      over the last full circle the lift is sampled against where the glider was in the
      air mass (each reading paired with the position one vario lag earlier; the air
      mass drifts with the wind, which the pilot gets from the circling drift). The first
      harmonic of the lift round the circle, ``sum (w_i - mean) (p_i - mean p) / n``,
      points to the stronger side. The turn is then widened while the track points that
      way and tightened while it points away -- radius ``R0 + A cos(track - toward)`` --
      which moves the circle ``pi A`` toward the lift per turn. ``A`` follows the size of
      the harmonic (a gradient climb: big moves where the lift changes fast across the
      circle, none once it is even all round, i.e. centred). The pilot never knows where
      the thermal is, only the vario, the compass, the airspeed and the GPS.
    * The vario reading is made "relative": the extra sink of the bank itself (n^1.5) is
      taken out, so that widening the circle does not read as stronger lift.
    """

    def __init__(self, bank_deg=40.0, ias_kmh=85.0, direction=1, centring_gain=1.6, lift_scale_ms=1.0,
                 entry=True, wind_ne=None, sink_ms=0.75):
        super().__init__()
        self.sink_ms = sink_ms                       # the polar's sink wings level at the circling speed
        self.bank0 = math.radians(bank_deg)
        self.ias = ias_kmh / 3.6
        self.dir = 1 if direction >= 0 else -1
        self.gain = centring_gain
        self.lift_scale = lift_scale_ms
        self.vario = Vario(1.0)
        self.wind = WindEstimate(30.0, (0.0, 0.0) if wind_ne is None else wind_ne)
        self.p_air = None
        self.samples: deque = deque()
        self.trail: deque = deque()                  # positions over the last vario lag
        self.phase = "entry" if entry else "roll-in"
        self._entry_t = None
        self._best = -1e9
        self._feel = 0.0
        self._circle_t = None
        self._next_est = 0.0
        self.toward = None                           # unit vector (north, east) to the stronger lift
        self.shift_m = 0.0                           # planned move of the circle per turn
        self.climb_history: deque = deque()          # (t, energy height) for the average climb
        self.relative_vario = 0.0
        self._n = None

    def radius_m(self, tas_ms=None, bank_rad=None) -> float:
        v = self.ias * 1.03 if tas_ms is None else tas_ms
        return v * v / (G0 * math.tan(self.bank0 if bank_rad is None else bank_rad))

    def average_climb(self, window_s=30.0) -> float | None:
        """Total-energy climb over the last window (the averager): None until 10 s of it."""
        h = self.climb_history
        if len(h) < 2 or h[-1][0] - h[0][0] < min(window_s, 10.0):
            return None
        t1, e1 = h[-1]
        for t0, e0 in h:
            if t1 - t0 <= window_s:
                return (e1 - e0) / max(t1 - t0, 1e-6)
        return None

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        w = self.vario.update(a, dt)
        # load factor through the vario's own lag, so both sides of the sum lag alike
        self._n = a.nz if self._n is None else self._n + (a.nz - self._n) * (1.0 - math.exp(-dt / self.vario.tau))
        w_rel = w + self.sink_ms * (max(self._n, 0.3) ** 1.5 - 1.0)
        self.relative_vario = w_rel
        wind = self.wind.update(a, dt)
        v_air = a.velocity_ned_ms[:2] - wind
        self.p_air = a.position_ned_m[:2].copy() if self.p_air is None else self.p_air + v_air * dt
        self.climb_history.append((a.time_s, a.energy_height_m))
        while self.climb_history and a.time_s - self.climb_history[0][0] > 120.0:
            self.climb_history.popleft()
        self.trail.append((a.time_s, self.p_air.copy()))
        while len(self.trail) > 1 and a.time_s - self.trail[1][0] >= self.vario.tau:
            self.trail.popleft()
        if self.phase == "entry":
            if self._entry_t is None:
                self._entry_t = a.time_s
            self._best = max(self._best, w)
            t_in = a.time_s - self._entry_t
            if t_in > 12.0 or (t_in > 1.0 and w < self._best - 0.1):
                self.phase = "roll-in"
                # turn toward the lifted wing (held down with aileron: left stick, left wing lifted)
                if abs(self._feel) / max(t_in, 1e-3) > 0.01:
                    self.dir = -1 if self._feel < 0 else 1
            else:
                c = self.fly(a, dt, 0.0, self.ias)
                self._feel += c.roll * dt
                return c
        if self.phase == "roll-in":
            if abs(a.roll - self.dir * self.bank0) < math.radians(6.0):
                self.phase = "circle"
                self._circle_t = a.time_s
                self.samples.clear()
            return self.fly(a, dt, self.dir * self.bank0, self.ias, roll_rate_rad_s=math.radians(15.0))
        # circling
        self.samples.append((a.time_s, self.trail[0][1], w_rel))
        R0 = self.radius_m(a.tas_ms)
        lap_s = 2 * math.pi * R0 / max(a.tas_ms, 5.0)
        while self.samples and a.time_s - self.samples[0][0] > lap_s:
            self.samples.popleft()
        if a.time_s >= self._next_est and a.time_s - self._circle_t >= lap_s:
            self._next_est = a.time_s + 0.5
            self.estimate(R0)
        bank = self.bank0
        if self.toward is not None and self.shift_m > 0.0:
            # the track a second ahead (the bank takes about that long to change)
            spd = max(float(np.hypot(*v_air)), 1e-6)
            trk = math.atan2(v_air[1], v_air[0]) + self.dir * (spd / R0) * 1.0
            A = self.shift_m / math.pi
            R = R0 + A * (math.cos(trk) * self.toward[0] + math.sin(trk) * self.toward[1])
            bank = math.atan(a.tas_ms * a.tas_ms / (G0 * max(R, 0.3 * R0)))
        return self.fly(a, dt, self.dir * bank, self.ias)

    def estimate(self, R0):
        """The stronger side from the last circle's readings; the move per turn toward it."""
        if len(self.samples) < 20:
            return
        p = np.array([s[1] for s in self.samples])
        wv = np.array([s[2] for s in self.samples])
        g = ((wv - wv.mean())[:, None] * (p - p.mean(axis=0))).mean(axis=0) / self.lift_scale
        m = float(np.hypot(*g))
        if m < 1e-6:
            self.toward, self.shift_m = None, 0.0
            return
        self.toward = g / m
        self.shift_m = min(self.gain * m, 0.6 * R0)



# ---------------------------------------------------------------------------- landing
def runway_frame(airfield, north_m, east_m):
    """(along, right) of a point in the runway's axes: along from the runway's centre
    toward its heading, right of the centreline."""
    f, r = airfield.axes()
    dn, de = north_m - airfield.north_m, east_m - airfield.east_m
    return dn * f[0] + de * f[1], dn * r[0] + de * r[1]


class LandingPilot(_Pilot):
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
        self.float_m = float_m          # the round-out and hold-off carry the glider this far past where the path meets the ground
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
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        af = self.af
        along, right = runway_frame(af, a.position_ned_m[0], a.position_ned_m[1])
        h = a.altitude_m - af.elevation_m
        wheel = a.agl_m - self.wheel_m
        to_aim = self.aim - self.float_m - along          # the path meets the ground short of the touchdown point
        if self.gamma is None:
            self.gamma = _clip(math.atan2(h, max(to_aim, 1.0)), math.radians(3.5), math.radians(7.0))
        f = self.flyer
        # lateral: toward a point on the centreline ahead (closer in as the ground nears)
        look = _clip(8.0 * a.tas_ms, 80.0, 250.0)
        want_track = af.heading_rad + math.atan2(-right, look)
        max_bank = math.radians(20.0) if wheel > 30.0 else math.radians(5.0 + 15.0 * max(wheel - 5.0, 0.0) / 25.0)
        if self.phase == "approach":
            bank = _clip(2.0 * _wrap(want_track - a.track_rad), -max_bank, max_bank)
            h_ref = math.tan(self.gamma) * max(to_aim, 0.0)
            err = h - h_ref
            self.i_brake = _clip(self.i_brake + 0.004 * err * dt, 0.0, 1.0)
            self.airbrake = _clip(self.i_brake + 0.04 * err, 0.0, 1.0)
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
                want_vs = _clip(-0.45 * (wheel - self.hold_m), -3.0, 0.1)
                top = self.touch_pitch
                self.pitch_ref = _clip(self.pitch_ref + 0.08 * (want_vs - a.vs_ms) * dt, -0.2, top)
                target = _clip(self.pitch_ref + 0.03 * (want_vs - a.vs_ms), -0.2, top)
                bank = _clip(2.0 * _wrap(want_track - a.track_rad), -max_bank, max_bank)
                return self.base.replace(pitch=f.attitude(a, target, dt), roll=f.bank(a, self.roll_in(bank, dt), dt),
                                         yaw=f.rudder(a, dt), airbrake=self.airbrake)
        # on the ground: straight and wings level, airbrakes out, brake once slow
        gs = float(np.hypot(*a.velocity_ned_ms[:2]))
        brake = 1.0 if a.ias_ms < 50.0 / 3.6 else 0.0
        yaw = _clip(3.0 * _wrap(af.heading_rad - a.heading) - 0.8 * a.r)
        roll = _clip(2.5 * (0.0 - a.roll) - 0.8 * a.p)
        # the tail-down attitude held (not hauled back: at speed that would fly it off again)
        pitch = f.attitude(a, self.touch_pitch, dt) if gs > 1.0 else 0.0
        return self.base.replace(pitch=pitch, roll=roll, yaw=yaw, airbrake=1.0, brake_left=brake, brake_right=brake)


# ---------------------------------------------------------------------------- soaring flight
def _bearing(from_ne, to_ne) -> float:
    return math.atan2(to_ne[1] - from_ne[1], to_ne[0] - from_ne[0])


class SoaringPilot(_Pilot):
    """Cross-country glider flying: glide toward a goal at the speed to fly, circle in the
    thermals met on the way, leave them when they weaken or near cloud base.

    * Cruise: wings level on the course to the goal (bank toward it, at most 30 degrees),
      ``cruise_kmh`` (best glide: with no MacCready setting the pilot flies the polar's
      best glide speed and adds a little in sink).
    * Lift: the vario reading above ``take_ms`` for 2 s -> a ThermalPilot takes over (its
      entry: fly on while the lift grows, turn toward the lifted wing).
    * Leave: after a minute when the 30-s averaged climb falls under ``leave_ms``, or
      within 150 m of ``ceiling_m`` (cloud base: the pilot sees the cloud).
    """

    def __init__(self, goal_ne=None, cruise_kmh=95.0, take_ms=1.2, leave_ms=0.4, ceiling_m=None,
                 goal_radius_m=500.0):
        super().__init__()
        self.goal = None if goal_ne is None else np.asarray(goal_ne, dtype=np.float64)
        self.goal_radius = goal_radius_m
        self.cruise = cruise_kmh / 3.6
        self.take_ms = take_ms
        self.leave_ms = leave_ms
        self.ceiling_m = ceiling_m
        self.vario = Vario(1.0)
        self.thermal: ThermalPilot | None = None
        self._lift_since = None
        self._left_at = -1e9
        self.phase = "cruise"
        self.thermals_used = 0

    def course(self, a: Attitude) -> float:
        if self.goal is None:
            return a.heading
        return _bearing(a.position_ned_m[:2], self.goal)

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        w = self.vario.update(a, dt)
        if self.phase == "thermal":
            c = self.thermal(src)
            self.t_prev = a.time_s
            t_in = a.time_s - self.thermal_t
            avg = self.thermal.average_climb(30.0)
            near_base = self.ceiling_m is not None and a.altitude_m > self.ceiling_m - 150.0
            if near_base or (t_in > 60.0 and avg is not None and avg < self.leave_ms) or \
                    (t_in > 25.0 and self.thermal.phase == "entry"):
                self.set_phase("cruise")
                self.bank_ref = a.roll
                self._left_at = a.time_s
            else:
                return c
        # cruise toward the goal
        if self.goal is not None and float(np.hypot(*(self.goal - a.position_ned_m[:2]))) < self.goal_radius:
            self.reached(a)
        low_enough = self.ceiling_m is None or a.altitude_m < self.ceiling_m - 250.0
        if w > self.take_ms and low_enough and a.time_s - self._left_at > 20.0:
            self._lift_since = a.time_s if self._lift_since is None else self._lift_since
            if a.time_s - self._lift_since > 2.0:
                self.set_phase("thermal")
                self.thermal = ThermalPilot()
                self.thermal.base = self.base
                self.thermal.flyer = self.flyer
                self.thermal.bank_ref = self.bank_ref
                self.thermal.vario.value = self.vario.value
                self.thermal_t = a.time_s
                self.thermals_used += 1
                return self.thermal(src)
        else:
            self._lift_since = None
        err = _wrap(self.course(a) - a.track_rad)
        bank = _clip(1.2 * err, -math.radians(30.0), math.radians(30.0))
        ias = self.cruise + (0.0 if w > -1.0 else min(-w - 1.0, 2.0) * 2.5)    # a little faster through sink
        return self.fly(a, dt, bank, ias)

    def reached(self, a):
        """Goal reached: hold it (circle over it gently) unless a subclass moves on."""
        self.goal = None


class CrossCountryPilot(SoaringPilot):
    """Flies the task: each turnpoint in order (within its radius counts), then home."""

    def __init__(self, turnpoints_ne, home_ne=None, radii_m=None, **kw):
        self.turnpoints = [np.asarray(p, dtype=np.float64) for p in turnpoints_ne]
        self.radii = list(radii_m) if radii_m is not None else [500.0] * len(self.turnpoints)
        self.home = None if home_ne is None else np.asarray(home_ne, dtype=np.float64)
        self.leg = 0
        super().__init__(self.turnpoints[0] if self.turnpoints else home_ne,
                         goal_radius_m=self.radii[0] if self.radii else 500.0, **kw)

    def reached(self, a):
        self.leg += 1
        if self.leg < len(self.turnpoints):
            self.goal = self.turnpoints[self.leg]
            self.goal_radius = self.radii[self.leg]
        elif self.home is not None and self.leg == len(self.turnpoints):
            self.goal = self.home
            self.goal_radius = 300.0
        else:
            self.goal = None


class RidgePilot(_Pilot):
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
            if abs(_wrap(self.beat_hdg - a.track_rad)) < math.radians(20.0):
                self.phase = "beat"
                self.beat_start = p.copy()
            else:
                return self.fly(a, dt, self.turn_dir * math.radians(35.0), self.ias)
        f = np.array([math.cos(self.beat_hdg), math.sin(self.beat_hdg)])
        if float((p - self.beat_start) @ f) > self.beat_m:
            # away from the slope: the turn whose first half heads upwind
            right = np.array([-f[1], f[0]])
            self.turn_dir = -1 if right @ self.slope_side() > 0 else 1
            self.beat_hdg = _wrap(self.beat_hdg + math.pi)
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
        cut = _clip(want_off / 250.0, -1.0, 1.0) * math.radians(35.0)
        want = self.beat_hdg + cut * (1.0 if _wrap(toward - self.beat_hdg) > 0 else -1.0)
        err = _wrap(want - a.track_rad)
        bank = _clip(1.5 * err, -math.radians(25.0), math.radians(25.0))
        return self.fly(a, dt, bank, self.ias)


class CircuitPilot(_Pilot):
    """Home to the field and round the circuit to a landing.

    Glide to the downwind side of the field (``side`` +1 right of the runway, -1 left);
    when higher than ``join_m`` above the field there, circle off the height; then the
    downwind leg (opposite the landing direction, ``offset_m`` out), base leg when
    ``base_along_m`` before the threshold, final: the LandingPilot."""

    def __init__(self, airfield, side=1, join_m=250.0, offset_m=500.0, aim_along_m=-250.0, headwind_ms=0.0,
                 ias_kmh=95.0):
        super().__init__()
        self.af = airfield
        self.side = side
        self.join_m = join_m
        self.offset = offset_m
        self.ias = ias_kmh / 3.6
        self.landing = LandingPilot(airfield, aim_along_m, headwind_ms=headwind_ms)
        self.landing.flyer = self.flyer              # the same hands: no jump in the trim
        self.phase = None
        self.circle_dir = side

    def point(self, along, right):
        return np.array(self.af.to_world(along, right * self.side))

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, dt = self.reading(src)
        if not self.valid(a):
            return self.base
        af = self.af
        along, right = runway_frame(af, a.position_ned_m[0], a.position_ned_m[1])
        h = a.altitude_m - af.elevation_m
        p = a.position_ned_m[:2]
        L2 = af.length_m / 2
        if self.phase is None:
            aligned = abs(_wrap(a.heading - af.heading_rad)) < math.radians(30.0)
            on_final = aligned and along < -L2 and abs(right) < 300.0 and h < 0.12 * (-along) + 60.0
            on_downwind = abs(_wrap(a.heading - af.heading_rad - math.pi)) < math.radians(40.0) and \
                abs(right) > 200.0 and h < self.join_m + 80.0
            if on_downwind:
                self.side = 1 if right > 0 else -1
            self.phase = "final" if on_final else "downwind" if on_downwind else "join"
        if self.phase == "final":
            self.landing.base = self.base
            return self.landing(src)
        if self.phase == "join":
            target = self.point(L2, self.offset)              # abeam the upwind end, downwind side
            dist = float(np.hypot(*(target - p)))
            if dist < 400.0:
                if h > self.join_m:
                    return self.fly(a, dt, self.side * math.radians(30.0), 85.0 / 3.6)   # lose height
                self.set_phase("downwind")
            else:
                err = _wrap(_bearing(p, target) - a.track_rad)
                return self.fly(a, dt, _clip(1.2 * err, -0.5, 0.5), self.ias)
        if self.phase == "downwind":
            want_right = self.offset * self.side
            hdg = af.heading_rad + math.pi
            # hold the downwind track offset from the centreline (toward -along)
            err_r = right - want_right
            want = hdg + _clip(err_r / 300.0, -0.5, 0.5) * (-1.0)
            err = _wrap(want - a.track_rad)
            if along < -L2 - 250.0 or h < 120.0:
                self.set_phase("base")
            return self.fly(a, dt, _clip(1.2 * err, -0.45, 0.45), self.ias)
        if self.phase == "base":
            # turn toward the centreline, then final
            target = np.array(af.to_world(-L2 - 500.0, 0.0))
            err = _wrap(_bearing(p, target) - a.track_rad)
            if abs(right) < 150.0 or (abs(_wrap(a.track_rad - af.heading_rad)) < math.radians(45.0)):
                self.set_phase("final")
                self.landing.base = self.base
                self.landing.bank_ref = self.bank_ref
                return self.landing(src)
            return self.fly(a, dt, _clip(1.2 * err, -0.6, 0.6), self.ias)
        return self.fly(a, dt, 0.0, self.ias)


class WinchLaunchPilot(_Pilot):
    """The glider's day: the winch launch (WinchPilot), then soaring round the field
    (a SoaringPilot with the airfield as its goal, taking the thermals it meets)."""

    def __init__(self, winch, heading_rad, home_ne, ceiling_m=None):
        super().__init__()
        self.launch = WinchPilot(winch, heading_rad)
        self.soar = SoaringPilot(goal_ne=None, ceiling_m=ceiling_m)
        self.home = np.asarray(home_ne, dtype=np.float64)
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
        # stay within reach of the field: head back when more than 3 km out
        far = float(np.hypot(*(a.position_ned_m[:2] - self.home))) > 3000.0
        if far and self.soar.goal is None and self.soar.phase == "cruise":
            self.soar.goal, self.soar.goal_radius = self.home.copy(), 800.0
        return self.soar(src)


# ---------------------------------------------------------------------------- powered aircraft
class CruisePilot(_Pilot):
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
        herr = self.altitude - a.altitude_m
        self.i_alt = _clip(self.i_alt + 0.0005 * herr * dt, -0.1, 0.1)
        want_vs = _clip(0.1 * herr, -8.0, 8.0)
        v = max(a.tas_ms, 30.0)
        pitch_t = _clip(a.alpha + self.i_alt + math.asin(_clip(want_vs / v, -0.3, 0.3))
                        + 0.01 * (want_vs - a.vs_ms), -0.3, 0.35)
        spd = self.ias - a.ias_ms
        self.i_thr = _clip(self.i_thr + 0.01 * spd * dt, 0.05, 1.0)
        thr = _clip(self.i_thr + 0.05 * spd, 0.05, 1.0)
        err = _wrap(self.heading - a.heading)
        bank = _clip(1.0 * err, -math.radians(25.0), math.radians(25.0))
        return self.base.replace(pitch=f.attitude(a, pitch_t, dt), roll=f.bank(a, self.roll_in(bank, dt), dt),
                                 yaw=f.rudder(a, dt), throttle=thr, gear_up=1.0, brake_left=0.0, brake_right=0.0)


class TakeoffPilot(_Pilot):
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
            return self._jet(a, dt)
        f = self.flyer
        thr = _clip((a.time_s - self.t0) / 3.0, 0.0, 1.0)
        herr = _wrap(self.heading - a.heading)
        if self.phase == "run":
            yaw = _clip(4.0 * herr - 1.5 * a.r + f.i_yaw)
            f.i_yaw = _clip(f.i_yaw + 0.5 * herr * dt, -0.5, 0.5)
            roll = _clip(2.0 * (0.0 - a.roll) - 0.5 * a.p)
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
            bank = _clip(1.0 * herr, -0.1, 0.1)
            return self.base.replace(pitch=f.attitude(a, self.pitch_t, dt), roll=f.bank(a, bank, dt),
                                     yaw=_clip(3.0 * herr - 1.0 * a.r), throttle=thr, prop_rpm=1.0,
                                     brake_left=0.0, brake_right=0.0)
        # climb: the lift-off attitude held until clear of the ground and accelerating, then
        # the climb speed with the pitch; wings level on the runway heading, gear up once clear
        if a.agl_m > 30.0 and a.vs_ms > 1.0:
            self.gear = 1.0
        bank = _clip(1.0 * herr, -math.radians(15.0), math.radians(15.0))
        if self.phase == "climb" and (a.agl_m < 50.0 and a.ias_ms < self.climb - 10.0 / 3.6):
            return self.base.replace(pitch=f.attitude(a, math.radians(9.0), dt), roll=f.bank(a, bank, dt),
                                     yaw=f.rudder(a, dt), throttle=1.0, prop_rpm=1.0, gear_up=self.gear,
                                     brake_left=0.0, brake_right=0.0)
        self.phase = "climb out"
        return self.base.replace(pitch=f.speed(a, self.climb, dt, pitch_lo=math.radians(4.0), pitch_hi=0.3),
                                 roll=f.bank(a, self.roll_in(bank, dt), dt), yaw=f.rudder(a, dt), throttle=1.0,
                                 prop_rpm=1.0, gear_up=self.gear, brake_left=0.0, brake_right=0.0)


    def _jet(self, a: Attitude, dt: float) -> ControlInputs:
        """A tricycle jet's take-off (the snapshot says it has jets): brakes off, full afterburner
        (the throttle opened over 3 s), nose wheel steering on the run, the stick back at
        JET_ROTATE_KMH until 10 deg of pitch, then the attitude held to lift-off; gear up once
        climbing 30 m up, military power, then the climb speed with the pitch. In the air the stick
        asks the flight-control law for a load factor: the Flyer's loops steer the demand."""
        f = self.flyer
        herr = _wrap(self.heading - a.heading)
        thr = _clip((a.time_s - self.t0) / 3.0, 0.0, 1.0)
        steer = _clip(4.0 * herr - 1.5 * a.r)
        if self.phase == "run":
            if a.ias_ms >= JET_ROTATE_KMH / 3.6:
                self.phase = "rotate"
            return self.base.replace(pitch=0.0, roll=_clip(2.0 * (0.0 - a.roll) - 0.5 * a.p), yaw=steer,
                                     throttle=thr, brake_left=0.0, brake_right=0.0)
        if self.phase == "rotate":
            if not a.on_ground and a.agl_m > 5.0:
                self.set_phase("climb")
            pitch = 0.5 if a.pitch < math.radians(10.0) and a.on_ground else f.attitude(a, math.radians(10.0), dt)
            return self.base.replace(pitch=pitch, roll=_clip(2.0 * (0.0 - a.roll) - 0.5 * a.p), yaw=steer,
                                     throttle=thr, brake_left=0.0, brake_right=0.0)
        if a.agl_m > 30.0 and a.vs_ms > 1.0:
            self.gear = 1.0
        thr = 1.0 if self.gear < 1.0 else JET_CLIMB_THROTTLE
        bank = _clip(1.0 * herr, -math.radians(15.0), math.radians(15.0))
        if self.phase == "climb" and a.agl_m < 50.0:
            return self.base.replace(pitch=f.attitude(a, math.radians(10.0), dt), roll=f.bank(a, bank, dt),
                                     yaw=f.rudder(a, dt), throttle=thr, gear_up=self.gear, brake_left=0.0,
                                     brake_right=0.0)
        self.phase = "climb out"
        return self.base.replace(pitch=f.speed(a, JET_CLIMB_KMH / 3.6, dt, pitch_lo=math.radians(4.0), pitch_hi=0.35),
                                 roll=f.bank(a, self.roll_in(bank, dt), dt), yaw=f.rudder(a, dt), throttle=thr,
                                 gear_up=self.gear, brake_left=0.0, brake_right=0.0)


JET_ROTATE_KMH = 250.0       # a jet fighter's rotation: the F-15C's nose-wheel lift-off, 128-141 KCAS (T.O. fig. A3-6)
JET_CLIMB_KMH = 650.0        # its climb-out speed (about 350 KCAS)
JET_CLIMB_THROTTLE = 0.8     # military power once the gear is up (the F-15C's military detent)


# ---------------------------------------------------------------------------- per scenario
def autopilot(scenario, terrain, winch=None, weather=None, powered=None):
    """The pilot that flies a scenario (for the demo, the tests and as an AI fallback):

    winch -> the launch then soaring round the field; thermal -> ThermalPilot (after
    gliding on until lift is met: a SoaringPilot); landing -> LandingPilot; ridge ->
    RidgePilot; cross_country -> CrossCountryPilot; other glider air starts (airfield,
    downwind, high) -> CircuitPilot; a glider parked on the runway -> hands off (it
    waits for a launch). A powered aircraft (``powered``; default: the scenario is a fighter
    scenario), in any scenario: on the runway -> TakeoffPilot, in the air -> CruisePilot."""
    from .world.scenario import find_scenario
    sc = find_scenario(scenario) if isinstance(scenario, str) else scenario
    af = terrain.airfield
    st = sc.start
    hdg = af.heading_rad + math.radians(st["heading_offset_deg"])
    wind = sc.world
    to = math.radians(wind["wind_from_deg"] + 180.0)
    wind_ne = (wind["wind_speed_ms"] * math.cos(to), wind["wind_speed_ms"] * math.sin(to))
    headwind = -(wind_ne[0] * math.cos(af.heading_rad) + wind_ne[1] * math.sin(af.heading_rad))
    ceiling = None
    if weather is not None and len(getattr(weather, "thermals", [])):
        ceiling = float(min(th.base_m for th in weather.thermals))
    land = [o for o in sc.objectives if o["type"] == "land"]
    aim = land[0]["along_m"] if land and land[0]["along_m"] != 0.0 else -250.0
    if sc.kind == "fighter" if powered is None else powered:
        if st["type"] == "runway":
            return TakeoffPilot(hdg)
        return CruisePilot(heading_rad=hdg)
    if st["type"] == "winch":
        if winch is None:
            raise ValueError(f"scenario {sc.name!r} starts on a winch: pass the world's winch")
        return WinchLaunchPilot(winch, hdg, (af.north_m, af.east_m), ceiling_m=ceiling)
    if st["type"] == "runway":
        return HandsOff()
    if sc.name == "landing" or (land and land[0]["along_m"] != 0.0 and st["height_m"] < 200.0):
        return LandingPilot(af, aim, headwind_ms=headwind)
    if sc.name == "ridge" or (sc.ridge.get("lift") and wind["wind_speed_ms"] >= 6.0):
        return RidgePilot(terrain, wind["wind_from_deg"], hdg)
    tps = [o for o in sc.objectives if o["type"] == "turnpoint"]
    if tps:
        return CrossCountryPilot([af.to_world(o["along_m"], o["right_m"]) for o in tps], (af.north_m, af.east_m),
                                 [o["radius_m"] for o in tps], ceiling_m=ceiling)
    if int(sc.thermals.get("count", 0)) > 0:
        return SoaringPilot(goal_ne=None, ceiling_m=ceiling)
    return CircuitPilot(af, headwind_ms=headwind)


class HandsOff(_Pilot):
    """Nothing to fly (a glider parked on the runway waits for its launch): the controls as they are."""

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, _ = self.reading(src)
        return self.base
