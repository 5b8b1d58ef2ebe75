"""Sun and sky light for a scenario's time of day (pure numpy, no GL).

The sun's direction comes from the standard solar-position approximation (declination and
hour angle; Spencer 1971 / NOAA's "General solar position calculations") at the scenery's
latitude on a given day, local solar time. The light it gives is a plain artistic model:
the direct sun reddens and weakens through more air mass near the horizon (Kasten & Young
1989 relative air mass), the sky darkens and warms toward dusk. Angles in radians inside;
NED output: x north, y east, z down, so a sun above the horizon has z < 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..world.sun_position import DAY_OF_YEAR, LATITUDE_DEG, declination_rad, sun_direction_ned  # noqa: F401


def elevation_rad(sun_ned: np.ndarray) -> float:
    return math.asin(max(-1.0, min(1.0, -float(sun_ned[2]))))


def air_mass(elevation: float) -> float:
    """Relative optical air mass (Kasten & Young 1989), 1 overhead, ~38 at the horizon."""
    e = math.degrees(max(elevation, 0.0))
    return 1.0 / (math.sin(math.radians(e)) + 0.50572 * (e + 6.07995) ** -1.6364)


@dataclass(frozen=True)
class Light:
    sun_ned: tuple            # unit vector toward the sun
    sun_color: tuple          # direct light on a surface facing the sun
    ambient: tuple            # sky light
    sky_zenith: tuple
    sky_horizon: tuple
    elevation_deg: float


def _mix(a, b, t):
    return tuple(float(x + (y - x) * t) for x, y in zip(a, b))


def light_at(time_of_day_h: float, latitude_deg: float = LATITUDE_DEG, day_of_year: int = DAY_OF_YEAR) -> Light:
    """The scene's light at this time of day. At midday it is the renderer's noon palette."""
    s = sun_direction_ned(time_of_day_h, latitude_deg, day_of_year)
    el = elevation_rad(s)
    m = air_mass(el)
    # direct beam: per-channel extinction with air mass (blue scattered most), faded out as
    # the disc sets (-1 deg .. +2 deg)
    tau = (0.10, 0.16, 0.30)
    fade = min(max((math.degrees(el) + 1.0) / 3.0, 0.0), 1.0)
    noon = (1.0, 0.96, 0.88)
    beam = tuple(0.85 * c * math.exp(-t * (m - 1.0)) * fade for c, t in zip(noon, tau))
    # the sky: daylight down to civil dusk (-6 deg), a warm horizon when the sun is low
    day = min(max((math.degrees(el) + 6.0) / 16.0, 0.0), 1.0)          # 0 at -6 deg, 1 from +10 deg
    low = min(max(1.0 - math.degrees(el) / 15.0, 0.0), 1.0) * (1.0 if el > math.radians(-6) else 0.0)
    zenith = _mix((0.02, 0.03, 0.08), (0.20, 0.42, 0.80), day)
    horizon = _mix((0.05, 0.06, 0.10), (0.70, 0.80, 0.90), day)
    horizon = _mix(horizon, (0.95, 0.62, 0.38), 0.55 * low * day ** 0.5)
    ambient = _mix((0.04, 0.05, 0.08), (0.55, 0.62, 0.75), day)
    # with the sun low the sky's share of the light grows (the beam crosses more air): a
    # brighter, warmer sky light keeps the evening landscape readable
    ambient = tuple(a * (1.0 + 0.9 * low * day) for a in _mix(ambient, (0.62, 0.58, 0.60), 0.5 * low * day))
    return Light(tuple(float(x) for x in s), beam, ambient, zenith, horizon, math.degrees(el))
