"""Scenarios as data, the weather (thermals, ridge lift) and the winch launch."""
import math

import numpy as np
import pytest

from flightsim.aircraft_data.schema import DataError
from flightsim.physics.aero import wind_at
from flightsim.physics.named_env import THERMAL_FIELDS, Environment
from flightsim.physics.state import flat_terrain, make_env
from flightsim.pilots.autopilot import WinchPilot
from flightsim.sim import Sim
from flightsim.world import scenario as S
from flightsim.world.terrain import small
from flightsim.world.weather import Weather
from flightsim.world.winch import Winch


def test_every_scenario_file_loads():
    scs = S.all_scenarios(strict=True)
    names = {s.name for s in scs}
    assert {"winch", "ridge", "thermal", "cross_country", "landing"} <= names
    assert S.find_scenario("glider").name == "winch"
    assert S.find_scenario("fighter").kind == "fighter"
    for s in scs:
        assert s.description


@pytest.mark.parametrize("text,key,problem", [
    ('[scenario]\nname="bad"\ndescription="x"\naircraft="astir"\nkind="glider"\n', "start", "missing"),
    ('[scenario]\nname="bad"\ndescription="x"\naircraft="nope"\nkind="glider"\n[start]\ntype="air"\n',
     "scenario.aircraft", "unknown aircraft"),
    ('[scenario]\nname="bad"\ndescription="x"\naircraft="astir"\nkind="glider"\n[start]\ntype="air"\nheight=3\n',
     "start.height", "unit suffix"),
    ('[scenario]\nname="bad"\ndescription="x"\naircraft="astir"\nkind="glider"\n[start]\ntype="air"\n'
     '[thermals]\ncount=-2\n', "thermals.count", "between"),
    ('[scenario]\nname="other"\ndescription="x"\naircraft="astir"\nkind="glider"\n[start]\ntype="air"\n',
     "scenario.name", "file name"),
])
def test_bad_scenarios_are_refused(tmp_path, text, key, problem):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(DataError) as e:
        S.load_scenario(p)
    assert str(p) in str(e.value) and key in str(e.value) and problem in str(e.value)


def test_thermal_profile_core_sink_ring_and_no_net_flux():
    env = make_env(thermals=[(0.0, 0.0, 200.0, 3.0)])
    up = lambda r: -wind_at(env, r, 0.0, -1000.0)[2]
    assert up(0.0) == pytest.approx(3.0)
    assert abs(up(200.0)) < 1e-9
    assert up(283.0) == pytest.approx(-3.0 * math.exp(-2.0), rel=0.01)     # strongest sink at 1.41 R
    r = np.linspace(0, 1000, 4001)
    flux = np.trapezoid([up(x) * 2 * math.pi * x for x in r], r)
    assert abs(flux) < 0.01 * 3.0 * math.pi * 200.0 ** 2


def test_thermal_fades_under_cloud_base_and_near_the_ground():
    env = make_env(thermals=[(0.0, 0.0, 200.0, 3.0, 1500.0, 300.0)])
    w = lambda alt: -wind_at(env, 0.0, 0.0, -alt)[2]
    assert w(1000.0) == pytest.approx(3.0)
    assert w(1400.0) == pytest.approx(1.5)
    assert w(1600.0) == 0.0
    assert w(375.0) == pytest.approx(1.5)


def test_thermals_live_drift_with_the_wind_and_are_reborn():
    t = small()
    wx = Weather(t, {"wind_speed_ms": 5.0, "wind_from_deg": 270.0}, {"count": 5, "lifetime_s": 300.0, "seed": 2},
                 {"lift": False})
    env = wx.env()
    wx.update(env, 0.0, (0.0, 0.0, -800.0))
    air = Environment(env)
    first = [air.thermal(k) for k in range(5)]
    wx.update(env, 20.0, (0.0, 0.0, -800.0))
    for k in range(5):
        assert air.thermal(k)["east_m"] - first[k]["east_m"] == pytest.approx(100.0)   # 5 m/s toward the east for 20 s
    # after more than a lifetime every thermal has been re-born somewhere
    wx.update(env, 1000.0, (0.0, 0.0, -800.0))
    assert all(th.born_s > 0 for th in wx.thermals)
    wx.update(env, 1100.0, (0.0, 0.0, -800.0))         # and grown again, each under a cumulus
    assert len(wx.clouds(1100.0)) >= 1
    assert all(air.thermal(k)["updraft_ms"] >= 0.0 for k in range(5))
    # the weather writes them all in one slice: the same as one by one, the count with them
    one_by_one = Environment(env.copy())
    for k in range(5):
        one_by_one.set_thermal(k, *(air.thermal(k)[f] for f in THERMAL_FIELDS))
    assert np.array_equal(one_by_one.env, env) and air.thermal_count == 5
    air.set_thermals([])
    assert air.thermal_count == 0
    with pytest.raises(ValueError, match="room for 5"):
        air.set_thermals([(0.0,) * 6] * 6)


