"""JSBSim as a speed reference: steps per second of one of its bundled aircraft.

JSBSim is optional (the ``bench`` extra) and imported lazily; without it every
function here returns None, and so it does when the package imports but cannot run (its data
folder missing: ``OSError: Can't find the default root directory``, a model that will not
load): ``unavailable()`` then says why, in one line, for the bench to print. The FDM is stepped the way our own single-step
benchmark steps our kernel: one ``fdm.run()`` per Python call at dt = 0.02 s.
"""
from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

DT_S = 0.02             # 50 Hz, our physics rate
_FT = 0.3048            # m per ft
_KT = 1.852             # km/h per knot

# closest bundled JSBSim model for an aircraft name or kind
_CLOSEST = {
    "glider": "sgs233",
    "sgs233": "sgs233",
    "p51d": "p51d",
    "fighter": "p51d",
    "powered": "p51d",          # a piston fighter (JSBSim bundles no Spitfire or Bf 109)
    "f15c": "f15",              # JSBSim's F-15 (an F-15C airframe with the -229 engines)
    "c172p": "c172p",           # the same aircraft (issue 34's side-by-side)
}
# in-flight initial conditions per model: (altitude m, true airspeed km/h, engine running)
_INIT = {
    "sgs233": (1000.0, 80.0, False),
    "p51d": (1000.0, 400.0, True),
    "f15": (1000.0, 400.0, True),
    "c172p": (1000.0, 185.0, True),
}


_UNAVAILABLE: str | None = None     # why the last measurement could not use JSBSim


def unavailable() -> str | None:
    """Why JSBSim could not be measured in this process (None: it could, or was not asked)."""
    return _UNAVAILABLE


def _import_jsbsim():
    """The jsbsim module, or None (and the reason kept for unavailable())."""
    global _UNAVAILABLE
    try:
        import jsbsim
    except ImportError:
        _UNAVAILABLE = "jsbsim is not installed (pip install jsbsim, or the bench extra)"
        return None
    return jsbsim


def _broken(model: str, e: BaseException) -> None:
    global _UNAVAILABLE
    _UNAVAILABLE = f"jsbsim imports but cannot run {model!r}: {type(e).__name__}: {e}"


def closest_jsbsim_model(kind: str) -> str | None:
    """The bundled JSBSim model closest to ``kind`` ("glider" -> "sgs233",
    "p51d"/"fighter"/"powered" -> "p51d"), or None when there is no sensible match."""
    return _CLOSEST.get((kind or "").strip().lower())


