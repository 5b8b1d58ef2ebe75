"""A flying aircraft: compiled data, state, controls and environment around the kernels.

This is the convenient Python face of the physics for tools, tests and the game; it
holds only arrays and calls the numba kernels (one call per step, or one batched call).
"""
from __future__ import annotations

import math

import numpy as np

from .aircraft_data.compile import Compiled, compile_aircraft
from .physics.dynamics import step as _step
from .physics.dynamics import step_in_diag as _step_in_diag
from .physics.dynamics import step_n as _step_n
from .physics.named import N_CONTROLS, STATE_SIZE, Controls, Readouts, check_controls
from .physics.named_env import Environment, check_env
from .physics.named_model import AircraftData
from .physics.scratch import diag_size, make_scratch
from .physics.state import DT, adopt_trim, flat_terrain, make_ctrl, make_env, make_state
from .physics.trim import Trimmer

_CTRL_SHAPE = (N_CONTROLS,)
_CTRL_STRIDES = (8,)        # a contiguous float64 row of controls
_F64 = np.dtype(np.float64)
# the arrays a step takes, in its order, with their dimensions: a Sim holds them writable,
# contiguous float64 (checked as they are set), so its step calls the compiled kernel's entry
# point for exactly those types, with no dispatch on the arguments' types
_KERNEL_ARRAYS = {"state": 1, "ctrl": 1, "env": 1, "terrain": 2, "model": 2, "tables": 3, "diag": 1}
_step_entry = None
_NONE_SEEN = np.empty(0)    # Sim._ctrl_seen before a control array was checked (no caller has it)


def _kernel_entry():
    """step_in_diag's compiled entry point for a Sim's array types (compiled, or loaded from
    numba's cache, on the first call)."""
    global _step_entry
    if _step_entry is None:
        from numba import types
        _step_entry = _step_in_diag.compile(tuple(types.Array(types.float64, n, "C") for n in _KERNEL_ARRAYS.values()))
    return _step_entry


def _kernel_array(name: str, value: object) -> object:
    """``value`` if it is what the step kernel takes as ``name``, else TypeError in one line."""
    ndim = _KERNEL_ARRAYS[name]
    if (type(value) is np.ndarray and value.dtype == _F64 and value.ndim == ndim and value.flags.c_contiguous
            and value.flags.writeable and (name != "ctrl" or value.shape == _CTRL_SHAPE)):
        return value
    what = (f"{type(value).__name__} {getattr(value, 'dtype', '')} {getattr(value, 'shape', '')}").strip()
    raise TypeError(f"Sim.{name} must be a writable contiguous float64 array of {ndim} dimension(s)"
                    + (f" and shape {_CTRL_SHAPE}" if name == "ctrl" else "") + f", not {what}")


class CannotFly(RuntimeError):
    """No steady flight at the start asked for: the aircraft's data (or the scenario's start)
    does not allow it. Callers say so in one line, as they do for refused data."""


