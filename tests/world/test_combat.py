"""Air combat in the world (issue 7 item 4): the AI opponent flying the same flight model
through ControlInputs, bullets from both aircraft, hits, balloons, the combat scenario."""
import dataclasses
import math

import numpy as np
import pytest

from flightsim.aircraft_data.schema import DataError
from flightsim.physics.ballistics import set_damage
from flightsim.physics.named import AircraftView
from flightsim.physics.named_model import AircraftData
from flightsim.world.assembly import World
from flightsim.world.scenario import find_scenario, load_scenario

DT = 0.02


def combat_world(**opponent):
    """The fighter_combat scenario with the opponent moved (same heading as the player unless
    given, no respawn), small world."""
    sc = find_scenario("fighter_combat")
    opp = dict(sc.opponent, respawn=False, heading_offset_deg=0.0)
    opp.update(opponent)
    return World(scenario=dataclasses.replace(sc, opponent=opp), small_world=True)


def run(world, seconds, each=None):
    n0 = AircraftView(world.physics.state).tick
    for k in range(int(round(seconds / DT))):
        world.physics.tick((n0 + k) * DT)
        if each is not None:
            each(world)


def damage(model):
    return AircraftData(model).section_damage


def test_the_combat_scenario_builds_an_opponent_bullets_and_balloons():
    sc = find_scenario("fighter_combat")
    assert sc.kind == "fighter" and sc.has_combat and len(sc.targets) == 3
    w = World(scenario="fighter_combat", small_world=True)
    c = w.combat
    assert c is not None and c.opp_sim.model is not w.sim.model        # its own arrays: its own damage
    assert c.opp_sim.compiled.spec.id == "p51d"
    run(w, 0.1)
    f = c.frame
    snap = w.buffer.read()[1]
    assert f.tick == snap.tick                                          # timed like the player's snapshot
    assert 750.0 < f.range_m < 900.0 and f.player_ammo == 1880 and f.opponent is not None     # head-on, 850 m
    assert f.targets.shape == (3, 5) and np.all(f.targets[:, 4] == 1.0)
    with pytest.raises(ValueError):
        f.bullets[...] = 0.0                                            # the renderer gets read-only data
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.opponent.alive = False
    # other scenarios carry no combat
    assert World(scenario="fighter_air", small_world=True).combat is None


def test_ai_closes_on_a_straight_flying_target_and_hits_it():
    """The player flies straight and level at cruise, hands off; the AI starts 700 m
    behind and has to catch up on the power it has, then hit with its lead and drop."""
    w = combat_world(along_m=-6700.0, right_m=40.0, height_m=1700.0, speed_kmh=450.0)
    c = w.combat
    ranges = []
    first = []

    def watch(world):
        ranges.append(c.frame.range_m)
        if c.frame.hits_taken and not first:
            first.append(len(ranges) * DT)
    run(w, 40.0, watch)
    assert min(ranges) < 450.0                              # it closed
    assert first and first[0] < 35.0, first                 # and hit within 35 s
    assert c.frame.hits_taken >= 10
    assert np.any(damage(w.sim.model) > 0.0)                # the hits damaged the player's sections
    assert c.frame.opponent_ammo < 1880                     # through the same guns and belts


def test_ai_never_flies_into_the_ground():
    """Low and fast: the player at 200 m above the airfield, the AI chasing from above and
    behind with its floor at 300 m. In 60 s it never goes near the ground."""
    sc = find_scenario("fighter_combat")
    start = dict(sc.start, height_m=200.0, min_clearance_m=120.0)
    opp = dict(sc.opponent, heading_offset_deg=0.0, along_m=-6900.0, right_m=-300.0, height_m=450.0, min_clearance_m=150.0,
               speed_kmh=500.0, respawn=False)
    w = World(scenario=dataclasses.replace(sc, start=start, opponent=opp, targets=[]), small_world=True)
    c = w.combat
    agl = []
    run(w, 60.0, lambda world: agl.append(c.opp_sim.height_agl_m))
    assert c.opp_visible and c.opp_alive and not c.opp_sim.struck
    assert min(agl[5:]) > 150.0                      # it holds its floor (300 m) give or take a pull-out


def test_a_player_burst_downs_a_balloon_ahead():
    sc = find_scenario("fighter_combat")
    # a balloon on the player's path, 300 m ahead at his height
    balloon = dict(sc.targets[0], along_m=-5700.0, right_m=0.0, height_m=1700.0, min_clearance_m=0.0, radius_m=5.0,
                   hits_to_kill=6)
    opp = dict(sc.opponent, along_m=-3000.0, right_m=3000.0, fires=False, respawn=False)
    w = World(scenario=dataclasses.replace(sc, opponent=opp, targets=[balloon]), small_world=True)
    c = w.combat
    run(w, 0.1)
    assert c.frame.targets[0, 4] == 1.0
    w.mailbox.post(w.initial_inputs.replace(fire=1.0))
    run(w, 1.0)
    f = c.frame
    assert len(f.bullets) > 20 and np.any(f.bullets[:, 6] == 1.0)      # rounds in the air, tracers among them
    assert f.player_ammo < 1880
    run(w, 1.0)
    assert c.frame.targets_destroyed == 1 and c.frame.targets[0, 4] == 0.0


