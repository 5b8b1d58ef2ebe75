"""The tasks behind the Gymnasium environments: what is flown, observed and rewarded.

Each task works on a Fleet of N aircraft at once, so the single environment and the vector
environment share every line. Each task takes the env step in one compiled call: Glide and Thermal
in gym/fused.py, Dogfight with its targets' AI pilot in gym/fused_dogfight.py (the pilot:
pilots/ai_kernel.py). ``step_numpy``, the same step in numpy a call per part, is their reference
in the tests. Observations and actions are float32 arrays whose components are named with their
units in ``observation_names`` and ``action_names``; the same values, by name, are in ``info``. Each
task's ``observations`` is one table of them: name, unit, the bounds they are clipped to, and what
each is.

Glide (Astir, flightsim/Glide-v0)
    Start: a trimmed glide at 80-110 km/h IAS, 1,000 m, a random heading. Target: a heading
    up to 90 deg either side and an airspeed of 80-120 km/h, both random per episode.
    Actions: stick pitch, roll and pedals (-1..1). Reward per step, 0..1:
    ``0.5 exp(-(ias_error_kmh / 10)^2) + 0.5 exp(-(heading_error_deg / 15)^2)``.
    Ends: 60 s (3,000 steps at 50 Hz, truncated); terminated on a ground strike or a
    non-finite state.

Thermal (Astir, flightsim/Thermal-v0)
    One thermal (radius 150 m, 3.5 m/s at the core, Gaussian profile of physics.aero) at
    the origin; the glider starts 100-300 m from it at 600 m, trimmed at 90 km/h, any
    heading. Observations add the vario and where the thermal is (a pilot reads it from
    the cloud and the birds). Reward per step: the climb (m) in that step, so an episode's
    return is the height gained. Ends: 120 s; terminated on a strike or non-finite state.

Dogfight (P-51D against the game's AI P-51D, flightsim/Dogfight-v0)
    Both trimmed level at 400 km/h, 3,000 m; the AI 300-600 m ahead, offset up to 100 m,
    flown by the game's AI, flightsim.pilots.ai.FighterAI (compiled: pilots/ai_kernel.py), which
    turns to fight. Actions: pitch, roll, yaw and throttle (-1..1 mapped to 0..1). Reward per step:
    1 when the target is inside a 2 deg cone, around the guns' line, of the lead point (where it
    will be when bullets at 870 m/s arrive) at 150-600 m, else ``-angle_off_deg / 1800`` (at most
    -0.1). Ends: 90 s; terminated on a strike, a non-finite state, or closer than 15 m (collision).

Every task: an action row that is not finite (NaN or infinite) is not flown (that aircraft
keeps its controls for the step), its episode ends (terminated, reward 0); out-of-range
actions are clipped to -1..1. ``termination_reason(i)`` says why an episode ended: "action
not finite", "physics refused the step: <why>" (physics.named.REFUSALS), "ground strike",
"collision".
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..fleet import Fleet
from ..physics.batch import PILOT_COLUMNS
from ..physics.named import CONTROL_INDEX, CONTROL_RANGE
from ..physics.state import make_env
from ..pilots import ai_kernel
from ..sim import Sim
from . import fused, fused_dogfight

DT_S = 0.02


def _wrap_deg(a):
    return (a + 180.0) % 360.0 - 180.0


@dataclass(frozen=True)
class Observation:
    """One component of a task's observation: its name (unit suffix, docs/units.md), unit, the
    bounds it is clipped to, and what it is."""
    name: str
    unit: str
    low: float
    high: float
    description: str


def observations(*rows) -> tuple:
    """A task's observation table from (name, unit, low, high, description) rows."""
    return tuple(Observation(*row) for row in rows)


