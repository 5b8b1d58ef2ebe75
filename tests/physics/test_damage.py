"""Systems damage and stores (issue 18, seed 000), each chain driven headless in the full model:
a hit radiator -> coolant lost -> temperatures -> power loss -> seizure, with times; two
radiators sharing the load; the oil chain; a self-sealing tank against a plain one; fire ->
explosion (and an empty tank that burns out); a store dropped -> mass, CG, inertia and the
response; the hit boxes the bullets find; a cut control run; the pilot shutting the engine down."""
import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.damage import load_damage, set_loadout
from flightsim.aircraft_data.schema import DataError
from flightsim.physics.bullet_pool import AIRCRAFT, BulletPool
from flightsim.physics.damage import apply_hit, damage_summary
from flightsim.physics.named import STATE_SIZE, AircraftView
from flightsim.physics.named_model import AircraftData
from flightsim.sim import Sim
from flightsim.validate import damage as V

DT = 0.02


def parts(model, name):
    return AircraftData(model).parts_of(name)


# ---------------------------------------------------------------------------- cooling
@pytest.fixture(scope="module")
def p51d_radiator():
    return {p: V.radiator_hit("p51d", p) for p in ("military", "cruise")}


def test_a_holed_radiator_loses_its_coolant_overheats_loses_power_and_seizes(p51d_radiator):
    for power, r in p51d_radiator.items():
        s = r["series"]
        # the chain, in order: the temperature passes the book limit while coolant is still
        # going, the coolant runs out, the engine loses power, then seizes
        assert r["over_limit_s"] < r["coolant_out_s"] <= r["seized_s"], (power, r)
        assert r["power_down_10pct_s"] <= r["seized_s"]
        assert np.all(np.diff(1.0 - s[:, 1]) >= -1e-12)                # coolant only goes
        assert s[0, 2] < 125.0 < r["max_coolant_c"]                    # from normal to far past the limit
        # minutes, not seconds or hours (pilots' accounts: 1-4 min at combat power)
        assert 60.0 < r["seized_s"] < 600.0, (power, r["seized_s"])
    # the harder the engine works, the sooner it goes
    assert p51d_radiator["military"]["seized_s"] < p51d_radiator["cruise"]["seized_s"]


def test_leaked_coolant_and_a_shot_away_wingtip_leave_the_mass_sum():
    from flightsim.physics.ballistics import set_damage
    from flightsim.physics.plant_mass import resum_mass
    comp = compile_aircraft("p51d")
    m, s = comp.model, np.zeros(STATE_SIZE)
    v = AircraftView(s)
    m0 = comp.mass_kg
    v.set_coolant_lost([1.0])
    v.oil_lost = 0.5
    resum_mass(m, s)
    assert AircraftData(m).mass_kg == pytest.approx(m0 - 65.0 - 0.5 * 42.6)
    data = AircraftData(m)
    tip = max(data.wing_sections, key=lambda i: data.section_position_m[i, 1])
    set_damage(m, tip, 1.0)
    resum_mass(m, s)
    assert AircraftData(m).mass_kg == pytest.approx(m0 - 65.0 - 0.5 * 42.6 - data.section_mass_kg[tip])
    assert AircraftData(m).cg_m[1] < -1e-3              # the CG moves away from the lost right tip
    s[:] = 0.0
    set_damage(m, tip, 0.0)
    resum_mass(m, s)
    assert AircraftData(m).mass_kg == pytest.approx(m0)


def test_a_seized_engine_stops_its_propeller_and_makes_no_power():
    sim, _ = V.trimmed_at_power("p51d", "cruise", 2000.0)
    sim.engine_wear = 1.0
    c = sim.controls.array.copy()
    for _ in range(int(3.0 / DT)):
        sim.step(c)
    assert sim.engine_rpm == 0.0 and sim.engine_seized == 1.0
    assert sim.shaft_power_w == 0.0 and sim.thrust_n <= 0.0


def test_the_pilot_can_shut_the_engine_down_and_glide():
    sim, _ = V.trimmed_at_power("p51d", "cruise", 2000.0)
    c = sim.controls.copy()
    c.cutoff = 1.0
    for _ in range(int(10.0 / DT)):
        sim.step(c.array)
    assert sim.shaft_power_w < 0.0                    # no fuel: the windmilling propeller turns the engine
    assert sim.thrust_n < 0.0 and sim.vertical_speed_ms < 0.0
    assert damage_summary(sim.model, sim.state, sim.diag)["engine_health"] == 1.0     # shut down, not broken


