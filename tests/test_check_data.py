"""CI's first stage loads every data file through its validator (flightsim/tools/check_data.py):
the shipped files pass, and a broken one is refused in one line that names it."""
import shutil

from flightsim.aircraft_data.loader import list_aircraft
from flightsim.tools import check_data
from flightsim.world import scenario as S


def test_every_shipped_aircraft_and_scenario_passes():
    lines = []
    assert check_data.check_all(lines.append) == 0
    assert sum(line.startswith("ok       aircraft") for line in lines) == len(list_aircraft()) >= 6
    assert sum(line.startswith("ok       scenario") for line in lines) == len(S.scenario_names())


def test_a_broken_scenario_is_refused_by_name(tmp_path, monkeypatch):
    shutil.copy(S.SCENARIO_DIR / "airfield.toml", tmp_path / "airfield.toml")
    (tmp_path / "broken.toml").write_text('[scenario]\nname = "broken"\nkind = "glider"\naltitude_m = "high"\n')
    monkeypatch.setattr(S, "SCENARIO_DIR", tmp_path)
    lines = []
    assert check_data.check_all(lines.append) == 1
    bad = [line for line in lines if line.startswith("REFUSED")]
    assert len(bad) == 1 and "broken" in bad[0]
