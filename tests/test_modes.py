"""The mode readings of validate/modes.py recover known modes from synthetic responses (the
side-by-side with JSBSim reads both models' flights with them)."""
import math

import numpy as np
import pytest

from flightsim.validate import modes


def _second_order_step(wn, zeta, t, t_on, t_off):
    """The response of wn^2 / (s^2 + 2 zeta wn s + wn^2) to a pulse from t_on to t_off."""
    u = ((t >= t_on) & (t < t_off)).astype(float)
    y, x, v, sub = np.zeros_like(t), 0.0, 0.0, 50            # integrated in 50 substeps a sample
    for k in range(1, len(t)):
        h = (t[k] - t[k - 1]) / sub
        for _ in range(sub):
            a = wn * wn * (u[k - 1] - x) - 2.0 * zeta * wn * v
            v += a * h
            x += v * h
        y[k] = x
    return y, u


@pytest.mark.parametrize("wn, zeta", [(6.0, 0.5), (3.5, 0.7), (8.0, 0.3)])
def test_a_forced_second_order_fit_reads_the_short_period(wn, zeta):
    t = np.arange(0.0, 10.0, 0.02)
    y, u = _second_order_step(wn, zeta, t, 1.0, 2.0)
    got_wn, got_zeta = modes.second_order(t, y, u, 0.5, 8.0)
    assert got_wn == pytest.approx(wn, rel=0.03) and got_zeta == pytest.approx(zeta, abs=0.03)


@pytest.mark.parametrize("period, zeta, dt", [(30.0, 0.08, 0.5), (2.8, 0.15, 0.1)])
def test_a_free_oscillation_reads_the_phugoid_and_the_dutch_roll(period, zeta, dt):
    wd = 2 * math.pi / period
    wn = wd / math.sqrt(1 - zeta * zeta)
    t = np.arange(0.0, 8 * period, 0.02)
    x = 50.0 + 2.0 * np.exp(-zeta * wn * t) * np.cos(wd * t + 0.3)
    got = modes.oscillation(t, x, 0.0, t[-1], order=2, dt=dt)
    assert got is not None
    assert got[0] == pytest.approx(period, rel=0.02) and got[1] == pytest.approx(zeta, abs=0.01)
    assert modes.oscillation(t, 50.0 + np.exp(-t / 5.0), 0.0, t[-1], dt=dt) is None     # no oscillation


def test_the_roll_mode_and_the_spiral():
    t = np.arange(0.0, 60.0, 0.02)
    p = np.where(t >= 1.0, 30.0 * (1.0 - np.exp(-(t - 1.0) / 0.4)), 0.0)
    assert modes.time_constant(t, p, 1.0, 4.0) == pytest.approx(0.4, abs=0.03)
    assert modes.exponential_time(t, 5.0 * np.exp(t / 20.0), 10.0, 60.0) == pytest.approx(20.0 * math.log(2), rel=1e-3)
    assert modes.exponential_time(t, 5.0 * np.exp(-t / 20.0), 10.0, 60.0) == pytest.approx(-20.0 * math.log(2),
                                                                                          rel=1e-3)
