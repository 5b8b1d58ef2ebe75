"""The first start prepares every kernel, a second start compiles nothing, and the kernels'
compile options (flightsim/physics/jit.py) hold what they promise.

Checked in fresh processes on an empty numba cache: the cold one runs ``python -m
flightsim.app.prepare`` (every kernel compiled there, callees included: a warm process loads a
kernel whole and never compiles its callees); the warm one then flies every aircraft in every
scenario it can fly (guns firing, a reset), runs the wind tunnel's sweeps and the synthetic test
aircraft, and must compile nothing at all. The cold start is the session's own first prepare
where the session found the cache empty (a fresh clone, CI: tests/cold_prepare.py), else one in
a temporary cache."""
import json
import os
import subprocess
import sys

import pytest

from flightsim.physics.jit import KERNEL_OPTIONS
from tests.cold_prepare import KEY, ROOT, cold_prepare

WARM = """
import json, sys, tempfile
from pathlib import Path
import numpy as np
from numba.core.registry import CPUDispatcher
from flightsim.app import prepare
prepared = prepare.is_prepared()
from flightsim.sim import Sim
from flightsim.aircraft_data.loader import list_aircraft
from flightsim.world.assembly import World
from flightsim.world.scenario import UnsuitableAircraft, scenario_names
from tests.fixtures import write_aircraft
for a in list_aircraft():
    for s in scenario_names():
        try:
            w = World(a, s, small_world=True)
        except UnsuitableAircraft:
            continue
        w.mailbox.post(w.initial_inputs.replace(fire=1.0))
        for k in range(25):
            w.physics.tick(k * 0.02)
        w.reset()
        w.physics.tick(1.0)
        w.buffer.read()[1].euler_rad
from flightsim.tools import perf, rollrig, tunnel
perf.max_level_speed("p51d", 0.0, "wep")
perf.stall_speed("p51d")
rollrig.roll_curve("astir", 0.0)
tunnel.polar("astir")
s = Sim(write_aircraft(Path(tempfile.mkdtemp())))
s.spawn_trimmed_glide(25.0, 1000.0)
s.step(); s.run(np.tile(s.ctrl, (3, 1))); s.euler_rad; s.velocity_ned_ms
misses, hits = {}, 0
for mod in list(sys.modules.values()):
    if getattr(mod, "__name__", "").startswith("flightsim"):
        for name, d in vars(mod).items():
            if isinstance(d, CPUDispatcher):
                hits += sum(d.stats.cache_hits.values())
                if sum(d.stats.cache_misses.values()):
                    misses[mod.__name__ + "." + name] = str(dict(d.stats.cache_misses))
print(json.dumps({"prepared": prepared, "misses": misses, "hits": hits}))
"""


