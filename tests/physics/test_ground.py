"""Gear spring-dampers with friction, parked stability, strikes and the terrain interface."""
import math

import numpy as np
import pytest

from flightsim.physics import layout as L
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
    sim.state[L.S_STRIKE_INDEX] = -1.0   # settling put a wingtip down; watch for new touches only
    sim.state[L.S_STRIKE_SPEED] = 0.0
    p0 = sim.position_ned_m
    track = []
    for _ in range(3000):           # 60 s
        sim.step()
        track.append(sim.position_ned_m)
    track = np.array(track)
    drift = np.linalg.norm(track[-1, :2] - p0[:2])
    assert drift < 0.01
    assert np.ptp(track[:, 2]) < 0.001
    assert sim.diag[L.D_ON_GROUND] >= 1
    assert sim.state[L.S_STRIKE_INDEX] == -1


def test_wingtip_strike_is_reported_with_its_speed(trainer_path):
    sim = Sim(trainer_path)
    names = [c["name"] for c in sim.compiled.spec.contacts]
    # 40 degrees right wing down, sinking at 3 m/s, just above the ground
    sim.state = make_state((0, 0, -6.0), (0.0, 0.0, 0.0), roll_rad=math.radians(40))
    sim.state[L.S_VEL:L.S_VEL + 3] = 0.0
    for _ in range(200):
        sim.step()
        if sim.state[L.S_STRIKE_INDEX] >= 0:
            break
    assert names[int(sim.state[L.S_STRIKE_INDEX])] == "right_tip"
    assert 1.0 < sim.state[L.S_STRIKE_SPEED] < 15.0


def test_brakes_stop_a_rolling_aircraft_sooner(trainer_path):
    def roll_distance(brake):
        sim = Sim(trainer_path)
        sim.spawn_on_ground(settle_s=3.0)
        sim.ctrl = make_ctrl(brake_left=brake, brake_right=brake, pitch=0.0)
        sim.state[L.S_VEL] = 8.0
        x0 = sim.position_ned_m[0]
        sim.fly(15.0)
        return sim.position_ned_m[0] - x0, sim.velocity_ned_ms

    free, v_free = roll_distance(0.0)
    braked, v_braked = roll_distance(1.0)
    assert braked < 0.6 * free
    assert np.linalg.norm(v_braked[:2]) < 0.05
