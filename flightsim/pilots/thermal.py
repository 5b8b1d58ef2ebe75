"""``ThermalPilot``: circles and centres a thermal from the vario; the vario it reads (``Vario``)
and its estimate of the wind drifting the thermal (``WindEstimate``).
"""
from __future__ import annotations

import bisect
import math
from collections import deque

import numpy as np

from ..runtime.handoff import ControlInputs
from .flying import G0, Attitude, ScenarioPilot


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


class ThermalPilot(ScenarioPilot):
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
        # the averager's record, the last 120 s: times and energy heights from index _first on
        self._times: list = []
        self._energy: list = []
        self._first = 0
        self.relative_vario = 0.0
        self._n = None

    def radius_m(self, tas_ms=None, bank_rad=None) -> float:
        v = self.ias * 1.03 if tas_ms is None else tas_ms
        return v * v / (G0 * math.tan(self.bank0 if bank_rad is None else bank_rad))

    def average_climb(self, window_s=30.0) -> float | None:
        """Total-energy climb over the last window (the averager): None until 10 s of it."""
        ts, lo = self._times, self._first
        if len(ts) - lo < 2 or ts[-1] - ts[lo] < min(window_s, 10.0):
            return None
        t1 = ts[-1]
        # the oldest reading within the window (bisected, then stepped to the exact test)
        i = bisect.bisect_left(ts, t1 - window_s, lo)
        while i > lo and t1 - ts[i - 1] <= window_s:
            i -= 1
        while i < len(ts) and t1 - ts[i] > window_s:
            i += 1
        if i >= len(ts):
            return None
        return (self._energy[-1] - self._energy[i]) / max(t1 - ts[i], 1e-6)

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
        self._times.append(a.time_s)
        self._energy.append(a.energy_height_m)
        while a.time_s - self._times[self._first] > 120.0:
            self._first += 1
        if self._first > 10000:                      # drop what has left the record now and then
            del self._times[:self._first], self._energy[:self._first]
            self._first = 0
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