class Sim(Readouts):
    """An aircraft with its state, controls and environment. Readouts by name and unit come
    from physics.named.Readouts (``sim.ias_kmh``, ``sim.roll_rate_dps``, ``sim.euler_deg``,
    ``sim.stalled_sections``...); the controls by name through ``sim.controls``."""

    _ctrl_seen: np.ndarray = _NONE_SEEN     # (a Sim made without __init__, as Fleet.sim_view's: none seen yet)

    def __init__(self, aircraft="astir", env=None, terrain=None) -> None:
        self.compiled: Compiled = aircraft if isinstance(aircraft, Compiled) else compile_aircraft(aircraft)
        self.model = self.compiled.model
        self.tables = self.compiled.tables
        self.env = make_env() if env is None else env
        check_env(self.env)
        self.terrain = flat_terrain() if terrain is None else terrain
        self.state = make_state()
        self.ctrl = make_ctrl()
        self.diag = np.zeros(diag_size(self.model))   # diagnostics, then the kernels' scratch memory
        # the control array step() last found contiguous float64: passed again (the game's, a
        # script's one buffer), only its dtype is looked at (numpy may reinterpret an array's
        # dtype in place; its memory's layout a 1-D contiguous array keeps). Saves 60-130 ns a
        # step (bench, Nov 2026).
        self._ctrl_seen = _NONE_SEEN

    def __setattr__(self, name: str, value: object) -> None:
        if name in _KERNEL_ARRAYS:
            value = _kernel_array(name, value)
        object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ stepping
    def step(self, ctrl=None) -> int:
        """One step with these controls (default: the Sim's own). Returns 0, or 1 when the step
        was refused (``nonfinite``; ``refusal`` says why) and the state kept. Controls beyond
        their ranges are clamped; one that is not a number raises ValueError naming it."""
        if ctrl is None:
            c = self.ctrl
        elif ctrl is self._ctrl_seen and ctrl.dtype is _F64:
            c = ctrl            # the usual case: the array the last call checked (a caller's one buffer)
        elif type(ctrl) is np.ndarray and ctrl.dtype is _F64 and ctrl.strides == _CTRL_STRIDES:
            c = ctrl            # contiguous float64: its length the kernel checks
            self._ctrl_seen = ctrl
        else:                   # a list, ints, a strided view: as the kernel takes them (no new compile)
            c = np.ascontiguousarray(ctrl, dtype=np.float64)
        r = (_step_entry or _kernel_entry())(self.state, c, self.env, self.terrain, self.model, self.tables, self.diag)
        if r:
            if r < 0:                    # controls of another length, or a diag too short for the scratch too
                if c.shape != _CTRL_SHAPE:
                    raise ValueError(f"a control array has shape ({N_CONTROLS},), not {c.shape}")
                r = _step(self.state, c, self.env, self.terrain, self.model, self.tables, self.diag)
            if r:
                check_controls(c)        # a NaN control: the kernel refused it before anything moved
        return r

    def run(self, ctrls: np.ndarray) -> np.ndarray:
        """Advance len(ctrls) steps in one kernel call; returns the states after each step.
        A control that is not a number raises ValueError naming it and its step, before any
        step is taken."""
        ctrls = np.ascontiguousarray(ctrls, dtype=np.float64)
        if ctrls.ndim != 2 or ctrls.shape[1] != N_CONTROLS:
            raise ValueError(f"controls for a run must have shape (steps, {N_CONTROLS}), got {ctrls.shape}")
        check_controls(ctrls, "step")
        out = np.empty((len(ctrls), STATE_SIZE))
        n = _step_n(self.state, ctrls, self.env, self.terrain, self.model, self.tables, self.diag, out)
        return out[:n]

    def fly(self, seconds: float, ctrl=None, callback=None):
        """Step for a number of seconds with fixed controls (or callback(sim) -> ctrl each step)."""
        for _ in range(int(round(seconds / DT))):
            c = callback(self) if callback is not None else ctrl
            self.step(c)

    # ------------------------------------------------------------------ starting
    def trimmer(self, altitude_m=0.0, base_ctrl=None, plant_in_jacobian=True) -> Trimmer:
        return Trimmer(self.model, self.tables, self.env, self.terrain, altitude_m, base_ctrl, plant_in_jacobian)

    def spawn_trimmed_glide(self, tas_ms, altitude_m=1000.0, heading_rad=0.0, north_m=0.0, east_m=0.0):
        t = self.trimmer(altitude_m).glide(tas_ms)
        if not t.ok:
            raise CannotFly(f"{self._source()}: no steady glide at {tas_ms * 3.6:.0f} km/h (residual {t.residual:.2g})")
        return self.place_trim(t, altitude_m, heading_rad, north_m, east_m)

    def _source(self) -> str:
        """The aircraft's file, for messages (its name where it was built without one)."""
        spec = getattr(self.compiled, "spec", None)
        return str(getattr(spec, "path", None) or self.compiled.name)

    @property
    def powered(self) -> bool:
        return AircraftData(self.model).powered

    def spawn_trimmed_level(self, tas_ms, altitude_m=1000.0, heading_rad=0.0, north_m=0.0, east_m=0.0,
                            base_ctrl=None):
        """Start in steady level flight (a powered aircraft, gear up): alpha, throttle and
        elevator trimmed, the engine and propeller in equilibrium."""
        base = make_ctrl(gear_up=1.0) if base_ctrl is None else base_ctrl
        tr = self.trimmer(altitude_m, base)
        t = tr.level(tas_ms, (0.02, 0.6, 0.0))
        if t.ok:
            t = tr.lateral(t)           # aileron and rudder tabs against torque and P-factor
        if not t.ok or not 0.0 <= t.throttle <= 1.0:
            raise CannotFly(f"{self._source()}: no steady level flight at {tas_ms * 3.6:.0f} km/h "
                            f"(residual {t.residual:.2g})")
        return self.place_trim(t, altitude_m, heading_rad, north_m, east_m)

    def place_trim(self, t, altitude_m=1000.0, heading_rad=0.0, north_m=0.0, east_m=0.0):
        """Put the aircraft into the steady straight flight of trim ``t`` (any flight-path angle),
        wings level, at this place and heading; its controls become the trim's."""
        self.state = make_state((north_m, east_m, -altitude_m),
                                (t.tas_ms * math.cos(t.alpha_rad), 0.0, t.tas_ms * math.sin(t.alpha_rad)),
                                0.0, t.alpha_rad + t.gamma_rad, heading_rad)
        adopt_trim(self.state, t.state)          # surfaces, engine, propeller, fuel as trimmed
        # the trim is relative to the air: over the ground the aircraft also moves with the wind
        from .physics.aero import wind_at
        wind_body = self.body_to_ned().T @ np.array(wind_at(self.env, north_m, east_m, -altitude_m))
        self.set_velocity_body(*(self.velocity_body_ms + wind_body))
        self.ctrl = t.ctrl.copy()
        return t

    def spawn_on_ground(self, north_m=0.0, east_m=0.0, heading_rad=0.0, settle_s=4.0, roll_rad=None):
        """Place the aircraft on its gear on the terrain and let it settle (parked).

        A glider on its single main wheel cannot balance: parked, it rests on a wingtip.
        The small initial roll (default -0.01 rad for an aircraft without a wheel on each
        side, level otherwise) lets it settle there (left wing down) instead of
        balancing on a knife edge until rounding errors tip it later."""
        if roll_rad is None:
            two_sided = any(abs(g["position_m"][1]) > 0.3 for g in self.compiled.spec.gear)
            roll_rad = 0.0 if two_sided else -0.01
        from .physics.ground import terrain_height
        h = terrain_height(self.terrain, self.env, north_m, east_m)[0]
        cg = self.compiled.cg_m
        gear = [np.array(g["position_m"]) for g in self.compiled.spec.gear]
        gear_z = max((g[2] for g in gear), default=0.0)
        pitch = 0.0
        if gear:
            # a tail-wheel aircraft starts on all its wheels (its three-point attitude)
            main = max(gear, key=lambda g: g[2])
            tail = [g for g in gear if g[0] < cg[0] and g[0] < main[0] and g[2] < main[2] - 0.1]
            if tail:
                t = min(tail, key=lambda g: g[0])
                pitch = math.atan2(main[2] - t[2], main[0] - t[0])
        r = (gear[0] if gear else cg) * 0.0 + (max(gear, key=lambda g: g[2]) if gear else cg) - cg
        down = -math.sin(pitch) * r[0] + math.cos(pitch) * r[2] if gear else gear_z - cg[2]
        self.state = make_state((north_m, east_m, -h - down + 0.02), (0, 0, 0), roll_rad, pitch, heading_rad)
        self.ctrl = make_ctrl(brake_left=1.0, brake_right=1.0)
        if self.powered:
            # the engine running at ground idle: throttle closed, propeller at its fine stop
            from .physics.plant_trim import plant_trim
            plant_trim(self.model, self.tables, self.state, self.ctrl, self.env, make_scratch(self.model)[0])
        self.fly(settle_s)

    # ------------------------------------------------------------------ named face
    @property
    def controls(self) -> Controls:
        """The Sim's own control array by name: ``sim.controls.roll = 0.6``."""
        return Controls(self.ctrl)

    @controls.setter
    def controls(self, value) -> None:
        a = (value.array if isinstance(value, Controls) else np.asarray(value, dtype=np.float64)).copy()
        if a.shape != (N_CONTROLS,):
            raise ValueError(f"a control array has shape ({N_CONTROLS},), not {a.shape}")
        check_controls(a)
        self.ctrl = a

    @property
    def dt_s(self) -> float:  # type: ignore[override]  # the environment's step, read only here
        return Environment(self.env).dt_s

    def telemetry(self) -> dict:
        roll, pitch, heading = self.euler_deg
        return {
            "t_s": round(self.time_s, 2),
            "altitude_m": round(self.altitude_m, 2),
            "tas_kmh": round(self.tas_kmh, 1),
            "vs_ms": round(self.vertical_speed_ms, 2),
            "alpha_deg": round(self.alpha_deg, 2),
            "beta_deg": round(self.beta_deg, 2),
            "roll_deg": round(roll, 1),
            "pitch_deg": round(pitch, 1),
            "heading_deg": round(heading % 360, 1),
            "nz_g": round(self.nz_g, 2),
            "stalled_sections": self.stalled_sections,
            "on_ground": self.gear_on_ground,
        }
