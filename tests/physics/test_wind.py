"""The wind-field hook: steady wind carries the aircraft; a thermal lifts it."""
import pytest

from flightsim.physics.state import make_env
from flightsim.sim import Sim


def test_steady_wind_drifts_the_glide_not_the_airspeed(trainer_path):
    calm = Sim(trainer_path)
    calm.spawn_trimmed_glide(25.0, 1500.0)
    windy = Sim(trainer_path, env=make_env(wind_ned_ms=(0.0, 10.0, 0.0)))   # 10 m/s toward the east
    windy.spawn_trimmed_glide(25.0, 1500.0)
    calm.fly(20.0)
    windy.fly(20.0)
    assert windy.tas_ms == pytest.approx(calm.tas_ms, abs=0.05)
    assert windy.altitude_m == pytest.approx(calm.altitude_m, abs=0.5)
    assert windy.position_ned_m[1] - calm.position_ned_m[1] == pytest.approx(200.0, abs=2.0)


def test_thermal_lifts_the_glider(trainer_path):
    calm = Sim(trainer_path)
    calm.spawn_trimmed_glide(25.0, 1500.0)
    calm.fly(10.0)
    sink = calm.velocity_ned_ms[2]
    lifted = Sim(trainer_path, env=make_env(thermals=[(0.0, 0.0, 2000.0, 3.0)]))   # wide 3 m/s core
    lifted.spawn_trimmed_glide(25.0, 1500.0)
    lifted.fly(10.0)
    climb = -lifted.velocity_ned_ms[2]
    assert climb == pytest.approx(3.0 * 0.99 - sink, abs=0.25)   # 250 m from the core: exp(-(250/2000)^2)
