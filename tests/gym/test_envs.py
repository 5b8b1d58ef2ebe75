"""flightsim.gym: the environments pass Gymnasium's checker, the vector environment steps
N aircraft exactly as N single ones would, and the tasks reward what they say."""
import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

gym = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import flightsim.gym  # noqa: E402,F401
from flightsim.gym.env import FlightEnv, FlightVectorEnv  # noqa: E402


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


# ---------------------------------------------------------------------------- bad actions (issue 31)
@pytest.mark.parametrize("bad, shape", [(np.zeros(2), "(2,)"), (np.zeros((1, 3)), "(1, 3)"), (0.5, "()"),
                                        (np.zeros(4), "(4,)")])
def test_an_action_of_the_wrong_shape_is_refused_clearly(bad, shape):
    env = FlightEnv("Glide-v0")
    env.reset(seed=1)
    before = env.task.fleet.states[0].copy()
    with pytest.raises(ValueError, match=rf"^action must have shape \(3,\), got {re.escape(shape)}$"):
        env.step(bad)
    with pytest.raises(ValueError, match=r"^action must be numbers of shape \(3,\), got 'abc'$"):
        env.step("abc")
    assert np.array_equal(env.task.fleet.states[0], before)       # nothing flown


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_non_finite_action_ends_the_episode_with_its_reason(bad):
    env = FlightEnv("Glide-v0")
    env.reset(seed=2)
    env.step(np.array([0.2, -0.1, 0.0], dtype=np.float32))
    ctrl = env.task.fleet.ctrls[0].copy()
    obs, r, terminated, truncated, info = env.step(np.array([0.0, bad, 0.0], dtype=np.float32))
    assert terminated and not truncated and r == 0.0
    assert info["termination_reason"] == "action not finite"
    assert np.array_equal(env.task.fleet.ctrls[0], ctrl)           # the controls held, no NaN flown
    assert np.all(np.isfinite(obs)) and np.all(np.isfinite(env.task.fleet.states[0]))
    obs, _ = env.reset(seed=2)                                      # and the next episode flies
    _, _, terminated, _, info = env.step(np.zeros(3, dtype=np.float32))
    assert not terminated and "termination_reason" not in info


def test_out_of_range_actions_are_clipped_to_the_space():
    a, b = FlightEnv("Glide-v0"), FlightEnv("Glide-v0")
    a.reset(seed=3)
    b.reset(seed=3)
    for _ in range(20):
        obs_a, *_ = a.step(np.array([5.0, -1e30, 1.5]))
        obs_b, *_ = b.step(np.array([1.0, -1.0, 1.0]))
    assert np.array_equal(obs_a, obs_b)
    assert np.array_equal(a.task.fleet.states, b.task.fleet.states)


def test_a_refused_physics_step_ends_the_episode_with_its_reason():
    env = FlightEnv("Glide-v0")
    env.reset(seed=4)
    env.task.fleet.sim_view(0).set_velocity_body(6000.0, 0.0, 0.0)  # numbers that ran away
    *_, terminated, _, info = env.step(np.zeros(3))
    assert terminated
    assert info["termination_reason"] == "physics refused the step: state past physical bounds"


def test_vector_env_checks_actions_per_row():
    vec = FlightVectorEnv("Glide-v0", num_envs=3)
    vec.reset(seed=5)
    with pytest.raises(ValueError, match=r"^actions must have shape \(3, 3\), got \(3,\)$"):
        vec.step(np.zeros(3))
    with pytest.raises(ValueError, match=r"^actions must have shape \(3, 3\), got \(2, 3\)$"):
        vec.step(np.zeros((2, 3)))
    a = np.zeros((3, 3), dtype=np.float32)
    a[1, 2] = np.nan
    _, r, te, tr, info = vec.step(a)
    assert list(te) == [False, True, False] and r[1] == 0.0
    assert list(info["_termination_reason"]) == [False, True, False]
    assert info["termination_reason"][1] == "action not finite"
    assert np.all(np.isfinite(vec.task.fleet.states))
    _, r, te, tr, info = vec.step(np.zeros((3, 3)))                # row 1 starts afresh
    assert not te.any() and r[1] == 0.0 and info == {}


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(action=st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e300, -1e300]),
                       min_size=3, max_size=3))
