"""Where the sun is, for a scenario's time of day (pure Python and numpy): the standard
solar-position approximation (declination and hour angle; Spencer 1971 / NOAA's "General solar
position calculations") at the scenery's latitude on a given day, local solar time. The renderer's
light (render/sun.py) and an infrared seeker's blinding (world/missiles.py) both use it."""
from __future__ import annotations

import math

import numpy as np

LATITUDE_DEG = 48.0          # the scenery's latitude: central Europe, where the Astir trains
DAY_OF_YEAR = 172            # the summer solstice: the gliding season


def declination_rad(day_of_year: int = DAY_OF_YEAR) -> float:
    """Solar declination (Spencer 1971 Fourier series), rad."""
    g = 2.0 * math.pi * (day_of_year - 1) / 365.0
    return (0.006918 - 0.399912 * math.cos(g) + 0.070257 * math.sin(g) - 0.006758 * math.cos(2 * g)
            + 0.000907 * math.sin(2 * g) - 0.002697 * math.cos(3 * g) + 0.00148 * math.sin(3 * g))


def sun_direction_ned(time_of_day_h: float, latitude_deg: float = LATITUDE_DEG,
                      day_of_year: int = DAY_OF_YEAR) -> np.ndarray:
    """Unit vector toward the sun, NED, at local solar time ``time_of_day_h`` (12 = noon)."""
    lat = math.radians(latitude_deg)
    dec = declination_rad(day_of_year)
    hour = math.radians(15.0 * (time_of_day_h - 12.0))      # + in the afternoon (sun in the west)
    # east-north-up components of the sun direction
    up = math.sin(lat) * math.sin(dec) + math.cos(lat) * math.cos(dec) * math.cos(hour)
    east = -math.cos(dec) * math.sin(hour)
    north = math.cos(lat) * math.sin(dec) - math.sin(lat) * math.cos(dec) * math.cos(hour)
    v = np.array([north, east, -up])
    return v / np.linalg.norm(v)
