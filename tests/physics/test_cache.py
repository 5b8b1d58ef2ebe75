"""Numba compilation is cached: a second start compiles nothing. And the kernels' compile
options (flightsim/physics/jit.py) hold what they promise.

Both are checked in fresh processes on an empty numba cache, where every kernel of the step
is compiled (a warm process loads the step whole and never compiles its callees)."""
import json
import os
import subprocess
import sys

import pytest

from flightsim.physics.jit import KERNEL_OPTIONS

SNIPPET = """
import importlib, json, pkgutil, numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher
from tests.fixtures import write_aircraft
from pathlib import Path
import tempfile
import flightsim.physics as physics
from flightsim.sim import Sim
from flightsim.physics import dynamics, ground, quat
s = Sim(write_aircraft(Path(tempfile.mkdtemp())))
s.spawn_trimmed_glide(25.0, 1000.0)
s.step(); s.run(np.tile(s.ctrl, (3, 1))); s.euler_rad; s.velocity_ned_ms
kernels = [dynamics.step, dynamics.step_n, dynamics.derivative, dynamics.make_scratch,
           ground.terrain_height, quat.euler_from_quat, quat.dcm_from_quat, quat.quat_from_euler]

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
print(json.dumps({"misses": sum(sum(k.stats.cache_misses.values()) for k in kernels),
                  "hits": sum(sum(k.stats.cache_hits.values()) for k in kernels),
                  "uncounted": sorted(set(uncounted)), "uncounted_returning_arrays": bad}))
"""


@pytest.fixture(scope="module")
def two_starts(tmp_path_factory):
    """A cold start (empty cache) and a warm one, each in a fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path_factory.mktemp("numba")))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runs = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", SNIPPET], env=env, cwd=root, capture_output=True, text=True,
                           check=True)
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    return runs


def test_second_start_compiles_nothing(two_starts):
    cold, warm = two_starts
    assert cold["misses"] > 0          # the first start compiled (an empty cache)
    assert warm["misses"] == 0         # the second loaded everything from the cache
    assert warm["hits"] >= 6


def test_no_kernel_without_reference_counting_returns_an_array(two_starts):
    """A ``@kernel`` runs without numba's reference counting: safe only while it hands no array
    back (a view returned uncounted would outlive its memory). numba refuses an allocation in
    such a function at compile time, but not a returned array: checked here on every kernel
    the cold start compiled."""
    cold = two_starts[0]
    assert cold["uncounted_returning_arrays"] == []
    assert {"dynamics.derivative", "dynamics.step_ws", "aero.section_forces", "aero.solve_induced",
            "plant.plant_forces", "ground.ground_forces", "propeller.blade_loads"} <= set(cold["uncounted"])


def test_kernel_options_keep_nan_checks():
    """The step refuses a non-finite state: fast-math must not assume NaN and infinity away."""
    assert not {"nnan", "ninf", "fast"} & set(KERNEL_OPTIONS["fastmath"])
    assert KERNEL_OPTIONS["_nrt"] is False and KERNEL_OPTIONS["cache"] is True