class Task:
    """Base: a task over a Fleet. Subclasses set the class attributes and the hooks; a task's
    ``observations`` table gives ``observation_names`` and ``observation_bounds``."""
    aircraft = "astir"
    aircraft_per_env = 1
    episode_s = 60.0
    fused_kind: int | None = None      # gym.fused's task kind: step() in one compiled call
    action_names: tuple = ()
    observations: tuple = ()
    observation_names: tuple = ()
    observation_bounds: tuple = ()

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.observation_names = tuple(o.name for o in cls.observations)
        cls.observation_bounds = tuple((o.low, o.high) for o in cls.observations)

    def __init__(self, n_envs: int, frame_skip: int = 1):
        self.n_envs, self.frame_skip = int(n_envs), int(frame_skip)
        self.max_steps = int(round(self.episode_s / (DT_S * self.frame_skip)))
        self.fleet = Fleet(self.aircraft, self.n_envs * self.aircraft_per_env, env=self.make_env())
        self.steps = np.zeros(self.n_envs, dtype=np.int64)
        self.bad_action: np.ndarray = np.zeros(self.n_envs, dtype=bool)   # this step's rows that were not finite
        # the actions' control columns and ranges (apply_actions)
        self._act_cols = np.array([CONTROL_INDEX[name] for name in self.action_names], dtype=np.int64)
        lo, hi = (np.array([CONTROL_RANGE[name][j] for name in self.action_names]) for j in (0, 1))
        self._act_lo, self._act_span, self._act_signed = lo, hi - lo, lo < 0
        self.env_p = np.zeros((self.n_envs, 3))     # per episode: the fused step's (gym.fused)
        self.prepare()
        if self.fused_kind is not None:
            self._fused_setup()

    # hooks
    def make_env(self):
        return make_env()

    def prepare(self):
        """Trims and anything else done once per task."""

    def reset_env(self, i: int, rng: np.random.Generator):
        raise NotImplementedError

    def apply_actions(self, actions: np.ndarray):
        """Each action component (-1..1) onto the control of its name, for the agents' rows;
        a 0..1 control (throttle) takes it mapped to its range. One write into the control
        columns (the actions are finite here: step() keeps non-finite rows out)."""
        v = np.clip(actions, -1.0, 1.0)
        self.fleet.ctrls[:self.n_envs, self._act_cols] = np.where(self._act_signed, v,
                                                                  self._act_lo + (v + 1.0) / 2.0 * self._act_span)

    def observe(self) -> np.ndarray:
        raise NotImplementedError

    def reward(self) -> np.ndarray:
        raise NotImplementedError

    def terminated(self) -> np.ndarray:
        n = self.n_envs
        return (self.f["failed"][:n] != 0) | (self.fleet.status[:n] != 0) | self.bad_action

    def termination_reason(self, i: int) -> str:
        """Why episode i was terminated on this step ("" if it was not)."""
        if self.bad_action[i]:
            return "action not finite"
        why = self.fleet.read.refusal[i]
        if why:
            return f"physics refused the step: {why}"
        if self.fleet.read.struck[i]:
            return "ground strike"
        return ""

    def before_step(self):
        """Called before the physics steps (the AI's turn)."""

    def derive(self):
        """What the observation, reward and termination share, from this step's readouts."""

    def refresh(self):
        """Read this step's readouts (self.f, by name) and derive what the task needs of them."""
        self.f = self.fleet.read.flight()
        self.derive()

    # shared
    def reset(self, i: int, rng: np.random.Generator):
        self.reset_env(i, rng)
        self.steps[i] = 0
        self.refresh()

    @property
    def max_steps(self) -> int:
        """Env steps to an episode's truncation (episode_s at frame_skip; may be set)."""
        return self._max_steps

    @max_steps.setter
    def max_steps(self, n: int) -> None:
        self._max_steps = int(n)
        if hasattr(self, "_consts"):
            self._consts[fused.C_MAX_STEPS] = self._max_steps

    def _fused_setup(self):
        self._consts = fused.task_consts(self.fused_kind, self.frame_skip, self.max_steps, self._act_lo,
                                         self._act_span, self._act_signed, self.fused_thermal())
        self._bounds = np.array(self.observation_bounds, dtype=np.float32).T.copy()
        self._obs = np.zeros((self.n_envs, len(self.observations)), dtype=np.float32)
        self._result = np.zeros((self.n_envs, 4))
        self._actions = np.zeros((self.n_envs, len(self.action_names)))
        self._bad_one = np.zeros(1, dtype=bool)
        f, t = self.fleet, self.fleet.template
        # the kernel's arguments: the same arrays every step (the actions copied into _actions)
        self._fused_args = (f.states, f.ctrls, f.envs, t.terrain, t.model, t.tables, f.diags, self._actions,
                            self._consts, self._act_cols, self._bounds, self.env_p, self._obs, f.read.flight_buffer,
                            self._result, self.steps, f.status)
        self._fused_one, self._fused_many, self._fused_one_tail = fused.fused_step_one, fused.fused_step_many, ()

    def fused_thermal(self) -> tuple:
        return (0.0, 0.0)

    def step(self, actions: np.ndarray, threads: int | None = None):
        """One env step of every environment: (obs, reward, terminated, truncated) over them. A
        task with a fused kernel (gym.fused) does it in one compiled call, else step_numpy.
        ``threads``: numba's thread count when the caller knows it (else it is read)."""
        if self.fused_kind is None:
            return self.step_numpy(actions)
        self._actions[:] = np.asarray(actions).reshape(self.n_envs, -1)
        if self.n_envs == 1:
            self._fused_one(*self._fused_args, *self._fused_one_tail)
        else:
            self._fused_many(*self._fused_args, numba.get_num_threads() if threads is None else threads)
        r = self._result
        self.bad_action = r[:, fused.R_BAD_ACTION] != 0.0
        # (self.f's arrays view the flight buffer the kernel filled)
        return (self._obs.copy(), r[:, fused.R_REWARD].copy(), r[:, fused.R_TERMINATED] != 0.0,
                r[:, fused.R_TRUNCATED] != 0.0)

    def step_single(self, action: np.ndarray) -> tuple:
        """step() of a one-environment task (FlightEnv): the observation row and Python scalars."""
        if self.fused_kind is None:
            obs, reward, terminated, truncated = self.step(action[None, :])
            return obs[0], float(reward[0]), bool(terminated[0]), bool(truncated[0])
        self._actions[0] = action
        self._fused_one(*self._fused_args, *self._fused_one_tail)
        reward, terminated, truncated, bad = self._result[0].tolist()
        self._bad_one[0] = bad != 0.0
        self.bad_action = self._bad_one
        return self._obs[0].copy(), reward, terminated != 0.0, truncated != 0.0

    def step_numpy(self, actions: np.ndarray, threads: int | None = None):
        """step() in numpy over the fleet's arrays, a call per part (the fused kernels' reference;
        ``threads`` as step's, which its fleet step reads for itself)."""
        actions = np.asarray(actions, dtype=np.float64).reshape(self.n_envs, -1)
        self.bad_action = np.asarray(~np.isfinite(actions).all(axis=1))
        if self.bad_action.any():          # those aircraft keep their controls; their episodes end
            kept = self.fleet.ctrls[:self.n_envs][self.bad_action].copy()
            self.apply_actions(np.where(self.bad_action[:, None], 0.0, actions))
            self.fleet.ctrls[:self.n_envs][self.bad_action] = kept
        else:
            self.apply_actions(actions)
        self.before_step()
        self.fleet.step(self.frame_skip)
        self.steps += 1
        self.refresh()
        obs = self.observe()
        reward = np.where(self.bad_action, 0.0, self.reward())
        terminated = self.terminated()
        truncated = (self.steps >= self.max_steps) & ~terminated
        return obs, reward, terminated, truncated

    def clip_obs(self, obs: np.ndarray) -> np.ndarray:
        if not hasattr(self, "_lo"):
            self._lo = np.array([b[0] for b in self.observation_bounds], dtype=np.float32)
            self._hi = np.array([b[1] for b in self.observation_bounds], dtype=np.float32)
        out = obs.astype(np.float32)
        np.copyto(out, 0.0, where=out != out)        # NaN to 0; the clip takes infinities to the bounds
        return np.clip(out, self._lo, self._hi, out=out)

    def info(self, obs: np.ndarray, i: int) -> dict:
        return dict(zip(self.observation_names, obs[i].tolist()))


