"""Numba compilation is cached: a second start compiles nothing."""
import json
import os
import subprocess
import sys

SNIPPET = """
import json, numpy as np
from tests.fixtures import write_aircraft
from pathlib import Path
import tempfile
from flightsim.sim import Sim
from flightsim.physics import dynamics, ground, quat
s = Sim(write_aircraft(Path(tempfile.mkdtemp())))
s.spawn_trimmed_glide(25.0, 1000.0)
s.step(); s.run(np.tile(s.ctrl, (3, 1))); s.euler_rad; s.velocity_ned_ms
kernels = [dynamics.step, dynamics.step_n, dynamics.derivative, dynamics.make_scratch,
           ground.terrain_height, quat.euler_from_quat, quat.dcm_from_quat, quat.quat_from_euler]
print(json.dumps({"misses": sum(sum(k.stats.cache_misses.values()) for k in kernels),
                  "hits": sum(sum(k.stats.cache_hits.values()) for k in kernels)}))
"""


def test_second_start_compiles_nothing(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runs = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", SNIPPET], env=env, cwd=root, capture_output=True, text=True,
                           check=True)
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    assert runs[0]["misses"] > 0          # the first start compiled (an empty cache)
    assert runs[1]["misses"] == 0         # the second loaded everything from the cache
    assert runs[1]["hits"] >= 6