def test_power_as_low_as_possible_is_the_least_that_holds_level():
    """The coolant-loss card's "power as low as possible": the rpm lever back and the speed of least
    power, not a fixed share of the top speed at full rpm (which burned 70 % more fuel)."""
    sim, ias = V.least_power_level("p51d", 2000.0)
    sim.step()
    rpm, kw = sim.engine_rpm, sim.shaft_power_w / 1000.0
    assert rpm == pytest.approx(1800.0, abs=60.0) and 190.0 < ias < 260.0 and abs(sim.vertical_speed_ms) < 0.5
    for other in (ias - 15.0, ias + 15.0):                        # slower or faster takes more power
        V.trim_straight(sim, other, 2000.0, "clean", "military", prop_rpm=0.0)
        sim.step()
        assert sim.shaft_power_w / 1000.0 > kw
    full_rpm, _ = V.trimmed_at_power("p51d", "cruise", 2000.0, share=0.5)
    full_rpm.step()
    assert full_rpm.shaft_power_w / 1000.0 > 1.1 * kw and full_rpm.fuel_flow_kgs > 1.4 * sim.fuel_flow_kgs


def test_two_radiators_on_separate_circuits_one_still_cools():
    one = V.radiator_hit("bf109", "military", radiators=(0,), max_s=600.0)
    assert one["seized_s"] is None and one["coolant_out_s"] is None   # half the system kept its coolant
    assert one["series"][-1, 1] == pytest.approx(0.5, abs=1e-6)       # half the coolant lost
    assert one["max_coolant_c"] < 150.0                                # the other radiator holds it
    both = V.radiator_hit("bf109", "military", radiators=(0, 1), max_s=600.0)
    assert both["seized_s"] is not None


def test_one_shared_circuit_drains_through_either_radiator():
    r = V.radiator_hit("spitfire", "military", radiators=(1,), max_s=600.0)
    assert r["coolant_out_s"] is not None and r["seized_s"] is not None


def test_an_oil_leak_starves_the_bearings_and_seizes_the_engine():
    sim, _ = V.trimmed_at_power("p51d", "cruise", 2000.0)
    oil = parts(sim.model, "oil_cooler")[0]

    class Never:
        def random(self):
            return 1.0
    said = apply_hit(sim.model, sim.state, oil, 12.7, "ap", Never())
    assert "oil" in said
    c = sim.controls.array.copy()
    p0 = None
    t_low = t_seized = None
    for k in range(int(900.0 / DT)):
        sim.step(c)
        p = sim.oil_pressure_pa
        p0 = p if p0 is None else p0
        if t_low is None and p < 0.4 * p0:
            t_low = (k + 1) * DT
        if sim.engine_seized > 0.5:
            t_seized = (k + 1) * DT
            break
    assert p0 == pytest.approx(517000.0, rel=0.01)                    # 75 psi before the hit
    assert t_low is not None and t_seized is not None and t_low < t_seized
    assert 30.0 < t_seized < 900.0


# ---------------------------------------------------------------------------- fuel
def test_a_self_sealing_tank_closes_a_small_hole_and_a_plain_one_does_not():
    sealed = V.tank_hit("spitfire", 1, 7.7, "ball")              # the lower tank: self-sealing
    plain = V.tank_hit("spitfire", 0, 7.7, "ball")               # the upper tank: not
    assert "sealing" in sealed["hit"] and "sealing" not in plain["hit"]
    assert sealed["leak_now_kg_s"] == 0.0 and plain["leak_now_kg_s"] > 0.03
    assert plain["lost_kg"] > 5.0 * sealed["lost_kg"]
    # a round bigger than the liner seals (a .50 in a rifle-calibre liner) stays open
    big = V.tank_hit("spitfire", 1, 12.7, "ap")
    assert "sealing" not in big["hit"] and big["leak_now_kg_s"] > 0.05
    # and the lost fuel leaves the mass sum like burned fuel
    assert big["lost_kg"] > 5.0


def test_a_burning_wing_tank_explodes_and_takes_the_wing():
    r = V.tank_fire("p51d", 1)
    sim = r["sim"]
    assert r["exploded_s"] == pytest.approx(20.0, abs=0.05)          # the data's tank_fire_explosion_s
    assert "right wing" in r["what"]
    data = AircraftData(sim.model)
    dmg = data.section_damage
    ys = data.section_position_m[:, 1]
    wing = np.zeros(data.n_sections, bool)
    wing[data.wing_sections] = True
    assert np.all(dmg[wing & (ys > 0.3)] == 1.0) and np.all(dmg[wing & (ys < -0.3)] == 0.0)
    # the wing's sections and the fuel leave the mass sum
    wing_mass = float(np.sum(data.section_mass_kg[wing & (ys > 0.3)]))
    assert r["mass_before_kg"] - r["mass_after_kg"] > wing_mass