def test_any_action_either_flies_clipped_or_ends_the_episode(action):
    env = _env_for_properties()
    env.reset(seed=6)
    obs, r, terminated, _, info = env.step(np.array(action))
    if not np.all(np.isfinite(action)):
        assert terminated and info["termination_reason"] == "action not finite" and r == 0.0
    else:
        assert info.get("termination_reason", "") in ("", "ground strike")
    assert np.all(np.isfinite(obs)) and np.all(np.isfinite(env.task.fleet.states))
    assert env.task.fleet.read.velocity_body_ms[0] @ env.task.fleet.read.velocity_body_ms[0] < 100.0 ** 2


_property_env = []


def _env_for_properties():
    if not _property_env:
        _property_env.append(FlightEnv("Glide-v0"))
    return _property_env[0]


def test_each_observation_is_one_row_of_name_unit_bounds_and_meaning():
    """The tasks' observations are one table (issue 32); the unit column agrees with the name's
    suffix (docs/units.md), and the names and bounds the spaces use come from it."""
    from flightsim.gym.tasks import TASKS
    suffix_unit = {"_kmh": "km/h", "_dps": "deg/s", "_deg": "deg", "_ms": "m/s", "_m": "m", "_g": "g"}
    for task in TASKS.values():
        assert task.observation_names == tuple(o.name for o in task.observations)
        assert task.observation_bounds == tuple((o.low, o.high) for o in task.observations)
        for o in task.observations:
            unit = next(u for s, u in suffix_unit.items() if o.name.endswith(s))
            assert o.unit == unit, o.name
            assert o.low < o.high and o.description


def test_the_vector_env_gives_the_same_flights_on_one_thread_and_on_all():
    """``threads`` shares the kernel call over fewer or more numba threads and nothing else: each
    aircraft's step reads and writes only its own rows, so the results are identical; the
    caller's own numba setting is put back after each step; a bad count is refused."""
    import gymnasium as gym
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    for task in ("Glide-v0", "Dogfight-v0"):        # a glider; fighters burning fuel, each its own mass
        runs = []
        for threads in (1, most):
            env = gym.make_vec(f"flightsim/{task}", num_envs=6, vectorization_mode="vector_entry_point",
                               threads=threads)
            assert env.threads == threads
            obs, _ = env.reset(seed=3)
            rng = np.random.default_rng(5)
            out = [obs]
            before = numba.get_num_threads()
            for _ in range(40):
                o, r, te, tr, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
                out += [o, r, te, tr]
            assert numba.get_num_threads() == before
            runs.append(out)
        for a, b in zip(*runs):
            assert np.array_equal(a, b), task
    assert FlightVectorEnv("Glide-v0", num_envs=2).threads == most
    for bad in (0, most + 1, 1.5, "2", True):
        with pytest.raises(ValueError, match="threads must be a whole number"):
            FlightVectorEnv("Glide-v0", num_envs=2, threads=bad)


def test_the_gym_bench_measures_each_vector_case_on_one_thread_and_on_all():
    import numba

    from flightsim.tools import bench
    rows = bench.gym_bench(seconds=0.05, runs=(("Glide-v0", (1, 8)),))
    most = numba.config.NUMBA_NUM_THREADS
    assert [(r["envs"], r["threads"]) for r in rows] == [(1, numba.get_num_threads()), (8, 1)] + \
        ([(8, most)] if most > 1 else [])
    assert all(r["env_steps_per_s"] > 0 and "vs_jsbsim" in r for r in rows)
    scaling = bench.gym_scaling(rows)
    if most > 1:
        (s,) = scaling
        assert (s["env"], s["envs"], s["threads"]) == ("flightsim/Glide-v0", 8, most)
        assert s["vs_1_thread"] == pytest.approx(rows[2]["env_steps_per_s"] / rows[1]["env_steps_per_s"], abs=0.011)
        assert s["vs_1_thread_paired"] > 0 and rows[2]["vs_1_thread_paired"] == s["vs_1_thread_paired"]
    (t,) = bench.gym_bench(seconds=0.05, runs=(("Thermal-v0", (1,)),))      # judged beside Glide-v0, in turn
    assert t["paired_with"] == "flightsim/Glide-v0" and t["vs_paired_env"] > 0
