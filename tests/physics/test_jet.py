"""The F-15C's jet engines and its flight-control law (issue 19): thrust and fuel from the deck,
spool and afterburner lags, a failed engine, the G limiter holding 9 g above the corner speed and
the angle-of-attack limit below it, the rolling limit, the roll-rate command, the law switched off,
and the [mach] tables' supersonic drag and lift."""
import math

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_airfoil
from flightsim.aircraft_data.schema import DataError
from flightsim.physics.atmosphere import isa
from flightsim.physics.jet import jet_point
from flightsim.physics.named_model import AircraftData
from flightsim.sim import Sim

P0, T0 = 101325.0, 288.15


@pytest.fixture(scope="module")
def f15():
    return compile_aircraft("f15c")


def _level(comp, tas_ms, alt_m):
    sim = Sim(comp)
    sim.spawn_trimmed_level(tas_ms, alt_m)
    return sim


def test_the_deck_gives_the_rated_thrust_and_the_afterburner_burns_several_times_the_fuel(f15):
    mil_n, ab_n = AircraftData(f15.model).jet_thrust_sls_n
    f_mil, ff_mil = jet_point(f15.model, 1.0, 0.0, 0.0, 0.0, P0, T0, 0.0)
    f_ab, ff_ab = jet_point(f15.model, 1.0, 1.0, 0.0, 0.0, P0, T0, 0.0)
    assert f_mil == pytest.approx(mil_n) and f_ab == pytest.approx(ab_n)
    assert ab_n / mil_n == pytest.approx(23450.0 / 14370.0, rel=1e-3)      # the SAC ratings
    assert 3.0 < ff_ab / ff_mil < 6.0
    # TSFC in lb/(lbf h): 0.73 military, 1.94 maximum (the data), at sea level static
    per_lb_lbf_h = 3600.0 / 0.45359237 * 4.4482216
    assert ff_mil / f_mil * per_lb_lbf_h == pytest.approx(0.73, rel=0.01)
    assert ff_ab / f_ab * per_lb_lbf_h == pytest.approx(1.94, rel=0.01)
    # thrust falls with altitude, rises with ram at full afterburner
    t, p, _, a = isa(11000.0)
    assert jet_point(f15.model, 1.0, 1.0, 0.0, 11000.0, p, t, 0.0)[0] < 0.5 * ab_n
    assert jet_point(f15.model, 1.0, 1.0, 1.6, 11000.0, p, t, 1.6 * a)[0] > \
        jet_point(f15.model, 1.0, 1.0, 0.9, 11000.0, p, t, 0.9 * a)[0]
    # at idle and speed the ram drag of the idle air flow makes it drag
    assert jet_point(f15.model, 0.0, 0.0, 0.9, 0.0, P0, T0, 306.0)[0] < 0.0


def test_spool_up_from_idle_to_military_takes_seconds_and_the_afterburner_lights_after(f15):
    sim = Sim(f15)
    sim.spawn_on_ground(settle_s=1.0)
    c = sim.controls
    c.brake_left = c.brake_right = 1.0
    c.throttle = 0.0
    sim.fly(2.0)
    idle = sim.jet_thrust_n
    c.throttle = AircraftData(f15.model).military_throttle
    times = []
    for k in range(400):
        sim.step()
        times.append(sim.jet_thrust_n)
    mil = 2 * AircraftData(f15.model).jet_thrust_sls_n[0]
    t95 = 0.02 * (1 + next(i for i, f in enumerate(times) if f > idle + 0.95 * (mil - idle)))
    assert 2.5 < t95 < 6.0
    c.throttle = 1.0
    sim.fly(0.5)
    assert sim.afterburner < 0.5                  # still lighting and staging
    sim.fly(3.0)
    assert sim.afterburner == pytest.approx(1.0)
    assert sim.jet_thrust_n > 1.5 * mil


def test_one_engine_failed_halves_the_thrust_and_yaws_the_aircraft(f15):
    sim = _level(f15, 250.0, 5000.0)
    sim.controls.throttle = AircraftData(f15.model).military_throttle
    sim.controls.fcs_direct = 1.0                 # the raw aircraft: no yaw law to hide it
    sim.fly(3.0)
    both = sim.jet_thrust_n
    sim.set_jet_failed(1)                         # the right engine
    sim.fly(0.3)
    assert sim.jets_running == 1
    assert sim.jet_thrust_n < 0.55 * both
    assert sim.moment_body_nm[2] > 1e4            # the left engine pushes the nose right
    # with the law on, the yaw law and the pedals' trim hold it: flown 10 s, the heading wanders little
    sim2 = _level(f15, 250.0, 5000.0)
    sim2.controls.throttle = AircraftData(f15.model).military_throttle
    sim2.set_jet_failed(1)
    h0 = sim2.heading_deg
    sim2.fly(10.0)
    assert sim2.jets_running == 1 and not sim2.nonfinite
    assert abs((sim2.heading_deg - h0 + 180.0) % 360.0 - 180.0) < 30.0


def test_with_no_fuel_the_engines_stop(f15):
    sim = _level(f15, 250.0, 5000.0)
    for k in range(len(sim.fuel_used_kg)):
        sim.set_fuel_used(k, 1e9)
    sim.fly(0.5)
    assert sim.jets_running == 0 and sim.jet_thrust_n <= 0.0