def test_an_empty_tank_burns_out_and_does_not_explode():
    r = V.tank_fire("p51d", 1, empty=True)
    assert r["exploded_s"] is None and r["burned_out_s"] is not None


def test_a_fire_reaches_the_tanks_near_it():
    sim, _ = V.trimmed_at_power("p51d", "cruise", 2000.0)
    AircraftData(sim.model).set_tank_fire(explosion_s=1000.0, spread_m=3.0)   # the wing tanks within reach
    sim.set_tank_fire_s(0, 1e-6)                           # the fuselage tank burning
    c = sim.controls.array.copy()
    for _ in range(int(7.5 / DT)):
        sim.step(c)
    assert sim.tank_fire_s[1] == 0.0                       # not yet: it spreads after tank_fire_spread_s (8 s)
    for _ in range(int(1.0 / DT)):
        sim.step(c)
    assert sim.tank_fire_s[1] > 0.0 and sim.tank_fire_s[2] > 0.0
    assert sim.tanks_burning == 3


# ---------------------------------------------------------------------------- stores
def test_dropping_bombs_resums_mass_cg_inertia_and_quickens_the_roll():
    r = V.store_release("p51d", ["bomb_1000_right", "bomb_1000_left"])
    b, a = r["before"], r["after"]
    assert b["mass_kg"] - a["mass_kg"] == pytest.approx(2 * 512.0, abs=0.01)
    # re-summed that cycle (less the fuel of the two steps flown since the trim)
    assert r["mass_next_cycle_kg"] == pytest.approx(b["mass_kg"] - 2 * 512.0, abs=0.05)
    assert a["ixx"] < 0.6 * b["ixx"]                   # the wing loads were far from the roll axis
    assert a["roll_rate_03s_dps"] > 1.2 * b["roll_rate_03s_dps"]    # the roll starts quicker
    assert a["time_to_45_s"] < b["time_to_45_s"]
    assert a["pitch_rate_05s_dps"] > b["pitch_rate_05s_dps"]


def test_drop_tanks_feed_first_carry_drag_and_go_with_their_fuel():
    comp = compile_aircraft("p51d")
    clean = comp.mass_kg
    set_loadout(comp.model, comp.spec, ["drop_tank_75_right", "drop_tank_75_left"])
    sim = Sim(comp)
    assert AircraftData(sim.model).mass_kg == pytest.approx(clean + 2 * (35.0 + 204.0))
    sim.spawn_trimmed_level(120.0, 2000.0)
    c = sim.controls.array.copy()
    for _ in range(int(20.0 / DT)):
        sim.step(c)
    used = sim.fuel_used_kg
    assert used[3] > 0.0 and used[4] > 0.0 and used[0] == 0.0 and used[1] == 0.0   # the drop tanks feed first
    assert sim.store_drag_n > 0.0
    c = sim.controls.copy()
    c.drop_tanks = 1.0
    m0 = AircraftData(sim.model).mass_kg
    sim.step(c.array)
    sim.step(c.array)
    assert m0 - AircraftData(sim.model).mass_kg == pytest.approx(2 * 35.0 + 2 * 204.0 - used[3] - used[4], abs=0.5)
    assert sim.store_drag_n == 0.0 and sim.store_mass_kg == 0.0
    assert apply_hit(sim.model, sim.state, parts(sim.model, "tank")[3], 12.7, "ap", None) == ""   # gone with it
    assert AircraftData(sim.model).stores_on(sim.state).sum() == 0.0


def test_a_loadout_is_checked_against_the_stations():
    comp = compile_aircraft("p51d")
    with pytest.raises(DataError, match="both hang on station"):
        set_loadout(comp.model, comp.spec, ["drop_tank_75_right", "bomb_1000_right"])
    with pytest.raises(DataError, match="no \\[\\[store\\]\\] named"):
        set_loadout(comp.model, comp.spec, ["torpedo"])


