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


def test_a_parked_light_aircraft_with_its_pilot_in_the_left_seat_sits_still():
    """The C172 (high wing on tall legs, light roll inertia, CG 2.5 cm left of the centreline with one
    pilot): parked at idle, brakes off, it neither rocks on its gear nor creeps round. Before the
    friction's creep speed counted the legs' arms over the inertia (ground.creep_per_newton_of) it
    rocked at half the step rate (+/-12 deg/s) and turned 8 deg right in 3 s."""
    import math

    from flightsim.physics.named import Controls
    from flightsim.sim import Sim
    sim = Sim("c172p")
    sim.spawn_on_ground()
    assert sim.compiled.cg_m[1] < -0.02
    c = Controls(sim.ctrl.copy(), throttle=0.0, brake_left=0.0, brake_right=0.0)
    h0, rates = sim.euler_rad[2], []
    for _ in range(int(3.0 / 0.02)):
        sim.step(c.array)
        rates.append(abs(sim.roll_rate_rads))
    assert math.degrees(max(rates[-50:])) < 0.5
    assert abs(math.degrees(sim.euler_rad[2] - h0)) < 1.0


def test_a_clockwise_propeller_swings_the_take_off_run_left():
    """Full throttle, hands off, brakes off: a propeller turning clockwise seen from the cockpit swings
    the nose left (its slipstream on the fin's left side, the torque loading the left wheel; the
    pilot holds it with right rudder). The C172 on its nose wheel swung right before the ground fix
    above (the rocking's creep), +4.5 deg in 3 s."""
    import math

    from flightsim.physics.named import Controls
    from flightsim.sim import Sim
    for aircraft in ("c172p",):
        sim = Sim(aircraft)
        sim.spawn_on_ground()
        c = Controls(sim.ctrl.copy(), throttle=1.0, brake_left=0.0, brake_right=0.0, prop_rpm=1.0)
        h0 = sim.euler_rad[2]
        for _ in range(int(3.0 / 0.02)):
            sim.step(c.array)
        assert math.degrees(sim.euler_rad[2] - h0) < -0.5, aircraft