ATTITUDE = observations(
    ("roll_deg", "deg", -180, 180, "bank angle, + right wing down"),
    ("pitch_deg", "deg", -90, 90, "pitch attitude, + nose up"),
    ("roll_rate_dps", "deg/s", -720, 720, "body roll rate, + rolling right"),
    ("pitch_rate_dps", "deg/s", -720, 720, "body pitch rate, + nose rising"),
    ("yaw_rate_dps", "deg/s", -720, 720, "body yaw rate, + nose going right"),
    ("alpha_deg", "deg", -180, 180, "angle of attack at the CG"),
    ("beta_deg", "deg", -180, 180, "sideslip, + air from the right"),
)
ATTITUDE_NAMES = tuple(o.name for o in ATTITUDE)


def _attitude(f, rows) -> list:
    return [f[name][rows] for name in ATTITUDE_NAMES]


class GlideTask(Task):
    aircraft = "astir"
    episode_s = 60.0
    fused_kind = fused.GLIDE
    action_names = ("pitch", "roll", "yaw")
    observations = (observations(
        ("ias_error_kmh", "km/h", -400, 400, "indicated airspeed minus the episode's target"),
        ("heading_error_deg", "deg", -180, 180, "target heading minus heading, + turn right to it"),
    ) + ATTITUDE + observations(
        ("vertical_speed_ms", "m/s", -100, 100, "rate of climb, + up"),
        ("ias_kmh", "km/h", 0, 500, "indicated airspeed"),
    ))
    START_KMH = (80.0, 85.0, 90.0, 95.0, 100.0, 105.0, 110.0)
    ALTITUDE_M = 1000.0

    def prepare(self):
        sim = Sim(self.fleet.compiled, env=self.fleet.template.env)
        self.sim = sim
        self.trims = [sim.trimmer(self.ALTITUDE_M).glide(v / 3.6) for v in self.START_KMH]
        if not all(t.ok for t in self.trims):
            raise RuntimeError("the glide task's trims failed")
        self.target_ias_kmh = self.env_p[:, 0]          # (views: the fused step reads them there)
        self.target_ias_kmh[:] = 95.0
        self.target_heading_deg = self.env_p[:, 1]

    def reset_env(self, i, rng):
        t = self.trims[int(rng.integers(len(self.trims)))]
        heading = float(rng.uniform(0.0, 360.0))
        self.sim.place_trim(t, self.ALTITUDE_M, math.radians(heading))
        self.fleet.place(i, self.sim)
        self.fleet.step_one(i)
        self.target_heading_deg[i] = (heading + rng.uniform(-90.0, 90.0)) % 360.0
        self.target_ias_kmh[i] = rng.uniform(80.0, 120.0)

    def errors(self):
        f = self.f
        return f["ias_kmh"] - self.target_ias_kmh, _wrap_deg(self.target_heading_deg - f["heading_deg"])

    def observe(self):
        f = self.f
        ias_err, hdg_err = self.errors()
        return self.clip_obs(np.stack([ias_err, hdg_err, *_attitude(f, slice(None)), f["vertical_speed_ms"],
                                       f["ias_kmh"]], axis=1))

    def reward(self):
        ias_err, hdg_err = self.errors()
        return 0.5 * np.exp(-(ias_err / 10.0) ** 2) + 0.5 * np.exp(-(hdg_err / 15.0) ** 2)


