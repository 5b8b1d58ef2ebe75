"""The kernels ``prepare`` hands to a second process, compiled side by side with its own stages on
a machine with two cores or more (flightsim/app/prepare.py).

numba compiles on one core, so a cold prepare ran 33-35 s on two cores while the second sat idle
(Nov 2026). No kernel the stages compile calls one of these (they are called from Python, or from
each other), so whether the main process compiles one or loads it changes no other kernel's
code: the engine's idle and ground balance (``idle_balance``, ``plant_trim``), the missiles, the
bullets and the terrain's level-of-detail walk, about 8 s of the stages' compiling (the side
process compiles their callees again for itself, the engine's among them, beside the stages).

The side process compiles them into a cache folder of its own, through the game's own calls, so
with the argument types the game passes. ``SideCompile.kernels`` then copies the index and code
files of these top-level kernels, and of nothing else, into the main cache before the stage that
first calls one: the main process loads each whole, as any warm start does, and compiles none of
them. After the last stage, ``close`` copies the callees only the side process compiled.

Why a folder of its own: numba, compiling a kernel, first looks for each callee in the cache. A
callee the side process wrote there halfway through the main stages would be loaded as machine
code rather than compiled, so the caller could no longer inline it, and which callees that hit
would depend on timing. The side process's callees stay in its own folder until the stages are
done; until then only whole top-level kernels cross over.
"""
from __future__ import annotations

import importlib
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import ROOT

# (module, kernel): every one of them compiled in the side process by side_compile below
SIDE_KERNELS = (
    ("flightsim.physics.plant_trim", "idle_balance"),
    ("flightsim.physics.plant_trim", "plant_trim"),
    ("flightsim.physics.missile", "launch"),
    ("flightsim.physics.missile", "fly_engagement"),
    ("flightsim.physics.missile", "missile_step"),
    ("flightsim.physics.ballistics", "hit_radius"),
    ("flightsim.physics.ballistics", "step_bullets"),
    ("flightsim.physics.ballistics", "collide_aircraft"),
    ("flightsim.physics.ballistics", "collide_spheres"),
    ("flightsim.render.terrain_select", "select_nodes"),
)


def side_kernels():
    """The dispatchers of SIDE_KERNELS, by name."""
    return {f"{m.rsplit('.', 1)[-1]}.{n}": getattr(importlib.import_module(m), n) for m, n in SIDE_KERNELS}


def side_compile() -> None:
    """Each side kernel called as the game calls it (runs in the side process)."""
    import numpy as np

    from ..aircraft_data.compile import compile_aircraft
    from ..aircraft_data.loader import list_aircraft, load_aircraft
    from ..physics import missile as M
    from ..physics.bullet_pool import BulletPool, hit_radius
    from ..physics.plant_trim import plant_trim
    from ..physics.scratch import make_scratch
    from ..physics.state import flat_terrain, make_ctrl, make_env, make_state
    from ..weapons.data import list_weapons, load_missile
    from ..weapons.envelope import _flight
    powered = next((a for a in list_aircraft() if load_aircraft(a).aircraft["kind"] == "powered"), None)
    if powered is not None:
        c = compile_aircraft(powered)                       # idle_balance, in the engine's compile
        plant_trim(c.model, c.tables, make_state((0.0, 0.0, -2.0)), make_ctrl(brake_left=1.0, brake_right=1.0),
                   make_env(), make_scratch(c.model)[0])
        BulletPool.warm_up(make_env(), flat_terrain(), c.model, c.cg_m)
        hit_radius(c.model, c.cg_m)
    missiles = list_weapons()
    if missiles:
        m = load_missile(missiles[0])
        _, ms, _ = _flight(m, 3000.0, 0.85, 0.85, 3000.0, "head_on")   # launch, fly_engagement (envelope, zone)
        M.missile_step(ms, m.model, np.array([3000.0, 0.0, -3000.0]), np.zeros(3), 0.02, M.G0)   # the game's own call
    terrain_walk()


def terrain_walk() -> None:
    """The terrain's level-of-detail walk on a 2 x 2 grid (prepare's last stage, and the side's)."""
    import numpy as np

    from ..render.terrain_select import pack_levels, select_nodes
    lo, hi, offsets, shapes = pack_levels([(np.zeros((2, 2)), np.ones((2, 2)))])
    select_nodes(lo, hi, offsets, shapes, 2, 8, 0.0, 0.0, 40.0, np.zeros(3), np.eye(4), 1.5, 36000.0,
                 np.empty((4096, 4)))


