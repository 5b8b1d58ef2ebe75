"""Lofted bodies: a fuselage (or a scoop, an intake, a nacelle) through its cross-sections,
the canopy's glass arch, bodies of revolution (spinner, stores, wheels) and tubes.

Every map here is a (u, v) -> point function for skin.Skin: u along the length, v round
the section. A section is two superellipse halves that meet at the widest point:
|y/w|^n + |dz/h|^n = 1 above it (n_top) and below it (n_bottom), so 2 gives an ellipse and
3-4 the flat sides of a cowling or a canopy hood. The sections' sizes are interpolated
along x by a monotone cubic (PCHIP: smooth, and no overshoot between stations, so a
waist stays a waist), and u is spaced by the length so the skin has no facets along it.
"""
from __future__ import annotations

import numpy as np


def _across(ax, prefer: int):
    """Two unit vectors across the unit axis ax (e1, e2 = ax x e1): e1 is ax crossed with the
    body axis numbered prefer (0: x, 2: z), or with the other one where ax lies along it."""
    ref = np.zeros(3)
    ref[prefer if abs(ax[prefer]) < 0.9 else 2 - prefer] = 1.0
    e1 = np.cross(ax, ref)
    e1 /= np.linalg.norm(e1)
    return e1, np.cross(ax, e1)


