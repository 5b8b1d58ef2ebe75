"""The downwash card (issue 30): NACA Report 651's method on the aircraft's own wing, beside the model's."""
import json
import math

import numpy as np
import pytest

from flightsim.tools import tunnel
from flightsim.tools.downwash import circulation, downwash_card, glauert_load, sheet_downwash, vortex_segment


def test_a_vortex_segment_induces_what_biot_savart_says():
    # an infinite straight vortex (long segment) of unit strength: 1 / (2 pi r) at r, turning round it
    p = np.array([[0.0, 0.0, -2.0]])
    v = vortex_segment(p, np.array([-1e5, 0.0, 0.0]), np.array([1e5, 0.0, 0.0]))
    assert np.linalg.norm(v) == pytest.approx(1.0 / (2.0 * math.pi * 2.0), rel=1e-6)
    assert v[0, 1] == pytest.approx(np.linalg.norm(v))         # right-handed about +x: x cross (-z) = +y
    assert np.all(vortex_segment(np.array([[0.5, 0.0, 0.0]]), np.zeros(3), np.array([1.0, 0.0, 0.0])) == 0.0)


def test_an_elliptic_wing_has_the_textbook_lift_and_far_downwash():
    """Glauert's series on an elliptic planform at one angle: a1 alone, CL = a alpha / (1 + a / (pi AR)),
    and far behind the wing the sheet's downwash is twice the wing's induced angle, 2 CL / (pi AR)."""
    semi, c0, a, alpha = 5.0, 1.6, 2.0 * math.pi, math.radians(5.0)
    n = 40
    theta = (np.arange(n) + 0.5) * math.pi / n
    y = -semi * np.cos(theta)
    chord = c0 * np.sqrt(1.0 - (y / semi) ** 2)
    coeffs, cl = glauert_load(y, chord, np.full(n, a), np.full(n, alpha), semi)
    aspect = (2 * semi) ** 2 / (math.pi * semi * c0 / 2)
    assert cl == pytest.approx(a * alpha / (1.0 + a / (math.pi * aspect)), rel=2e-3)
    assert np.max(np.abs(coeffs[1:])) < 1e-6 * coeffs[0]
    strips = [dict(y=s * semi / 2, half=semi / 2, x=0.0, z=0.0, te=np.zeros(3)) for s in (-1.0, 1.0)]
    far = np.array([[-2000.0 * semi, 0.3, 0.05]])
    eps = sheet_downwash(far, np.ones(1), strips, lambda v: circulation(coeffs, v, semi)[0], semi, 0.0, 0.0)
    assert eps == pytest.approx(2.0 * cl / (math.pi * aspect), rel=0.02)


@pytest.mark.parametrize("name", ("p51d", "bf109", "spitfire", "c172p"))
def test_the_method_agrees_with_the_model_clean_and_puts_more_downwash_behind_the_flaps(name):
    r = downwash_card(name)
    up, down = r["configs"]
    # flaps up the model's one number per unit CL is within 20 % of the span-load calculation's
    assert up["model_per_cl_deg"] == pytest.approx(up["method_per_cl_deg"], rel=0.2)
    # part-span flaps concentrate the load inboard, ahead of the tail: at the same wing CL the method
    # puts 1-3 deg more downwash there; the model's one number cannot
    change = r["flaps_change_at_constant_cl_deg"]
    assert 1.0 < change["method"] < 3.5
    assert abs(change["model"]) < 0.05


def test_the_downwash_card_runs_for_a_glider_and_refuses_a_swept_wing(capsys):
    assert tunnel.main(["downwash", "--aircraft", "astir", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert [c["config"] for c in r["configs"]] == ["gear_down"] and "flaps_change_at_constant_cl_deg" not in r
    assert tunnel.main(["downwash", "--aircraft", "f15c"]) == 2
    assert "swept" in capsys.readouterr().err
