"""Preparing the flight model: compile every numba kernel the game and the wind tunnel use,
before anything needs one, and remember that it was done.

    python -m flightsim.prepare [--progress] [--force]

numba compiles a kernel the first time it is called and caches the machine code on disk
(``NUMBA_CACHE_DIR``, a folder named by a hash of the physics sources: flightsim/__init__).
On an empty cache that takes 33-35 s on one core of a 2-core machine (Nov 2026), once per machine and
per change of the physics; with a second core, a side process compiles the kernels no stage's
compile shares (the engine's idle balance, missiles, bullets, terrain: flightsim/app/prepare_side.py)
while the stages compile the rest. Each stage below runs the game's own code paths (a World built
for a scenario, its physics ticked, a trim, a batched run, the combat, the terrain walk),
so every kernel is compiled with the argument types the game will call it with. When all
stages are done a stamp (``prepared.json``) goes into the cache folder, with the numba and
Python versions and the size and time of every source file numba's cache checks; the next
start finds the stamp and skips all of it.

The window runs this in a child process (``--progress``: one JSON line per stage, then
``{"done": true}``) and shows the stages on a progress bar while its event loop runs on;
the headless modes run it in their own process with a line per stage on stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import ROOT
from . import prepare_side

STAMP = "prepared.json"
# files whose compiled kernels are cached (numba re-compiles when one's size or time changes)
KERNEL_SOURCES = ("flightsim/physics/*.py", "flightsim/render/terrain_select.py")


@dataclass(frozen=True)
class Stage:
    name: str
    expected_s: float            # cold, measured on a 2-core machine: weights the progress bar
    run: Callable[[], None]
    side: bool = False           # calls kernels the side process compiles (flightsim/app/prepare_side.py)


def _aircraft_of_kind(kind: str) -> str | None:
    from ..aircraft_data.loader import list_aircraft, load_aircraft
    return next((a for a in list_aircraft() if load_aircraft(a).aircraft["kind"] == kind), None)


def _scenario_of(kind: str, start_type: str) -> str | None:
    from ..world.scenario import all_scenarios
    return next((s.name for s in all_scenarios()
                 if s.kind == kind and s.start["type"] == start_type and not s.has_combat), None)


def _fly(world, seconds: float, ctrl=None) -> None:
    """Tick a World's physics as the game does, and read its snapshot's attitude (euler_from_quat)."""
    if ctrl is not None:
        world.mailbox.post(ctrl)
    for k in range(int(seconds / 0.02)):
        world.physics.tick(k * 0.02)
    _ = world.buffer.read()[1].euler_rad


def _glider_trim():
    from ..world.assembly import World
    glider = _aircraft_of_kind("glider")
    if glider:
        World(glider, _scenario_of("glider", "air"), small_world=True)


def _step():
    from ..aircraft_data.loader import list_aircraft
    from ..sim import Sim
    from ..world.assembly import World
    glider = _aircraft_of_kind("glider")
    name = glider or list_aircraft()[0]
    if glider:
        _fly(World(glider, _scenario_of("glider", "air"), small_world=True), 0.2)
    s = Sim(name)
    if s.powered:
        s.spawn_trimmed_level(120.0, 1000.0)
    else:
        s.spawn_trimmed_glide(25.0, 1000.0)
    s.run(np.tile(s.ctrl, (2, 1)))            # the batched step (tunnel, bench, tests)
    _ = s.velocity_ned_ms, s.euler_rad        # the readouts' own kernels


def _powered():
    from ..world.assembly import World
    powered = _aircraft_of_kind("powered")
    if not powered:
        return
    for start in ("air", "runway"):
        sc = _scenario_of("fighter", start)
        if sc:
            _fly(World(powered, sc, small_world=True), 0.2)


def _combat():
    """The first air-fight scenario: guns firing for half a second (bullets, hits), then a reset;
    the first with missiles: a lock, a launch and the missile's first second (its kernels, the
    launch zone's shots)."""
    from ..aircraft_data.loader import load_aircraft
    from ..world.assembly import World
    from ..world.scenario import UnsuitableAircraft, all_scenarios, plan_start
    guns = missiles = False
    for sc in all_scenarios():
        if not sc.has_combat or (guns and not (sc.combat or {}).get("missiles")):
            continue
        try:
            plan_start(sc, load_aircraft(sc.aircraft))
        except UnsuitableAircraft:
            continue
        world = World(None, sc, small_world=True)
        if not guns:
            _fly(world, 0.5, world.initial_inputs.replace(fire=1.0))
            world.reset()
            _fly(world, 0.1)
            guns = True
        if (sc.combat or {}).get("missiles") and not missiles:
            _fly(world, 1.2, world.initial_inputs.replace(lock=1.0))
            _fly(world, 0.1, world.initial_inputs.replace(launch=1.0))
            _fly(world, 1.0)
            missiles = True
        if guns and missiles:
            return


