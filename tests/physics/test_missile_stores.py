"""Missiles carried as stores (issue 35): a fighter's missiles hang on its missile store rows with
their mass and drag until the world launches them, one round at a time."""
from __future__ import annotations

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.damage import load_damage, missile_loadout, set_stores_and_missiles
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.aircraft_data.schema import DataError
from flightsim.aircraft_data.tanks import resummed
from flightsim.physics.named_model import AircraftData
from flightsim.sim import Sim
from flightsim.world.armament import release_round, store_weapons

BVR = ["aim120c"] * 4 + ["aim9m"] * 4
AIM120C_KG, AIM9M_KG = 161.5, 86.2


def _loaded(missiles):
    comp = compile_aircraft("f15c")
    set_stores_and_missiles(comp.model, comp.spec, [], missiles)
    return comp


def test_a_scenarios_missiles_hang_on_their_rows_in_order():
    spec = load_aircraft("f15c")
    clean = compile_aircraft("f15c").mass_kg
    assert missile_loadout(spec, BVR) == (["aim120c_fuselage", "aim9m_wing"], {})
    assert resummed(_loaded(BVR).model)[0] == pytest.approx(clean + 4 * AIM120C_KG + 4 * AIM9M_KG, abs=1e-6)
    # six AMRAAMs fill the fuselage and two of the wing's rounds; two rounds on a row of four
    assert missile_loadout(spec, ["aim120c"] * 6) == (["aim120c_fuselage", "aim120c_wing"], {3: 2})
    assert resummed(_loaded(["aim120c"] * 2).model)[0] == pytest.approx(clean + 2 * AIM120C_KG, abs=1e-6)
    with pytest.raises(DataError, match=r"missiles: 2 x aim9m find no free missile station on f15c"):
        missile_loadout(spec, ["aim120c"] * 6 + ["aim9m"] * 2)
    # an aircraft without missile stores carries its missiles outside its physics, as before
    assert missile_loadout(load_aircraft("p51d"), ["aim9m"]) == ([], {})


def _flying(comp):
    sim = Sim(comp)
    sim.spawn_trimmed_level(250.0, 8000.0)
    sim.step()
    return sim


def test_a_launched_round_takes_its_mass_and_drag_with_it():
    comp = _loaded(BVR)
    kept, fired = _flying(comp), _flying(_loaded(BVR))
    weapons = store_weapons(comp.spec)
    drag0 = kept.store_drag_n
    for n in range(1, 5):
        assert release_round(fired.model, fired.state, weapons, "aim120c")
        assert fired.stores_released[0] == n / 4
        kept.step()
        fired.step()
        assert kept.mass_kg - fired.mass_kg == pytest.approx(n * AIM120C_KG, abs=1e-3)
        assert fired.store_mass_kg == pytest.approx(4 * AIM9M_KG + (4 - n) * AIM120C_KG, abs=1e-6)
    assert not release_round(fired.model, fired.state, weapons, "aim120c")      # the fuselage row is empty
    assert not release_round(fired.model, fired.state, weapons, "aim7m")        # none carried
    # what drag is left is the Sidewinders' (the same speed and air: a share of the stores' drag)
    areas = AircraftData(comp.model).store_drag_areas_m2
    fuselage, wing = areas[0], areas[2]
    assert fired.store_drag_n / drag0 == pytest.approx(wing / (wing + fuselage), rel=0.02)


def test_the_bomb_and_tank_buttons_leave_the_missiles_on():
    sim = _flying(_loaded(BVR))
    sim.controls.drop_bombs = 1.0
    sim.controls.drop_tanks = 1.0
    sim.step()
    assert np.all(sim.stores_released == 0.0)
    assert sim.store_mass_kg == pytest.approx(4 * AIM120C_KG + 4 * AIM9M_KG, abs=1e-6)


