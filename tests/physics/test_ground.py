"""Gear spring-dampers with friction, parked stability, strikes and the terrain interface."""
import math

import numpy as np
import pytest

from flightsim.physics.ground import terrain_height
from flightsim.physics.state import make_ctrl, make_env, make_state
from flightsim.sim import Sim


def test_heightfield_bilinear_and_gradient():
    env = make_env(terrain_origin_ne_m=(-100.0, -100.0), terrain_spacing_m=10.0)
    n = np.arange(21) * 10.0 - 100.0
    terrain = np.add.outer(0.1 * n, 0.05 * n) + 50.0      # a plane: h = 50 + 0.1 N + 0.05 E
    h, dn, de = terrain_height(terrain, env, 13.0, -27.0)
    assert h == pytest.approx(50 + 1.3 - 1.35)
    assert (dn, de) == pytest.approx((0.1, 0.05))


def test_parked_aircraft_stays_put(trainer_path):
    sim = Sim(trainer_path)
    sim.spawn_on_ground(settle_s=10.0)
    sim.ctrl = make_ctrl()          # brakes off: nothing but the ground holds it
    sim.clear_strike()              # settling put a wingtip down; watch for new touches only
    p0 = sim.position_ned_m
    track = []
    for _ in range(3000):           # 60 s
        sim.step()
        track.append(sim.position_ned_m)
    track = np.array(track)
    drift = np.linalg.norm(track[-1, :2] - p0[:2])
    assert drift < 0.01
    assert np.ptp(track[:, 2]) < 0.001
    assert sim.gear_on_ground >= 1
    assert sim.strike_contact == -1


def test_wingtip_strike_is_reported_with_its_speed(trainer_path):
    sim = Sim(trainer_path)
    names = [c["name"] for c in sim.compiled.spec.contacts]
    # 40 degrees right wing down, sinking at 3 m/s, just above the ground
    sim.state = make_state((0, 0, -6.0), (0.0, 0.0, 0.0), roll_rad=math.radians(40))
    sim.set_velocity_body(0.0, 0.0, 0.0)
    for _ in range(200):
        sim.step()
        if sim.struck:
            break
    assert names[sim.strike_contact] == "right_tip"
    assert 1.0 < sim.strike_speed_ms < 15.0


def test_brakes_stop_a_rolling_aircraft_sooner(trainer_path):
    def roll_distance(brake):
        sim = Sim(trainer_path)
        sim.spawn_on_ground(settle_s=3.0)
        sim.ctrl = make_ctrl(brake_left=brake, brake_right=brake, pitch=0.0)
        sim.forward_speed_ms = 8.0
        x0 = sim.position_ned_m[0]
        sim.fly(15.0)
        return sim.position_ned_m[0] - x0, sim.velocity_ned_ms

    free, v_free = roll_distance(0.0)
    braked, v_braked = roll_distance(1.0)
    assert braked < 0.6 * free
    assert np.linalg.norm(v_braked[:2]) < 0.05


def _rolling(trainer_path, tmp_path, **gear_changes):
    from flightsim.aircraft_data.compile import compile_aircraft
    from flightsim.aircraft_data.loader import load_aircraft
    spec = load_aircraft(trainer_path)
    for name, changes in gear_changes.items():
        g = next(g for g in spec.gear if g["name"] == name)
        g.update(changes)
    sim = Sim(compile_aircraft(spec))
    sim.spawn_on_ground(settle_s=3.0, roll_rad=0.0)
    sim.forward_speed_ms = 6.0
    return sim


def test_steerable_wheel_turns_the_rolling_aircraft(trainer_path, tmp_path):
    headings = {}
    for pedal in (-1.0, 0.0, 1.0):
        sim = _rolling(trainer_path, tmp_path, tail={"steering_max_deg": 30.0})
        sim.fly(3.0, make_ctrl(yaw=pedal))
        headings[pedal] = math.degrees(sim.euler_rad[2])
    assert headings[1.0] > headings[0.0] + 5.0          # right pedal: turns right
    assert headings[-1.0] < headings[0.0] - 5.0


def test_one_wheel_brake_turns_toward_its_side(trainer_path, tmp_path):
    # a two-wheel main gear with a brake on each side
    wheel = dict(stiffness_n_per_m=30000.0, damping_n_s_per_m=2000.0, rolling_mu=0.03, brake_mu=0.6,
                 side_mu=0.8)
    from flightsim.aircraft_data.compile import compile_aircraft
    from flightsim.aircraft_data.loader import load_aircraft
    spec = load_aircraft(trainer_path)
    main = next(g for g in spec.gear if g["name"] == "main")
    spec.gear.remove(main)
    for side, y in (("right", 0.6), ("left", -0.6)):
        spec.gear.append(dict(wheel, name=f"main_{side}", position_m=(0.1, y, 0.9), steering_max_deg=0.0,
                              brake_side=side, drag_area_m2=0.0, retractable=False, _where=side))
    sim = Sim(compile_aircraft(spec))
    sim.spawn_on_ground(settle_s=3.0, roll_rad=0.0)
    sim.forward_speed_ms = 6.0
    sim.fly(3.0, make_ctrl(brake_right=1.0))
    assert math.degrees(sim.euler_rad[2]) > 5.0          # right brake: swings right
