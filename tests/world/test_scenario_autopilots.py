"""Every scenario loads, builds its world headless and flies 60 s with its autopilot.

The game's own path: World (terrain, weather, winch, physics thread object), ticked by
hand like app.screenshot(); the autopilot reads the newest snapshot and posts its
ControlInputs to the mailbox, which the physics reads once per tick -- exactly what the
keyboard does in the game. The small world keeps it quick.
"""
import math

import numpy as np
import pytest

from flightsim.pilots.autopilot import (
    CircuitPilot,
    CrossCountryPilot,
    CruisePilot,
    HandsOff,
    LandingPilot,
    RidgePilot,
    SoaringPilot,
    TakeoffPilot,
    WinchLaunchPilot,
    autopilot,
    runway_frame,
)
from flightsim.world.flight_log import FlightLog
from flightsim.world.scenario import find_scenario, scenario_names

EXPECTED = {"winch": WinchLaunchPilot, "thermal": SoaringPilot, "landing": LandingPilot, "ridge": RidgePilot,
            "cross_country": CrossCountryPilot, "airfield": CircuitPilot, "downwind": CircuitPilot,
            "high": CircuitPilot, "runway": HandsOff, "fighter_air": CruisePilot, "fighter_takeoff": TakeoffPilot,
            "f15c_air": CruisePilot, "f15c_takeoff": TakeoffPilot}


def fly(name, seconds=60.0):
    from flightsim.world.assembly import World
    world = World(scenario=name, small_world=True)
    pilot = autopilot(world.scenario, world.terrain, world.winch, world.weather)
    log = FlightLog(world.terrain.airfield)
    th = world.physics
    snaps = []
    for k in range(int(round(seconds / 0.02))):
        snap = world.buffer.read()[1]
        w = world.winch
        log.update(snap, on_cable=bool(w is not None and w.attached),
                   release_altitude_m=None if w is None else w.release_height_m)
        world.mailbox.post(pilot(snap))
        th.tick(k * 0.02)
        if k % 25 == 0:
            snaps.append(world.buffer.read()[1])
    snaps.append(world.buffer.read()[1])
    return world, pilot, log, snaps


@pytest.mark.parametrize("name", scenario_names())
def test_every_scenario_flies_a_minute_with_its_autopilot(name):
    world, pilot, log, snaps = fly(name)
    sc = world.scenario
    if name in EXPECTED:
        assert isinstance(pilot, EXPECTED[name])
    assert world.physics.refused_steps == 0
    s = snaps[-1]
    assert s.time_s - snaps[0].time_s == pytest.approx(60.0, abs=0.05)     # (ground starts settle first)
    for x in snaps:
        assert np.all(np.isfinite(x.position_ned_m)) and np.all(np.isfinite(x.velocity_ned_ms))
        assert np.all(np.isfinite(x.quat_wxyz))
    # in a combat the AI may shoot the player's aircraft down (a fire, a seized engine, a wing
    # gone: issue 18): then it only has to have flown on without a refused or non-finite step
    if world.combat is not None and world.combat.player.hits_taken > 0:
        return
    assert log.crash is None, log.crash
    assert log.grade in (None, "good", "firm"), log.debrief_lines()
    air = [x for x in snaps[50:] if not x.on_ground]
    for x in air:                                     # flying: no stall, no dive, wings not past 60 degrees
        roll = abs(math.degrees(x.euler_rad[0]))
        assert roll < 60.0, (x.time_s, roll)
        if sc.kind == "glider":
            assert 65.0 < x.ias_ms * 3.6 < 180.0, (x.time_s, x.ias_ms * 3.6)
        elif x.jets:                                   # a jet fighter climbs out at 650 km/h IAS
            assert 200.0 < x.ias_ms * 3.6 < 1000.0, (x.time_s, x.ias_ms * 3.6)
        elif sc.kind == "trainer":                     # a C172 climbs out at 74 KIAS
            assert 100.0 < x.ias_ms * 3.6 < 300.0, (x.time_s, x.ias_ms * 3.6)
        else:
            assert 150.0 < x.ias_ms * 3.6 < 650.0, (x.time_s, x.ias_ms * 3.6)
    if sc.start["type"] == "air" and name != "landing":
        assert not s.on_ground and s.height_agl_m > 100.0
    if name == "runway":
        assert s.on_ground and float(np.hypot(*s.velocity_ned_ms[:2])) < 0.5
    if name == "winch":
        assert not world.winch.attached and world.winch.event in ("released", "back-release")
        assert 300.0 < log.release_height_m < 450.0
        assert s.height_agl_m > 250.0
    if name in ("fighter_takeoff", "f15c_takeoff"):
        assert s.height_agl_m > 200.0 and s.gear_up > 0.99 and s.vertical_speed_ms > 5.0
    if name == "c172_circuits":                       # off the nose wheel and climbing away
        assert s.height_agl_m > 60.0 and s.vertical_speed_ms > 1.5
        along, right = runway_frame(world.terrain.airfield, *snaps[40].position_ned_m[:2])
        assert abs(right) < 15.0                       # the swing held on the runway
    if name in ("fighter_air", "f15c_air"):
        alts = [x.altitude_m for x in snaps]
        assert max(alts) - min(alts) < 60.0
    if name == "ridge":
        assert s.altitude_m >= snaps[0].altitude_m - 5.0          # held or gained in the ridge lift


