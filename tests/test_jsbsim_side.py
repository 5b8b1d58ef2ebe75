"""Issue 34: the Cessna 172P beside JSBSim's c172p on identical inputs
(``python -m flightsim.validate --aircraft c172p --jsbsim``)."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jsbsim")

from flightsim.validate.jsbsim_side import CASES, CONDITIONS, side_by_side  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rows():
    return side_by_side("c172p", log=lambda line: None)[0]


def _value(rows, cond, quantity, who):
    return next(r[who] for r in rows if r["case"].startswith(cond) and r["quantity"] == quantity)


def test_every_case_gives_both_models_figures_in_the_public_shape(rows):
    assert {r["case"].split(": ")[1] for r in rows} == {c.name for c in CASES}
    assert {r["case"].split(": ")[0] for r in rows} == {c[0] for c in CONDITIONS["c172p"]}
    for r in rows:
        assert set(r) >= {"case", "quantity", "flightsim", "jsbsim", "published", "unit"}
        assert isinstance(r["jsbsim"], float) and math.isfinite(r["jsbsim"]), r
        assert r["flightsim"] is None or isinstance(r["flightsim"], float), r
    # the flight-tested condition carries its published phugoid with the source (AAIB 12/2020)
    tested = [r for r in rows if r["published"] is not None]
    assert {r["quantity"] for r in tested} == {"phugoid period", "phugoid damping ratio"}
    assert all(r["case"].startswith("110 kt") and "AAIB" in r["published_source"] for r in tested)


@pytest.mark.parametrize("who", ["flightsim", "jsbsim"])
def test_both_fly_a_light_aircraft_s_modes(rows, who):
    """What a C172 is known to have (Lanchester's phugoid, pi sqrt(2) V / g, is 21 s at 90 kt; a
    light aircraft's short period is 3-8 rad/s and well damped, its Dutch roll 1.5-5 s), so that
    the reading of either model is not garbage; where the two differ is the table's business."""
    cruise = CONDITIONS["c172p"][0][0]
    assert 15.0 < _value(rows, cruise, "phugoid period", who) < 40.0
    assert 0.0 < _value(rows, cruise, "phugoid damping ratio", who) < 0.3
    assert 3.0 < _value(rows, cruise, "short-period natural frequency", who) < 8.0
    assert 0.3 < _value(rows, cruise, "short-period damping ratio", who) < 0.9
    assert 1.5 < _value(rows, cruise, "Dutch roll period", who) < 5.0
    assert 0.05 < _value(rows, cruise, "roll-mode time constant", who) < 1.0
    assert 0.0 < _value(rows, cruise, "trim angle of attack", who) < 5.0


def test_the_command_adds_the_rows_and_refuses_an_unpaired_aircraft():
    r = subprocess.run([sys.executable, "-m", "flightsim.validate", "--aircraft", "astir", "--jsbsim"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "no JSBSim model is paired with 'astir'" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "flightsim.validate", "--aircraft", "c172p", "--jsbsim", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = json.loads(r.stdout)
    assert out["jsbsim"] and out["jsbsim"][0]["case"].endswith("trim")
