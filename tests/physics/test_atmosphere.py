"""ISA 1976 against the printed U.S. Standard Atmosphere 1976 tables, under numba too.

Reference values (geometric altitude), as printed:
- T, p, rho: U.S. Standard Atmosphere 1976 (NOAA-S/T 76-1562), Part 4, Table I,
  geometric-altitude pages 53-61 (pressure printed in mb, 5 significant figures).
  8000 m is not among the rows available to us from Table I; that row is the 1976
  standard as printed in Mechanical Engineers' Handbook vol. 4, "Thermophysical
  Properties of the U.S. Standard Atmosphere" (4 significant figures).
- speed of sound (Table III quantity): 340.294 at 0 m; 336.435, 332.532, 320.545,
  308.105, 299.532, 295.154 m/s at 1, 2, 5, 8, 10, 11 km geometric, and 295.070 m/s
  at 216.650 K, from published transcriptions of the standard's tables.
- layer bases by geopotential altitude (20 km': 5474.89 Pa, 0.088035 kg/m^3;
  11 km': 22632 Pa, 0.36392 kg/m^3): the standard's Table 4 base values.
"""
import math

import numpy as np
import pytest
from numba import njit

from flightsim.physics import atmosphere as A
from flightsim.physics.atmosphere import dynamic_viscosity, isa, isa_density, isa_table

# (z geometric m, T K, p Pa, rho kg/m^3, a m/s)
TABLE = [
    (0.0,     288.150, 101325.0, 1.2250,   340.294),
    (1000.0,  281.651,  89876.0, 1.1117,   336.435),
    (2000.0,  275.154,  79501.0, 1.0066,   332.532),
    (5000.0,  255.676,  54048.0, 0.73643,  320.545),
    (8000.0,  236.22,   35650.0, 0.5258,   308.105),
    (10000.0, 223.252,  26499.0, 0.41351,  299.532),
    (11000.0, 216.774,  22699.0, 0.36480,  295.154),
    (15000.0, 216.650,  12111.0, 0.19476,  295.070),
    (20000.0, 216.650,   5529.3, 0.088910, 295.070),
]


@pytest.mark.parametrize("z, t_ref, p_ref, rho_ref, a_ref", TABLE)
def test_matches_printed_tables(z, t_ref, p_ref, rho_ref, a_ref):
    t, p, rho, a = isa(z)
    assert t == pytest.approx(t_ref, abs=0.01)
    assert p == pytest.approx(p_ref, rel=1e-4)
    assert rho == pytest.approx(rho_ref, rel=1e-4)
    assert a == pytest.approx(a_ref, abs=0.01)


@pytest.mark.parametrize("h, p_ref, rho_ref", [(11000.0, 22632.0, 0.36392), (20000.0, 5474.89, 0.088035)])
def test_layer_bases_by_geopotential_altitude(h, p_ref, rho_ref):
    z = A.R0 * h / (A.R0 - h)                       # geometric altitude of that geopotential one
    assert A.geopotential_altitude(z) == pytest.approx(h, abs=1e-6)
    t, p, rho, _ = isa(z)
    assert t == pytest.approx(216.65, abs=1e-9)
    assert p == pytest.approx(p_ref, rel=1e-4)
    assert rho == pytest.approx(rho_ref, rel=1e-4)


def test_gas_constant_and_sea_level():
    assert A.R_AIR == pytest.approx(287.053, abs=1e-3)   # R*/M0 = 8.31432 / 0.0289644
    assert A.RHO0 == pytest.approx(1.2250, rel=1e-5)


@pytest.mark.parametrize("h_boundary", [A.H1, A.H2])
def test_continuous_at_layer_boundaries(h_boundary):
    z = A.R0 * h_boundary / (A.R0 - h_boundary)
    below, above = isa(z - 1e-6), isa(z + 1e-6)
    for lo, hi in zip(below, above):
        assert hi == pytest.approx(lo, rel=1e-8)
    # and the slopes of p and rho stay finite and smooth across the boundary (no kink in p)
    dp_below = (isa(z)[1] - isa(z - 1.0)[1])
    dp_above = (isa(z + 1.0)[1] - isa(z)[1])
    assert dp_above == pytest.approx(dp_below, rel=1e-3)


def test_monotonic_and_clamped():
    z = np.linspace(-1000.0, 32000.0, 3301)
    t, p, rho, a = isa_table(z)
    assert np.all(np.diff(p) < 0) and np.all(np.diff(rho) < 0)
    assert isa(-5000.0) == isa(-1000.0)
    assert isa(40000.0) == isa(32000.0)
    assert isa(-1000.0)[0] == pytest.approx(288.15 + 6.5 * A.R0 / (A.R0 - 1000.0), rel=1e-9)
    assert isa(32000.0)[0] == pytest.approx(228.49, abs=0.01)   # Table I, 32 km: 228.490 K


def test_table_matches_kernel_and_keeps_shape():
    z = np.array([[-1500.0, -1000.0, 0.0, 3333.0], [11000.0, 19999.0, 25000.0, 50000.0]])
    cols = isa_table(z)
    assert all(c.shape == z.shape for c in cols)
    for idx in np.ndindex(z.shape):
        ref = isa(z[idx])
        for c, r in zip(cols, ref):
            assert c[idx] == pytest.approx(r, rel=1e-12)
    assert isa_table(1000.0)[2].shape == ()
    assert isa_density(1000.0) == isa(1000.0)[2]


@njit(cache=False)
def _column_mass(z_top, n):
    """Mass of a 1 m^2 air column from 0 to z_top (kg), midpoint rule, all in numba."""
    dz = z_top / n
    total = 0.0
    for i in range(n):
        total += isa_density((i + 0.5) * dz) * dz
    t, p, rho, a = isa(z_top)
    return total, p


def test_callable_from_another_njit_function():
    mass, p_top = _column_mass(10000.0, 10000)
    # hydrostatics: the column weighs (p0 - p_top) / g (to within g's variation with height)
    assert mass * A.G0 == pytest.approx(A.P0 - p_top, rel=3e-3)


def test_dynamic_viscosity():
    assert dynamic_viscosity(288.15) == pytest.approx(1.789e-5, rel=5e-4)   # sea level, 1.789e-5 Pa s
    assert dynamic_viscosity(216.65) < dynamic_viscosity(288.15)
    assert njit(lambda t: dynamic_viscosity(t))(288.15) == dynamic_viscosity(288.15)