# ---------------------------------------------------------------------------- hits
def _shoot(model, start_body, direction, calibre):
    """One bullet flying through the aircraft (at rest, at the origin, level) along a body-axis line."""
    pool = BulletPool(4, 4)
    cg = AircraftData(model).cg_m.copy()
    a = np.asarray(start_body, dtype=float) - cg
    b = a + 30.0 * np.asarray(direction, dtype=float)
    pool.add(b, (0.0, 0.0, 0.0), previous_ned_m=a, owner=7, calibre_mm=calibre)
    pool.n_hits = 0
    pool.collide_aircraft(model, 0, np.zeros(3), np.eye(3), np.zeros(3), np.eye(3), cg, 20.0)
    return pool.hits()


def test_bullets_find_the_component_boxes_behind_the_skin():
    comp = compile_aircraft("p51d")
    m = comp.model
    rad = parts(m, "radiator")[0]
    hits = _shoot(m, (-4.9, -10.0, 0.85), (0.0, 1.0, 0.0), 12.7)      # across the belly scoop
    assert len(hits) == 1 and hits[0].kind == AIRCRAFT and hits[0].part == rad
    # from dead astern at the pilot's head and shoulders (above the fuselage tank behind the
    # seat, which a lower round strikes first): the armour stops a rifle-calibre round, not a .50
    pilot = parts(m, "pilot")[0]
    armour = parts(m, "armour")[0]
    assert _shoot(m, (-20.0, 0.0, -0.6), (1.0, 0.0, 0.0), 7.7)[0].part == armour
    assert _shoot(m, (-20.0, 0.0, -0.6), (1.0, 0.0, 0.0), 12.7)[0].part == pilot
    assert _shoot(m, (-20.0, 0.0, -0.1), (1.0, 0.0, 0.0), 12.7)[0].part == parts(m, "tank")[0]
    # head-on into the spinner: through the propeller disc into the engine
    h = _shoot(m, (20.0, 0.0, 0.0), (-1.0, 0.0, 0.0), 12.7)[0]
    assert h.part == parts(m, "engine")[0] and h.through_propeller == parts(m, "propeller")[0]


def test_a_severed_control_run_leaves_the_surface_trailing():
    sim, _ = V.trimmed_at_power("p51d", "cruise", 2000.0)
    c = sim.controls.copy()
    c.pitch = 0.5
    start = sim.state.copy()
    for _ in range(25):
        sim.step(c.array)
    moved = sim.surface("pitch")
    sim.state[:] = start
    sim.set_link_cut("pitch", 1.0)
    for _ in range(25):
        sim.step(c.array)
    assert moved > 0.05 and abs(sim.surface("pitch")) < 0.01


# ---------------------------------------------------------------------------- data
def test_bad_damage_data_is_refused_naming_the_key():
    pp = {"radiator": {"heat_capacity_j_per_k": 100000.0}, "oil_cooler": {"heat_capacity_j_per_k": 150000.0},
          "tanks": []}
    good = {"coolant_kg": 20.0, "coolant_pressure_pa": 1e5, "oil_kg": 10.0, "oil_pressure_pa": 5e5,
            "oil_pressure_full_rpm": 1800.0, "coolant_limit_k": 394.0, "engine_failure_k": 523.0,
            "oil_limit_k": 363.0, "oil_failure_k": 408.0}
    comps = [{"name": "e", "part": "engine", "position_m": [0, 0, 0], "size_m": [1, 1, 1]},
             {"name": "r", "part": "radiator", "position_m": [0, 0, 1], "size_m": [1, 1, 1]},
             {"name": "p", "part": "pilot", "position_m": [-2, 0, 0], "size_m": [1, 1, 1]}]
    assert load_damage({"damage": good, "component": comps}, "a.toml", pp) is not None
    with pytest.raises(DataError, match="damage.coolant_kg"):
        load_damage({"damage": dict(good, coolant_kg=40.0), "component": comps}, "a.toml", pp)
    with pytest.raises(DataError, match="damage.engine_failure_k"):
        load_damage({"damage": dict(good, engine_failure_k=390.0), "component": comps}, "a.toml", pp)
    with pytest.raises(DataError, match="part = 'radiator'"):
        load_damage({"damage": good, "component": comps[:1] + comps[2:]}, "a.toml", pp)
    with pytest.raises(DataError, match="need a powerplant"):
        load_damage({"damage": good}, "a.toml", None)
    tank = {"name": "dt", "kind": "drop_tank", "station": "c", "mass_kg": 20.0, "position_m": [0, 0, 1],
            "size_m": [1, 0.4, 0.4], "drag_area_m2": 0.03}
    with pytest.raises(DataError, match=r"store\[0\] 'dt'.fuel_kg"):
        load_damage({"damage": good, "component": comps, "store": [tank]}, "a.toml", pp)