@pytest.fixture(scope="module")
def two_starts(shared_results):
    """A cold start (empty cache: prepare) and a warm one (the game and the tunnel), each in a
    fresh process. The cold one is the session's own where the session found the cache empty
    (tests/cold_prepare.py), else one in a temporary cache; the warm one runs on that cache."""
    cold = shared_results.once(KEY, lambda d: cold_prepare(str(d / "numba")))
    def warm(_dir):
        env = dict(os.environ)
        if cold["cache_dir"] is not None:
            env["NUMBA_CACHE_DIR"] = cold["cache_dir"]
        r = subprocess.run([sys.executable, "-c", WARM], env=env, cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        return json.loads(r.stdout.strip().splitlines()[-1])
    return cold, shared_results.once("warm start", warm)


def test_prepare_reports_its_stages_and_stamps_the_cache(two_starts):
    cold, warm = two_starts
    stages = [p for p in cold["progress"] if "stage" in p]
    assert [p["stage"] for p in stages] == list(range(stages[0]["stages"])) and len(stages) >= 4
    assert cold["progress"][-1]["done"] is True and cold["progress"][-1]["seconds"] > 0
    assert cold["prepared"] and warm["prepared"]


def test_after_prepare_the_game_and_the_tunnel_compile_nothing(two_starts):
    warm = two_starts[1]
    assert warm["misses"] == {}          # every kernel was loaded from the cache prepare filled
    assert warm["hits"] >= 10


def test_a_second_core_compiles_the_side_kernels_and_the_stages_none_of_them(two_starts):
    """prepare's side process (flightsim/app/prepare_side.py) compiles its kernels with the game's
    argument types: the stages then load every one of them and compile none (a kernel the side
    process missed, or called with other types, would be compiled again here, on the stages' core).
    On one core there is no side process and the stages compile them all."""
    from flightsim.app.prepare_side import side_kernels, usable_cores
    side = two_starts[0]["side"]
    names = sorted(side_kernels())
    if usable_cores() >= 2:
        assert sorted(side["merged"]) == names and side["compiled_here"] == []
    else:
        assert side["merged"] == [] and side["compiled_here"] == names


def test_a_failed_side_process_merges_nothing_and_leaves_no_folder(tmp_path):
    """The stages then compile the side kernels themselves, as on one core."""
    from flightsim.app import prepare_side
    side = prepare_side.SideCompile(tmp_path, cpu_count=2)
    side.proc.kill()
    assert side.kernels() == [] and side.close() == 0
    assert not side.folder.exists()
    one = prepare_side.SideCompile(tmp_path, cpu_count=1)
    assert one.proc is None and one.kernels() == [] and one.close() == 0


def test_merging_an_index_adds_only_the_versions_the_target_lacks(tmp_path):
    """prepare_side.merge_index through numba's own cache files: the target keeps its own
    compiled versions, gains the others (code files renumbered), and an index of another source
    stamp is left alone."""
    from numba.core.caching import IndexDataCacheFile

    from flightsim.app.prepare_side import merge_index
    side, main = tmp_path / "side", tmp_path / "main"
    side.mkdir()
    main.mkdir()
    stamp = (1.0, 2)
    IndexDataCacheFile(str(side), "m.f-1.py311", stamp).save("a", b"side a")
    IndexDataCacheFile(str(side), "m.f-1.py311", stamp).save("b", b"side b")
    IndexDataCacheFile(str(main), "m.f-1.py311", stamp).save("a", b"main a")
    assert merge_index(side / "m.f-1.py311.nbi", main / "m.f-1.py311.nbi") == 1
    merged = IndexDataCacheFile(str(main), "m.f-1.py311", stamp)
    assert merged.load("a") == b"main a" and merged.load("b") == b"side b"
    assert merge_index(side / "m.f-1.py311.nbi", main / "m.f-1.py311.nbi") == 0      # nothing left to add
    IndexDataCacheFile(str(side), "m.g-1.py311", (9.0, 9)).save("c", b"other source")
    IndexDataCacheFile(str(main), "m.g-1.py311", stamp).save("d", b"main d")
    assert merge_index(side / "m.g-1.py311.nbi", main / "m.g-1.py311.nbi") == 0
    assert merge_index(side / "none.nbi", main / "none.nbi") == 0


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


def test_a_changed_source_is_not_prepared(tmp_path, monkeypatch):
    """The stamp names the sources' sizes and times: numba would compile again, so must prepare."""
    from flightsim.app import prepare
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not prepare.is_prepared()
    prepare._write_stamp(1.0)
    assert prepare.is_prepared()
    stamp = json.loads((tmp_path / prepare.STAMP).read_text())
    name = next(iter(stamp["fingerprint"]["sources"]))
    stamp["fingerprint"]["sources"][name][1] += 1.0           # as if touched
    (tmp_path / prepare.STAMP).write_text(json.dumps(stamp))
    assert not prepare.is_prepared()


def test_numba_imported_before_flightsim_still_uses_the_hashed_cache(tmp_path):
    """A program that imports numba first (numba then reads NUMBA_CACHE_DIR before flightsim sets
    it) must still cache in flightsim's folder, not beside the sources."""
    code = ("import numba.core.config as c, os, flightsim; "
            "print(c.CACHE_DIR == os.environ['NUMBA_CACHE_DIR'] and 'flightsim' in c.CACHE_DIR)")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "True"


def test_an_unprepared_cache_is_emptied_before_the_stages_run(tmp_path, monkeypatch):
    """What a process compiled lazily into a cache not yet prepared (its own order) must not be
    what the stages load: prepare empties it first, and leaves a prepared one alone."""
    from flightsim.app import prepare
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(prepare, "STAGES", ())
    lazy = tmp_path / "flightsim" / "physics" / "aero.section_forces-1.py311.nbi"
    lazy.parent.mkdir(parents=True)
    lazy.write_bytes(b"compiled out of order")
    prepare.prepare()
    assert not lazy.exists() and prepare.is_prepared()
    lazy.write_bytes(b"compiled by the stages")
    prepare.prepare()                                  # prepared: nothing removed
    assert lazy.exists()
