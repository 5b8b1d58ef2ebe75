"""flightsim.gym: the environments pass Gymnasium's checker, the vector environment steps
N aircraft exactly as N single ones would, and the tasks reward what they say."""
import math

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
import flightsim.gym  # noqa: E402,F401
from flightsim.gym.env import FlightEnv, FlightVectorEnv  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402


@pytest.mark.parametrize("env_id", flightsim.gym.ENV_IDS)
def test_each_environment_passes_the_gymnasium_checker(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert set(info) == set(env.unwrapped.observation_names)
    obs2, _ = env.reset(seed=3)
    assert np.array_equal(obs, obs2)                 # seeding: the same start
    env.close()


def test_vector_env_matches_single_envs():
    """Four aircraft in one kernel call end where four single environments end, bit for bit
    close, with the same seeds and actions."""
    vec = FlightVectorEnv("Glide-v0", num_envs=4)
    obs_v, _ = vec.reset(seed=11)
    starts = [vec.task.fleet.states[i].copy() for i in range(4)]
    start_ctrls = [vec.task.fleet.ctrls[i].copy() for i in range(4)]
    rng = np.random.default_rng(0)
    actions = rng.uniform(-0.3, 0.3, size=(50, 4, 3)).astype(np.float32)
    for a in actions:
        obs_v, r_v, te_v, tr_v, _ = vec.step(a)
    for i in range(4):
        single = FlightEnv("Glide-v0")
        single.reset(seed=0)
        single.task.fleet.states[0] = starts[i]
        single.task.fleet.ctrls[0] = start_ctrls[i]
        single.task.target_ias_kmh[0] = vec.task.target_ias_kmh[i]
        single.task.target_heading_deg[0] = vec.task.target_heading_deg[i]
        for a in actions:
            obs_s, r_s, *_ = single.step(a[i])
        assert np.allclose(obs_s, obs_v[i], atol=1e-4)
        assert r_s == pytest.approx(r_v[i], abs=1e-6)


def test_vector_env_resets_an_ended_episode_on_the_next_step():
    vec = FlightVectorEnv("Glide-v0", num_envs=2)
    vec.reset(seed=1)
    vec.task.max_steps = 3
    a = np.zeros((2, 3), dtype=np.float32)
    for _ in range(2):
        _, _, te, tr, _ = vec.step(a)
        assert not tr.any()
    _, _, te, tr, _ = vec.step(a)
    assert tr.all() and not te.any()
    obs, r, te, tr, _ = vec.step(a)                  # the new episodes' first observations
    assert (r == 0).all() and not tr.any() and (vec.task.steps == 0).all()


def test_glide_reward_is_highest_on_target():
    env = FlightEnv("Glide-v0")
    env.reset(seed=2)
    t = env.task
    t.target_ias_kmh[0] = t.f["ias_kmh"][0]
    t.target_heading_deg[0] = t.f["heading_deg"][0]
    on = float(t.reward()[0])
    t.target_heading_deg[0] = (t.target_heading_deg[0] + 45.0) % 360
    off = float(t.reward()[0])
    assert on == pytest.approx(1.0, abs=1e-6) and off < 0.55


def test_thermal_return_is_the_height_gained():
    env = FlightEnv("Thermal-v0")
    env.reset(seed=4)
    h0 = env.task.f["altitude_m"][0]
    total = 0.0
    for _ in range(100):
        _, r, *_ = env.step(np.zeros(3, dtype=np.float32))
        total += r
    assert total == pytest.approx(env.task.f["altitude_m"][0] - h0, abs=1e-6)


def test_dogfight_rewards_a_gun_solution():
    """Put the AI 300 m out along our guns' line, flying as we do: a gun solution; 10 deg
    off that line: none, and the penalty says how far off."""
    env = FlightEnv("Dogfight-v0")
    env.reset(seed=5)
    t = env.task
    f = t.fleet
    me = f.sim_view(0)
    heading = math.radians(me.heading_deg)
    for off_deg, solution in ((0.0, True), (10.0, False)):
        a = math.radians(off_deg)
        line = me.body_to_ned() @ np.array([t.boresight[0] * math.cos(a), math.sin(a), t.boresight[2]])
        there = me.position_ned_m + 300.0 * line / np.linalg.norm(line)
        t._place(1, there[0], there[1], heading)
        f.sim_view(1).set_position_ned(*there)          # the height along the line too
        t.refresh()
        obs = t.observe()[0]
        names = t.observation_names
        assert obs[names.index("target_range_m")] == pytest.approx(300.0, abs=3.0)
        if solution:
            assert float(t.reward()[0]) == 1.0 and obs[names.index("angle_off_deg")] < 0.5
        else:
            assert float(t.reward()[0]) == pytest.approx(-obs[names.index("angle_off_deg")] / 1800.0, rel=1e-3)
            assert 9.0 < obs[names.index("angle_off_deg")] < 11.0
