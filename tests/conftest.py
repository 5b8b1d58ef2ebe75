import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.fixtures import write_aircraft
from tests.shared import shared_results  # noqa: F401  (a fixture: results shared by every xdist worker)

# set by the session's start while the flight model compiles in the background: the file that
# appears when it is done (its text: "ok" or why it failed)
KERNELS_READY = "FLIGHTSIM_TESTS_KERNELS_READY"
_preparing: dict = {}


def pytest_sessionstart(session):
    """On an empty numba cache (a fresh clone, CI) the kernels are compiled once, with a line per
    stage: no test compiles a kernel of its own. The compile runs in the background (a process
    of its own, on one core) while the workers start, collect, and run the files that call no
    kernel (NO_KERNEL_FILES) on the other; the first kernel a test calls, or the first process
    it starts, waits for it (_hold_kernels). That cold start's report is kept for
    tests/physics/test_cache.py (tests/cold_prepare.py), which would otherwise compile
    everything cold once more."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    ready = os.environ.get(KERNELS_READY)
    if hasattr(session.config, "workerinput"):           # an xdist worker: the controller prepares
        if ready and not Path(ready).exists():
            _hold_kernels(Path(ready))
        return
    from flightsim.app.prepare import is_prepared
    if is_prepared():
        return
    base = session.config._tmp_path_factory.getbasetemp()
    done = base / "kernels-ready"
    os.environ[KERNELS_READY] = str(done)
    thread = threading.Thread(target=_prepare_in_background,
                              args=(base / "shared-results", done, os.environ["NUMBA_CACHE_DIR"]),
                              name="cold prepare", daemon=True)
    _preparing["thread"] = thread
    thread.start()
    if session.config.getoption("numprocesses", None) in (None, 0):    # -n 0: this process runs the tests
        _hold_kernels(done)


def _prepare_in_background(root: Path, done: Path, cache_dir: str) -> None:
    from flightsim.app.prepare import STAGES
    from tests.cold_prepare import KEY, cold_prepare, compile_suite_kernels
    from tests.shared import SharedResults

    def stage(d):
        if "stage" in d:
            print(f"  {d['stage'] + 1}/{len(STAGES)} {d['name']}", file=sys.stderr, flush=True)
        elif d.get("done"):
            print(f"  ready in {d['seconds']:.0f} s", file=sys.stderr, flush=True)
    print("\npreparing the flight model for this machine (once; the tests that need no kernel run "
          "meanwhile) ...", file=sys.stderr, flush=True)
    outcome = "ok"
    try:
        SharedResults(root).once(KEY, lambda _d: cold_prepare(cache_dir, stage))
        # before the tests go on: a gym test or a validation run calling one before it is cached
        # compiles it itself (the gym's first environment: 12-15 s, measured twice)
        SharedResults(root).once("suite kernels", lambda _d: compile_suite_kernels(cache_dir))
    except Exception as e:           # the tests go on, compiling lazily; test_cache.py fails on it
        outcome = f"failed: {e}"
        print(f"preparing the flight model {outcome}", file=sys.stderr, flush=True)
    _preparing["outcome"] = outcome
    tmp = done.with_suffix(".tmp")
    tmp.write_text(outcome)
    tmp.replace(done)


# the programs ctypes.util.find_library runs (pyglet finding libGL, libEGL ...): not held
LIBRARY_FINDERS = {"ldconfig", "gcc", "cc", "ld", "objdump"}


def _hold_kernels(done: Path) -> None:
    """Until ``done`` appears, the first kernel this process calls waits for it (numba's compile,
    which would otherwise compile it here, lazily, into the cache being filled), and so does
    every process a test starts (it would compile there, or start a preparation of its own)."""
    from numba.core.dispatcher import Dispatcher
    compile_, popen_init = Dispatcher.compile, subprocess.Popen.__init__
    lock = threading.Lock()

    def wait():
        with lock:
            while not done.exists():
                time.sleep(0.05)
            Dispatcher.compile, subprocess.Popen.__init__ = compile_, popen_init

    def compile_when_ready(self, sig):
        wait()
        return compile_(self, sig)

    def popen_when_ready(self, args, *more, **kwargs):
        program = os.path.basename(str(args if isinstance(args, (str, bytes, os.PathLike)) else args[0]))
        if threading.current_thread() is not _preparing.get("thread") and program not in LIBRARY_FINDERS:
            wait()                                    # (-n 0: the compile's own thread goes on)
        popen_init(self, args, *more, **kwargs)
    Dispatcher.compile, subprocess.Popen.__init__ = compile_when_ready, popen_when_ready


def pytest_sessionfinish(session):
    thread = _preparing.get("thread")
    if thread is None:
        return
    thread.join()
    if _preparing.get("outcome") != "ok":
        print(f"preparing the flight model {_preparing.get('outcome')}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# the files whose tests take longest (a validation run, the wind tunnel's sweeps, a replayed
# flight: tens of seconds each): run early, so that pytest-xdist's workers share the short ones
# out at the end rather than one of them waiting on the last long one
SLOW_FIRST = ("tests/test_validate.py", "tests/test_tunnel_cards.py", "tests/render/test_replay_flow.py",
              "tests/physics/test_cache.py", "tests/test_validate_systems.py", "tests/test_cli.py")
# the files whose tests call no numba kernel, in their own process or in one they start (measured
# with tests/kernel_probe.py, Nov 2026: 17 s of tests): on a fresh clone they run while the
# flight model compiles. A file wrongly listed here only waits for the compile like the rest
NO_KERNEL_FILES = (
    "tests/recording/test_recording_fuzz.py", "tests/test_house.py", "tests/test_import_graph.py",
    "tests/test_named_face.py", "tests/test_screens.py", "tests/world/test_landscape.py", "tests/test_settings.py",
    "tests/world/test_flight_log.py", "tests/physics/test_kernel_slots.py", "tests/physics/test_imports.py",
    "tests/input/test_profiles.py", "tests/input/test_joystick.py",
    "tests/input/test_keyboard.py", "tests/input/test_app_actions.py", "tests/input/test_bindings.py",
    "tests/render/test_glyph_text.py", "tests/render/test_tree_select.py", "tests/render/test_matrices.py",
    "tests/render/test_canvas.py", "tests/render/test_sun.py", "tests/instruments/test_instrument_spec.py")


def pytest_collection_modifyitems(session, config, items):
    """The order the workers take the tests in. pytest-xdist's work stealing hands each worker
    an equal run of the list, in order (the first half to one, the second to the other, on two
    cores), and a worker that runs out takes the second half of what another has left. So the
    files that need no kernel come first (one worker runs them while the flight model compiles;
    the other waits for it), and the slow files start the second worker's share."""
    def file_of(item):
        return item.nodeid.split("::")[0]
    free = [it for it in items if file_of(it) in NO_KERNEL_FILES]
    slow = [it for it in items if file_of(it) in SLOW_FIRST]
    rest = [it for it in items if file_of(it) not in NO_KERNEL_FILES and file_of(it) not in SLOW_FIRST]
    workers = config.workerinput["workercount"] if hasattr(config, "workerinput") else 1
    at = max(len(items) // workers, len(free)) - len(free) if workers > 1 else 0
    items[:] = free + rest[:at] + slow + rest[at:]


@pytest.fixture(scope="session")
def trainer_path(tmp_path_factory):
    """The small synthetic test aircraft, written once per session."""
    return write_aircraft(tmp_path_factory.mktemp("aircraft"))
