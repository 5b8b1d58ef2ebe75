"""The climb's power budget (issue 30): its terms come from the same trim and must add up."""
import json

import pytest

from flightsim.tools import tunnel
from flightsim.tools.breakdown import climb_breakdown


@pytest.mark.parametrize("name", ("spitfire", "bf109", "p51d"))
def test_the_power_budget_of_the_best_climb_adds_up(name):
    r = climb_breakdown(name, 0.0, "wep")
    budget = r["power_budget_kw"]
    terms = sum(v for k, v in budget.items() if k != "climb_power")
    assert terms == pytest.approx(budget["climb_power"], rel=0.01)
    # the steady climb is the best climb times the acceleration factor (a climb at constant IAS)
    assert r["steady_climb_ms"] == pytest.approx(r["best_climb_ms"] * r["acceleration_factor"], rel=1e-3)
    assert 0.0 < r["cooling_drag_n"] < r["drag_n"] and 0.0 < r["induced_drag_n"] < r["drag_n"]
    assert 0.6 < r["propeller_efficiency"] < 0.9 and 0.5 < r["advance_ratio"] < 1.5
    lift = r["drag_due_to_lift"]
    assert 0.5 < lift["e"] <= lift["e_planform"] + 0.02     # the sections' drag only adds to the planform's


def test_the_breakdown_card_refuses_a_glider_and_a_jet(capsys):
    assert tunnel.main(["breakdown", "--aircraft", "astir"]) == 2
    assert "glider" in capsys.readouterr().err
    assert tunnel.main(["breakdown", "--aircraft", "f15c"]) == 2
    assert tunnel.main(["breakdown", "--aircraft", "spitfire", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["aircraft"] == "spitfire"
