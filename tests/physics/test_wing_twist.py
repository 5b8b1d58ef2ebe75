"""Wing twist (issue 17, seed 000: "beyond 477mph on the Spitfire Mk I, roll control actually
reverses"): each section twists under its own aerodynamic moment about its elastic axis, so
the aileron's nose-down moment takes lift back as the dynamic pressure grows, until roll
control reverses. Shown on the P-51D's data with a torsional stiffness given to its aileron
sections (the P-51D's real wing is stiff: these are made-up stiffnesses, to check the physics)."""
import copy
import math

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.physics.named_model import AircraftData
from flightsim.physics.section_tables import _cl_slope, coefficients
from flightsim.physics.state import flat_terrain
from flightsim.sim import Sim
from flightsim.tools.rollrig import steady_roll_rate

ALT_M = 3048.0
SPEEDS = np.arange(340.0, 701.0, 40.0)


def _compiled(k_nm_per_deg):
    spec = copy.deepcopy(load_aircraft("p51d"))
    for s in spec.sections:
        if s.get("control") == "aileron":
            s["torsional_stiffness_nm_per_deg"] = k_nm_per_deg
    return compile_aircraft(spec)


def _curve(k):
    sim = Sim(_compiled(k), terrain=flat_terrain(-1.0e6))
    return np.array([steady_roll_rate(sim, float(v), ALT_M)["roll_rate_dps"] for v in SPEEDS])


def _reversal_kmh(rates):
    j = int(np.argmax(rates < 0.0))
    assert rates[j] < 0.0 < rates[j - 1], rates
    return SPEEDS[j - 1] + 40.0 * rates[j - 1] / (rates[j - 1] - rates[j])


@pytest.fixture(scope="module")
def curves():
    return {k: _curve(k) for k in (0.0, 400.0, 800.0)}


def test_a_rigid_wing_never_reverses(curves):
    assert np.all(curves[0.0] > 60.0)


def test_roll_control_fades_then_reverses_on_a_flexible_wing(curves):
    soft = curves[800.0]
    assert soft[0] > 0.5 * curves[0.0][0]                 # still rolls at low speed
    assert np.all(np.diff(soft[2:]) < 0.0)                # and less and less from 420 km/h on
    assert soft[-1] < -20.0                               # reversed at 700 km/h


def test_the_reversal_speed_grows_as_the_root_of_the_stiffness(curves):
    """Reversal is a dynamic pressure: q_rev = K / (S c) * dCL/dd / (a |dCm/dd|), so doubling
    the stiffness moves it by sqrt(2) in speed; and it lies between the two aileron sections'
    own reversal speeds from their tables (the inner one reverses first, the outer later)."""
    v400, v800 = _reversal_kmh(curves[400.0]), _reversal_kmh(curves[800.0])
    assert v800 / v400 == pytest.approx(math.sqrt(2.0), rel=0.05)
    comp = _compiled(800.0)
    data = AircraftData(comp.model, comp.tables)
    own = []
    for i in np.flatnonzero(data.section_gains[:, 1]):
        t = int(data.section_airfoil_table[i])
        a0, d = math.radians(2.0), math.radians(5.0)
        cl0, _, cm0 = coefficients(comp.tables, t, a0, 0.0)
        cl1, _, cm1 = coefficients(comp.tables, t, a0, d)
        slope = _cl_slope(comp.tables, t, a0, 0.0)[1]
        q_rev = -((cl1 - cl0) / (slope * (cm1 - cm0))) * 800.0 * 180.0 / math.pi / (
            data.section_area_m2[i] * data.section_chord_m[i])
        own.append(math.sqrt(2.0 * q_rev / 1.225) * 3.6)
    assert min(own) < v800 < max(own)
