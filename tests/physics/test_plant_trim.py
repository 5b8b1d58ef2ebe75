"""The powerplant's balance (physics/plant_trim.py) for every piston aircraft, from standing
still with the blades stalled to a dive, throttle closed to full, governed and feathered: a
balance found again from its own answer moves nothing (the induced velocities are converged),
and where the engine turns the crankshaft torques are equal in the step's own diagnostics.

The inflow iteration is Broyden's method per blade station with the plain half step as its
fallback: this checks the answer, not the path (the kept regression flights check the bits)."""
import itertools
import math

import numpy as np
import pytest

from flightsim.physics.dynamics import derivative
from flightsim.physics.named import N_DIAGNOSTICS, AircraftView, Controls
from flightsim.physics.named_model import AircraftData
from flightsim.physics.plant_trim import plant_trim
from flightsim.physics.scratch import make_scratch
from flightsim.physics.state import make_env, make_state, settle_surfaces
from flightsim.sim import Sim

GRID = list(itertools.product((0.0, 5.0, 60.0, 150.0, 240.0),          # true airspeed, m/s
                              (0.0, 7000.0),                           # altitude, m
                              (0.0, 1.0),                              # throttle
                              (0.3, 1.0),                              # governor setting
                              (0.0, 1.0)))                             # feathered


@pytest.mark.parametrize("name", ("p51d", "spitfire", "bf109"))
def test_the_balance_leaves_the_inflow_converged_and_the_torques_equal(name):
    sim = Sim(name)
    model, tables = sim.model, sim.tables
    gear = AircraftData(model).propeller_gear_ratio
    ws, R, fm, deriv, _, _ = make_scratch(model)
    balanced = 0
    for tas, alt, throttle, rpm, feather in GRID:
        alpha = 0.05
        s = make_state((0.0, 0.0, -alt), (tas * math.cos(alpha), 0.0, tas * math.sin(alpha)), 0.0, alpha, 0.0)
        c = Controls(throttle=throttle, prop_rpm=rpm, feather=feather).array
        settle_surfaces(s, c)
        stopped = plant_trim(model, tables, s, c, make_env(), ws)
        where = f"{name} at {tas} m/s, {alt} m, throttle {throttle}, rpm {rpm}, feathered {feather}"
        assert np.all(np.isfinite(s)), where
        again = s.copy()                # balanced from its own balance: nothing moves (the inflow included)
        plant_trim(model, tables, again, c, make_env(), ws)
        assert np.max(np.abs(again - s)) < 1e-8, where
        diag = np.zeros(N_DIAGNOSTICS)
        derivative(s, c, make_env(), np.full((1, 1), -1e6), model, tables, diag, deriv, ws, R, fm)
        view = AircraftView(s, diag)
        omega = view.engine_rpm * math.pi / 30.0
        if stopped or omega < 1.0 or view.shaft_power_w == 0.0:
            continue
        engine_nm = view.shaft_power_w / omega
        assert engine_nm == pytest.approx(gear * view.propeller_torque_nm, rel=1e-6, abs=1e-3), where
        balanced += 1
    assert balanced > len(GRID) // 2
