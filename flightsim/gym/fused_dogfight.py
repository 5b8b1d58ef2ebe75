"""The Dogfight task's env step in one compiled call (issue 37: a fused step per task).

As gym/fused.py does for Glide and Thermal, for flightsim/Dogfight-v0, whose env is two aircraft:
the agent in row i, the game's AI fighting it in row n + i. One call per env step, for one
environment or all of them shared over numba's threads:

    dogfight_step_one(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
                      ai_params, ai_memory, ai_base, obs, flight, geo, result, steps, status, R, R2)
    dogfight_step_many(... the same up to status ..., runs)

Each env: the action row onto the agent's controls (gym/fused.py's ``_apply``), the AI's tick
(pilots/ai_kernel.py's ``fly_one``, from the states before the physics, as ``before_step``), both
aircraft's ``consts[C_FRAME_SKIP]`` physics steps, both rows' readouts into ``flight``, then the
geometry (``geo`` (n, 6): the target in the agent's body axes x, y, z, its range, the closure and
the lead point's angle off the guns' line), the observation, the reward and the ends, as
tasks.DogfightTask's numpy path computes them (``dog``: the bullets' speed m/s, the reward's cone
deg and the guns' line in body axes; ``R``, ``R2``: (3, 3) scratch). tests/gym/test_fused.py flies
the two side by side.
"""
from __future__ import annotations

import math

import numpy as np
from numba import prange

from ..physics.batch import FLIGHT_COLUMNS, read_row
from ..physics.dynamics import step_in_diag
from ..physics.jit import exact_kernel, parallel_entry
from ..physics.layout import S_POS, S_QUAT, S_VEL
from ..physics.quat import dcm_from_state
from ..pilots.ai_kernel import fly_one
from .fused import (
    C_FRAME_SKIP,
    C_MAX_STEPS,
    F_ALTITUDE,
    F_FAILED,
    F_IAS,
    R_BAD_ACTION,
    R_REWARD,
    R_TERMINATED,
    R_TRUNCATED,
    _apply,
    _attitude,
    _put,
)

F_NZ = FLIGHT_COLUMNS.index("nz_g")
D_BULLET_MS, D_CONE_DEG, D_BORESIGHT = 0, 1, 2          # dog: then the guns' line x, y, z
G_X, G_Y, G_Z, G_RANGE, G_CLOSURE, G_ANGLE = range(6)   # geo's columns
COLLISION_M = 15.0


@exact_kernel
def _ned_velocity(state, R):
    """The velocity NED of the aircraft whose rotation matrix R holds (R @ the body velocity)."""
    u, v, w = state[S_VEL], state[S_VEL + 1], state[S_VEL + 2]
    return (R[0, 0] * u + R[0, 1] * v + R[0, 2] * w, R[1, 0] * u + R[1, 1] * v + R[1, 2] * w,
            R[2, 0] * u + R[2, 1] * v + R[2, 2] * w)


@exact_kernel
def _geometry(me, tgt, R, R2, dog, g):
    """tasks.DogfightTask.geometry for one env into g: R the agent's rotation, R2 scratch."""
    dcm_from_state(tgt, S_QUAT, R2)
    tvx, tvy, tvz = _ned_velocity(tgt, R2)
    dcm_from_state(me, S_QUAT, R)
    vx, vy, vz = _ned_velocity(me, R)
    rx, ry, rz = tgt[S_POS] - me[S_POS], tgt[S_POS + 1] - me[S_POS + 1], tgt[S_POS + 2] - me[S_POS + 2]
    rng = math.sqrt(rx * rx + ry * ry + rz * rz)
    tof = rng / dog[D_BULLET_MS]
    dvx, dvy, dvz = tvx - vx, tvy - vy, tvz - vz
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
              ai_params, ai_memory, ai_base, R, R2, obs, flight, geo, result, steps, status):
    """Environment i's step (see the module's docstring) on ``model`` (shared, or the thread's copy)."""
    me, ai = i, n + i
    ok = _apply(actions[i], ctrls[me], consts, cols)
    dcm_from_state(states[me], S_QUAT, R)
    tvx, tvy, tvz = _ned_velocity(states[me], R)
    fly_one(states[ai], diags[ai], states[me, S_POS], states[me, S_POS + 1], states[me, S_POS + 2], tvx, tvy, tvz,
            ai_params, ai_memory[i], ai_base, R, ctrls[ai])
    for row in (me, ai):
        status[row] = 0
        for _ in range(int(consts[C_FRAME_SKIP])):
            if step_in_diag(states[row], ctrls[row], envs[row], terrain, model, tables, diags[row]) != 0:
                status[row] = 1
                break
        read_row(states[row], diags[row], flight[row])
    steps[i] += 1
    g = geo[i]
    _geometry(states[me], states[ai], R, R2, dog, g)
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
    on its own copy of the model (physics.batch.step_many says why) and its own rotation scratch."""
    n = actions.shape[0]
    runs = max(1, min(n, runs))
    for c in prange(runs):
        own = model.copy()
        R = np.empty((3, 3))
        R2 = np.empty((3, 3))
        for i in range(c * n // runs, (c + 1) * n // runs):
            _env_step(i, n, states, ctrls, envs, terrain, own, tables, diags, actions, consts, cols, bounds, dog,
                      ai_params, ai_memory, ai_base, R, R2, obs, flight, geo, result, steps, status)


@exact_kernel
def dogfight_step_one(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
                      ai_params, ai_memory, ai_base, obs, flight, geo, result, steps, status, R, R2):
    """One environment on the shared model, no threads; ``R`` and ``R2`` (3, 3) scratch."""
    _env_step(0, 1, states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, dog,
              ai_params, ai_memory, ai_base, R, R2, obs, flight, geo, result, steps, status)
