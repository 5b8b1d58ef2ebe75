"""The wind tunnel's energy-maneuverability test for a jet (issue 19): turn rate against speed from
pulls of the full model, with the corner speed where the g limit meets the wing's lift."""
import json
import subprocess
import sys

import pytest

from flightsim.tools import maneuver


@pytest.fixture(scope="module")
def f15():
    return maneuver.sim_for("f15c", 16758.0)


def test_the_corner_speed_is_the_instantaneous_turn_peak(f15):
    c = maneuver.turn_curve(f15, 0.0, "max")
    corner = c["corner"]
    assert corner is not None and corner["g"] == pytest.approx(9.0, abs=0.01)
    rows = [r for r in c["rows"] if r["instantaneous_dps"] is not None]
    peak = max(rows, key=lambda r: r["instantaneous_dps"])
    step = rows[1]["mach"] - rows[0]["mach"]                          # the sweep's step
    assert abs(peak["mach"] - corner["mach"]) <= step + 1e-9
    assert corner["turn_rate_dps"] >= peak["instantaneous_dps"] - 0.3
    for r in rows:
        if r["mach"] < corner["mach"] - step:
            assert r["instantaneous_g"] < 9.0 - 1e-3                   # below it the wing limits
        elif r["mach"] > corner["mach"] + step:
            assert r["instantaneous_g"] == pytest.approx(9.0, abs=1e-2)  # above it the limiter
            assert r["instantaneous_dps"] < corner["turn_rate_dps"]      # and the turn widens
    sus = [r for r in c["rows"] if r["sustained_dps"] is not None]
    assert all(r["sustained_dps"] <= r["instantaneous_dps"] + 1e-6 for r in sus)


def test_level_speed_is_where_the_excess_power_runs_out(f15):
    m = maneuver.level_mach(f15, 13716.0, "max")
    rig = maneuver.Rig(f15, 13716.0, "max")
    assert rig.pull((m - 0.05) * rig.sound_ms, 1.0).ps_ms > 0.0
    assert rig.pull((m + 0.05) * rig.sound_ms, 1.0).ps_ms < 0.0
    assert maneuver.level_mach(f15, 13716.0, "military") < m


def test_tunnel_turn_prints_the_curve_and_its_json():
    r = subprocess.run([sys.executable, "-m", "flightsim.tunnel", "turn", "--aircraft", "f15c", "--altitude-m", "4572",
                        "--json"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["altitude_m"] == 4572.0 and out["corner"]["ias_kmh"] > 500.0
    assert {"mach", "ias_kmh", "instantaneous_dps", "sustained_dps"} <= set(out["rows"][0])
