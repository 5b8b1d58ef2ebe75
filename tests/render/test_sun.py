"""The sun and sky for a scenario's time of day (flightsim.render.sun): astronomy checked
against the textbook formulas, light against what an evening looks like."""
import math

import numpy as np
import pytest

from flightsim.render.sun import LATITUDE_DEG, declination_rad, light_at, sun_direction_ned


def test_declination_at_the_solstices_and_equinox():
    assert math.degrees(declination_rad(172)) == pytest.approx(23.44, abs=0.2)
    assert math.degrees(declination_rad(355)) == pytest.approx(-23.44, abs=0.2)
    assert abs(math.degrees(declination_rad(80))) < 1.0


def test_noon_sun_due_south_at_90_minus_latitude_plus_declination():
    s = sun_direction_ned(12.0)
    el = math.degrees(math.asin(-s[2]))
    assert el == pytest.approx(90.0 - LATITUDE_DEG + math.degrees(declination_rad(172)), abs=0.05)
    assert s[0] < 0 and abs(s[1]) < 1e-9                 # south, no east component
    assert sun_direction_ned(9.0)[1] > 0 > sun_direction_ned(15.0)[1]    # morning east, afternoon west


def test_sunset_at_the_hour_angle_of_the_sunrise_equation():
    """cos H0 = -tan(lat) tan(dec): the sun crosses the horizon H0/15 hours after noon."""
    lat, dec = math.radians(LATITUDE_DEG), declination_rad(172)
    h0 = math.degrees(math.acos(-math.tan(lat) * math.tan(dec))) / 15.0
    assert -sun_direction_ned(12.0 + h0 - 0.05)[2] > 0 > -sun_direction_ned(12.0 + h0 + 0.05)[2]
    assert 12.0 + h0 == pytest.approx(19.9, abs=0.1)     # 48 N at midsummer: sunset ~19:55 solar time


def test_light_reddens_and_fades_toward_sunset_and_night_is_dark():
    noon, evening, dusk, night = (light_at(h) for h in (13.0, 19.0, 19.95, 23.0))
    assert noon.sun_color == pytest.approx((0.84, 0.80, 0.72), abs=0.03)    # the renderer's daylight
    # less light, and redder: blue is scattered out of the long path first
    assert sum(evening.sun_color) < 0.7 * sum(noon.sun_color)
    assert evening.sun_color[2] / evening.sun_color[0] < 0.6 * noon.sun_color[2] / noon.sun_color[0]
    assert sum(dusk.sun_color) < 0.1 * sum(noon.sun_color)
    assert night.sun_color == (0.0, 0.0, 0.0)
    assert sum(night.sky_zenith) < 0.2 * sum(noon.sky_zenith)
    # the evening horizon glows warm
    assert evening.sky_horizon[0] > evening.sky_horizon[2] and noon.sky_horizon[2] > noon.sky_horizon[0]
    assert np.linalg.norm(noon.sun_ned) == pytest.approx(1.0)
