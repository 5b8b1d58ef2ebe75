"""The Dogfight task's env step in one compiled call (issue 37: a fused step per task).

As gym/fused.py does for Glide and Thermal, for flightsim/Dogfight-v0, whose env is two aircraft:
the agent in row i, the game's AI fighting it in row n + i. One call per env step, for one
environment or all of them shared over numba's threads:

    dogfight_step_one(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
                      ai_params, ai_memory, ai_base, obs, flight, geo, result, steps, status, R, reads)
    dogfight_step_many(... the same up to status ..., runs)

Each env: the action row onto the agent's controls (gym/fused.py's ``_apply``), the AI's tick
(pilots/ai_kernel.py's ``fly_one``, from the states before the physics, as ``before_step``), both
aircraft's ``consts[C_FRAME_SKIP]`` physics steps, both rows' readouts into ``flight``, then the
geometry (``geo`` (n, 6): the target in the agent's body axes x, y, z, its range, the closure and
the lead point's angle off the guns' line), the observation, the reward and the ends, as
tasks.DogfightTask's numpy path computes them (``dog``: the bullets' speed m/s, the reward's cone
deg and the guns' line in body axes; ``R`` (3, 3) and ``reads`` (2, len(PILOT_COLUMNS)): scratch for
what each aircraft reads, physics.batch.read_pilot_row). tests/gym/test_fused.py flies
the two side by side.
"""
from __future__ import annotations

import math

import numpy as np
from numba import prange

from ..physics.batch import PILOT_COLUMNS, read_pilot_row, read_row
from ..physics.dynamics import step_in_diag
from ..physics.jit import exact_kernel, parallel_entry
from ..pilots.ai_kernel import fly_one
from .fused import (
    C_FRAME_SKIP,
    C_MAX_STEPS,
    F_ALTITUDE,
    F_FAILED,
    F_IAS,
    F_NZ,
    R_BAD_ACTION,
    R_REWARD,
    R_TERMINATED,
    R_TRUNCATED,
    _apply,
    _attitude,
    _put,
)

P_NORTH, P_EAST, P_DOWN, P_VN, P_VE, P_VD = (PILOT_COLUMNS.index(k) for k in (
    "north_m", "east_m", "down_m", "velocity_north_ms", "velocity_east_ms", "velocity_down_ms"))
D_BULLET_MS, D_CONE_DEG, D_BORESIGHT = 0, 1, 2          # dog: then the guns' line x, y, z
G_X, G_Y, G_Z, G_RANGE, G_CLOSURE, G_ANGLE = range(6)   # geo's columns
COLLISION_M = 15.0


@exact_kernel
def _geometry(me, tgt, R, dog, g):
    """tasks.DogfightTask.geometry for one env into g, from what the agent (``me``, its rotation R) and
    its target read (physics.batch.read_pilot_row's rows)."""
    vx, vy, vz = me[P_VN], me[P_VE], me[P_VD]
    rx, ry, rz = tgt[P_NORTH] - me[P_NORTH], tgt[P_EAST] - me[P_EAST], tgt[P_DOWN] - me[P_DOWN]
    rng = math.sqrt(rx * rx + ry * ry + rz * rz)
    tof = rng / dog[D_BULLET_MS]
    dvx, dvy, dvz = tgt[P_VN] - vx, tgt[P_VE] - vy, tgt[P_VD] - vz
    lx, ly, lz = rx + dvx * tof, ry + dvy * tof, rz + dvz * tof
    lb0 = R[0, 0] * lx + R[1, 0] * ly + R[2, 0] * lz
    lb1 = R[0, 1] * lx + R[1, 1] * ly + R[2, 1] * lz
    lb2 = R[0, 2] * lx + R[1, 2] * ly + R[2, 2] * lz
    g[G_X] = R[0, 0] * rx + R[1, 0] * ry + R[2, 0] * rz
    g[G_Y] = R[0, 1] * rx + R[1, 1] * ry + R[2, 1] * rz
    g[G_Z] = R[0, 2] * rx + R[1, 2] * ry + R[2, 2] * rz
    cos_off = (lb0 * dog[D_BORESIGHT] + lb1 * dog[D_BORESIGHT + 1] + lb2 * dog[D_BORESIGHT + 2]) / max(
        math.sqrt(lb0 * lb0 + lb1 * lb1 + lb2 * lb2), 1e-6)
    g[G_RANGE] = rng
    g[G_CLOSURE] = -(rx * dvx + ry * dvy + rz * dvz) / max(rng, 1e-6)
    g[G_ANGLE] = math.degrees(math.acos(min(1.0, max(-1.0, cos_off))))