STAGES = (
    Stage("aerodynamics and the trim", 15.0, _glider_trim),
    Stage("the 50 Hz step", 7.0, _step),
    Stage("engine, propeller and governor", 1.0, _powered, side=True),
    Stage("guns, bullets and missiles", 1.0, _combat, side=True),
    Stage("the terrain's level of detail", 0.1, prepare_side.terrain_walk, side=True),
)


# ---------------------------------------------------------------------------- the stamp
def cache_dir() -> Path:
    return Path(os.environ["NUMBA_CACHE_DIR"])


def _fingerprint() -> dict:
    import numba
    files = sorted(p for pattern in KERNEL_SOURCES for p in ROOT.glob(pattern))
    return {"numba": numba.__version__, "python": platform.python_version(), "machine": platform.machine(),
            "sources": {str(p.relative_to(ROOT)): [p.stat().st_size, p.stat().st_mtime] for p in files}}


def is_prepared() -> bool:
    """True when this machine's cache holds every kernel, compiled from these very sources."""
    try:
        stamp = json.loads((cache_dir() / STAMP).read_text())
    except (OSError, ValueError, KeyError):
        return False
    return stamp.get("fingerprint") == _fingerprint()


def _write_stamp(seconds: float, side: dict | None = None) -> None:
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / (STAMP + ".tmp")
    tmp.write_text(json.dumps({"fingerprint": _fingerprint(), "seconds": round(seconds, 2),
                               "stages": [s.name for s in STAGES], "side": side or {}}, indent=1))
    os.replace(tmp, d / STAMP)


def prepare(report: Callable[[int, Stage], None] | None = None) -> float:
    """Run every stage (report(k, stage) before each); write the stamp; the seconds it took.
    An unprepared cache is emptied first: whatever a process compiled there lazily, in the order
    it happened to call its kernels, would be loaded by the stages instead of compiled in their
    order, and the flight would move in its last bits (the kept regression flights then fail)."""
    if not is_prepared():
        _empty_cache()
    t0 = time.perf_counter()
    side = prepare_side.SideCompile(cache_dir(), None if any(s.side for s in STAGES) else 1)
    merged = None
    try:
        for k, stage in enumerate(STAGES):
            if stage.side and merged is None:
                merged = side.kernels()
            if report is not None:
                report(k, stage)
            stage.run()
    finally:
        callees = side.close()
    seconds = time.perf_counter() - t0
    # the side kernels this process compiled itself (none when the side process served them all)
    here = sorted(n for n, d in prepare_side.side_kernels().items() if sum(d.stats.cache_misses.values()))
    _write_stamp(seconds, {"merged": merged or [], "compiled_here": here, "callees_copied": callees})
    return seconds


def _empty_cache() -> None:
    """numba's index and code files in this checkout's cache folder, removed (the folder is the
    checkout's and its physics sources' own: flightsim/__init__.py)."""
    d = cache_dir()
    if not d.is_dir():
        return
    for side in d.glob(prepare_side.FOLDER_PREFIX + "*"):     # a killed prepare's side folder
        shutil.rmtree(side, ignore_errors=True)
    for f in d.rglob("*"):
        if f.is_file() and f.suffix in (".nbi", ".nbc"):
            try:
                f.unlink()
            except OSError:
                pass


def ensure_prepared(stream=sys.stderr) -> None:
    """For the modes with no window: prepare in this process if needed, a line per stage."""
    if is_prepared():
        return
    total = sum(s.expected_s for s in STAGES)
    print(f"preparing the flight model for this machine (once; about {total:.0f} s on 2 cores) ...",
          file=stream, flush=True)
    seconds = prepare(lambda k, s: print(f"  {k + 1}/{len(STAGES)} {s.name}", file=stream, flush=True))
    print(f"  ready in {seconds:.0f} s", file=stream, flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flightsim.prepare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--progress", action="store_true", help="JSON lines: one per stage, then {\"done\": true}")
    ap.add_argument("--force", action="store_true", help="run every stage even when the stamp says it is done")
    args = ap.parse_args(argv)
    if args.progress:
        def report(k, s):
            print(json.dumps({"stage": k, "stages": len(STAGES), "name": s.name,
                              "expected_s": [x.expected_s for x in STAGES]}), flush=True)
        if args.force or not is_prepared():
            seconds = prepare(report)
        else:
            seconds = 0.0
        print(json.dumps({"done": True, "seconds": round(seconds, 2)}), flush=True)
        return 0
    if args.force:
        seconds = prepare(lambda k, s: print(f"{k + 1}/{len(STAGES)} {s.name}", flush=True))
        print(f"prepared in {seconds:.1f} s")
    else:
        ensure_prepared(sys.stdout)
        print(f"prepared: {cache_dir()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
