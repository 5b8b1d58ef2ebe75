"""The air the glider flies in: thermals with a life cycle drifting with the wind, and ridge lift.

The kernels see the air through the env vector (physics.aero.wind_at): a steady wind
and a list of thermal columns. This module owns what changes between ticks:

* **Thermals** are born at random places (deterministic from the scenario's seed) over
  the scenario's area, live ``lifetime_s`` (+/-30%), grow, mature and decay (strength
  ``w_max * sin(pi * age / life) ** 0.5``), drift with the wind, and are re-born
  elsewhere when they die. Each has a cumulus cloud at its cloud base while it is alive
  (``clouds()`` for the renderer; the World publishes them each tick as a read-only
  array, the renderer's flightsim/render/clouds.py draws them). Cloud base rises with the thermal strength
  (roughly 1000 m above the ground plus 250 m per m/s, as a rule of thumb for a
  temperate convective day). The sink ring around each core is in the kernel's profile.
* **Ridge lift**: wind blowing up a slope is deflected upward. At the aircraft, the
  vertical air velocity is ``w = V_h . grad h`` (the horizontal wind along the terrain
  gradient, slope taken over +/-120 m), decaying with height above the ground as
  ``exp(-agl / H)`` with H = 250 m (about the ridge's height and half-width here); only
  upslope flow lifts (lee-side sink is left out). It is put into the env's steady
  vertical wind once per tick at the aircraft's position (ridge lift changes over
  hundreds of metres, a wingspan sees one value).

Everything here is plain numpy and runs in the physics thread's per-tick hook.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..physics.named_env import Environment

RIDGE_DECAY_M = 250.0
RIDGE_BASELINE_M = 120.0


@dataclass
class Thermal:
    north_m: float
    east_m: float
    radius_m: float
    w_max_ms: float
    born_s: float
    life_s: float
    base_m: float          # cloud base, m ASL
    ground_m: float        # ground under the source, m ASL

    def centre_ne(self, t_s: float, wind_n_ms: float, wind_e_ms: float) -> tuple[float, float]:
        """Where its core is at ``t_s``: born at (north_m, east_m), drifting with the wind."""
        age = t_s - self.born_s
        return self.north_m + wind_n_ms * age, self.east_m + wind_e_ms * age

    def strength(self, t_s: float) -> float:
        x = (t_s - self.born_s) / self.life_s
        if x <= 0.0 or x >= 1.0:
            return 0.0
        return self.w_max_ms * math.sqrt(math.sin(math.pi * x))


class Weather:
    def __init__(self, terrain, world: dict, thermals: dict, ridge: dict, centre_ne_m=(0.0, 0.0)):
        self.terrain = terrain
        self.wind_ned = np.array(_wind_ned(world), dtype=np.float64)
        self.humidity = float(world.get("humidity_pct", 0.0)) / 100.0     # relative humidity (0: dry air)
        self.ridge_lift = bool(ridge.get("lift", True)) and float(np.hypot(*self.wind_ned[:2])) > 0.5
        self.cfg = dict(thermals)
        self.centre = np.array(centre_ne_m, dtype=np.float64)
        self.rng = np.random.default_rng(int(self.cfg.get("seed", 1)))
        self.n = int(self.cfg.get("count", 0))
        self.thermals: list[Thermal] = []
        for k in range(self.n):
            # staggered ages so that the sky is not all new at once
            th = self._new(0.0)
            th.born_s = -self.rng.uniform(0.0, 0.8) * th.life_s
            self.thermals.append(th)
        self.ridge_w_ms = 0.0
        self._columns()

    def _columns(self) -> None:
        """The thermals as columns (north, east, radius, w_max, born, life, base, ground), for the
        per-tick sums in numpy: made again when one is re-born."""
        self._tab = np.array([(th.north_m, th.east_m, th.radius_m, th.w_max_ms, th.born_s, th.life_s, th.base_m,
                               th.ground_m) for th in self.thermals], dtype=np.float64).reshape(-1, 8)
        self._key = np.array([float(int(abs(th.north_m * 7.0 + th.east_m * 13.0)) % 100003)
                              for th in self.thermals], dtype=np.float64)
        self._clouds_at = (None, None)            # (t_s, rows): the last asked for (the world, then its pilot)

    def _now(self, t_s: float):
        """(centre north, centre east, strength) of every thermal at ``t_s`` (Thermal.centre_ne and
        Thermal.strength over the columns)."""
        tab = self._tab
        age = t_s - tab[:, 4]
        x = age / tab[:, 5]
        alive = (x > 0.0) & (x < 1.0)
        # math.sin, not numpy's: numpy's float64 sine has SIMD kernels chosen by the CPU, and the air
        # must be the same bits on every machine (a kept flight replays bit for bit anywhere)
        sin = np.array([math.sin(math.pi * xi) if ok else 1.0 for xi, ok in zip(x.tolist(), alive.tolist())])
        s = np.where(alive, tab[:, 3] * np.sqrt(sin), 0.0)
        return tab[:, 0] + self.wind_ned[0] * age, tab[:, 1] + self.wind_ned[1] * age, s

    def _new(self, t_s: float) -> Thermal:
        c = self.cfg
        spread = float(c.get("spread_m", 8000.0))
        n = self.centre[0] + self.rng.uniform(-spread / 2, spread / 2)
        e = self.centre[1] + self.rng.uniform(-spread / 2, spread / 2)
        w = float(c.get("strength_ms", 2.5)) * self.rng.uniform(0.7, 1.3)
        r = float(c.get("radius_m", 250.0)) * self.rng.uniform(0.8, 1.25)
        life = float(c.get("lifetime_s", 1200.0)) * self.rng.uniform(0.7, 1.3)
        ground = float(self.terrain.height_at(n, e))
        base = ground + 1000.0 + 250.0 * w
        return Thermal(n, e, r, w, t_s, life, base, ground)

    # ------------------------------------------------------------------ per tick
    def env(self) -> np.ndarray:
        """An env vector sized for this weather (steady wind and the thermal slots)."""
        e = self.terrain.env(wind_ned_ms=tuple(self.wind_ned), thermals=[(0.0, 0.0, 1.0, 0.0)] * self.n)
        Environment(e).humidity = self.humidity
        return e

    def update(self, env: np.ndarray, t_s: float, position_ned_m) -> None:
        """Move the thermals through their lives and with the wind; set the ridge lift at
        the aircraft into the env's vertical wind."""
        air = Environment(env)
        if self.n:
            dead = np.nonzero(t_s - self._tab[:, 4] >= self._tab[:, 5])[0]
            for k in dead:
                self.thermals[k] = self._new(t_s)
            if len(dead):
                self._columns()
        n, e, s = self._now(t_s)
        tab = self._tab
        rows = np.column_stack((n, e, tab[:, 2], s, tab[:, 6], tab[:, 7]))
        air.set_thermals(rows)
        self.ridge_w_ms = self.ridge_at(position_ned_m[0], position_ned_m[1], -position_ned_m[2]) \
            if self.ridge_lift else 0.0
        air.vertical_wind_ms = self.wind_ned[2] - self.ridge_w_ms

    def ridge_at(self, north_m: float, east_m: float, altitude_m: float) -> float:
        """Upward air velocity (m/s) from the wind meeting the slope at a point."""
        d = RIDGE_BASELINE_M
        t = self.terrain
        gn = (t.height_at(north_m + d, east_m) - t.height_at(north_m - d, east_m)) / (2 * d)
        ge = (t.height_at(north_m, east_m + d) - t.height_at(north_m, east_m - d)) / (2 * d)
        up = self.wind_ned[0] * gn + self.wind_ned[1] * ge
        if up <= 0.0:
            return 0.0
        agl = max(altitude_m - t.height_at(north_m, east_m), 0.0)
        return float(up * math.exp(-agl / RIDGE_DECAY_M))

    def clouds(self, t_s: float) -> np.ndarray:
        """Cumulus over each living thermal: rows of (north, east, base m ASL, size m, key).

        ``key`` is fixed for one thermal's life (its birth place), so the renderer can
        give each cloud its own lasting shape while it drifts and grows. The rows (read-only) are
        kept for a second asker at the same time, until a thermal is re-born."""
        if self._clouds_at[0] == t_s:
            return self._clouds_at[1]
        n, e, s = self._now(t_s)
        tab = self._tab
        on = s > 0.1
        size = 2.5 * tab[:, 2] * s / np.maximum(tab[:, 3], 1e-6) + 150.0
        rows = np.column_stack((n, e, tab[:, 6], size, self._key))[on]
        rows.setflags(write=False)
        self._clouds_at = (t_s, rows)
        return rows


def _wind_ned(world: dict) -> tuple:
    v = float(world.get("wind_speed_ms", 0.0))
    to = math.radians(float(world.get("wind_from_deg", 270.0)) + 180.0)
    return (v * math.cos(to), v * math.sin(to), 0.0)
