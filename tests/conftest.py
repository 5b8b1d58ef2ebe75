import os
import sys

import pytest

from tests.fixtures import write_aircraft
from tests.shared import shared_results  # noqa: F401  (a fixture: results shared by every xdist worker)


def pytest_sessionstart(session):
    """On an empty numba cache (a fresh clone, CI) the kernels are compiled once here, with a
    line per stage, before any test runs: no test waits half a minute on a compile of its own.
    That cold start's report is kept for tests/physics/test_cache.py (tests/cold_prepare.py), which
    would otherwise compile everything cold once more."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    from flightsim.app.prepare import STAGES, is_prepared
    if is_prepared():
        return
    from tests.cold_prepare import KEY, cold_prepare, compile_suite_kernels
    from tests.shared import SharedResults

    def stage(d):
        if "stage" in d:
            print(f"  {d['stage'] + 1}/{len(STAGES)} {d['name']}", file=sys.stderr, flush=True)
        elif d.get("done"):
            print(f"  ready in {d['seconds']:.0f} s", file=sys.stderr, flush=True)
    print("preparing the flight model for this machine (once) ...", file=sys.stderr, flush=True)
    root = session.config._tmp_path_factory.getbasetemp() / "shared-results"
    SharedResults(root).once(KEY, lambda _d: cold_prepare(None, stage))
    SharedResults(root).once("suite kernels", lambda _d: compile_suite_kernels())


# the files whose tests take longest (a validation run, the wind tunnel's sweeps, a replayed
# flight: tens of seconds each): run first, so that pytest-xdist's workers share the short ones
# out at the end rather than one of them waiting on the last long one
SLOW_FIRST = ("tests/test_validate.py", "tests/test_tunnel_cards.py", "tests/render/test_replay_flow.py",
              "tests/physics/test_cache.py", "tests/test_validate_systems.py", "tests/test_cli.py")


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: 0 if item.nodeid.split("::")[0] in SLOW_FIRST else 1)


@pytest.fixture(scope="session")
def trainer_path(tmp_path_factory):
    """The small synthetic test aircraft, written once per session."""
    return write_aircraft(tmp_path_factory.mktemp("aircraft"))