def test_player_hits_damage_the_opponents_sections_only():
    w = combat_world(along_m=-5750.0, right_m=0.0, height_m=1700.0, speed_kmh=440.0, fires=False)
    c = w.combat
    w.mailbox.post(w.initial_inputs.replace(fire=1.0))
    run(w, 1.5)
    assert c.frame.hits_scored > 0
    assert np.any(damage(c.opp_sim.model) > 0.0)
    assert np.all(damage(w.sim.model) == 0.0)               # own bullets never hit the shooter


def test_reset_brings_back_the_opponent_and_clears_the_damage():
    w = combat_world(along_m=-6700.0, right_m=40.0, height_m=1700.0)
    c = w.combat
    spawn = c.opp_sim.position_ned_m
    run(w, 30.0)
    set_damage(w.sim.model, 3, 0.5)                         # as if shot up
    assert AircraftData(w.sim.model).damaged
    w.reset()
    run(w, 0.04)
    assert np.linalg.norm(c.opp_sim.position_ned_m - spawn) < 10.0
    assert np.all(damage(w.sim.model) == 0.0) and np.all(damage(c.opp_sim.model) == 0.0)
    assert not AircraftData(w.sim.model).damaged
    assert c.frame.hits_taken == 0 and c.frame.player_ammo == 1880


def test_a_shot_down_opponent_falls_and_is_cleared_when_it_hits_the_ground():
    w = combat_world(along_m=-5400.0, right_m=60.0, height_m=700.0, min_clearance_m=0.0)
    c = w.combat
    c.hits_to_kill = 0                                     # as if its 40th hit had just landed
    c.opp.hits_taken = 1
    c.opp_alive = False
    c.opp_down_t = 0.0
    run(w, 60.0)
    assert not c.opp_visible and c.frame.opponent is not None and not c.frame.opponent.visible


# ------------------------------------------------------------------ scenario data

BASE = """[scenario]
name = "{name}"
description = "test"
aircraft = "p51d"
kind = "{kind}"

[start]
type = "air"
"""


@pytest.mark.parametrize("extra, key", [
    ('[opponent]\nspeed = 400.0\n', "opponent.speed"),
    ('[opponent]\nmax_g = 40.0\n', "opponent.max_g"),
    ("[opponent]\naircraft = \"hurricane\"\n", "opponent.aircraft"),
    ('[[target]]\ntype = "tank"\n', "target[0].type"),
    ('[[target]]\ntype = "balloon"\nradius_m = -1.0\n', "target[0].radius_m"),
    ('[combat]\nbullet_life_s = 100.0\n', "combat.bullet_life_s"),
])
def test_bad_combat_data_is_refused_naming_file_and_key(tmp_path, extra, key):
    p = tmp_path / "bad.toml"
    p.write_text(BASE.format(name="bad", kind="fighter") + extra)
    with pytest.raises(DataError) as e:
        load_scenario(p)
    assert key in str(e.value) and "bad.toml" in str(e.value)


def test_an_opponent_is_for_fighter_scenarios(tmp_path):
    p = tmp_path / "g.toml"
    p.write_text(BASE.format(name="g", kind="glider").replace('"p51d"', '"astir"') + "[opponent]\n")
    with pytest.raises(DataError, match="opponent"):
        load_scenario(p)


def test_a_round_into_a_jet_engine_can_fail_it():
    """The F-15C dogfight (issue 19): a 20 mm shell into an engine's bay (a cylinder the F100's size
    ahead of its nozzle) fails that engine when the chance falls so; one into the nose does not."""
    from flightsim.physics.bullet_pool import AIRCRAFT, Hit
    from flightsim.physics.named_model import AircraftData
    from flightsim.world.assembly import World
    from flightsim.world.combat import OPPONENT, PLAYER

    class Always:                                  # the chance always falls to failure
        def random(self):
            return 0.0
    from flightsim.physics.named import AircraftView
    w = World("f15c", "f15c_vs_f15c", small_world=True)
    w.physics.tick(0.02)                           # the combat now holds the player's state
    c = w.combat
    c.rng = Always()
    noz = AircraftData(w.physics.model).jet_nozzles_m
    k = 0 if noz[0][1] < 0 else 1                  # the left engine
    c._jet_hit(Hit(AIRCRAFT, PLAYER, -1, (noz[k][0] + 2.0, noz[k][1], noz[k][2]), OPPONENT))
    failed = AircraftView(w.physics.state).jets_failed
    assert failed.sum() == 1.0 and failed[k] == 1.0
    assert any("left engine hit: failed" in what for _, who, what in c.damage_log if who == "player")
    c._jet_hit(Hit(AIRCRAFT, PLAYER, -1, (-1.0, 0.0, 0.0), OPPONENT))          # the nose: no engine there
    assert AircraftView(w.physics.state).jets_failed.sum() == 1.0