@pytest.mark.parametrize("edit, key, problem", [
    ({"weapon": None}, "'rack'.weapon", "names its weapon"),
    ({"weapon": ""}, "'rack'.weapon", "non-empty"),
    ({"weapon": "aim999"}, "'rack'.weapon", r"no weapon named 'aim999' \(known: aim120c, aim7m, aim9m\)"),
    ({"count": 2.5}, "'rack'.count", "whole number"),
    ({"kind": "bomb"}, "'rack'.weapon", "only a missile store has a weapon"),
    ({"kind": "bomb", "weapon": None}, "'rack'.count", "only a missile store has a weapon and a count"),
    ({"rounds_m": [[0.0, 1.0, 0.5]]}, "'rack'.rounds_m", r"one \[x, y, z\] per round \(2\), got 1 of 3"),
    ({"rounds_m": [[0.0, 1.0], [0.0, -1.0]]}, "'rack'.rounds_m", r"got 2 of 2"),
])
def test_bad_missile_stores_are_refused_naming_the_key(edit, key, problem):
    store = {"name": "rack", "kind": "missile", "weapon": "aim9m", "count": 2, "station": "wing", "mass_kg": 86.2,
             "position_m": [0.0, 0.0, 0.5], "size_m": [1.0, 1.0, 0.2], "drag_area_m2": 0.01}
    store.update(edit)
    store = {k: v for k, v in store.items() if v is not None}
    with pytest.raises(DataError, match=problem) as e:
        load_damage({"store": [store]}, "f.toml", {"tanks": []})
    assert key in str(e.value)


def test_a_cards_loadout_is_part_of_its_weight():
    """aircraft_with_mass with stores: the named stores carried, the ballast making up the rest of the
    card's weight (SAC's weights include their missiles)."""
    from flightsim.aircraft_data.compile import aircraft_with_mass
    loaded = aircraft_with_mass("f15c", 20735.0, ("aim7m_fuselage",))
    assert loaded.mass_kg == pytest.approx(20735.0, abs=1e-6)
    assert resummed(loaded.model)[0] == pytest.approx(20735.0, abs=1e-6)
    assert AircraftData(loaded.model).store_drag_areas_m2[1] == pytest.approx(4 * 0.0130)      # aim7m_fuselage
    sim = Sim(loaded)
    sim.spawn_trimmed_level(250.0, 3000.0)
    sim.step()
    assert sim.store_mass_kg == pytest.approx(4 * 231.1, abs=1e-6) and sim.store_drag_n > 0.0
    clean = Sim(aircraft_with_mass("f15c", 20735.0))
    clean.spawn_trimmed_level(250.0, 3000.0)
    clean.step()
    assert clean.store_mass_kg == 0.0 and clean.mass_kg == pytest.approx(20735.0, abs=0.1)


def test_every_missile_store_names_a_weapon_with_that_launch_mass():
    """A missile store's round is its weapon's: the weapon's data file exists and the store's mass
    per round is that file's launch mass (the one figure kept in two files)."""
    from flightsim.aircraft_data.loader import list_aircraft
    from flightsim.weapons.data import load_missile
    seen = 0
    for name in list_aircraft():
        d = load_aircraft(name).damage
        for s in (d["stores"] if d else []):
            if s["kind"] == "missile":
                seen += 1
                assert s["mass_kg"] == load_missile(s["weapon"]).missile["launch_mass_kg"], (name, s["name"])
    assert seen >= 4


def test_the_share_on_counts_the_rounds_a_row_holds():
    """stores_on, what the renderer shows: rounds still on over the rounds the row's stations hold (a
    row hung with two of four shows its last two, then one)."""
    comp = _loaded(["aim120c"] * 2 + ["aim9m"] * 4)
    sim = _flying(comp)
    data = AircraftData(comp.model)
    assert list(data.stores_on(sim.state)) == [0.5, 0.0, 1.0, 0.0]
    release_round(sim.model, sim.state, store_weapons(comp.spec), "aim120c")
    assert list(data.stores_on(sim.state)) == [0.25, 0.0, 1.0, 0.0]
    assert list(data.store_rounds) == [2, 4, 4, 4] and list(data.store_loaded) == [True, False, True, False]
