"""The fused env step (flightsim.gym.fused: one compiled call per step) against the numpy path it
replaced (Task.step_numpy), over whole episodes: the same flights, observations, rewards and ends."""
import numpy as np
import pytest

from flightsim.gym.env import FlightEnv, FlightVectorEnv


def _actions(rng, n, k):
    a = rng.uniform(-1.2, 1.2, size=(n, 3)) * 0.4          # some beyond the -1..1 clip
    if k % 53 == 7:
        a[0, 1] = np.nan                                     # not flown, the episode ends
    return a


def _flies_as_numpy_path(task, n, frame_skip, reset_seed, max_steps, actions, steps, obs_atol):
    """A fused vector env and one on step_numpy (threads=1), the same resets and actions: the same
    ends, reasons, observations and rewards each step; returns (fused, numpy one, episodes ended)."""
    fused, ref = (FlightVectorEnv(task, num_envs=n, frame_skip=frame_skip, threads=1) for _ in range(2))
    ref.task.step = ref.task.step_numpy
    for env in (fused, ref):
        env.reset(seed=reset_seed)
        env.task.max_steps = max_steps                       # truncations and autoresets on the way
    ends = 0
    for k in range(steps):
        a = actions(k)
        o1, r1, te1, tr1, i1 = fused.step(a)
        o2, r2, te2, tr2, i2 = ref.step(a)
        np.testing.assert_array_equal(te1, te2)
        np.testing.assert_array_equal(tr1, tr2)
        np.testing.assert_allclose(o1, o2, rtol=1e-6, atol=obs_atol, err_msg=f"step {k}")
        np.testing.assert_allclose(r1, r2, rtol=0, atol=1e-9)
        assert list(i1.get("termination_reason", [])) == list(i2.get("termination_reason", []))
        ends += int(te1.sum() + tr1.sum())
    return fused, ref, ends


def _single_flies_as_numpy_path(task, reset_seed, actions, steps, obs_atol, same_info=None):
    """FlightEnv on the fused and the numpy path (step_single through step_numpy), the same resets and
    actions; ``same_info(i1, i2)`` compares a step's info beyond its keys, where the episode went on."""
    fused, ref = FlightEnv(task), FlightEnv(task)
    ref.task.fused_kind = None
    for env in (fused, ref):
        env.reset(seed=reset_seed)
    for k in range(steps):
        a = actions(k)
        o1, r1, te1, tr1, i1 = fused.step(a)
        o2, r2, te2, tr2, i2 = ref.step(a)
        assert (te1, tr1) == (te2, tr2)
        assert type(r1) is float and type(te1) is bool and o1.dtype == np.float32
        np.testing.assert_allclose(o1, o2, rtol=1e-6, atol=obs_atol)
        assert r1 == pytest.approx(r2, abs=1e-9)
        assert i1.keys() == i2.keys()
        if same_info is not None and not te1:
            same_info(i1, i2)
        if te1:
            for env in (fused, ref):
                env.reset(seed=k)


@pytest.mark.parametrize("task,n,frame_skip", [("Glide-v0", 1, 1), ("Glide-v0", 3, 1), ("Thermal-v0", 1, 1),
                                                ("Thermal-v0", 3, 1), ("Glide-v0", 2, 3)])
def test_fused_vector_step_flies_as_the_numpy_path(task, n, frame_skip):
    rng = np.random.default_rng(2)
    fused, ref, ends = _flies_as_numpy_path(task, n, frame_skip, 5, 120, lambda k: _actions(rng, n, k), 300, 1e-5)
    assert ends >= 4
    np.testing.assert_allclose(fused.task.fleet.states, ref.task.fleet.states, rtol=1e-9, atol=1e-9)


def test_fused_single_env_step_flies_as_the_numpy_path():
    """FlightEnv (Thermal: the reward carries the last altitude) on the fused and the numpy path."""
    rng = np.random.default_rng(3)
    _single_flies_as_numpy_path("Thermal-v0", 9, lambda k: _actions(rng, 1, k)[0], 200, 1e-5)


def _dogfight_actions(rng, n, k):
    a = rng.uniform(-1.2, 1.2, size=(n, 4)) * np.array([0.4, 0.4, 0.3, 1.0])
    if k % 97 == 40:
        a[n - 1, 2] = np.inf                                 # not flown, the episode ends
    return a


@pytest.mark.parametrize("n,frame_skip", [(1, 1), (3, 1), (2, 2)])
def test_fused_dogfight_step_flies_as_the_numpy_path(n, frame_skip):
    """Dogfight (two aircraft an env, the AI's tick in the step): the fused kernels
    (gym/fused_dogfight.py) against step_numpy, through resets, truncations and a bad action."""
    rng = np.random.default_rng(8)
    fused, ref, ends = _flies_as_numpy_path("Dogfight-v0", n, frame_skip, 7, 150,
                                            lambda k: _dogfight_actions(rng, n, k), 400, 1e-4)
    assert ends >= 3
    np.testing.assert_allclose(fused.task.fleet.states, ref.task.fleet.states, rtol=1e-7, atol=1e-7)
    np.testing.assert_allclose(fused.task.ai_memory, ref.task.ai_memory, rtol=0, atol=1e-9)


def test_fused_dogfight_single_env_flies_as_the_numpy_path():
    rng = np.random.default_rng(4)

    def same_info(i1, i2):
        assert i1 == pytest.approx(i2, rel=1e-6, abs=1e-4)

    _single_flies_as_numpy_path("Dogfight-v0", 3, lambda k: _dogfight_actions(rng, 1, k)[0], 300, 1e-4, same_info)


@pytest.mark.parametrize("range_m,solution", [(120.0, False), (300.0, True), (595.0, True), (640.0, False)])
def test_fused_dogfight_rewards_a_gun_solution_in_its_range(range_m, solution):
    """The target put on our guns' line, flying as we do, at 120-640 m: one fused step pays 1 inside
    150-600 m; outside, the angle-off penalty (tiny on the line)."""
    env = FlightEnv("Dogfight-v0")
    env.reset(seed=5)
    t = env.task
    me = t.fleet.sim_view(0)
    line = me.body_to_ned() @ t.boresight
    there = me.position_ned_m + range_m * line / np.linalg.norm(line)
    t._place(1, there[0], there[1], np.radians(me.heading_deg))
    t.fleet.sim_view(1).set_position_ned(*there)
    obs, reward, terminated, _, _ = env.step(np.array([0.0, 0.0, 0.0, 1.0]))
    names = t.observation_names
    assert obs[names.index("target_range_m")] == pytest.approx(range_m, abs=2.0)
    assert obs[names.index("angle_off_deg")] < 1.0 and not terminated
    assert (reward == 1.0) == solution, reward
    if not solution:
        assert reward == pytest.approx(-obs[names.index("angle_off_deg")] / 1800.0, abs=1e-6)
