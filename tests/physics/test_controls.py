"""Seed 000's control feel: the stick is a force request, the surfaces are dynamical systems."""
import copy
import math

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.aircraft_data.schema import DataError
from flightsim.physics.named import SURFACES, Controls
from flightsim.physics.state import flat_terrain, make_ctrl, make_state
from flightsim.sim import Sim
from flightsim.tools.rollrig import roll_curve, steady_roll_rate

DT = 0.02


def _held_flight(sim, tas_ms, ctrl, seconds, altitude_m=1000.0):
    """Fly with the airflow held constant (a tunnel rig): returns each surface's position per
    step, {name: array} (physics.named.SURFACES)."""
    sim.terrain = flat_terrain(-1.0e6)
    sim.state = make_state((0.0, 0.0, -altitude_m), (tas_ms, 0.0, 0.0))
    held = sim.state.copy()
    sim.ctrl = ctrl
    out = []
    for _ in range(int(round(seconds / DT))):
        sim.step()
        sim.set_motion(held)
        sim.forget_history()
        out.append(sim.surface_positions)
    out = np.array(out)
    return {name: out[:, k] for name, k in SURFACES.items()}


def _astir_with(**axes):
    spec = copy.deepcopy(load_aircraft("astir"))
    for axis, values in axes.items():
        spec.controls[axis].update(values)
    return compile_aircraft(spec)


def test_surface_takes_time_to_deflect_and_snaps_back_faster():
    sim = Sim("astir")
    s = _held_flight(sim, 25.0, make_ctrl(roll=1.0), 1.0)
    ail = s["roll"]
    rate_limit = 1.0 / 0.25                        # aircraft.toml: aileron travel_time_s = 0.25
    assert ail[0] <= rate_limit * DT + 1e-9        # not teleported
    assert np.all(np.diff(ail) <= rate_limit * DT + 1e-9)
    assert ail[-1] == pytest.approx(1.0, abs=1e-3)  # full travel at low speed with full force
    t_out = DT * (np.argmax(ail >= 0.95) + 1)
    # release: the backforce returns it, and faster than the pilot pushed it out
    sim.ctrl = make_ctrl()
    back = []
    for _ in range(50):
        sim.step()
        back.append(sim.surface("roll"))
    back = np.array(back)
    t_back = DT * (np.argmax(back <= 0.05) + 1)
    assert back[-1] == pytest.approx(0.0, abs=1e-3)
    assert t_back < t_out


def test_stick_force_is_scaled_at_low_speed_so_half_force_is_half_travel():
    sim = Sim("astir")
    s = _held_flight(sim, 25.0, make_ctrl(pitch=0.5), 1.0)
    assert s["pitch"][-1] == pytest.approx(0.5, abs=1e-3)


def test_deflection_falls_as_one_over_v_squared_above_the_full_deflection_speed():
    c = _astir_with(aileron={"full_deflection_ias_kmh": 120.0})
    sim = Sim(c)
    for v_kmh, expect in ((100.0, 1.0), (120.0, 1.0), (240.0, 0.25), (170.0, (120 / 170) ** 2)):
        s = _held_flight(sim, v_kmh / 3.6, make_ctrl(roll=1.0), 1.5, altitude_m=0.0)
        assert s["roll"][-1] == pytest.approx(expect, rel=0.01), v_kmh


def test_a_hinge_moment_growing_faster_than_the_deflection_leaves_more_travel_at_speed():
    """hinge_moment_exponent m: the pilot's force holds (q_full / q)^(1/m) of the travel, so with
    m = 2 (a beveled, sealed aileron: light at small deflections) it falls as 1/V, not 1/V^2."""
    c = _astir_with(aileron={"full_deflection_ias_kmh": 120.0, "hinge_moment_exponent": 2.0})
    sim = Sim(c)
    for v_kmh, expect in ((100.0, 1.0), (240.0, 0.5), (170.0, 120 / 170)):
        s = _held_flight(sim, v_kmh / 3.6, make_ctrl(roll=1.0), 1.5, altitude_m=0.0)
        assert s["roll"][-1] == pytest.approx(expect, rel=0.01), v_kmh


def test_control_effectiveness_scales_the_deflection_curves_toward_the_plain_section(tmp_path):
    """An airfoil's control_effectiveness: its +/-10 degree curves' increments over the 0 degree
    curve are scaled (a beveled trailing edge gives less lift, drag and moment per degree)."""
    import numpy as np

    from flightsim.aircraft_data.loader import load_airfoil
    from tests.fixtures import dumps, thin_airfoil
    doc = thin_airfoil(flap=0.2)
    full = tmp_path / "full.toml"
    full.write_text(dumps(doc))
    doc["airfoil"]["control_effectiveness"] = 0.5
    half = tmp_path / "half.toml"
    half.write_text(dumps(doc))
    a, b = load_airfoil(full), load_airfoil(half)
    assert np.array_equal(a.curves[1], b.curves[1])
    for d in (0, 2):
        assert np.allclose(b.curves[d] - b.curves[1], 0.5 * (a.curves[d] - a.curves[1]))
        assert np.abs(a.curves[d] - a.curves[1]).max() > 0.1


def test_trim_tab_moves_the_no_force_point_at_any_speed():
    sim = Sim("astir")
    for v in (25.0, 60.0):
        s = _held_flight(sim, v, make_ctrl(pitch_trim=-0.3), 1.0)
        assert s["pitch"][-1] == pytest.approx(-0.3, abs=1e-3)
    # force on top of trim: the same force gets less deflection at high speed
    slow = _held_flight(sim, 25.0, make_ctrl(pitch=0.2, pitch_trim=-0.3), 1.0)["pitch"][-1]
    fast = _held_flight(sim, 120.0, make_ctrl(pitch=0.2, pitch_trim=-0.3), 1.0)["pitch"][-1]
    assert slow == pytest.approx(-0.1, abs=1e-3)
    assert -0.3 < fast < slow


