"""model.parts.transforms (all parts at once, numpy) gives exactly what the part-by-part rules
of transforms_by_part give, for every aircraft over random poses: deflections, slats,
airbrakes, gear, shot-away sections, stores, the propeller, the cockpit view."""
import numpy as np
import pytest

from flightsim.render.model.looks import look
from flightsim.render.model.parts import transforms, transforms_by_part
from flightsim.spec.compile import compile_aircraft
from flightsim.spec.loader import load_aircraft

AIRCRAFT = ("spitfire", "bf109", "p51d", "f15c", "astir")


@pytest.mark.parametrize("name", AIRCRAFT)
def test_the_same_matrices_as_part_by_part(name):
    comp = compile_aircraft(load_aircraft(name))
    parts = look(comp, "low").model.parts
    n = len(comp.sections)
    rng = np.random.default_rng(7)
    for trial in range(40):
        kw = dict(
            deflections_rad=rng.uniform(-0.5, 0.5, n if trial % 7 else max(n - 3, 0)),
            airbrake=float(rng.uniform(0, 1)), gear_up=float(rng.choice([0.0, 0.3, 0.5, 1.0])),
            slat_positions=None if trial % 3 == 0 else rng.uniform(-0.2, 1.2, n),
            section_damage=None if trial % 2 else (rng.uniform(0, 1, n) > 0.8).astype(float),
            stores_on=None if trial % 4 == 0 else (rng.uniform(0, 1, 4) > 0.5).astype(float),
            propeller_rad=float(rng.uniform(0, 6.3)), cockpit=bool(trial % 5 == 0), hide_blades=bool(trial % 6 == 0))
        assert np.allclose(transforms(parts, **kw), transforms_by_part(parts, **kw), atol=1e-12), (trial, kw)
