import pytest


@pytest.fixture
def profile_dir(tmp_path, monkeypatch):
    d = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(d))
    return d / "flightsim" / "devices"