@pytest.mark.parametrize("trim, axis", [("roll_trim", "roll"), ("yaw_trim", "yaw")])
def test_aileron_and_rudder_trim_tabs_move_their_neutral_point(trim, axis):
    sim = Sim("astir")
    s = _held_flight(sim, 40.0, make_ctrl(**{trim: 0.25}), 1.0)
    assert s[axis][-1] == pytest.approx(0.25, abs=1e-3)
    assert abs(s["pitch"][-1]) < 1e-6


def test_p51d_lateral_trim_holds_hands_off_cruise():
    """Under power the P-51D's torque and slipstream need a little aileron and rudder: trimmed
    with the tabs (Trimmer.lateral), hands off it holds wings level and heading for 20 s; the
    same flight with the tabs neutral rolls off (so the trim is what holds it)."""
    sim = Sim("p51d")
    t = sim.spawn_trimmed_level(400 / 3.6, 1000.0)
    trims = Controls(t.ctrl)
    assert t.ok and (trims.roll_trim != 0.0 or trims.yaw_trim != 0.0)
    start = sim.state.copy(), sim.ctrl.copy()
    sim.fly(20.0)
    roll, _, heading = sim.euler_rad
    assert abs(math.degrees(roll)) < 2.0 and abs(math.degrees(heading)) < 2.0
    sim.state, sim.ctrl = start[0].copy(), start[1].copy()
    sim.controls.set(roll_trim=0.0, yaw_trim=0.0)
    sim.set_surface("roll", 0.0)
    sim.set_surface("yaw", 0.0)
    sim.fly(20.0)
    roll_free, _, _ = sim.euler_rad
    assert abs(math.degrees(roll_free)) > 5.0


def test_actuators_take_their_travel_time():
    sim = Sim("astir")
    s = _held_flight(sim, 25.0, make_ctrl(airbrake=1.0, gear_up=1.0), 2.2)
    airbrake, gear = s["airbrake"], s["gear"]
    # aircraft.toml: airbrake_travel_s = 1.0, gear_travel_s = 2.0
    assert airbrake[int(0.5 / DT) - 1] == pytest.approx(0.5, abs=1e-9)
    assert airbrake[int(1.0 / DT) - 1] == pytest.approx(1.0, abs=1e-9)
    assert gear[int(1.0 / DT) - 1] == pytest.approx(0.5, abs=1e-9)
    assert gear[-1] == pytest.approx(1.0)


def test_airbrake_drag_follows_the_airbrake_not_the_handle():
    sim = Sim("astir")
    sim.terrain = flat_terrain(-1.0e6)
    sim.state = make_state((0, 0, -1000.0), (30.0, 0.0, 0.0))
    sim.ctrl = make_ctrl(airbrake=1.0)
    sim.step()
    d_first = -sim.force_body_n[0]
    for _ in range(60):
        sim.step()
        sim.set_motion(make_state((0, 0, -1000.0), (30.0, 0.0, 0.0)))
    d_open = -sim.force_body_n[0]
    assert d_open > 1.5 * d_first


def test_roll_curve_rises_over_the_astir_envelope():
    res = roll_curve("astir")
    rates = [p["roll_rate_dps"] for p in res["points"]]
    speeds = [p["ias_kmh"] for p in res["points"]]
    assert speeds[0] < 90 and speeds[-1] >= 240
    assert all(b > a for a, b in zip(rates, rates[1:]))
    # full travel over the whole envelope: the glider's ailerons are light
    assert min(p["aileron_fraction"] for p in res["points"]) > 0.98


def test_roll_curve_peaks_and_falls_when_the_pilot_runs_out_of_strength():
    # the same glider with heavy ailerons (full travel only to 130 km/h): seed 000's shape
    c = _astir_with(aileron={"full_deflection_ias_kmh": 130.0})
    res = roll_curve(c)
    rates = np.array([p["roll_rate_dps"] for p in res["points"]])
    speeds = np.array([p["ias_kmh"] for p in res["points"]])
    peak = int(np.argmax(rates))
    assert 110 <= speeds[peak] <= 150
    assert rates[-1] < 0.75 * rates[peak]
    assert np.all(np.diff(rates[peak:]) < 0)


def test_roll_rig_reports_the_force_limited_aileron():
    c = _astir_with(aileron={"full_deflection_ias_kmh": 100.0})
    pt = steady_roll_rate(Sim(c, terrain=flat_terrain(-1e6)), 200.0, 0.0)
    assert pt["aileron_fraction"] == pytest.approx(0.25, rel=0.02)


@pytest.mark.parametrize("key,value,problem", [
    ("max_force_n", -5.0, "greater than 0"),
    ("time_constant_s", 0.0, "between"),
])
def test_bad_control_data_is_refused(tmp_path, key, value, problem):
    src = load_aircraft("astir").path
    text = src.read_text()
    import re
    text = re.sub(rf"(\[controls\.aileron\][^\[]*?){key} = [^\n]*", rf"\g<1>{key} = {value}", text, count=1, flags=re.S)
    d = tmp_path / "bad"
    d.mkdir()
    (d / "aircraft.toml").write_text(text)
    (d / "airfoils").symlink_to(src.parent / "airfoils")
    with pytest.raises(DataError) as e:
        load_aircraft(d / "aircraft.toml")
    assert f"controls.aileron.{key}" in str(e.value) and problem in str(e.value)
