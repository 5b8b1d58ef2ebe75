import pytest

from tests.fixtures import write_aircraft


@pytest.fixture(scope="session")
def trainer_path(tmp_path_factory):
    """The small synthetic test aircraft, written once per session."""
    return write_aircraft(tmp_path_factory.mktemp("aircraft"))