def test_the_jet_climbs_away_without_porpoising():
    """The F-15C's take-off: its stick asks the law for a load factor, so the pilot flies its pitch as
    a pitch rate. Flown with the Flyer's elevator gains it porpoised after lift-off (pitch 22 to -4
    deg, -1.5 to +3.8 g every 2 s)."""
    from flightsim.world.assembly import World
    world = World(scenario="f15c_takeoff", small_world=True)
    pilot = autopilot(world.scenario, world.terrain, world.winch, world.weather)
    lift_off, nz, q_swings, last = None, [], 0, 0
    for k in range(int(round(40.0 / 0.02))):
        snap = world.buffer.read()[1]
        world.mailbox.post(pilot(snap))
        world.physics.tick(k * 0.02)
        if lift_off is None and not snap.on_ground and snap.height_agl_m > 3.0:
            lift_off = snap.time_s, snap.ias_ms * 3.6 / 1.852
        if lift_off is not None and snap.time_s > lift_off[0] + 1.0:
            nz.append(snap.nz_g)
            q = math.degrees(snap.omega_body_rads[1])
            sign = 1 if q > 8.0 else -1 if q < -8.0 else 0
            q_swings += bool(sign and sign != last)
            last = sign or last
    assert lift_off is not None and lift_off[1] < 180.0, lift_off    # rotated at 135 kt (T.O.: 128-141)
    assert 0.3 < min(nz) and max(nz) < 3.0 and q_swings <= 1, (min(nz), max(nz), q_swings)


def test_the_landing_scenario_lands_on_the_runway():
    """landing.toml: final approach from 1.5 km at 150 m in a 4 m/s headwind; the
    LandingPilot holds the path with the airbrakes, rounds out and holds off."""
    world, pilot, log, snaps = fly("landing", seconds=110.0)
    td = log.touchdown
    assert td is not None, "no touchdown"
    print(log.debrief_lines())
    assert td.place == "runway"
    assert td.sink_ms < 1.5 and td.grade in ("good", "firm")
    assert abs(td.bank_deg) < 5.0 and td.wheel_down
    assert 0.2 < td.airbrake < 1.0                        # the approach was flown on the airbrakes
    # in the objective's touchdown zone (landing.toml: 300 m round along -150 m, the first third)
    obj = [o for o in world.scenario.objectives if o["type"] == "land"][0]
    assert abs(td.along_m - obj["along_m"]) < obj["radius_m"]
    assert td.along_m > -world.terrain.airfield.length_m / 2            # past the threshold
    assert log.at_rest and snaps[-1].on_ground


def test_autopilot_factory_needs_the_winch_for_a_winch_start():
    from flightsim.world.terrain import small
    with pytest.raises(ValueError):
        autopilot(find_scenario("winch"), small())
