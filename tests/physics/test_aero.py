"""Section aerodynamics building blocks: table lookup, control-curve blending, atan2, induced drag."""
import math

import numpy as np
import pytest

from flightsim.physics import layout as L
from flightsim.physics.aero import coefficients, fast_atan2
from flightsim.sim import Sim
from flightsim.spec.loader import load_aircraft


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


def test_induced_angle_is_lifting_line():
    """alpha_i = CL / (pi AR e) for the wing, in a trimmed glide."""
    sim = Sim("astir")
    t = sim.trimmer(1000.0).glide(90 / 3.6)
    k = sim.model[L.ROW_GROUPS, L.GROUP_WING * L.G_COLS + L.G_K_INDUCED]
    aspect = sim.compiled.wing_span_m ** 2 / sim.compiled.wing_area_m2
    assert aspect == pytest.approx(18.2, rel=0.02)                      # the published aspect ratio
    assert 0.9 < 1 / (math.pi * aspect * k) < 1.0                       # planform efficiency e
    assert t.diag[L.D_ALPHA_INDUCED] == pytest.approx(k * t.diag[L.D_CL_WING], rel=1e-6)
    assert t.diag[L.D_DOWNWASH] > t.diag[L.D_ALPHA_INDUCED] > 0         # the tail sees more than the wing
