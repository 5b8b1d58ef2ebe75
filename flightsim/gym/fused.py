"""The Glide and Thermal tasks' env step in one compiled call (issue 37: a fused step per task).

Python's part of an env step (the actions onto the controls, the readouts, the observation's
stack, clip and NaN check, the reward, the ends) cost 25-30 us a step against the glider's 2 us
of physics. ``fused_step`` does all of it in one numba call for every environment of a task:

    fused_step(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds,
               env_p, obs, flight, result, steps, status, runs)

* ``actions`` (N, A) float64: each row onto the controls named by ``cols``: a -1..1 control
  takes it clipped, a 0..1 control (``consts``' signed flags 0) mapped to its range. A row that
  is not finite is not flown (its controls are kept) and its episode ends (terminated, reward 0).
* the physics: ``consts[C_FRAME_SKIP]`` steps of physics.dynamics.step_ws per env step; a refused
  step sets ``status[i]`` and stops that aircraft's steps;
* ``flight`` (N, 19): physics.batch.read_row's readouts (the task's ``f`` views read them);
* ``obs`` (N, K) float32: the task's observation, NaN to 0, clipped to ``bounds`` (2, K);
* ``env_p`` (N, 3): per episode. Glide: target IAS km/h, target heading deg. Thermal: the
  altitude at the last step (the reward's reference, updated here);
* ``result`` (N, 4): reward, terminated, truncated, the action row not finite (as 0/1).

The numbers are the numpy path's (tasks.Task.step_numpy), computed in the same order; the
observation and reward can differ from it in the last bit of an exp or an arctan
(tests/gym/test_fused.py compares the two over whole episodes). More than one environment
is shared out over numba's threads as physics.batch.step_many does, each thread on its own
copy of the model.
"""
from __future__ import annotations

import math

import numpy as np
from numba import prange

from ..physics.batch import FLIGHT_COLUMNS, read_row
from ..physics.dynamics import step_in_diag
from ..physics.jit import exact_kernel, parallel_entry

GLIDE, THERMAL, DOGFIGHT = 0, 1, 2      # (Dogfight's step: gym/fused_dogfight.py)
# consts: the task's constants, one float64 array
C_KIND, C_FRAME_SKIP, C_MAX_STEPS, C_THERMAL_N, C_THERMAL_E = 0, 1, 2, 3, 4
C_ACTION = 5                # then per action: lo, span, signed (3 each)
# result columns
R_REWARD, R_TERMINATED, R_TRUNCATED, R_BAD_ACTION = 0, 1, 2, 3
# the readouts' columns (physics.batch.FLIGHT_COLUMNS, read_row's order)
(F_IAS, F_ROLL, F_PITCH, F_HEADING, F_P, F_Q, F_R, F_ALPHA, F_BETA, F_NZ, F_NORTH, F_EAST, F_ALTITUDE, F_VS,
 F_FAILED) = (FLIGHT_COLUMNS.index(name) for name in (
    "ias_kmh", "roll_deg", "pitch_deg", "heading_deg", "roll_rate_dps", "pitch_rate_dps", "yaw_rate_dps",
    "alpha_deg", "beta_deg", "nz_g", "north_m", "east_m", "altitude_m", "vertical_speed_ms", "failed"))


def task_consts(kind: int, frame_skip: int, max_steps: int, act_lo, act_span, act_signed, thermal=(0.0, 0.0)):
    """The consts array of a task: its kind, frame skip, episode length in env steps, the thermal's
    position (Thermal), and each action's range (lo, span, signed)."""
    c = np.zeros(C_ACTION + 3 * len(act_lo))
    c[C_KIND], c[C_FRAME_SKIP], c[C_MAX_STEPS] = kind, frame_skip, max_steps
    c[C_THERMAL_N], c[C_THERMAL_E] = thermal
    for k, (lo, span, signed) in enumerate(zip(act_lo, act_span, act_signed)):
        c[C_ACTION + 3 * k: C_ACTION + 3 * k + 3] = lo, span, 1.0 if signed else 0.0
    return c


@exact_kernel
def _wrap_deg(a):
    return (a + 180.0) % 360.0 - 180.0


@exact_kernel
def _put(obs, k, x, bounds):
    """obs[k] = x as float32, NaN to 0, clipped to the bounds (tasks.Task.clip_obs)."""
    v = np.float32(x)
    if v != v:
        v = np.float32(0.0)
    lo = bounds[0, k]
    hi = bounds[1, k]
    if v < lo:
        v = lo
    elif v > hi:
        v = hi
    obs[k] = v


@exact_kernel
def _attitude(f, obs, k0, bounds):
    """The seven ATTITUDE components from obs[k0] on."""
    _put(obs, k0, f[F_ROLL], bounds)
    _put(obs, k0 + 1, f[F_PITCH], bounds)
    _put(obs, k0 + 2, f[F_P], bounds)
    _put(obs, k0 + 3, f[F_Q], bounds)
    _put(obs, k0 + 4, f[F_R], bounds)
    _put(obs, k0 + 5, f[F_ALPHA], bounds)
    _put(obs, k0 + 6, f[F_BETA], bounds)