FOLDER_PREFIX = "side-"


def usable_cores() -> int:
    """The cores this process may run on (a container or taskset may allow fewer than the
    machine has: two compiles sharing one core would be slower than one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class SideCompile:
    """The side process, started on a folder of its own inside ``main_cache`` (one a killed prepare
    left behind goes with the next prepare's emptying). On a single core none is started and the
    stages compile these kernels themselves, as before."""

    def __init__(self, main_cache: Path, cpu_count: int | None = None):
        self.main_cache = main_cache
        self.proc: subprocess.Popen | None = None
        self.folder: Path | None = None
        self.ok: bool | None = None          # None until waited for
        if (cpu_count if cpu_count is not None else usable_cores()) < 2:
            return
        main_cache.mkdir(parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=main_cache))
        env = dict(os.environ, NUMBA_CACHE_DIR=str(self.folder))
        self.proc = subprocess.Popen([sys.executable, "-m", "flightsim.app.prepare_side"], env=env, cwd=str(ROOT),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def kernels(self) -> list[str]:
        """Wait for the side process, then copy its top-level kernels' compiled versions into the
        main cache: the kernels merged, none if it failed (the stages then compile them
        themselves)."""
        if self.proc is None or self.folder is None:
            return []
        if self.ok is None:
            _, err = self.proc.communicate()
            self.ok = self.proc.returncode == 0
            if not self.ok:
                print(f"the side compile failed (the stages compile its kernels): {err.strip()[-500:]}",
                      file=sys.stderr, flush=True)
        if not self.ok:
            return []
        merged: list[str] = []
        try:
            for name, d in side_kernels().items():
                if self._copy(Path(d._cache._cache_file._index_path)):        # numba's IndexDataCacheFile
                    merged.append(name)
        except (AttributeError, ImportError, OSError, ValueError, pickle.UnpicklingError) as e:
            # another numba's cache layout, a full disk: what is merged is whole, the stages compile the rest
            print(f"merging the side compile stopped (the stages compile the rest): {e}", file=sys.stderr, flush=True)
        return merged

    def close(self) -> int:
        """After the stages: the side process's other compiled versions the main cache lacks (the
        callees only it compiled, or compiled for other argument types, which a warm process may
        call from Python: stores.tank_row), copied now that the stages' own compiles no longer look;
        then its folder removed. The number copied."""
        copied = 0
        try:
            if self.proc is not None and self.ok is None:          # a stage failed before the merge
                self.proc.kill()
                self.proc.wait()
            if self.ok and self.folder is not None:
                for index in sorted(self.folder.rglob("*.nbi")):
                    copied += self._copy(self.main_cache / index.relative_to(self.folder))
        except (ImportError, OSError, ValueError, pickle.UnpicklingError) as e:
            print(f"copying the side compile's callees stopped (a warm start compiles those): {e}", file=sys.stderr,
                  flush=True)
        finally:
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)
        return copied

    def _copy(self, index: Path) -> int:
        """One function's compiled versions (overloads) from the side folder into its index ``index``
        in the main cache, each one the main cache lacks; the number copied."""
        return merge_index(self.folder / index.relative_to(self.main_cache), index)


def _read_index(path: Path):
    """(numba version, source stamp, {key: code file name}) of a numba index file (.nbi)."""
    with open(path, "rb") as f:
        version = pickle.load(f)
        stamp, overloads = pickle.loads(f.read())
    return version, stamp, overloads


def merge_index(source: Path, target: Path) -> int:
    """The compiled versions in index ``source`` that index ``target`` lacks, copied there through
    numba's own cache file (it numbers the code files); none where the two indexes are of another
    numba or source stamp. The number copied."""
    # numba imported only here: the warm start checks the stamp without it
    from numba.core.caching import IndexDataCacheFile
    if not source.exists():
        return 0
    version, stamp, overloads = _read_index(source)
    have: dict = {}
    if target.exists():
        v, st, have = _read_index(target)
        if (v, st) != (version, stamp):
            return 0
    base = source.name[:-len(".nbi")]
    src = IndexDataCacheFile(str(source.parent), base, stamp)
    dst = IndexDataCacheFile(str(target.parent), base, stamp)
    target.parent.mkdir(parents=True, exist_ok=True)
    copied = 0
    for key in overloads:
        if key not in have:
            data = src.load(key)
            if data is not None:
                dst.save(key, data)
                copied += 1
    return copied


if __name__ == "__main__":
    side_compile()
