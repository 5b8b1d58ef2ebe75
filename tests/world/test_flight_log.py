"""Landing judgement and the debrief from synthetic snapshots (flightsim.world.flight_log)."""
import math

import numpy as np
import pytest

from flightsim.runtime.handoff import Snapshot
from flightsim.world.flight_log import FlightLog, grade_for_sink, place_of
from flightsim.world.terrain import AirfieldSpec

AF = AirfieldSpec()


def _q(roll=0.0, pitch=0.0, yaw=0.0):
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return np.array([cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
                     cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy])


def _snap(tick, pos_ne, alt, vel_ned, agl, on_ground=0, roll=0.0, airbrake=0.0, gear_up=0.0, ias=25.0,
          strike=-1, strike_speed=0.0):
    return Snapshot(tick=tick, time_s=tick * 0.02, wall_s=tick * 0.02, epoch=0,
                    position_ned_m=np.array([pos_ne[0], pos_ne[1], -alt]), quat_wxyz=_q(roll, 0.05, AF.heading_rad),
                    velocity_ned_ms=np.array(vel_ned, dtype=float), velocity_body_ms=np.zeros(3),
                    omega_body_rads=np.zeros(3), tas_ms=ias, ias_ms=ias, altitude_m=alt, height_agl_m=agl,
                    on_ground=on_ground, airbrake=airbrake, gear_up=gear_up, strike_index=strike,
                    strike_speed_ms=strike_speed)


def _approach(log, sink_ms, along_m=-300.0, right_m=0.0, roll=0.0, airbrake=0.5, gear_up=0.0, rest=True):
    """A straight-in glide down to the ground at along_m, touching at sink_ms, then the roll-out."""
    f, r = AF.axes()
    v = 25.0
    k = 0
    n_air = 400
    for i in range(n_air):                      # 8 s from 60 m to the ground
        frac = i / n_air
        along = along_m - v * 8.0 * (1 - frac)
        agl = 60.0 * (1 - frac) + 0.6
        p = AF.to_world(along, right_m)
        vel = (v * f[0], v * f[1], sink_ms)
        log.update(_snap(k, p, AF.elevation_m + agl, vel, agl, roll=roll, airbrake=airbrake, gear_up=gear_up))
        k += 1
    along = along_m
    for i in range(600 if rest else 20):        # the ground roll to a stop
        spd = max(v - 3.0 * i * 0.02, 0.0)
        along += spd * 0.02
        p = AF.to_world(along, right_m)
        log.update(_snap(k, p, AF.elevation_m + 0.6, (spd * f[0], spd * f[1], 0.0), 0.6, on_ground=2,
                         roll=roll, airbrake=1.0, gear_up=gear_up, ias=spd))
        k += 1
    return log


@pytest.mark.parametrize("sink,grade", [(0.4, "good"), (0.99, "good"), (1.5, "firm"), (2.5, "hard"),
                                        (3.2, "damage"), (6.0, "damage")])
def test_grade_from_touchdown_sink(sink, grade):
    assert grade_for_sink(sink) == grade
    log = _approach(FlightLog(AF), sink)
    assert log.touchdown is not None
    assert log.touchdown.sink_ms == pytest.approx(sink, abs=0.01)
    assert log.grade == grade
    assert log.touchdown.place == "runway"
    assert log.at_rest


def test_place_runway_airfield_or_outlanding():
    assert place_of(AF, *AF.to_world(-300.0, 5.0))[0] == "runway"
    assert place_of(AF, *AF.to_world(-300.0, 60.0))[0] == "airfield"
    assert place_of(AF, *AF.to_world(-2500.0, 0.0))[0] == "out-landing"
    log = _approach(FlightLog(AF), 0.5, along_m=-3000.0)
    assert log.touchdown.place == "out-landing" and any("out-landing" in n for n in log.touchdown.notes)


def test_wings_not_level_wheel_up_and_airbrakes_are_noted():
    log = _approach(FlightLog(AF), 0.5, roll=math.radians(15.0))
    assert any("wings not level" in n for n in log.touchdown.notes)
    log = _approach(FlightLog(AF), 0.5, gear_up=1.0)
    assert log.grade == "damage" and any("wheel up" in n for n in log.touchdown.notes)
    log = _approach(FlightLog(AF), 0.5, airbrake=0.5)
    assert log.touchdown.airbrake == pytest.approx(0.5) and "airbrakes 50% out" in log.touchdown.notes


def test_wingtip_strike_before_the_wheel_is_a_crash():
    log = FlightLog(AF)
    f, _ = AF.axes()
    for i in range(300):
        log.update(_snap(i, AF.to_world(-800 + i * 0.5, 0.0), AF.elevation_m + 40.0 - i * 0.13, (20 * f[0], 20 * f[1], 6.5),
                         40.0 - i * 0.13))
    log.update(_snap(300, AF.to_world(-650, 0.0), AF.elevation_m + 1.0, (20 * f[0], 20 * f[1], 7.0), 1.0,
                     strike=0, strike_speed=7.0))
    assert log.grade == "crash"


def test_a_wingtip_dragged_on_the_ground_run_is_not_a_crash_but_a_strike_in_flight_is():
    """A crosswind winch launch drags the downwind wingtip along the ground (8 m/s) before the
    glider leaves it: no crash (issue 33: the flight log called every crosswind launch one).
    The physics keeps the hardest strike since the start; a harder one in flight is a crash."""
    log = FlightLog(AF)
    f, _ = AF.axes()
    for i in range(100):                       # the ground run, the wingtip on the ground
        log.update(_snap(i, AF.to_world(-400 + i * 0.3, 0.0), AF.elevation_m + 0.6, (15 * f[0], 15 * f[1], 0.0),
                         0.6, on_ground=2, strike=1, strike_speed=8.0))
    for i in range(100, 400):                  # off and climbing on the cable
        agl = 0.6 + (i - 100) * 0.3
        log.update(_snap(i, AF.to_world(-370 + (i - 100) * 0.5, 0.0), AF.elevation_m + agl, (25 * f[0], 25 * f[1], -15.0),
                         agl, strike=1, strike_speed=8.0))
    assert log.crash is None and log.airborne
    log.update(_snap(400, AF.to_world(-200, 0.0), AF.elevation_m + 1.0, (25 * f[0], 25 * f[1], 9.0), 1.0,
                     strike=2, strike_speed=9.5))
    assert log.grade == "crash"


def test_debrief_numbers():
    log = _approach(FlightLog(AF), 0.8)
    d = log.debrief()
    assert d["landed"] and d["landing_grade"] == "good" and d["landing_place"] == "runway"
    assert d["flight_time_s"] == pytest.approx(8.0, abs=0.05)
    assert d["max_height_agl_m"] == pytest.approx(60.6, abs=0.2)
    assert d["max_altitude_m"] == pytest.approx(AF.elevation_m + 60.6, abs=0.2)
    assert d["distance_flown_m"] == pytest.approx(200.0, rel=0.02)            # 8 s at 25 m/s
    assert d["max_distance_from_start_m"] > 200.0                             # plus the roll-out
    lines = log.debrief_lines()
    assert lines[0] == "DEBRIEF" and any("GOOD" in ln for ln in lines)


def test_a_reset_starts_a_new_log():
    log = _approach(FlightLog(AF), 0.8)
    s = _snap(5, (0.0, 0.0), 900.0, (25.0, 0.0, 1.0), 500.0)
    log.update(Snapshot(**{**s.__dict__, "epoch": 1}))
    assert log.touchdown is None and not log.at_rest