def test_ridge_lift_on_the_windward_face_not_in_the_lee():
    t = small()
    wx = Weather(t, {"wind_speed_ms": 10.0, "wind_from_deg": 270.0}, {}, {"lift": True})
    af = t.airfield
    # the western escarpment: its steep face looks west, into the westerly (scenarios/ridge.toml)
    n, e = af.to_world(-3000.0, -9000.0)
    agl = 150.0
    windward = wx.ridge_at(n, e, t.height_at(n, e) + agl)
    assert windward > 1.0
    lee_n, lee_e = af.to_world(-3000.0, -7000.0)
    assert wx.ridge_at(lee_n, lee_e, t.height_at(lee_n, lee_e) + agl) < 0.3 * windward
    # and it decays with height
    assert wx.ridge_at(n, e, t.height_at(n, e) + 600.0) < 0.3 * windward


def test_winch_launch_releases_at_30_to_40_percent_of_the_cable():
    """Seed 004's launch, flown by WinchPilot through stick forces, still air, 1000 m cable."""
    sim = Sim("astir", terrain=flat_terrain(0.0))
    sim.spawn_on_ground(0.0, 0.0, 0.0, settle_s=2.0, roll_rad=0.0)
    c = sim.compiled
    w = Winch((1000.0, 0.0, -1.0), c.spec.aircraft["winch_hook_m"], 1000.0, weak_link_n=5000.0)
    pilot = WinchPilot(w, 0.0)
    max_nz = 0.0
    for _ in range(int(60 / 0.02)):
        w.update(sim.env, sim.state, 0.02, c.cg_m)
        sim.ctrl = pilot(sim).to_array()
        assert sim.step() == 0
        max_nz = max(max_nz, sim.nz_g)
        if not w.attached and pilot.phase == "glide" and sim.time_s > w.t_s + 6:
            break
    assert not w.attached and w.event in ("released", "back-release")
    assert 300.0 <= w.release_height_m <= 400.0
    assert w.max_tension_n <= 5000.0
    assert sim.altitude_m > 250.0                     # gliding away afterwards, not spinning in


def test_weak_link_breaks_above_its_rating():
    sim = Sim("astir", terrain=flat_terrain(0.0))
    sim.spawn_on_ground(0.0, 0.0, 0.0, settle_s=2.0, roll_rad=0.0)
    c = sim.compiled
    # a weak link far weaker than the driver was briefed for: it must go on the ground run
    w = Winch((1000.0, 0.0, -1.0), c.spec.aircraft["winch_hook_m"], 1000.0, weak_link_n=1500.0, max_pull_n=7000.0,
              driver_limit_n=4500.0)
    w.throttle = 1.0
    w.t_s = 5.0                      # the driver already all out
    for _ in range(50):
        w.update(sim.env, sim.state, 0.02, c.cg_m)
        sim.step()
    assert w.event == "weak link broke" and not w.attached
    assert np.all(Environment(sim.env).external_force_ned_n == 0.0)


@pytest.mark.parametrize("name", [n for n in S.scenario_names()
                                  if S.load_scenario(S.SCENARIO_DIR / f"{n}.toml").kind == "glider"])
