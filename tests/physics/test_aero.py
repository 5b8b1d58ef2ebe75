"""Section aerodynamics building blocks: table lookup, control-curve blending, atan2, induced drag."""
import math

import numpy as np
import pytest

from flightsim.aircraft_data.loader import load_aircraft
from flightsim.physics.aero import fast_atan2
from flightsim.physics.named import AircraftView
from flightsim.physics.named_model import AircraftData
from flightsim.physics.section_tables import coefficients, saturated_deflection
from flightsim.sim import Sim


def test_fast_atan2_matches_libm():
    rng = np.random.default_rng(1)
    pts = rng.normal(size=(50000, 2)) * rng.choice([1e-6, 1.0, 1e3], size=(50000, 1))
    err = max(abs(fast_atan2(y, x) - math.atan2(y, x)) for y, x in pts)
    assert err < 1.2e-5          # A&S 4.4.47's bound, 1/380 of the tables' 0.25 degree spacing
    for y, x in [(0.0, 1.0), (0.0, -1.0), (1.0, 0.0), (-1.0, 0.0), (-1.0, -1.0), (0.0, 0.0)]:
        assert fast_atan2(y, x) == pytest.approx(math.atan2(y, x), abs=1.2e-5)
    assert fast_atan2(0.0, 1.0) == 0.0 and fast_atan2(1.0, 0.0) == math.pi / 2   # exact on the axes


def test_lookup_reproduces_the_file_and_blends_control_curves():
    sim = Sim("astir")
    c = sim.compiled
    t = c.table_names.index("e603_aileron")
    af = c.spec.airfoils["e603_aileron"]
    for alpha in (-170.0, -20.0, 0.0, 7.0, 16.0, 45.0, 135.0):
        k = list(af.alpha_deg).index(alpha)
        cl, cd, cm = coefficients(c.tables, t, math.radians(alpha), 0.0)
        assert (cl, cd, cm) == pytest.approx(tuple(af.curves[1, :, k]), abs=1e-9)
        cl5 = coefficients(c.tables, t, math.radians(alpha), math.radians(5.0))[0]
        assert cl5 == pytest.approx(0.5 * (af.curves[1, 0, k] + af.curves[2, 0, k]), abs=1e-9)
        clm10 = coefficients(c.tables, t, math.radians(alpha), math.radians(-10.0))[0]
        assert clm10 == pytest.approx(af.curves[0, 0, k], abs=1e-9)
    # angles wrap: 200 deg is -160 deg
    assert coefficients(c.tables, t, math.radians(200.0), 0.0) == coefficients(c.tables, t, math.radians(-160.0), 0.0)


def test_deflection_past_10_deg_extrapolates_without_a_full_curve():
    """An aileron (no [deflection_full]): past +10 deg the +10 curve's increment grows linearly,
    to 30 deg at most, the same straight line as below 10 deg."""
    c = Sim("astir").compiled
    t = c.table_names.index("e603_aileron")
    af = c.spec.airfoils["e603_aileron"]
    k = list(af.alpha_deg).index(2.0)
    base, plus10 = af.curves[1, :, k], af.curves[2, :, k]
    for deg, steps in ((20.0, 2.0), (30.0, 3.0), (40.0, 3.0)):
        got = coefficients(c.tables, t, math.radians(2.0), math.radians(deg))
        assert got == pytest.approx(tuple(base + steps * (plus10 - base)), abs=1e-9)


def test_a_flap_runs_to_its_full_deflection_curve():
    """The P-51D's flap sections: up to 10 deg the 0/+10 blend, then linear to the 45 deg curve
    of the file, held there beyond; the 45 deg flap lifts less than the 10 deg one x 4.5 and
    drags far more (a plain flap, DATCOM and Young)."""
    c = Sim("p51d").compiled
    t = c.table_names.index("p51d_root_flap")
    af = c.spec.airfoils["p51d_root_flap"]
    assert af.full_deflection_deg == 45.0
    k = list(af.alpha_deg).index(4.0)
    a = math.radians(4.0)
    c0, c10, cf = af.curves[1, :, k], af.curves[2, :, k], af.full_curve[:, k]
    assert coefficients(c.tables, t, a, math.radians(5.0)) == pytest.approx(tuple(0.5 * (c0 + c10)), abs=1e-9)
    assert coefficients(c.tables, t, a, math.radians(45.0)) == pytest.approx(tuple(cf), abs=1e-9)
    assert coefficients(c.tables, t, a, math.radians(60.0)) == pytest.approx(tuple(cf), abs=1e-9)
    assert coefficients(c.tables, t, a, math.radians(27.5)) == pytest.approx(tuple(0.5 * (c10 + cf)), abs=1e-9)
    d_cl10, d_cl45 = c10[0] - c0[0], cf[0] - c0[0]
    assert 2.0 * d_cl10 < d_cl45 < 4.5 * d_cl10
    assert cf[1] - c0[1] > 0.09 > 30 * (c10[1] - c0[1])
    # the negative side saturates alike: the -10 curve carried on by the share of the straight
    # line the full curve keeps at zero incidence (issue 17), held past the full travel
    m10 = af.curves[0, :, k]
    z = list(af.alpha_deg).index(0.0)
    eff = (af.full_curve[0, z] - af.curves[1, 0, z]) / (af.curves[2, 0, z] - af.curves[1, 0, z])
    assert 2.0 < eff < 4.5
    w = 1.0 + (2.0 - 1.0) * (eff - 1.0) / (4.5 - 1.0)
    sat = lambda deg: saturated_deflection(c.tables, t, math.radians(deg))     # (where section_airflow reads it)
    assert coefficients(c.tables, t, a, sat(-20.0)) == pytest.approx(tuple(c0 + w * (m10 - c0)), abs=1e-9)
    w45 = min(eff, 3.0)                                       # held at the full travel (and the lookup's -30)
    assert coefficients(c.tables, t, a, sat(-60.0)) == pytest.approx(tuple(c0 + w45 * (m10 - c0)), abs=1e-9)
    assert sat(-8.0) == math.radians(-8.0) and sat(20.0) == math.radians(20.0)


def test_induced_angle_is_lifting_line():
    """alpha_i = CL / (pi AR e) for the wing, in a trimmed glide."""
    sim = Sim("astir")
    t = sim.trimmer(1000.0).glide(90 / 3.6)
    k = AircraftData(sim.model).wing_induced_k()
    trimmed = AircraftView(t.state, t.diag)
    aspect = sim.compiled.wing_span_m ** 2 / sim.compiled.wing_area_m2
    assert aspect == pytest.approx(18.2, rel=0.02)                      # the published aspect ratio
    assert 0.9 < 1 / (math.pi * aspect * k) < 1.0                       # planform efficiency e
    assert trimmed.wing_induced_alpha_rad == pytest.approx(k * trimmed.wing_cl, rel=1e-6)
    assert trimmed.downwash_rad > trimmed.wing_induced_alpha_rad > 0    # the tail sees more than the wing
