"""The dynamic modes of an aircraft from its time histories, as a flight-test engineer reads them
(numpy only, the same for any model: the side-by-side with JSBSim runs both through it).

    oscillation(t, x, t0, t1, order)   the least-damped oscillatory pair of an autoregressive fit
                                       of a free response: (period s, damping ratio, natural
                                       frequency rad/s), None where there is no oscillation
    second_order(t, x, u, t0, t1)      a forced second-order fit (the short period from a
                                       doublet's pitch rate): (natural frequency, damping ratio)
    time_constant(t, x, t0, t1)        the time to 63 % of a step's final value (the roll mode)
    exponential_time(t, x, t0, t1)     the time to double (+) or to half (-) of a slow
                                       exponential (the spiral)

An autoregressive model x[k] = a1 x[k-1] + ... + an x[k-n] + c fitted by least squares to a
free response has the response's modes as the roots of its characteristic polynomial in z; a
root z is the continuous mode s = ln(z) / dt.
"""
from __future__ import annotations

import math

import numpy as np


def _window(t, x, t0, t1, dt):
    """x resampled every ``dt`` from t0 to t1 (linear interpolation)."""
    grid = np.arange(t0, t1 + 0.5 * dt, dt)
    return grid, np.interp(grid, t, x)


def _ar_poles(x, order: int, dt: float) -> np.ndarray:
    """The continuous-time poles (s = ln z / dt) of an AR(order) fit with a constant."""
    n = len(x)
    if n <= 3 * order:
        raise ValueError("too short a response for the fit")
    rows = np.column_stack([x[order - k - 1:n - k - 1] for k in range(order)] + [np.ones(n - order)])
    coef, *_ = np.linalg.lstsq(rows, x[order:], rcond=None)
    z = np.roots(np.concatenate(([1.0], -coef[:order])))
    z = z[np.abs(z) > 1e-9]
    return np.log(z.astype(complex)) / dt


def oscillation(t, x, t0: float, t1: float, order: int = 2, dt: float = 0.1):
    """(period s, damping ratio, natural frequency rad/s) of the least-damped oscillatory mode in
    the free response x(t) between t0 and t1, or None where the fit finds none."""
    _, xs = _window(t, x, t0, t1, dt)
    s = _ar_poles(xs - xs.mean(), order, dt)
    # an oscillation is a conjugate pair slower than four samples a cycle; a negative real root z
    # (the fit's answer to a plain decay, or to noise) reads as a cycle of two samples
    osc = s[(np.abs(s.imag) > 1e-3) & (np.abs(s.imag) < 0.5 * math.pi / dt)]
    if not len(osc):
        return None
    p = osc[np.argmax(osc.real / np.abs(osc))]         # the least damped
    wn = float(abs(p))
    return 2.0 * math.pi / abs(p.imag), float(-p.real / wn), wn


def second_order(t, x, u, t0: float, t1: float, dt: float = 0.02):
    """(natural frequency rad/s, damping ratio) of x'' + 2 zeta wn x' + wn^2 x = b u fitted to a
    forced response by least squares in discrete time (ARX(2,2)); an overdamped fit gives
    zeta >= 1 and wn the geometric mean of its two real poles."""
    _, xs = _window(t, x, t0, t1, dt)
    _, us = _window(t, u, t0, t1, dt)
    n = len(xs)
    rows = np.column_stack((xs[1:n - 1], xs[0:n - 2], us[1:n - 1], us[0:n - 2], np.ones(n - 2)))
    coef, *_ = np.linalg.lstsq(rows, xs[2:], rcond=None)
    z = np.roots([1.0, -coef[0], -coef[1]]).astype(complex)
    s = np.log(z) / dt
    wn = float(math.sqrt(abs((s[0] * s[1]).real)))
    zeta = float(-(s[0] + s[1]).real / (2.0 * wn)) if wn > 0.0 else float("nan")
    return wn, zeta


def time_constant(t, x, t0: float, t1: float) -> float:
    """Seconds from t0 until x has covered 63.2 % of its change from x(t0) to its mean over the
    last fifth of the window (a first-order step response: the roll mode from a roll rate)."""
    t = np.asarray(t)
    x = np.asarray(x)
    m = (t >= t0) & (t <= t1)
    tt, xx = t[m], x[m]
    final = float(np.mean(xx[tt >= t1 - 0.2 * (t1 - t0)]))
    start = float(xx[0])
    target = start + (1.0 - math.exp(-1.0)) * (final - start)
    past = np.nonzero((xx - target) * math.copysign(1.0, final - start) >= 0.0)[0]
    if not len(past):
        return float("nan")
    return float(tt[past[0]] - t0)


def exponential_time(t, x, t0: float, t1: float) -> float:
    """The time to double (positive: divergent) or to half (negative: convergent) of |x| between
    t0 and t1, from a straight-line fit of ln |x| (the spiral mode from the bank angle)."""
    t = np.asarray(t)
    x = np.asarray(x)
    m = (t >= t0) & (t <= t1) & (np.abs(x) > 1e-6)
    slope = float(np.polyfit(t[m], np.log(np.abs(x[m])), 1)[0])
    if abs(slope) < 1e-6:
        return float("inf")
    return math.log(2.0) / slope