@contextlib.contextmanager
def quiet():
    """Silence C++ output on the process's stdout/stderr (JSBSim prints XML warnings
    on load whatever its debug level)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)


# what a game's step has to hand over: the pilot's controls in, the state out (our own
# step call takes a control vector and returns the full state)
_CONTROLS_IN = ("fcs/elevator-cmd-norm", "fcs/aileron-cmd-norm", "fcs/rudder-cmd-norm", "fcs/throttle-cmd-norm")
_STATE_OUT = ("position/lat-gc-rad", "position/long-gc-rad", "position/h-sl-meters",
              "attitude/phi-rad", "attitude/theta-rad", "attitude/psi-rad",
              "velocities/u-fps", "velocities/v-fps", "velocities/w-fps",
              "velocities/p-rad_sec", "velocities/q-rad_sec", "velocities/r-rad_sec", "velocities/vt-fps")


WINDOWS = 5                 # timing windows; the rate reported is the best window's


def _open_fdm(jsbsim, model: str):
    """JSBSim's bundled ``model`` at its in-flight initial condition (_INIT), quiet.
    Returns (fdm, start, tas_kmh): ``start()`` puts it back there, the engines running
    (the restarts of the timing loop)."""
    alt_m, tas_kmh, engine = _INIT.get(model, (1000.0, 200.0, True))
    jsbsim.FGJSBBase().debug_lvl = 0          # no banner
    fdm = jsbsim.FGFDMExec(None)               # bundled aircraft/engine/systems
    fdm.set_debug_level(0)
    if not fdm.load_model(model):
        raise ValueError(f"JSBSim could not load model {model!r}")
    fdm.set_dt(DT_S)
    fdm["ic/h-sl-ft"] = alt_m / _FT
    fdm["ic/vt-kts"] = tas_kmh / _KT
    fdm["ic/gamma-deg"] = 0.0
    n_engines = fdm.get_propulsion().get_num_engines() if engine else 0

    def start():
        fdm.reset_to_initial_conditions(0)
        for i in range(n_engines):             # must precede run_ic to take effect
            fdm[f"propulsion/engine[{i}]/set-running"] = 1
        fdm.run_ic()
        if n_engines:
            fdm["fcs/throttle-cmd-norm"] = 0.8
            fdm["fcs/mixture-cmd-norm"] = 0.87
            fdm["propulsion/magneto_cmd"] = 3
            fdm["propulsion/starter_cmd"] = 1  # without it the piston engine stays at 0 rpm
            for _ in range(10):
                fdm.run()
            fdm["propulsion/starter_cmd"] = 0
    return fdm, start, tas_kmh


def window_rate(start, step, seconds: float, batch: int = 200) -> float:
    """Calls of ``step`` per second in one timing window: ``batch``-call flights from ``start()``
    (the restarts not timed) until about ``seconds`` of timed calls."""
    steps, elapsed = 0, 0.0
    while elapsed < seconds:
        start()
        t0 = time.perf_counter()
        for _ in range(batch):
            step()
        elapsed += time.perf_counter() - t0
        steps += batch
    return steps / elapsed


def _best_rate(start, step, seconds: float, batch: int = 200) -> float:
    """Calls of ``step`` per second: the best of WINDOWS equal windows, as for our own kernels
    (bench.py): on a shared machine the slower windows measure the neighbours, not the code.
    Untrimmed (JSBSim's trim fails for both models here), both types pitch down and reach the
    ground within ~15 s of sim time, so the timed steps run in 4 s (200-step) flights from
    ``start()``; the restarts are not timed."""
    start()
    for _ in range(50):                        # warm up
        step()
    return max(window_rate(start, step, seconds / WINDOWS, batch) for _ in range(WINDOWS))


def jsbsim_stepper(model: str, with_io: bool = False) -> tuple[Callable[[], Any], Callable[[], Any]] | None:
    """``(start, step)`` of JSBSim's bundled ``model`` at dt = 0.02 s, warmed up: ``step`` is one
    ``fdm.run()`` per Python call, with ``with_io`` also the four pilot controls set and the 13
    state values read around it, the work our own single-step call does (controls in, state out).
    The aircraft starts in flight (1000 m; 80 km/h for a glider, 400 km/h and engine running for
    the p51d). For timing windows interleaved with our own (bench.physics_bench: window_rate);
    call them inside ``quiet()``, JSBSim may print as it flies. None if jsbsim is not importable or
    cannot run (unavailable() says why)."""
    jsbsim = _import_jsbsim()
    if jsbsim is None:
        return None
    with quiet():
        try:
            fdm, start, _ = _open_fdm(jsbsim, model)
        except Exception as e:           # its own errors, OSError for a missing data folder
            _broken(model, e)
            return None
        step = fdm.run
        if with_io:
            ins = []
            for p in _CONTROLS_IN:               # a glider has no throttle
                try:
                    ins.append((p, fdm[p]))
                except KeyError:
                    pass

            def step():
                for p, v in ins:
                    fdm[p] = v
                fdm.run()
                return [fdm[p] for p in _STATE_OUT]
        start()
        for _ in range(50):                        # warm up
            step()
    return start, step


def jsbsim_steps_per_s(model: str, seconds: float = 2.0, with_io: bool = False) -> float | None:
    """Steps per second (wall time) of JSBSim's bundled ``model`` stepped as jsbsim_stepper says,
    for about ``seconds`` (the best of WINDOWS windows). Returns None if jsbsim is not importable or
    cannot run (unavailable() says why)."""
    stepper = jsbsim_stepper(model, with_io)
    if stepper is None:
        return None
    with quiet():
        return _best_rate(*stepper, seconds)


# a gym environment's step, JSBSim's side: the action's controls in, one run() per env step
# (frame skip 1, as ours), the observation's values out and a reward made of them
_GYM_OBS = ("velocities/vc-kts", "attitude/psi-deg", "attitude/phi-deg", "attitude/theta-deg",
            "velocities/p-rad_sec", "velocities/q-rad_sec", "velocities/r-rad_sec", "aero/alpha-deg",
            "aero/beta-deg", "velocities/h-dot-fps", "position/h-sl-meters")


def jsbsim_env_steps_per_s(model: str, seconds: float = 2.0, n_actions: int = 3) -> float | None:
    """Env steps per second of JSBSim's ``model`` driven as a Gymnasium environment is through
    Python (the way JSBGym / gym-jsbsim drive it, minus their wrappers' overhead): per step
    ``n_actions`` control properties set, one ``run()``, the 11 observation properties read
    into a float32 array and a reward computed from two of them. Same start and timing as
    jsbsim_steps_per_s (engines running). None without a working jsbsim (unavailable() says why)."""
    jsbsim = _import_jsbsim()
    if jsbsim is None:
        return None
    with quiet():
        try:
            fdm, start, tas_kmh = _open_fdm(jsbsim, model)
        except Exception as e:
            _broken(model, e)
            return None
        acts = _CONTROLS_IN[:n_actions]
        target_kts, target_hdg = tas_kmh / _KT, 90.0
        action = np.zeros(n_actions, dtype=np.float32)

        def env_step():
            for p, v in zip(acts, action):
                fdm[p] = float(v)
            fdm.run()
            obs = np.array([fdm[p] for p in _GYM_OBS], dtype=np.float32)
            err_v = obs[0] - target_kts
            err_h = (target_hdg - obs[1] + 180.0) % 360.0 - 180.0
            reward = 0.5 * math.exp(-(err_v / 5.4) ** 2) + 0.5 * math.exp(-(err_h / 15.0) ** 2)
            return obs, reward, bool(obs[-1] < 10.0)
        return _best_rate(start, env_step, seconds)