class ThermalTask(Task):
    aircraft = "astir"
    episode_s = 120.0
    fused_kind = fused.THERMAL
    action_names = ("pitch", "roll", "yaw")
    observations = (observations(
        ("ias_kmh", "km/h", 0, 500, "indicated airspeed"),
        ("climb_ms", "m/s", -100, 100, "the vario: rate of climb, + up"),
    ) + ATTITUDE + observations(
        ("thermal_distance_m", "m", 0, 1e5, "horizontal distance to the thermal's core"),
        ("thermal_bearing_deg", "deg", -180, 180, "the core's bearing relative to the heading, + to the right"),
    ))
    THERMAL = (0.0, 0.0, 150.0, 3.5)          # north, east, radius m, core updraft m/s
    ALTITUDE_M = 600.0

    def make_env(self):
        return make_env(thermals=[self.THERMAL])

    def prepare(self):
        self.sim = Sim(self.fleet.compiled, env=self.fleet.template.env)
        self.trim = self.sim.trimmer(self.ALTITUDE_M).glide(90.0 / 3.6)
        if not self.trim.ok:
            raise RuntimeError("the thermal task's trim failed")
        self.prev_alt = self.env_p[:, 0]                 # (a view: the fused step reads and updates it)
        self.prev_alt[:] = self.ALTITUDE_M

    def fused_thermal(self):
        return self.THERMAL[0], self.THERMAL[1]

    def reset_env(self, i, rng):
        bearing = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(100.0, 300.0)
        self.sim.place_trim(self.trim, self.ALTITUDE_M, float(rng.uniform(0, 2 * math.pi)),
                            dist * math.cos(bearing), dist * math.sin(bearing))
        self.fleet.place(i, self.sim)
        self.fleet.step_one(i)
        self.prev_alt[i] = self.fleet.read.flight()["altitude_m"][i]

    def observe(self):
        f = self.f
        rel_n, rel_e = self.THERMAL[0] - f["north_m"], self.THERMAL[1] - f["east_m"]
        bearing = _wrap_deg(np.degrees(np.arctan2(rel_e, rel_n)) - f["heading_deg"])
        return self.clip_obs(np.stack([f["ias_kmh"], f["vertical_speed_ms"], *_attitude(f, slice(None)),
                                       np.hypot(rel_n, rel_e), bearing], axis=1))

    def reward(self):
        alt = self.f["altitude_m"]
        out = alt - self.prev_alt
        self.prev_alt[:] = alt
        return out