@exact_kernel
def _env_step(i, n, states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
              ai_params, ai_memory, ai_base, R, reads, obs, flight, geo, result, steps, status):
    """Environment i's step (see the module's docstring) on ``model`` (shared, or the thread's copy)."""
    me, ai = i, n + i
    ok = _apply(actions[i], ctrls[me], consts, cols)
    agent, target = reads[0], reads[1]
    read_pilot_row(states[me], diags[me], R, agent)
    read_pilot_row(states[ai], diags[ai], R, target)
    fly_one(target, R, agent[P_NORTH], agent[P_EAST], agent[P_DOWN], agent[P_VN], agent[P_VE], agent[P_VD],
            ai_params, ai_memory[i], ai_base, ctrls[ai])
    for row in (me, ai):
        status[row] = 0
        for _ in range(int(consts[C_FRAME_SKIP])):
            if step_in_diag(states[row], ctrls[row], envs[row], terrain, model, tables, diags[row]) != 0:
                status[row] = 1
                break
        read_row(states[row], diags[row], flight[row])
    steps[i] += 1
    g = geo[i]
    read_pilot_row(states[ai], diags[ai], R, target)
    read_pilot_row(states[me], diags[me], R, agent)
    _geometry(agent, target, R, dog, g)
    f, o = flight[me], obs[i]
    _put(o, 0, f[F_IAS], bounds)
    _put(o, 1, f[F_ALTITUDE], bounds)
    _attitude(f, o, 2, bounds)
    _put(o, 9, f[F_NZ], bounds)
    for k in range(6):
        _put(o, 10 + k, g[k], bounds)
    rng, angle = g[G_RANGE], g[G_ANGLE]
    if angle < dog[D_CONE_DEG] and 150.0 < rng < 600.0:
        reward = 1.0
    else:
        reward = -min(angle / 1800.0, 0.1)
    terminated = f[F_FAILED] != 0.0 or status[me] != 0 or not ok or rng < COLLISION_M
    r = result[i]
    r[R_REWARD] = reward if ok else 0.0
    r[R_TERMINATED] = 1.0 if terminated else 0.0
    r[R_TRUNCATED] = 1.0 if (steps[i] >= consts[C_MAX_STEPS] and not terminated) else 0.0
    r[R_BAD_ACTION] = 0.0 if ok else 1.0


@parallel_entry
def dogfight_step_many(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
                       ai_params, ai_memory, ai_base, obs, flight, geo, result, steps, status, runs):
    """Every environment, shared out over ``runs`` of neighbouring envs (numba's threads), each run
    on its own copy of the model (physics.batch.step_many says why) and its own scratch."""
    n = actions.shape[0]
    runs = max(1, min(n, runs))
    for c in prange(runs):
        own = model.copy()
        R = np.empty((3, 3))
        reads = np.empty((2, len(PILOT_COLUMNS)))
        for i in range(c * n // runs, (c + 1) * n // runs):
            _env_step(i, n, states, ctrls, envs, terrain, own, tables, diags, actions, consts, cols, bounds, dog,
                      ai_params, ai_memory, ai_base, R, reads, obs, flight, geo, result, steps, status)


@exact_kernel
def dogfight_step_one(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
                      ai_params, ai_memory, ai_base, obs, flight, geo, result, steps, status, R, reads):
    """One environment on the shared model, no threads; ``R`` (3, 3) and ``reads`` (2, len(PILOT_COLUMNS))
    scratch."""
    _env_step(0, 1, states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
              ai_params, ai_memory, ai_base, R, reads, obs, flight, geo, result, steps, status)