@exact_kernel
def _apply(action, ctrl, consts, cols):
    """The action row onto the controls; False (nothing written) when it is not finite."""
    for k in range(action.shape[0]):
        if not math.isfinite(action[k]):
            return False
    for k in range(action.shape[0]):
        v = min(1.0, max(-1.0, action[k]))
        base = C_ACTION + 3 * k
        if consts[base + 2] != 0.0:
            ctrl[cols[k]] = v
        else:
            ctrl[cols[k]] = consts[base] + (v + 1.0) / 2.0 * consts[base + 1]
    return True


@exact_kernel
def _observe(f, p, obs, consts, bounds):
    """The task's observation from the readouts f; returns the reward (Thermal: updates p[0])."""
    if int(consts[C_KIND]) == GLIDE:
        ias_err = f[F_IAS] - p[0]
        hdg_err = _wrap_deg(p[1] - f[F_HEADING])
        _put(obs, 0, ias_err, bounds)
        _put(obs, 1, hdg_err, bounds)
        _attitude(f, obs, 2, bounds)
        _put(obs, 9, f[F_VS], bounds)
        _put(obs, 10, f[F_IAS], bounds)
        return 0.5 * math.exp(-(ias_err / 10.0) ** 2) + 0.5 * math.exp(-(hdg_err / 15.0) ** 2)
    rel_n = consts[C_THERMAL_N] - f[F_NORTH]
    rel_e = consts[C_THERMAL_E] - f[F_EAST]
    _put(obs, 0, f[F_IAS], bounds)
    _put(obs, 1, f[F_VS], bounds)
    _attitude(f, obs, 2, bounds)
    _put(obs, 9, math.hypot(rel_n, rel_e), bounds)
    _put(obs, 10, _wrap_deg(math.degrees(math.atan2(rel_e, rel_n)) - f[F_HEADING]), bounds)
    alt = f[F_ALTITUDE]
    reward = alt - p[0]
    p[0] = alt
    return reward


@exact_kernel
def _env_step(state, ctrl, env, terrain, model, tables, diag, action, consts, cols, bounds, p, obs, f, result, steps,
              status, i):
    """Environment i's step on ``model`` (the caller's: shared, or the thread's own copy) with its
    rows of every array; the physics' scratch memory is the tail of its diag (a Fleet's diags are
    diag_size long; a shorter one is refused as a failed step)."""
    ok = _apply(action, ctrl, consts, cols)
    status[i] = 0
    for _ in range(int(consts[C_FRAME_SKIP])):
        if step_in_diag(state, ctrl, env, terrain, model, tables, diag) != 0:
            status[i] = 1
            break
    steps[i] += 1
    read_row(state, diag, f)
    reward = _observe(f, p, obs, consts, bounds)
    terminated = f[F_FAILED] != 0.0 or status[i] != 0 or not ok
    result[R_REWARD] = reward if ok else 0.0
    result[R_TERMINATED] = 1.0 if terminated else 0.0
    result[R_TRUNCATED] = 1.0 if (steps[i] >= consts[C_MAX_STEPS] and not terminated) else 0.0
    result[R_BAD_ACTION] = 0.0 if ok else 1.0


@exact_kernel
def _env_row(i, states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, env_p, obs, flight,
             result, steps, status):
    """Environment i's step: its rows' views made here, where no references are counted (in the
    parallel loop each view would count its array's references twice, atomically)."""
    _env_step(states[i], ctrls[i], envs[i], terrain, model, tables, diags[i], actions[i], consts, cols, bounds,
              env_p[i], obs[i], flight[i], result[i], steps, status, i)


@exact_kernel
def fused_step_one(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, env_p,
                   obs, flight, result, steps, status):
    """One environment (row 0), on the shared model, no threads (fleet.Fleet.step's single path);
    compiled without reference counting, so a call from Python wraps none of its 17 arrays."""
    _env_row(0, states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, env_p, obs,
             flight, result, steps, status)


@parallel_entry
def fused_step_many(states, ctrls, envs, terrain, model, tables, diags, actions, consts, cols, bounds, env_p,
                    obs, flight, result, steps, status, runs):
    """Every environment, shared out over ``runs`` of neighbouring rows (numba's threads), each run
    on its own copy of the model (physics.batch.step_many: fuel and rounds re-sum the mass into it)."""
    n = states.shape[0]
    runs = max(1, min(n, runs))
    for c in prange(runs):
        own = model.copy()
        for i in range(c * n // runs, (c + 1) * n // runs):
            _env_row(i, states, ctrls, envs, terrain, own, tables, diags, actions, consts, cols, bounds, env_p, obs,
                     flight, result, steps, status)
