"""The kernels' environment array by name: wind, gravity, step, thermals, an external force.

The step kernels read one flat ``env`` array (``state.make_env`` builds it). The world's
weather, the winch and the tests change it between steps through this view instead of
through the layout's indices:

    env = Environment(sim.env)
    env.wind_ned_ms = (0.0, -5.0, 0.0)          # the velocity of the air, NED, m/s
    env.set_thermal(0, north_m=500.0, east_m=0.0, radius_m=150.0, updraft_ms=3.0)
    env.set_external_force((0.0, 0.0, -2000.0), (1.2, 0.0, 0.3))   # a cable at the hook

The view holds the array, it does not copy it.
"""
from __future__ import annotations

import numpy as np

from . import layout as L

N_ENV_BASE = L.N_ENV_BASE
THERMAL_FIELDS = ("north_m", "east_m", "radius_m", "updraft_ms", "cloud_base_m", "ground_m")


def check_env(env: np.ndarray) -> None:
    """The kernels do not bounds-check: refuse a too-short env here, not read past its end."""
    if len(env) < L.N_ENV_BASE:
        raise ValueError(f"env has {len(env)} values, the layout needs at least {L.N_ENV_BASE} (use make_env)")


def env_problem(env: np.ndarray) -> str | None:
    """What makes ``env`` unfit for the kernels (a recording's, a caller's), or None."""
    if len(env) < L.N_ENV_BASE:
        return f"an env has at least {L.N_ENV_BASE} numbers, got {len(env)}"
    count = float(env[L.E_THERMAL_COUNT])
    room = (len(env) - L.E_THERMALS) // L.N_THERMAL
    if count != int(count) or not 0 <= count <= room:
        return f"{count:g} thermals in an env with room for {room}"
    if not (env[L.E_DT] > 0.0 and env[L.E_TERRAIN_DX] > 0.0):
        return "the env's step and terrain spacing must be above 0"
    return None


class Environment:
    """Named view over an env array."""
    __slots__ = ("env",)

    def __init__(self, env: np.ndarray):
        check_env(env)
        self.env = env

    # ------------------------------------------------------------------ scalars
    @property
    def dt_s(self) -> float:
        """The physics step, s."""
        return float(self.env[L.E_DT])

    @property
    def gravity_ms2(self) -> float:
        return float(self.env[L.E_GRAVITY])

    @gravity_ms2.setter
    def gravity_ms2(self, value: float) -> None:
        self.env[L.E_GRAVITY] = value

    @property
    def wind_ned_ms(self) -> np.ndarray:
        """The steady wind (the velocity of the air), NED, m/s: a view, writes go to the env."""
        return self.env[L.E_WIND_N:L.E_WIND_D + 1]

    @wind_ned_ms.setter
    def wind_ned_ms(self, value) -> None:
        self.env[L.E_WIND_N:L.E_WIND_D + 1] = value

    @property
    def humidity(self) -> float:
        """The air's relative humidity, 0..1 (0: dry; a carburettor's ice, physics/carburettor.py)."""
        return float(self.env[L.E_HUMIDITY])

    @humidity.setter
    def humidity(self, value: float) -> None:
        if not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"relative humidity must be 0..1, got {value!r}")
        self.env[L.E_HUMIDITY] = value

    @property
    def vertical_wind_ms(self) -> float:
        """The wind's down component, m/s (+ down: sink; the ridge lift goes here as -)."""
        return float(self.env[L.E_WIND_D])

    @vertical_wind_ms.setter
    def vertical_wind_ms(self, value: float) -> None:
        self.env[L.E_WIND_D] = value

    # ------------------------------------------------------------------ external force
    def set_external_force(self, force_ned_n, point_body_m) -> None:
        """A force on the airframe for the coming step (a winch or tow cable): NED, N, applied
        at a body point from the datum, m."""
        self.env[L.E_EXT_FORCE:L.E_EXT_FORCE + 3] = force_ned_n
        self.env[L.E_EXT_POINT:L.E_EXT_POINT + 3] = point_body_m

    def clear_external_force(self) -> None:
        self.env[L.E_EXT_FORCE:L.E_EXT_FORCE + 3] = 0.0

    @property
    def external_force_ned_n(self) -> np.ndarray:
        return self.env[L.E_EXT_FORCE:L.E_EXT_FORCE + 3].copy()

    # ------------------------------------------------------------------ thermals
    @property
    def thermal_capacity(self) -> int:
        """How many thermals the array has room for."""
        return (len(self.env) - L.E_THERMALS) // L.N_THERMAL

    @property
    def thermal_count(self) -> int:
        """Thermals the kernels read (the first ones of the room)."""
        return int(self.env[L.E_THERMAL_COUNT])

    @thermal_count.setter
    def thermal_count(self, n: int) -> None:
        if not 0 <= n <= self.thermal_capacity:
            raise ValueError(f"{n} thermals: the env has room for {self.thermal_capacity}")
        self.env[L.E_THERMAL_COUNT] = n

    def _thermal_base(self, k: int) -> int:
        if not 0 <= k < self.thermal_capacity:
            raise IndexError(f"thermal {k}: the env has room for {self.thermal_capacity}")
        return L.E_THERMALS + k * L.N_THERMAL

    def set_thermal(self, k: int, north_m: float, east_m: float, radius_m: float, updraft_ms: float,
                    cloud_base_m: float = 0.0, ground_m: float = -1.0e6) -> None:
        """Thermal k: its centre (NED north, east), core radius, core updraft, cloud base
        (0: none) and the ground it rises from (far below: no fade-in near the ground)."""
        b = self._thermal_base(k)
        self.env[b:b + L.N_THERMAL] = (north_m, east_m, radius_m, updraft_ms, cloud_base_m, ground_m)

    def set_thermals(self, rows) -> None:
        """Every thermal at once, rows of set_thermal's six values (one slice written: the
        weather sets them all each tick); the thermal count becomes len(rows)."""
        n = len(rows)
        if n > self.thermal_capacity:
            raise ValueError(f"{n} thermals: the env has room for {self.thermal_capacity}")
        if n:
            self.env[L.E_THERMALS:L.E_THERMALS + n * L.N_THERMAL] = np.asarray(rows, dtype=np.float64).ravel()
        self.env[L.E_THERMAL_COUNT] = n

    def thermal(self, k: int) -> dict:
        """Thermal k by name (THERMAL_FIELDS)."""
        b = self._thermal_base(k)
        return {name: float(self.env[b + i]) for i, name in enumerate(THERMAL_FIELDS)}
