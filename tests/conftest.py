import os
import sys

import pytest

from tests.fixtures import write_aircraft
from tests.shared import shared_results  # noqa: F401  (a fixture: results shared by every xdist worker)


def pytest_sessionstart(session):
    """On an empty numba cache (a fresh clone, CI) the kernels are compiled once here, with a
    line per stage, before any test runs: no test waits half a minute on a compile of its own."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    from flightsim.app.prepare import ensure_prepared
    ensure_prepared(sys.stderr)


@pytest.fixture(scope="session")
def trainer_path(tmp_path_factory):
    """The small synthetic test aircraft, written once per session."""
    return write_aircraft(tmp_path_factory.mktemp("aircraft"))
