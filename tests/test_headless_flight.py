"""Headless flight flies the scenario (issue 13): ``--headless-telemetry --scenario S`` builds the
scenario's World exactly as the window does and flies it hands off, or with ``--pilot auto``
the scenario's own autopilot. The JSON lines keep their fields and add ias_kmh and events."""
import json

import pytest

from flightsim.app.cli import main
from flightsim.world.scenario import scenario_names

FIELDS = {"t_s", "altitude_m", "tas_kmh", "vs_ms", "alpha_deg", "beta_deg", "roll_deg", "pitch_deg", "heading_deg",
          "nz_g", "stalled_sections", "on_ground", "ias_kmh", "events"}
# what each scenario's world makes happen (the winch's cable, the AI's guns, the autopilots' landings)
EXPECTED_EVENTS = {
    ("winch", "none"): {"took off"}, ("winch", "auto"): {"took off", "cable released"},
    ("fighter_combat", "none"): {"hit taken"}, ("fighter_combat", "auto"): {"hit taken"},
    ("fighter_takeoff", "auto"): {"took off"},
    ("landing", "auto"): {"landed", "at rest"},
    # missiles (issue 35): in 40 s both radars lock and shoot at 60 km; at short range the hands-off
    # player is shot down by the AI's AIM-9
    ("f15c_bvr", "auto"): {"lock", "launch"}, ("f15c_bvr", "none"): {"lock", "launch"},
    ("f15c_sidewinder", "none"): {"lock", "launch", "hit", "shot down"},
}
SECONDS = {"landing": 100.0}


def fly(capsys, *args):
    rc = main(["--headless-telemetry", "--json", *args])
    out = capsys.readouterr().out.splitlines()
    lines = [json.loads(x) for x in out if x.startswith("{")]
    return rc, out, lines


@pytest.mark.parametrize("pilot", ["none", "auto"])
@pytest.mark.parametrize("scenario", scenario_names())
def test_every_scenario_flies_headless_both_ways(capsys, scenario, pilot):
    seconds = SECONDS.get(scenario, 40.0)
    rc, out, lines = fly(capsys, "--scenario", scenario, "--pilot", pilot, "--seconds", str(seconds))
    assert rc == 0, out
    assert scenario in out[0] and ("hands off" if pilot == "none" else "flown by") in out[0]
    assert lines and all(FIELDS <= set(x) for x in lines)
    assert all(isinstance(x["events"], list) for x in lines)
    events = {e["event"] for x in lines for e in x["events"]}
    assert EXPECTED_EVENTS.get((scenario, pilot), set()) <= events, events
    if "hit taken" not in events:       # (shot down by the AI is a crash of its own: issue 18's damage)
        assert "crashed" not in events
    if not events & {"landed", "crashed", "shot down"}:          # flown the whole time, a line a second
        assert lines[-1]["t_s"] == pytest.approx(lines[0]["t_s"] + seconds - 1.0, abs=0.05)


def test_the_winch_world_is_built_headless(capsys):
    """It used to glide at 600 m with no cable: now it starts on the runway, on the cable."""
    rc, out, lines = fly(capsys, "--scenario", "winch", "--seconds", "40")
    assert lines[0]["on_ground"] == 1 or lines[0]["altitude_m"] < 400.0
    released = [e for x in lines for e in x["events"] if e["event"].startswith("cable")]
    assert released and "above the launch point" in released[0]["detail"]
    assert max(x["altitude_m"] for x in lines) > lines[0]["altitude_m"] + 200.0     # the cable lifted it


def test_aircraft_alone_flies_its_own_kind(capsys):
    rc, out, lines = fly(capsys, "--aircraft", "p51d", "--seconds", "3")
    assert rc == 0 and "P-51D" in out[0] and "fighter_air" in out[0]


def test_a_glider_scenario_in_the_fighter_says_how_it_starts(capsys):
    rc, out, lines = fly(capsys, "--aircraft", "p51d", "--scenario", "thermal", "--seconds", "5")
    assert rc == 0 and "p51d in thermal" in out[0] and "trimmed level flight" in out[0]
    assert abs(lines[-1]["vs_ms"]) < 2.0 and lines[-1]["tas_kmh"] == pytest.approx(450.0, abs=10.0)


def test_altitude_moves_an_air_start(capsys):
    rc, out, lines = fly(capsys, "--scenario", "airfield", "--altitude-m", "1500", "--seconds", "2")
    assert lines[0]["altitude_m"] == pytest.approx(1500.0, abs=5.0)


@pytest.mark.parametrize("args,words", [
    (["--aircraft", "p51d", "--scenario", "winch"], "p51d cannot start on the winch"),
    (["--aircraft", "astir", "--scenario", "fighter_combat"], "astir carries no guns"),
    (["--aircraft", "no_such_plane"], "no_such_plane"),
    (["--scenario", "no_such_scenario"], "no_such_scenario"),
])
def test_refusals_are_one_line_and_status_2(capsys, args, words):
    for mode in (["--headless-telemetry"], ["--frames", "1", "--screenshot", "/dev/null"], []):
        assert main([*mode, *args]) == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err and "Traceback" not in err
