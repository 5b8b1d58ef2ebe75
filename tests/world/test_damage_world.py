"""Systems damage in the game (issue 18 item 5): the combat's bullets hit components, the AI
feels its damage and reacts the way a pilot would, the debrief lists what was hit, the player's
snapshot carries the warning lights, the trails and the stores, and a scenario flies with drop
tanks that go on the release key's control."""
import dataclasses

import pytest

from flightsim.instruments.values import warning_lights
from flightsim.physics.damage import apply_hit, start_fire
from flightsim.physics.named import AircraftView
from flightsim.physics.named_model import AircraftData
from flightsim.world.assembly import World
from flightsim.world.combat import damage_reaction, debrief_lines
from flightsim.world.scenario import find_scenario

DT = 0.02


class Always:
    def random(self):
        return 0.0


def run(world, seconds):
    n0 = AircraftView(world.physics.state).tick
    for k in range(int(round(seconds / DT))):
        world.physics.tick((n0 + k) * DT)


def part(model, name):
    return AircraftData(model).parts_of(name)[0]


def test_a_burst_into_the_opponent_hits_its_components_and_the_debrief_lists_them():
    sc = find_scenario("fighter_combat")
    opp = dict(sc.opponent, along_m=-5750.0, right_m=0.0, height_m=1700.0, speed_kmh=440.0, fires=False,
               respawn=False, heading_offset_deg=0.0)
    w = World(scenario=dataclasses.replace(sc, opponent=opp), small_world=True)
    c = w.combat
    w.mailbox.post(w.initial_inputs.replace(fire=1.0))
    run(w, 1.5)
    log = [what for t, who, what in c.damage_log if who == "opponent"]
    assert log, c.damage_log                      # from astern: the tail's control runs, the tanks, the pilot, ...
    lines = debrief_lines(c.frame)
    assert lines[0].startswith("Combat:") and "The bandit:" in lines
    assert all(who == "opponent" for _, who, _ in c.damage_log)     # own bullets never hit the shooter


def test_the_ai_breaks_off_with_a_sick_engine_and_bails_out_of_a_fire():
    w = World(scenario="p51d_vs_bf109", small_world=True)
    c = w.combat
    o = c.opp_sim
    assert damage_reaction(o.model, o.state, o.diag) == "fight"
    rads = AircraftData(o.model).parts_of("radiator")
    apply_hit(o.model, o.state, rads[0], 13.0, "ap", Always())
    run(w, 0.1)
    assert damage_reaction(o.model, o.state, o.diag) == "fight"     # the 109's other radiator still cools
    apply_hit(o.model, o.state, rads[1], 13.0, "ap", Always())
    run(w, 0.1)
    assert damage_reaction(o.model, o.state, o.diag) == "disengage" and c.ai.disengage
    assert any("breaks off" in what for _, _, what in c.damage_log)
    assert c.opp_alive and not c.ai.firing
    start_fire(o.model, o.state, 0)
    run(w, 0.1)
    assert not c.opp_alive and c.opp_fate == "BANDIT BAILED OUT" and c.frame.opponents_destroyed == 1
    assert "BANDIT BAILED OUT" in c.frame.status
    assert any(k == "fire" for k, _, _ in c.frame.opponent_smoke)


def test_the_players_snapshot_carries_lights_trails_and_the_reset_clears_them():
    w = World(scenario="p51d_vs_bf109", small_world=True)
    ph = w.physics
    run(w, 0.1)
    snap = w.buffer.read()[1]
    assert snap.damage is not None and warning_lights(snap) == [] and snap.smoke == ()
    assert snap.oil_pressure_pa == pytest.approx(517000.0, rel=0.02)
    apply_hit(ph.model, ph.state, part(ph.model, "radiator"), 12.7, "ap", Always())
    apply_hit(ph.model, ph.state, part(ph.model, "oil_cooler"), 12.7, "ap", Always())
    start_fire(ph.model, ph.state, 1)
    run(w, 0.1)
    snap = w.buffer.read()[1]
    lights = dict(warning_lights(snap))
    assert lights["FIRE"] == "red" and lights["COOLANT"] == "amber" and lights["OIL LOSS"] == "amber"
    assert {k for k, _, _ in snap.smoke} >= {"coolant", "oil", "fire"}
    w.reset()
    run(w, 0.04)
    snap = w.buffer.read()[1]
    assert warning_lights(snap) == [] and snap.smoke == ()


def test_the_escort_scenario_carries_drop_tanks_that_go_on_the_release_control():
    w = World(scenario="p51d_escort", small_world=True)
    data = AircraftData(w.physics.model)
    run(w, 0.1)
    snap = w.buffer.read()[1]
    assert snap.stores_on.tolist() == [1.0, 1.0, 0.0, 0.0]          # the two drop tanks, no bombs
    m0 = AircraftData(w.physics.model).mass_kg
    w.mailbox.post(w.initial_inputs.replace(drop_tanks=1.0))
    run(w, 0.1)
    snap = w.buffer.read()[1]
    assert snap.stores_on.tolist() == [0.0, 0.0, 0.0, 0.0]
    assert m0 - AircraftData(w.physics.model).mass_kg > 2 * 35.0 + 2 * 200.0
    # the AI's Bf 109 carries its 300 l tank and drops it once the enemy is near
    o = w.combat.opp_sim
    assert AircraftData(o.model).stores_on(o.state).tolist()[0] == 1.0
    run(w, 8.0)                                                     # 5 km apart, closing at about 230 m/s
    assert AircraftData(o.model).stores_on(o.state).tolist()[0] == 0.0
    assert len(data.stores) == 4
