"""A warhead's burst through the damage model (issue 35): sections near it damaged, far ones not;
a piston fighter's components struck; a jet's engine failed; a burst beyond the radius does nothing."""
import numpy as np

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.physics.named import AircraftView
from flightsim.physics.named_model import AircraftData
from flightsim.physics.state import make_state
from flightsim.weapons.warhead import burst


class Always:
    def random(self):
        return 0.0


def _fresh(name):
    comp = compile_aircraft(name)
    return comp.model.copy(), make_state()


def test_a_burst_at_the_right_wing_damages_it_and_spares_the_left():
    model, state = _fresh("f15c")
    data = AircraftData(model)
    right = max(data.wing_sections, key=lambda i: data.section_position_m[i, 1])
    left = min(data.wing_sections, key=lambda i: data.section_position_m[i, 1])
    p = data.section_position_m[right] + np.array([0.0, 0.0, -1.0])      # a metre above the right wing
    events = burst(model, state, p, 7.0, Always())
    assert AircraftData(model).section_damage[right] > 0.5
    assert AircraftData(model).section_damage[left] == 0.0
    assert any("sections struck" in e for e in events)


def test_a_burst_beside_a_jet_fails_its_engine_and_one_far_off_does_nothing():
    model, state = _fresh("f15c")
    noz = AircraftData(model).jet_nozzles_m[0]
    burst(model, state, noz + np.array([2.0, 0.0, 0.0]), 7.0, Always())
    assert AircraftView(state).jets_failed[0] > 0.5
    model2, state2 = _fresh("f15c")
    assert burst(model2, state2, [0.0, 0.0, -50.0], 7.0, Always()) == []
    assert not AircraftData(model2).damaged


def test_a_piston_fighters_components_are_struck():
    model, state = _fresh("p51d")
    centres, _ = AircraftData(model).part_boxes
    events = burst(model, state, centres[0], 7.0, Always())
    assert any(e.startswith("warhead: ") and "sections" not in e for e in events)