def test_full_aft_stick_above_the_corner_speed_holds_9_g(f15):
    sim = _level(f15, 300.0, 3000.0)              # about 700 km/h IAS: above the corner speed
    sim.controls.pitch = 1.0
    nz = []
    for k in range(150):
        sim.step()
        nz.append(sim.nz_g)
    nz = np.array(nz)
    assert nz.max() < 9.9                         # an overshoot of less than 10 %
    assert nz[100:].mean() == pytest.approx(9.0, abs=0.35)
    assert sim.g_demand == pytest.approx(9.0)


def test_full_aft_stick_below_the_corner_speed_is_lift_limited_at_the_angle_of_attack_limit(f15):
    sim = _level(f15, 150.0, 3000.0)
    sim.controls.pitch = 1.0
    alpha, nz = [], []
    for k in range(150):
        sim.step()
        alpha.append(sim.alpha_deg)
        nz.append(sim.nz_g)
    a_max = math.degrees(AircraftData(f15.model).alpha_limit_rad)
    assert max(alpha) < a_max + 4.0
    assert max(alpha[75:]) > a_max - 5.0
    assert max(nz) < 8.5                          # short of the limit: the wing gives no more
    assert not sim.nonfinite


def test_full_forward_stick_asks_for_minus_3_g_and_neutral_stick_holds_1_g(f15):
    sim = _level(f15, 300.0, 3000.0)
    sim.fly(2.0)
    assert sim.nz_g == pytest.approx(1.0, abs=0.05)
    sim.controls.pitch = -1.0
    nz = []
    for k in range(120):
        sim.step()
        nz.append(sim.nz_g)
    assert min(nz) > -3.6 and np.mean(nz[80:]) == pytest.approx(-3.0, abs=0.4)


def test_rolling_lowers_the_g_limit_and_the_roll_rate_follows_the_stick(f15):
    sim = _level(f15, 250.0, 5000.0)
    g_max, _ = AircraftData(f15.model).g_limits
    sim.controls.roll = 1.0
    rates = []
    for k in range(75):
        sim.step()
        rates.append(math.degrees(sim.body_rates_rads[0]))
    assert sim.g_limit == pytest.approx(AircraftData(f15.model).g_limit_rolling)
    demand = math.degrees(AircraftData(f15.model).roll_rate_limit_rads)
    assert 0.6 * demand < max(rates) < 1.15 * demand
    sim.controls.roll = 0.0
    sim.fly(2.0)
    assert sim.g_limit == pytest.approx(g_max)
    assert abs(math.degrees(sim.body_rates_rads[0])) < 5.0


def test_switched_off_the_stick_moves_the_surfaces_directly(f15):
    sim = _level(f15, 250.0, 5000.0)
    sim.controls.fcs_direct = 1.0
    sim.controls.pitch = 0.3
    sim.fly(1.0)
    trim = sim.controls.pitch_trim
    assert sim.surface("pitch") == pytest.approx(0.3 + trim, abs=1e-3)
    # and on again: the law takes over from where the surfaces are, no jump
    before = sim.surface("pitch")
    sim.controls.fcs_direct = 0.0
    sim.step()
    assert abs(sim.surface("pitch") - before) < 0.1


def test_a_mach_table_gives_wave_drag_and_moves_the_aerodynamic_centre(f15):
    sim = Sim(f15)
    rig_low, rig_high = [sim.trimmer(11000.0) for _ in range(2)]
    a = isa(11000.0)[3]
    f_low, _ = rig_low.forces(0.8 * a, 0.0, 0.0, 0.0, 0.0)
    f_high, _ = rig_high.forces(1.2 * a, 0.0, 0.0, 0.0, 0.0)
    q_low, q_high = 0.5 * isa(11000.0)[2] * (0.8 * a) ** 2, 0.5 * isa(11000.0)[2] * (1.2 * a) ** 2
    cd_low, cd_high = -f_low[0] / q_low, -f_high[0] / q_high       # (drag area, m2, at zero alpha)
    assert cd_high > 1.5 * cd_low


def test_a_bad_mach_table_is_refused_with_the_key(tmp_path):
    src = (compile_aircraft("f15c").spec.airfoils["f15c_stabilator"].path).read_text()
    bad = src.replace("[mach]\nmach = [0.0,", "[mach]\nmach = [0.1,")
    p = tmp_path / "x.toml"
    p.write_text(bad)
    with pytest.raises(DataError, match="mach.mach"):
        load_airfoil(p)


def test_a_yank_at_rotation_lifts_the_nose_without_scraping_the_tail(f15):
    """On the wheels the law is in its ground mode (the stick moves the surfaces) with the rotation held
    to 6 deg/s: full aft stick at 480 km/h (a keyboard pilot late on the rotation) lifts off without the
    nozzles striking the runway at the tail-strike attitude of about 13 deg."""
    sim = Sim(f15)
    sim.spawn_on_ground(settle_s=1.0)
    sim.controls.throttle = 1.0
    while sim.ias_kmh < 480.0:
        sim.step()
    sim.controls.pitch = 1.0
    pitch_on_wheels = []
    for k in range(100):
        sim.step()
        if sim.on_ground:
            pitch_on_wheels.append(sim.pitch_deg)
        assert not sim.struck, (sim.time_s, sim.pitch_deg)
    assert not sim.on_ground and sim.height_agl_m > 3.0
    assert max(pitch_on_wheels) < 12.0