def test_each_glider_scenario_starts_and_flies_in_the_game_world(name):
    from flightsim.world.assembly import World
    world = World(scenario=name, small_world=True)
    th = world.physics
    for k in range(150):                     # 3 s of ticks through the world hook
        th.tick(k * 0.02)
    snap = world.buffer.read()[1]
    assert np.all(np.isfinite(snap.position_ned_m)) and th.refused_steps == 0
    if world.scenario.start["type"] == "winch":
        assert world.winch.attached and world.winch.tension_n > 1000.0 and snap.tas_ms > 10.0
    elif world.scenario.start["type"] == "air":
        assert snap.height_agl_m > 50.0 and snap.on_ground == 0


def test_the_engine_fails_on_the_climb_out_where_the_scenario_says():
    """c172_engine_failure ([failure] engine_at_height_m = 152, 500 ft): the C172's take-off pilot
    climbs out on full power; through 152 m above the field the engine stops (no fuel reaches
    it: no power, the propeller windmilling with the pilot's glide), also on an aircraft without
    damage data; a reset brings it back."""
    from flightsim.pilots.autopilot import autopilot
    from flightsim.world.assembly import World
    w = World("c172p", "c172_engine_failure")
    assert w.scenario.failure == {"engine_at_height_m": 152.0}
    pilot = autopilot(w.scenario, w.terrain, aircraft=w.compiled.spec)
    snap, seen = w.buffer.read()[1], []
    for k in range(int(60.0 / 0.02)):
        w.mailbox.post(pilot(snap))
        w.physics.tick(k * 0.02)
        snap = w.buffer.read()[1]
        seen.append((snap.altitude_m - w.terrain.airfield.elevation_m, snap.engine_rpm))
    up_to = next(i for i, (h, _) in enumerate(seen) if h > 152.0)
    before = [rpm for h, rpm in seen[:up_to] if h > 60.0]
    assert before and min(before) > 2000.0                   # full power on the climb-out
    assert w.engine_failed and snap.engine_load < 0.0 and snap.fuel_flow_kgs == 0.0   # turned by the air
    assert snap.ias_ms > 25.0 and 300.0 < snap.engine_rpm < 2000.0           # windmilling, not seized
    w.reset()
    w.physics.tick(60.0)
    assert not w.engine_failed and w.buffer.read()[1].altitude_m < w.terrain.airfield.elevation_m + 5.0


def test_carburettor_ice_in_moist_air_and_the_pilot_s_carburettor_heat():
    """c172_carb_ice ([world] humidity_pct = 90): cruising at about 3,000 ft the carburettor gathers
    ice and the rpm sags; hands off it keeps growing, while the autopilot's light-aircraft habits
    (pilots/engine_habits.py) notice it, pull the carburettor heat and clear it. The snapshot
    carries the gauges a C172 shows: carburettor and exhaust gas temperatures, suction, each tank."""
    from flightsim.pilots.autopilot import autopilot
    from flightsim.pilots.engine_habits import CarburettorHabits
    from flightsim.world.assembly import World

    def fly(with_pilot, seconds):
        w = World("c172p", "c172_carb_ice")
        assert w.scenario.world["humidity_pct"] == 90.0
        pilot = autopilot(w.scenario, w.terrain, aircraft=w.compiled.spec) if with_pilot else None
        snap, ices, heats = w.buffer.read()[1], [], []
        for k in range(int(seconds / 0.02)):
            if pilot is not None:
                w.mailbox.post(pilot(snap))
            w.physics.tick(k * 0.02)
            snap = w.buffer.read()[1]
            ices.append(snap.carb_ice)
            heats.append(snap.controls.carb_heat)
        return pilot, snap, ices, heats

    _, snap, ices, _ = fly(False, 200.0)
    assert ices[-1] > 0.15 and ices[-1] == max(ices)          # hands off: growing
    assert 273.15 - 30.0 < snap.carb_temp_k < 273.15 - 10.0   # well below freezing at the throttle
    assert 800.0 < snap.egt_k < 1100.0
    assert snap.suction_inhg == 5.0
    assert snap.fuel_left_kg == pytest.approx(snap.fuel_right_kg) and snap.fuel_left_kg > 50.0
    pilot, snap, ices, heats = fly(True, 600.0)
    assert isinstance(pilot, CarburettorHabits)
    assert max(heats) == 1.0                                   # the heat was pulled ...
    assert max(ices) < 0.12                                    # ... before the ice took an eighth of the bore
    assert ices[-1] < max(ices)
