"""The flight model prepared from an empty numba cache, in a fresh process, with the report
tests/physics/test_cache.py checks: the progress lines of ``python -m flightsim.prepare
--progress``, the stamp, and every kernel compiled without numba's reference counting.

A fresh clone (CI) finds the cache empty: the session's start (tests/conftest.py) prepares it
this way, and the report is kept for the session (tests/shared.py), so the cold compile runs
once, not once there and again in test_cache.py. Where the cache was already prepared,
test_cache.py runs it in a temporary cache of its own.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEY = "cold prepare"

COLD = """
import importlib, json, pkgutil
from numba.core import types
from numba.core.registry import CPUDispatcher
import flightsim.physics as physics
from flightsim.app import prepare

prepare.main(["--progress"])        # a JSON line per stage as it starts (the caller shows them), then done


def holds_array(ty):
    if isinstance(ty, types.Array):
        return True
    if isinstance(ty, types.BaseTuple):
        return any(holds_array(t) for t in ty.types)
    return False

uncounted, bad = [], []
for info in pkgutil.iter_modules(physics.__path__):
    mod = importlib.import_module("flightsim.physics." + info.name)
    for name, d in vars(mod).items():
        if isinstance(d, CPUDispatcher) and d.py_func.__module__ == mod.__name__ and not d.targetoptions.get("_nrt", True):
            for sig, cres in d.overloads.items():
                uncounted.append(info.name + "." + name)
                if holds_array(cres.signature.return_type):
                    bad.append(f"{info.name}.{name}{sig} -> {cres.signature.return_type}")
side = json.loads((prepare.cache_dir() / prepare.STAMP).read_text()).get("side")
print(json.dumps({"report": True, "prepared": prepare.is_prepared(), "side": side,
                  "uncounted": sorted(set(uncounted)), "uncounted_returning_arrays": bad}))
"""


# the kernels the suite calls beyond the game's: the fleet's batched step and readouts (gym
# environments, bench; 7 s), the validation's engine point. Compiled once after a cold prepare,
# in a process of their own, as the first test to call them would, rather than by that test (or
# by several at once: each validation process)
SUITE_KERNELS = """
from flightsim.fleet import Fleet
from flightsim.physics.atmosphere import isa
from flightsim.physics.engine import engine_point
from flightsim.physics.named_model import AircraftData
from flightsim.sim import Sim
fleet = Fleet("astir", 2)
fleet.step(1)
_ = fleet.read.flight()
model = Sim("p51d").model
data = AircraftData(model)
t, p, _, _ = isa(0.0)
engine_point(model, data.engine_row, data.rating_rpm_rads(False), 1.0, 0.0, data.supercharger_gear_at(p), p, t, 0.0)
"""


def compile_suite_kernels(cache_dir: str | None = None) -> None:
    """SUITE_KERNELS run in ``cache_dir``, prepared (None: the machine's own cache)."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    done = subprocess.run([sys.executable, "-c", SUITE_KERNELS], env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"compiling the suite's own kernels failed: {done.stderr[-3000:]}")


def cold_prepare(cache_dir: str | None, on_stage=None) -> dict:
    """Prepare into ``cache_dir`` (None: the machine's own cache, as the game finds it); returns
    {"cache_dir", "progress", "prepared", "side" (the stamp's record of the side process), "uncounted",
    "uncounted_returning_arrays"}.
    ``on_stage(line)``: each progress line as it comes."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    proc = subprocess.Popen([sys.executable, "-c", COLD], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    progress, report = [], None
    for line in proc.stdout:
        d = json.loads(line)
        if d.get("report"):
            report = d
        else:
            progress.append(d)
            if on_stage is not None:
                on_stage(d)
    err = proc.stderr.read()
    if proc.wait() != 0 or report is None:
        raise RuntimeError(f"preparing the flight model failed: {err[-3000:]}")
    report.pop("report")
    return dict(report, cache_dir=cache_dir, progress=progress)
