"""Tabs and trim as data (issue 17, seed 000): geared and spring tabs in [controls.<axis>],
and the adjustable stabilizer ([controls.stabilizer_trim]), on the P-51D's data with the
tabs added (the real P-51D has neither: these show what the data does, not that aircraft)."""
import copy
import math

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.aircraft_data.schema import DataError
from flightsim.physics.state import flat_terrain
from flightsim.sim import Sim
from flightsim.tools.rollrig import steady_roll_rate, with_aileron_tabs

ALT_M = 3048.0          # 10,000 ft, NACA's roll tests


def _p51d(**aileron):
    return Sim(with_aileron_tabs("p51d", **aileron), terrain=flat_terrain(-1.0e6))


@pytest.fixture(scope="module")
def rolls():
    """Steady roll rate at 50 lb, 10,000 ft, for the plain ailerons, a spring tab carrying half
    the hinge moment at 400 km/h IAS (10 % of the effect lost to its lift at full assistance), and a
    geared tab easing 30 %."""
    out = {}
    for name, kw in (("plain", {}), ("spring", {"spring_tab_half_ias_kmh": 400.0, "tab_effectiveness_loss": 0.1}),
                     ("geared", {"geared_tab_ease": 0.3})):
        sim = _p51d(**kw)
        out[name] = {v: steady_roll_rate(sim, float(v), ALT_M)["roll_rate_dps"] for v in (300, 440, 560, 680)}
    return out


def test_a_spring_tab_keeps_aileron_power_at_high_speed(rolls):
    plain, spring = rolls["plain"], rolls["spring"]
    # below the ailerons' full-deflection speed (440 km/h) full travel either way: the tab's
    # lift costs a little (its share of the hinge moment is already 43 % at 300 km/h)
    assert 0.85 * plain[300] < spring[300] < plain[300]
    # above it the plain aileron's travel falls as (1/q)^(1/1.6) and its roll rate with it
    # (measured 86 -> 76 deg/s from 440 to 680 km/h); the spring-tabbed one's rises on
    assert plain[680] < 0.95 * plain[440]
    assert spring[680] > 1.4 * plain[680]
    assert spring[680] > 1.2 * spring[440]


def test_a_geared_tab_eases_the_force_so_full_travel_lasts_longer(rolls):
    plain, geared = rolls["plain"], rolls["geared"]
    assert geared[300] == pytest.approx(plain[300], rel=0.02)     # full travel anyway
    # 30 % less hinge moment: full travel up to 440 / sqrt(0.7) = 526 km/h, then (1/0.7)^(1/1.6)
    # the plain aileron's travel (its hinge moment grows as deflection^1.6)
    assert geared[560] > 1.15 * plain[560]
    assert geared[680] == pytest.approx(plain[680] * (1 / 0.7) ** (1 / 1.6), rel=0.05)


def _stab_p51d(nose_up_deg=2.0, nose_down_deg=8.0, travel_time_s=8.0):
    from flightsim.aircraft_data.loader import STAB_TRIM_KEYS
    from flightsim.aircraft_data.schema import validate_table
    spec = copy.deepcopy(load_aircraft("p51d"))
    spec.controls["stabilizer_trim"] = validate_table(
        {"nose_up_deg": nose_up_deg, "nose_down_deg": nose_down_deg, "travel_time_s": travel_time_s},
        STAB_TRIM_KEYS, "test", "controls.stabilizer_trim")
    return compile_aircraft(spec)


def _max_alpha_full_back_stick(compiled, trim):
    """Level at 280 km/h, 3000 m; the stabilizer run to ``trim`` (a quick trim motor: 0.3 s),
    and at once full back stick for 4 s: the highest angle of attack reached (deg)."""
    sim = Sim(compiled, terrain=flat_terrain(-1.0e6))
    sim.spawn_trimmed_level(280 / 3.6, 3000.0)
    c = sim.controls.copy()
    c.pitch_trim, c.pitch = trim, 1.0
    best = -90.0
    for _ in range(200):
        sim.step(c.array)
        best = max(best, sim.alpha_deg)
    return best


