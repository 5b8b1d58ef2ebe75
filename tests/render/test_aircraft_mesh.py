"""Every aircraft gets a model from its own data, and its surfaces move with the physics."""
import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import list_aircraft
from flightsim.render import aircraft_mesh


@pytest.mark.parametrize("name", list_aircraft())
def test_every_aircraft_builds(name):
    c = compile_aircraft(name)
    m = aircraft_mesh.build(c)
    assert m.n_triangles > 200 and np.all(np.isfinite(m.vertices))
    lo, hi = m.vertices[:, :3].min(0), m.vertices[:, :3].max(0)
    assert hi[1] - lo[1] == pytest.approx(c.wing_span_m, rel=0.05)     # the span is the data's


def test_controls_and_airbrakes_move(trainer_path):
    c = compile_aircraft(trainer_path)
    m = aircraft_mesh.build(c)
    kinds = [p.kind for p in m.parts]
    assert kinds.count("control") == sum(1 for s in c.sections if s.spec["control"]) and "airbrake" in kinds
    rest = m.part_transforms(np.zeros(len(c.sections)), 0.0, 0.0)
    moved = m.part_transforms(np.full(len(c.sections), 0.3), 1.0, 0.0)
    for k, p in enumerate(m.parts):
        if p.kind in ("control", "airbrake"):
            assert not np.allclose(rest[k], moved[k])
            # the trailing edge of a positive deflection goes against the section normal
        if p.kind == "control":
            s = c.sections[p.section]
            te = p.pivot - s.chord_ax * 0.2
            te_moved = (moved[k] @ np.append(te, 1.0))[:3]
            assert np.dot(te_moved - te, s.normal) < 0
        elif p.kind == "rigid":
            assert np.allclose(moved[k], np.eye(4))
