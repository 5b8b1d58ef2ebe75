"""The engine's charge (physics/engine.py, T_CHARGE_REF): at a given manifold pressure a spark-ignition
engine takes air as 1/sqrt(T) of its charge temperature (DIN 70020, SAE J1349; Taylor), not 1/T."""
import math

import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.physics.engine import engine_point
from flightsim.physics.named_model import AircraftData

P_SEA = 101325.0


@pytest.fixture(scope="module")
def c172():
    return compile_aircraft("c172p")


def _full_throttle(comp, t_amb):
    data = AircraftData(comp.model)
    return engine_point(comp.model, data.engine_row, 2400.0 * math.pi / 30.0, 1.0, 0.0, 0.0, P_SEA, t_amb, 0.0)


def test_the_air_at_full_throttle_falls_as_one_over_the_square_root_of_the_temperature(c172):
    cold, hot = _full_throttle(c172, 268.15), _full_throttle(c172, 308.15)     # -5 and +35 C
    assert cold[2] == pytest.approx(hot[2], rel=1e-3)                          # about the same manifold pressure
    per_pa_cold, per_pa_hot = cold[3] / cold[2], hot[3] / hot[2]                # air per pascal of it
    assert per_pa_cold / per_pa_hot == pytest.approx(math.sqrt(hot[7] / cold[7]), rel=1e-9)   # the charges' temperatures
    assert hot[7] - cold[7] == pytest.approx(40.0, abs=0.1)
    # the power: about 0.2 % per kelvin (the air's 1 / (2 T), a little more with friction fixed);
    # the perfect gas's 1/T would give twice that
    per_kelvin = (cold[1] / hot[1] - 1.0) / 40.0
    assert 1.0 / 8.0 < per_kelvin * 100.0 < 1.0 / 4.0

