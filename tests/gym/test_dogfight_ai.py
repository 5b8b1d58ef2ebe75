"""The Dogfight targets' compiled pilot (pilots.ai_kernel) against the game's FighterAI it copies:
the same controls tick by tick from the same states, and the same fights over an episode."""
import math

import numpy as np
import pytest

from flightsim.gym.tasks import DogfightTask
from flightsim.physics.batch import PILOT_COLUMNS, read_pilot_row
from flightsim.pilots import ai_kernel


def _actions(rng, n):
    a = rng.uniform(-1.0, 1.0, size=(n, 4)) * np.array([0.5, 0.5, 0.3, 1.0])
    a[:, 3] = 1.0
    return a


def test_the_compiled_pilot_gives_the_fighter_ais_controls_tick_by_tick():
    """Four targets, each a different kind of pilot (the Dogfight's own; one that fires; one whose
    floor is above it, so it pulls up; one flying a fly-by-wire stick), each tick given the
    FighterAI's memory: the controls and the memory it leaves agree to 1e-9."""
    task = DogfightTask(4)
    task.compiled_ai = False                     # the FighterAI objects fly the fight
    rng = np.random.default_rng(4)
    for i in range(4):
        task.reset(i, rng)
        # the target 350 m behind the agent, in its gun range (the last 8 deg off its line); the pulling-up
        # one 3 km behind (war emergency power, pure pursuit)
        heading = math.radians(task.fleet.sim_view(i).heading_deg)
        back = 3000.0 if i == 2 else 350.0
        task._place(task.n_envs + i, -back * math.cos(heading), -back * math.sin(heading),
                    heading + (math.radians(8.0) if i == 3 else 0.0))
    task.ais[1].may_fire = True
    task.ais[2].floor_m = 3500.0
    task.ais[3].g_command = (7.33, -3.0)
    f, n = task.fleet, task.n_envs
    R, reads = np.zeros((3, 3)), np.zeros(len(PILOT_COLUMNS))
    seen = {"firing": 0, "pull up": 0, "fine aim": 0, "coarse aim": 0}
    for k in range(400):
        mine = f.ctrls.copy()
        memory = np.stack([ai_kernel.memory_of(ai) for ai in task.ais])
        pos, vel = f.read.position_ned_m, f.read.velocity_ned_ms
        for i, ai in enumerate(task.ais):
            read_pilot_row(f.states[n + i], f.diags[n + i], R, reads)
            ai_kernel.fly_one(reads, R, *pos[i], *vel[i], ai_kernel.params_of(ai), memory[i], ai.base.to_array(),
                              mine[n + i])
        task.step_numpy(_actions(rng, n))        # before_step: the FighterAIs write f.ctrls
        np.testing.assert_allclose(mine[n:], f.ctrls[n:], rtol=0, atol=1e-9, err_msg=f"tick {k}")
        after = np.stack([ai_kernel.memory_of(ai) for ai in task.ais])
        np.testing.assert_allclose(memory, after, rtol=0, atol=1e-9, err_msg=f"tick {k}")
        seen["firing"] += int(task.ais[1].firing)
        seen["pull up"] += int(task.ais[2].mode == "pull up")
        seen["fine aim"] += sum(ai.aim_off_rad < math.radians(4.0) for ai in task.ais)
        seen["coarse aim"] += sum(ai.aim_off_rad > math.radians(4.0) for ai in task.ais)
    assert seen["pull up"] > 100 and seen["firing"] > 10 and seen["fine aim"] > 50 and seen["coarse aim"] > 20, seen


def test_the_compiled_pilot_flies_the_fight_the_fighter_ai_flies():
    """Two Dogfight tasks on the numpy path, one with the compiled targets and one with the FighterAI
    objects, the same resets and actions for 10 s: the same flights (to 1e-6 of the states)."""
    tasks = [DogfightTask(3), DogfightTask(3)]
    tasks[1].compiled_ai = False
    for t in tasks:
        rng = np.random.default_rng(11)
        for i in range(3):
            t.reset(i, rng)
    rng = np.random.default_rng(12)
    for _ in range(500):
        a = _actions(rng, 3)
        out = [t.step_numpy(a) for t in tasks]
        np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-6, atol=1e-4)
    np.testing.assert_allclose(tasks[0].fleet.states, tasks[1].fleet.states, rtol=1e-6, atol=1e-6)
    moved = tasks[0].fleet.states[3:, 0:3] - tasks[1].fleet.states[3:, 0:3]
    assert np.abs(moved).max() < 1e-3
    heading_change = [abs(t.fleet.sim_view(3).heading_deg - t.fleet.sim_view(0).heading_deg) for t in tasks]
    assert heading_change[0] == pytest.approx(heading_change[1], abs=1e-6)


def test_a_pilot_breaking_off_is_not_compiled():
    task = DogfightTask(1)
    task.ais[0].disengage = True
    with pytest.raises(ValueError, match="disengage"):
        ai_kernel.params_of(task.ais[0])
    assert math.isfinite(ai_kernel.memory_of(task.ais[0]).sum())