class DogfightTask(Task):
    aircraft = "p51d"
    aircraft_per_env = 2             # rows 0..N-1 the agent's, N..2N-1 the AI's
    fused_kind = fused.DOGFIGHT      # its own kernels: gym/fused_dogfight.py
    episode_s = 90.0
    action_names = ("pitch", "roll", "yaw", "throttle")
    observations = (observations(
        ("ias_kmh", "km/h", 0, 1500, "indicated airspeed"),
        ("altitude_m", "m", -1000, 20000, "altitude above sea level"),
    ) + ATTITUDE + observations(
        ("nz_g", "g", -20, 20, "normal load factor, + pulling"),
        ("target_x_m", "m", -1e5, 1e5, "the AI aircraft in the agent's body axes: ahead"),
        ("target_y_m", "m", -1e5, 1e5, "... to the right"),
        ("target_z_m", "m", -1e5, 1e5, "... below"),
        ("target_range_m", "m", 0, 1e5, "distance to the AI aircraft"),
        ("closure_ms", "m/s", -1000, 1000, "rate the range closes, + closing"),
        ("angle_off_deg", "deg", 0, 180, "angle between the guns' line and the lead point (bullets at 870 m/s)"),
    ))
    ALTITUDE_M = 3000.0
    SPEED_KMH = 400.0
    BULLET_MS = 870.0
    CONE_DEG = 2.0

    def prepare(self):
        from ..world.combat import fighter_ai
        self.sim = Sim(self.fleet.compiled, env=self.fleet.template.env)
        self.level = self.sim.spawn_trimmed_level(self.SPEED_KMH / 3.6, self.ALTITUDE_M)
        self.ais = [fighter_ai(self.fleet.compiled, self.sim.ctrl, {"fires": False}) for _ in range(self.n_envs)]
        self.boresight = self.ais[0].boresight        # the guns' line in body axes (they point a little up)
        # the same pilots compiled (pilots.ai_kernel): their settings are the FighterAI's, their memory a
        # row each; the fused step flies them, as step_numpy does unless compiled_ai is False (then the
        # FighterAI objects fly: tests/gym/test_dogfight_ai.py)
        self.compiled_ai = True
        self.ai_params = ai_kernel.params_of(self.ais[0])
        self.ai_memory = np.stack([ai_kernel.memory_of(ai) for ai in self.ais])
        self._ai_base = self.ais[0].base.to_array()
        self._ai_R = np.zeros((3, 3))
        self._ai_reads = np.zeros((2, len(PILOT_COLUMNS)))
        # geometry(), by columns (fused_dogfight.G_*): the numpy path and the fused kernel write it
        self._geo = np.zeros((self.n_envs, 6))
        self.geo = (self._geo[:, 0:3], self._geo[:, 3], self._geo[:, 4], self._geo[:, 5])

    def _fused_setup(self):
        super()._fused_setup()
        f, t = self.fleet, self.fleet.template
        dog = np.array([self.BULLET_MS, self.CONE_DEG, *self.boresight])
        self._fused_args = (f.states, f.ctrls, f.envs, t.terrain, t.model, t.tables, f.diags, self._actions,
                            self._consts, self._act_cols, self._bounds, dog, self.ai_params, self.ai_memory,
                            self._ai_base, self._obs, f.read.flight_buffer, self._geo, self._result, self.steps,
                            f.status)
        self._fused_one, self._fused_many = fused_dogfight.dogfight_step_one, fused_dogfight.dogfight_step_many
        self._fused_one_tail = (np.zeros((3, 3)), np.zeros((2, len(PILOT_COLUMNS))))

    def _place(self, row, north, east, heading):
        self.sim.place_trim(self.level, self.ALTITUDE_M, heading, north, east)
        self.fleet.place(row, self.sim)
        self.fleet.step_one(row)

    def reset_env(self, i, rng):
        heading = float(rng.uniform(0, 2 * math.pi))
        self._place(i, 0.0, 0.0, heading)
        ahead = rng.uniform(300.0, 600.0)
        side = rng.uniform(-100.0, 100.0)
        n = ahead * math.cos(heading) - side * math.sin(heading)
        e = ahead * math.sin(heading) + side * math.cos(heading)
        self._place(self.n_envs + i, n, e, heading)
        self.ais[i].reset()
        self.ai_memory[i] = ai_kernel.memory_of(self.ais[i])

    def before_step(self):
        f, n = self.fleet, self.n_envs
        if self.compiled_ai:
            ai_kernel.fly_targets(f.states, f.diags, f.ctrls, n, self.ai_params, self.ai_memory, self._ai_base, self._ai_R,
                                  self._ai_reads)
            return
        from ..pilots.ai import AirData
        pos, vel = f.read.position_ned_m, f.read.velocity_ned_ms
        for i in range(n):        # the game's AI flies each target through its controls
            me = AirData.from_sim(f.states[n + i], f.diags[n + i])
            self.ais[i](me, pos[i].copy(), vel[i]).to_array(f.ctrls[n + i])

    def geometry(self):
        f, n = self.fleet, self.n_envs
        r = f.read
        R = r.body_to_ned()
        pos, vel = r.position_ned_m, np.einsum("nij,nj->ni", R, r.velocity_body_ms)     # (r.velocity_ned_ms)
        rel = pos[n:] - pos[:n]
        rng_m = np.linalg.norm(rel, axis=1)
        tof = rng_m / self.BULLET_MS
        lead = rel + (vel[n:] - vel[:n]) * tof[:, None]
        R = R[:n]
        lead_body = np.einsum("nji,nj->ni", R, lead)
        rel_body = np.einsum("nji,nj->ni", R, rel)
        cos_off = lead_body @ self.boresight / np.maximum(np.linalg.norm(lead_body, axis=1), 1e-6)
        angle = np.degrees(np.arccos(np.clip(cos_off, -1, 1)))
        closure = -np.einsum("ni,ni->n", rel, vel[n:] - vel[:n]) / np.maximum(rng_m, 1e-6)
        return rel_body, rng_m, closure, angle

    def derive(self):
        rel_body, rng_m, closure, angle = self.geometry()
        self._geo[:, 0:3], self._geo[:, 3], self._geo[:, 4], self._geo[:, 5] = rel_body, rng_m, closure, angle

    def observe(self):
        f, rows = self.f, slice(0, self.n_envs)
        rel_body, rng_m, closure, angle = self.geo
        return self.clip_obs(np.stack([f["ias_kmh"][rows], f["altitude_m"][rows], *_attitude(f, rows), f["nz_g"][rows],
                                       rel_body[:, 0], rel_body[:, 1], rel_body[:, 2], rng_m, closure, angle], axis=1))

    def reward(self):
        _, rng_m, _, angle = self.geo
        solution = (angle < self.CONE_DEG) & (rng_m > 150.0) & (rng_m < 600.0)
        return np.where(solution, 1.0, -np.minimum(angle / 1800.0, 0.1))

    def terminated(self):
        _, rng_m, _, _ = self.geo
        return super().terminated() | (rng_m < 15.0)

    def termination_reason(self, i):
        why = super().termination_reason(i)
        return why or ("collision" if self.geo[1][i] < 15.0 else "")


TASKS = {"Glide-v0": GlideTask, "Thermal-v0": ThermalTask, "Dogfight-v0": DogfightTask}