def test_the_stabilizer_trim_moves_the_tail_not_the_elevator():
    comp = _stab_p51d()
    sim = Sim(comp, terrain=flat_terrain(-1.0e6))
    sim.spawn_trimmed_level(400 / 3.6, 3000.0)
    c = sim.controls.copy()
    start = sim.surface_positions[6]                 # where the trim put it
    c.pitch_trim, c.pitch = -1.0, 0.0
    for _ in range(50):
        sim.step(c.array)
    surf = sim.surface_positions
    assert abs(surf[0]) < 1e-9                       # the elevator stays at neutral
    assert surf[6] == pytest.approx(start - 0.25)    # the stabilizer runs end to end in 8 s: 0.25 in one second
    for _ in range(400):
        sim.step(c.array)
    assert sim.surface_positions[6] == -1.0


def test_nose_down_stabilizer_trim_takes_away_what_full_back_stick_reaches():
    """The mechanism of seed 000's "If you dial in too much nose down trim on a Bf109, you will be
    unable to stall": the stabilizer's incidence works against the elevator. On the P-51D's
    powerful elevator (25 deg, 35 % chord) a 12 deg stabilizer takes 14 deg of angle of attack
    from full back stick (40.7 -> 26.8 deg measured) but does not stop the stall; whether the
    Bf 109 can is its own card, with its own tail's data."""
    comp = _stab_p51d(nose_down_deg=12.0, travel_time_s=0.3)
    a_neutral = _max_alpha_full_back_stick(comp, 0.0)
    a_down = _max_alpha_full_back_stick(comp, -1.0)
    assert a_down < a_neutral - 10.0


def test_bad_tab_and_trim_data_is_refused(tmp_path):
    from flightsim.aircraft_data.loader import CONTROL_AXIS_KEYS, STAB_TRIM_KEYS
    from flightsim.aircraft_data.schema import validate_table
    with pytest.raises(DataError, match="geared_tab_ease"):
        validate_table({"max_force_n": 200.0, "full_deflection_ias_kmh": 400.0, "geared_tab_ease": 1.5},
                       CONTROL_AXIS_KEYS, tmp_path / "aircraft.toml", "controls.aileron")
    with pytest.raises(DataError, match="nose_up_deg"):
        validate_table({"nose_down_deg": 8.0}, STAB_TRIM_KEYS, tmp_path / "aircraft.toml", "controls.stabilizer_trim")


def test_the_tunnel_roll_card_draws_with_and_without_a_spring_tab(tmp_path, capsys):
    """python -m flightsim.tunnel roll --compare-tabs: the aircraft as its data gives it and the
    same aircraft with its aileron tabs off (or, as here for the tab-less P-51D, given a spring
    tab), in one JSON object and one plot."""
    import json

    from flightsim.tools.tunnel import main
    png = tmp_path / "roll.png"
    assert main(["roll", "--aircraft", "p51d", "--altitude-m", "3048", "--compare-tabs", "--spring-tab-ias", "400",
                 "--json", "--plot", str(png)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tabs"] == "no aileron tabs" and out["compare"]["tabs"].startswith("spring tab")
    plain = {p["ias_kmh"]: p["roll_rate_dps"] for p in out["points"]}
    tabbed = {p["ias_kmh"]: p["roll_rate_dps"] for p in out["compare"]["points"]}
    fast = max(plain)
    assert tabbed[fast] > 1.5 * plain[fast] and png.stat().st_size > 10_000


def test_an_aircraft_with_stabilizer_trim_is_trimmed_by_its_stabilizer():
    """The trimmer holds the elevator at neutral and finds the stabilizer's position; flown on
    from there the aircraft stays in level flight (the game's spawn and the tunnel rely on it)."""
    sim = Sim(_stab_p51d(), terrain=flat_terrain(-1.0e6))
    t = sim.spawn_trimmed_level(400 / 3.6, 3000.0)
    assert t.ok and t.within_travel
    surf = sim.surface_positions
    assert surf[0] == 0.0 and surf[6] == pytest.approx(t.pitch_cmd) and surf[6] != 0.0
    h0 = sim.altitude_m
    sim.fly(10.0)
    assert abs(sim.altitude_m - h0) < 15.0 and abs(sim.pitch_rate_rads) < 0.01
    assert sim.surface_positions[6] == pytest.approx(t.pitch_cmd)