def pchip(x, y):
    """A monotone piecewise-cubic interpolant through (x, y), x increasing: f(xq) (clamped)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = len(x)
    if n == 2:
        return lambda q: np.interp(q, x, y)
    h = np.diff(x)
    delta = np.diff(y) / h
    d = np.zeros(n)
    for k in range(1, n - 1):
        if delta[k - 1] * delta[k] > 0:
            w1 = 2 * h[k] + h[k - 1]
            w2 = h[k] + 2 * h[k - 1]
            d[k] = (w1 + w2) / (w1 / delta[k - 1] + w2 / delta[k])
    d[0] = _end_slope(h[0], h[1], delta[0], delta[1])
    d[-1] = _end_slope(h[-1], h[-2], delta[-1], delta[-2])

    def f(q):
        q = np.clip(np.asarray(q, dtype=np.float64), x[0], x[-1])
        k = np.clip(np.searchsorted(x, q, side="right") - 1, 0, n - 2)
        t = (q - x[k]) / h[k]
        t2, t3 = t * t, t * t * t
        return ((2 * t3 - 3 * t2 + 1) * y[k] + (t3 - 2 * t2 + t) * h[k] * d[k]
                + (-2 * t3 + 3 * t2) * y[k + 1] + (t3 - t2) * h[k] * d[k + 1])
    return f


def _end_slope(h0, h1, d0, d1):
    s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1)
    if np.sign(s) != np.sign(d0):
        return 0.0
    if np.sign(d0) != np.sign(d1) and abs(s) > abs(3 * d0):
        return 3 * d0
    return s


def _spow(c, e):
    return np.sign(c) * np.abs(c) ** e


class Loft:
    """The sections of a body (aircraft_data.visual.Station rows, nose first) as smooth functions of x."""

    def __init__(self, stations, y_m: float = 0.0):
        st = list(stations)[::-1]                      # x increasing for the interpolants
        self.x = np.array([s.x_m for s in st])
        self.x_nose = float(self.x[-1])
        self.x_tail = float(self.x[0])
        self.y_m = float(y_m)
        self.top = pchip(self.x, [s.top_m for s in st])
        self.bottom = pchip(self.x, [s.bottom_m for s in st])
        self.half = pchip(self.x, [s.half_width_m for s in st])
        self.widest = pchip(self.x, [s.widest_m for s in st])
        self.n_top = pchip(self.x, [s.n_top for s in st])
        self.n_bottom = pchip(self.x, [s.n_bottom for s in st])
        # u spaced by the outline's length (nose and tail curves get their share)
        xs = np.linspace(self.x_tail, self.x_nose, 400)
        h = self.bottom(xs) - self.top(xs)
        w = self.half(xs)
        ds = np.sqrt(np.diff(xs) ** 2 + np.diff(0.5 * h) ** 2 + np.diff(w) ** 2)
        s = np.concatenate([[0.0], np.cumsum(ds)])
        self.length_m = float(s[-1])
        self._u_to_x = lambda u: np.interp((1.0 - u) * s[-1], s, xs)   # u = 0 at the nose
        mid = 0.5 * (self.x_nose + self.x_tail)
        self.girth_m = float(np.pi * (self.half(mid) + 0.5 * (self.bottom(mid) - self.top(mid))))

    def x_of(self, u):
        return self._u_to_x(np.asarray(u, dtype=np.float64))

    def u_of(self, x: float) -> float:
        """The u of a station x (inverse of x_of, by bisection)."""
        lo, hi = 0.0, 1.0
        for _ in range(50):
            mid = 0.5 * (lo + hi)
            if float(self.x_of(mid)) > x:
                lo = mid
            else:
                hi = mid
        return 0.5 * (lo + hi)

    def section(self, x, phi):
        """Points at stations x and angles phi (0 the top, pi/2 the right side, pi the bottom)."""
        c, s = np.cos(phi), np.sin(phi)
        up = c >= 0
        n = np.where(up, self.n_top(x), self.n_bottom(x))
        wz = self.widest(x)
        ext = np.where(up, wz - self.top(x), self.bottom(x) - wz)
        e = 2.0 / np.maximum(n, 1.0)
        y = self.y_m + self.half(x) * _spow(s, e)
        z = wz - np.where(up, 1.0, -1.0) * ext * np.abs(c) ** e
        return np.stack(np.broadcast_arrays(x, y, z), axis=-1)

    def fn(self, u, v):
        """The skin map: u 0 nose .. 1 tail, v 0..1 round from the top over the right side."""
        return self.section(self.x_of(u), 2 * np.pi * v)


class CanopyLoft:
    """The glass: an arch from the left sill over the top to the right sill, through the
    canopy stations (aircraft_data.visual.CanopyStation rows, nose first)."""

    def __init__(self, stations):
        st = list(stations)[::-1]
        self.x = np.array([s.x_m for s in st])
        self.x_front = float(self.x[-1])
        self.x_rear = float(self.x[0])
        self.top = pchip(self.x, [s.top_m for s in st])
        self.sill = pchip(self.x, [s.sill_m for s in st])
        self.half = pchip(self.x, [s.half_width_m for s in st])
        self.n = pchip(self.x, [s.n for s in st])

    def x_of(self, u):
        return self.x_front + (self.x_rear - self.x_front) * np.asarray(u, dtype=np.float64)

    def arch(self, x, t):
        """t -1 the left sill, 0 the top, +1 the right sill."""
        a = 0.5 * np.pi * t
        e = 2.0 / np.maximum(self.n(x), 1.0)
        y = self.half(x) * _spow(np.sin(a), e)
        h = self.sill(x) - self.top(x)
        z = self.sill(x) - h * np.abs(np.cos(a)) ** e
        return np.stack(np.broadcast_arrays(x, y, z), axis=-1)

    def fn(self, u, v):
        return self.arch(self.x_of(u), 2.0 * v - 1.0)


def revolution(x0: float, x1: float, radius_fn, centre=(0.0, 0.0)):
    """A body of revolution about a line parallel to x through (y, z) = centre, from x0 (u 0)
    to x1 (u 1): radius_fn(t) for t in 0..1."""
    cy, cz = centre

    def fn(u, v):
        r = radius_fn(u)
        a = 2 * np.pi * v
        x = x0 + (x1 - x0) * u
        return np.stack(np.broadcast_arrays(x, cy + r * np.sin(a), cz - r * np.cos(a)), axis=-1)
    return fn


def ogive(t):
    """A spinner's or a nose cone's radius (of its base's) from the tip (t 0) to the base (t 1)."""
    return np.sqrt(np.clip(1.0 - (1.0 - t) ** 2, 0.0, 1.0)) ** 1.1


def tube(p0, p1, r0: float, r1: float | None = None, capped: bool = True):
    """A tube (cylinder or cone) from p0 to p1: u along it (with end caps folded in when
    capped: u 0..0.1 the first cap, 0.9..1 the second), v round it."""
    p0 = np.asarray(p0, dtype=np.float64)
    p1 = np.asarray(p1, dtype=np.float64)
    r1 = r0 if r1 is None else r1
    ax = p1 - p0
    L = np.linalg.norm(ax)
    ax = ax / L
    e1, e2 = _across(ax, 2)

    def fn(u, v):
        u = np.asarray(u, dtype=np.float64)
        if capped:
            t = np.clip((u - 0.1) / 0.8, 0.0, 1.0)
            rad = np.where(u < 0.1, r0 * u / 0.1, np.where(u > 0.9, r1 * (1.0 - u) / 0.1, r0 + (r1 - r0) * t))
        else:
            t = u
            rad = r0 + (r1 - r0) * t
        a = -2 * np.pi * np.asarray(v, dtype=np.float64)        # this sense: cross(d/du, d/dv) outward
        c = p0 + ax * (L * t)[..., None]
        return c + (rad * np.cos(a))[..., None] * e1 + (rad * np.sin(a))[..., None] * e2
    return fn, L


def torus(centre, axis, major: float, minor: float):
    """A tyre: u round the wheel, v round the tyre's section."""
    c = np.asarray(centre, dtype=np.float64)
    ax = np.asarray(axis, dtype=np.float64)
    ax = ax / np.linalg.norm(ax)
    e1, e2 = _across(ax, 0)

    def fn(u, v):
        a = 2 * np.pi * np.asarray(u, dtype=np.float64)
        b = 2 * np.pi * np.asarray(v, dtype=np.float64)
        radial = np.cos(a)[..., None] * e1 + np.sin(a)[..., None] * e2
        return c + radial * (major + minor * np.cos(b))[..., None] + ax * (minor * np.sin(b))[..., None]
    return fn


def disc(centre, axis, radius: float):
    """A flat disc facing along axis: u from the middle out, v round."""
    c = np.asarray(centre, dtype=np.float64)
    ax = np.asarray(axis, dtype=np.float64)
    ax = ax / np.linalg.norm(ax)
    e1, e2 = _across(ax, 2)

    def fn(u, v):
        r = radius * np.asarray(u, dtype=np.float64)
        a = 2 * np.pi * np.asarray(v, dtype=np.float64)
        return c + (r * np.cos(a))[..., None] * e1 + (r * np.sin(a))[..., None] * e2
    return fn


def box(centre, half, axes=None):
    """A box as one skin: u round its four sides (a quarter each, from the top's left edge:
    mesh it with nu a multiple of 4 and the corners stay sharp), v along the first axis with
    the two ends folded into its first and last twentieth. axes: three unit vectors (default
    the body axes)."""
    c = np.asarray(centre, dtype=np.float64)
    hx, hy, hz = half
    A = np.eye(3) if axes is None else np.asarray(axes, dtype=np.float64)

    def fn(u, v):
        u = np.asarray(u, dtype=np.float64) % 1.0
        v = np.asarray(v, dtype=np.float64)
        q = np.floor(u * 4.0)
        f = u * 4.0 - q
        # the rectangle's boundary in (y, z), clockwise seen from ahead: top, right, bottom, left
        y = np.select([q == 0, q == 1, q == 2], [-hy + 2 * hy * f, hy + 0 * f, hy - 2 * hy * f], -hy + 0 * f)
        z = np.select([q == 0, q == 1, q == 2], [-hz + 0 * f, -hz + 2 * hz * f, hz + 0 * f], hz - 2 * hz * f)
        t = np.clip((v - 0.05) / 0.9, 0.0, 1.0)
        shrink = np.where(v < 0.05, v / 0.05, np.where(v > 0.95, (1.0 - v) / 0.05, 1.0))
        x = hx * (2.0 * t - 1.0)                 # this sense: cross(d/du, d/dv) outward
        pts = np.stack(np.broadcast_arrays(x, y * shrink, z * shrink), axis=-1)
        return c + pts @ A.T
    return fn
