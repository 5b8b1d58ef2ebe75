"""The overlay geometry (numpy only): feathered shapes cover what they should."""
import math

import numpy as np
import pytest

from flightsim.render.canvas import Canvas, dial_angle
from flightsim.render.dials import Dial, nice_step


def _coverage(arr):
    """Alpha-weighted area of the triangles (alpha averaged per triangle)."""
    t = arr.reshape(-1, 3, 6).astype(np.float64)
    a = 0.5 * np.abs((t[:, 1, 0] - t[:, 0, 0]) * (t[:, 2, 1] - t[:, 0, 1])
                     - (t[:, 2, 0] - t[:, 0, 0]) * (t[:, 1, 1] - t[:, 0, 1]))
    return float(np.sum(a * t[:, :, 5].mean(axis=1)))


def test_disc_and_ring_cover_their_area():
    c = Canvas()
    c.disc(100, 100, 40, (1, 1, 1, 1))
    assert _coverage(c.array()) == pytest.approx(math.pi * 40 ** 2, rel=0.01)
    c = Canvas()
    c.sector(0, 0, 20, 30, 0.0, math.pi, (1, 0, 0, 1))
    assert _coverage(c.array()) == pytest.approx(0.5 * math.pi * (30 ** 2 - 20 ** 2), rel=0.02)


def test_lines_are_feathered_and_cover_width_times_length():
    c = Canvas()
    c.lines([(0, 0)], [(100, 0)], 3.0, (1, 1, 1, 1))
    a = c.array()
    assert a[:, 5].min() == 0.0 and a[:, 5].max() == 1.0          # the feather fades to nothing
    assert _coverage(a) == pytest.approx(100 * 3.0, rel=0.03)
    assert np.all(np.abs(a[:, 1]) <= 2.0 + 1e-6)                   # half width + half a pixel


def test_stamps_rotate_and_move_a_cached_shape():
    c = Canvas()
    c.stamp("tri-test", lambda k: k.polygon([(0, -1), (10, 0), (0, 1)], (1, 1, 1, 1)), 5.0, 7.0, math.pi / 2)
    a = c.array()
    tip = a[np.argmax(a[:, 1])]
    assert tip[0] == pytest.approx(5.0, abs=0.6) and tip[1] == pytest.approx(17.0, abs=1.1)   # + the feather


def test_dial_mapping():
    d = Dial(0, 0, 100, (40.0, 200.0, 300.0), (0.0, 0.79, 1.0), 28.0, 305.0)
    assert d.angle(40.0) == pytest.approx(dial_angle(0.0, 28.0, 305.0))
    assert d.frac(120.0) == pytest.approx(0.395)
    assert d.frac(20.0) == 0.0 and d.frac(400.0) == 1.0                # pinned at the stops
    x, y = Dial.linear(0, 0, 10, 0, 1000, 0, 360).point(250.0, 1.0)     # altimeter: 250 at 3 o'clock
    assert x == pytest.approx(10.0) and y == pytest.approx(0.0, abs=1e-9)
    assert nice_step(160.0, 8) == 20.0 and nice_step(600.0, 8) == 100.0
