"""Gymnasium environments over flightsim's own flight model (the tasks: flightsim.gym.tasks).

    FlightEnv("Glide-v0")                   # one aircraft, gymnasium.Env
    FlightVectorEnv("Glide-v0", num_envs=64)   # N aircraft stepped in one kernel call, both cores

``frame_skip``: physics steps (20 ms each) per env step, the action held; default 1, the
game's own control rate of 50 Hz. ``threads`` (the vector environment): numba threads its
kernel call is shared over, default all of numba's (``NUMBA_NUM_THREADS``, the cores); the
caller's own numba setting is put back after each step. Through Gymnasium:
``gym.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point", threads=1)``.

The vector environment resets an episode that ended on the step after (gymnasium's NEXT_STEP
autoreset: that step returns the new episode's first observation, reward 0).

Actions are checked against the action space: a wrong shape raises ValueError ("action must
have shape (3,), got (2,)"); an action that is not finite (NaN, inf) is not flown and ends
that episode (terminated, reward 0); out-of-range values are clipped to -1..1. A terminated
episode's reason is ``info["termination_reason"]`` (the vector environment: an array over
the environments with its ``_termination_reason`` mask): "action not finite", "physics
refused the step: ...", "ground strike", "collision" (flightsim.gym.tasks).
"""
from __future__ import annotations

import gymnasium as gym
import numba
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .tasks import TASKS

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_NO_ROWS = np.empty(0, dtype=np.int64)      # no environment to reset (an index array: () would index them all)


def _spaces(task_cls) -> tuple[spaces.Box, spaces.Box]:
    lo = np.array([b[0] for b in task_cls.observation_bounds], dtype=np.float32)
    hi = np.array([b[1] for b in task_cls.observation_bounds], dtype=np.float32)
    obs = spaces.Box(lo, hi, dtype=np.float32)
    act = spaces.Box(-1.0, 1.0, shape=(len(task_cls.action_names),), dtype=np.float32)
    return obs, act


def _checked(action, shape, what: str) -> np.ndarray:
    """The action as a float array of the space's shape (float64 unless it came as float32 or
    float64 already, as the spaces give them), or a ValueError that says what was wrong."""
    if type(action) is np.ndarray and action.shape == shape and action.dtype in _FLOATS:
        return action                   # (the usual case: the task copies it into its own float64 array)
    try:
        a = np.asarray(action, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be numbers of shape {shape}, got {action!r}") from None
    if a.shape != shape:
        raise ValueError(f"{what} must have shape {shape}, got {a.shape}")
    return a


def _task_cls(task):
    if task not in TASKS:
        raise KeyError(f"unknown task {task!r} (known: {', '.join(TASKS)})")
    return TASKS[task]


def max_threads() -> int:
    """numba's thread count (NUMBA_NUM_THREADS: the cores unless set)."""
    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]


def vector_threads(threads) -> int:
    """The numba threads a vector environment asks for: all of numba's when None, else a whole
    number from 1 to NUMBA_NUM_THREADS (a ValueError says what was wrong)."""
    most = max_threads()
    if threads is None:
        return most
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= most:
        raise ValueError(f"threads must be a whole number from 1 to {most} (NUMBA_NUM_THREADS), got {threads!r}")
    return int(threads)


class FlightEnv(gym.Env):
    """One aircraft flying a task. Observation and action components: ``observation_names``
    and ``action_names`` (units in the names); ``info`` holds the observation by name."""
    metadata = {"render_modes": []}

    def __init__(self, task: str = "Glide-v0", frame_skip: int = 1):
        cls = _task_cls(task)
        self.task_name = task
        self.task = cls(1, frame_skip)
        self.observation_space, self.action_space = _spaces(cls)
        self.observation_names, self.action_names = cls.observation_names, cls.action_names

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.task.reset(0, self.np_random)
        obs = self.task.observe()
        return obs[0], self.task.info(obs, 0)

    def step(self, action):
        a = _checked(action, self.action_space.shape, "action")
        obs, reward, terminated, truncated = self.task.step_single(a)
        info = dict(zip(self.observation_names, obs.tolist()))
        if terminated:
            info["termination_reason"] = self.task.termination_reason(0)
        return obs, reward, terminated, truncated, info


class FlightVectorEnv(VectorEnv):
    """N aircraft flying the same task, each its own episode, stepped together."""
    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, task: str = "Glide-v0", num_envs: int = 16, frame_skip: int = 1, threads: int | None = None):
        cls = _task_cls(task)
        self.task_name = task
        self.num_envs = int(num_envs)
        self.threads = vector_threads(threads)
        self.task = cls(self.num_envs, frame_skip)
        self.single_observation_space, self.single_action_space = _spaces(cls)
        self.observation_space = spaces.Box(np.tile(self.single_observation_space.low, (self.num_envs, 1)),
                                            np.tile(self.single_observation_space.high, (self.num_envs, 1)),
                                            dtype=np.float32)
        self.action_space = spaces.Box(-1.0, 1.0, shape=(self.num_envs, len(cls.action_names)), dtype=np.float32)
        self.observation_names, self.action_names = cls.observation_names, cls.action_names
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)
        self._rng = np.random.default_rng()

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for i in range(self.num_envs):
            self.task.reset(i, self._rng)
        self._needs_reset[:] = False
        return self.task.observe(), {}

    def step(self, actions):
        f, rows = self.task.fleet, (np.flatnonzero(self._needs_reset) if self._needs_reset.any() else _NO_ROWS)
        for i in rows:                                   # NEXT_STEP autoreset
            self.task.reset(int(i), self._rng)
        kept = [(i, f.states[i].copy(), f.ctrls[i].copy(), f.diags[i].copy()) for i in rows]
        reset_obs = self.task.observe()[rows] if len(rows) else None
        checked = _checked(actions, self.action_space.shape, "actions")
        theirs = numba.get_num_threads()
        if theirs == self.threads:           # (setting it takes numba's launch lock: skipped when it is so)
            obs, reward, terminated, truncated = self.task.step(checked, theirs)
        else:
            numba.set_num_threads(self.threads)
            try:
                obs, reward, terminated, truncated = self.task.step(checked, self.threads)
            finally:
                numba.set_num_threads(theirs)
        reasons = {}
        if terminated.any():
            reasons["termination_reason"] = np.array([self.task.termination_reason(i) if t else ""
                                                      for i, t in enumerate(terminated)], dtype=object)
        for i, s, c, d in kept:                          # the new episodes start where reset put them
            f.states[i], f.ctrls[i], f.diags[i] = s, c, d
            self.task.steps[i] = 0
        if len(rows):
            obs[rows], reward[rows], terminated[rows], truncated[rows] = reset_obs, 0.0, False, False
        self._needs_reset = terminated | truncated
        if reasons:
            reasons["termination_reason"][rows] = ""
            reasons["_termination_reason"] = terminated.copy()
        return obs, np.asarray(reward, dtype=np.float64), terminated, truncated, reasons
