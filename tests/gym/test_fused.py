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


@pytest.mark.parametrize("task,n,frame_skip", [("Glide-v0", 1, 1), ("Glide-v0", 3, 1), ("Thermal-v0", 1, 1),
                                                ("Thermal-v0", 3, 1), ("Glide-v0", 2, 3)])
def test_fused_vector_step_flies_as_the_numpy_path(task, n, frame_skip):
    fused, ref = (FlightVectorEnv(task, num_envs=n, frame_skip=frame_skip, threads=1) for _ in range(2))
    ref.task.step = ref.task.step_numpy
    for env in (fused, ref):
        env.reset(seed=5)
        env.task.max_steps = 120                             # truncations and autoresets on the way
    rng = np.random.default_rng(2)
    ends = 0
    for k in range(300):
        a = _actions(rng, n, k)
        o1, r1, te1, tr1, i1 = fused.step(a)
        o2, r2, te2, tr2, i2 = ref.step(a)
        np.testing.assert_array_equal(te1, te2)
        np.testing.assert_array_equal(tr1, tr2)
        np.testing.assert_allclose(o1, o2, rtol=1e-6, atol=1e-5)
        np.testing.assert_allclose(r1, r2, rtol=0, atol=1e-9)
        assert list(i1.get("termination_reason", [])) == list(i2.get("termination_reason", []))
        ends += int(te1.sum() + tr1.sum())
    assert ends >= 4
    np.testing.assert_allclose(fused.task.fleet.states, ref.task.fleet.states, rtol=1e-9, atol=1e-9)


def test_fused_single_env_step_flies_as_the_numpy_path():
    """FlightEnv (Thermal: the reward carries the last altitude) on the fused and the numpy path."""
    fused, ref = FlightEnv("Thermal-v0"), FlightEnv("Thermal-v0")
    ref.task.fused_kind = None                               # step_single through step_numpy
    for env in (fused, ref):
        env.reset(seed=9)
    rng = np.random.default_rng(3)
    for k in range(200):
        a = _actions(rng, 1, k)[0]
        o1, r1, te1, tr1, i1 = fused.step(a)
        o2, r2, te2, tr2, i2 = ref.step(a)
        assert (te1, tr1) == (te2, tr2)
        assert type(r1) is float and type(te1) is bool and o1.dtype == np.float32
        np.testing.assert_allclose(o1, o2, rtol=1e-6, atol=1e-5)
        assert r1 == pytest.approx(r2, abs=1e-9)
        assert i1.keys() == i2.keys()
        if te1:
            for env in (fused, ref):
                env.reset(seed=k)
