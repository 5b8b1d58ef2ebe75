"""The renderer's matrices come from pyrr (built for row vectors) transposed for column vectors:
checked against the textbook formulas, so a lost transpose cannot pass."""
import math

import numpy as np

from flightsim.render.glutil import axis_angle, perspective, translate


def test_perspective_is_opengls():
    fovy, aspect, near, far = math.radians(55.0), 16 / 9, 0.5, 40000.0
    f = 1.0 / math.tan(fovy / 2)
    want = np.array([[f / aspect, 0, 0, 0], [0, f, 0, 0],
                     [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)], [0, 0, -1, 0]])
    m = perspective(fovy, aspect, near, far)
    assert np.allclose(m, want, rtol=1e-12, atol=1e-12)
    for z, ndc in ((-near, -1.0), (-far, 1.0)):          # the near and far planes land on -1 and +1
        c = m @ np.array([0.0, 0.0, z, 1.0])
        assert math.isclose(c[2] / c[3], ndc, abs_tol=1e-9)


def test_translate_moves_a_point():
    assert np.allclose(translate([1.0, -2.0, 3.0]) @ np.array([1.0, 1.0, 1.0, 1.0]), [2.0, -1.0, 4.0, 1.0])


def test_axis_angle_turns_right_handed_about_any_length_of_axis():
    r = axis_angle([0.0, 0.0, 5.0], math.pi / 2)          # x turns into y about +z
    assert np.allclose(r @ [1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    rng = np.random.default_rng(3)
    for _ in range(20):
        axis, ang = rng.normal(size=3), rng.uniform(-6.0, 6.0)
        k = axis / np.linalg.norm(axis)
        kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
        rodrigues = np.eye(3) + math.sin(ang) * kx + (1 - math.cos(ang)) * kx @ kx
        assert np.allclose(axis_angle(axis, ang), rodrigues, atol=1e-12)
