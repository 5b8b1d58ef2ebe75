"""The constant-speed governor in a steep high-speed dive (issue 6: "a constant-speed governor
with pitch limits and its real failure modes ... blade stall in a dive").

In a dive the airflow drives the propeller faster and the governor coarsens the blades to
hold the set rpm; the failure mode pilots knew as the propeller "running onto its coarse
stop" is that once the blades reach the coarse-pitch stop the governor has no travel left
and the windmilling propeller overspeeds the engine, more the faster the dive (hence the
P-51D's "maximum diving rpm 3,240", AN 01-60JE-1 as quoted in the DCS manual). The model
has no special case for it: the governor's pitch is clamped at the stop and the rotor speed
follows the torque balance.

With the P-51D's data (pitch stops 23-65 deg at 0.75 R, *assumed*: not found in a source)
the governor never reaches the coarse stop in a 60 degree dive to beyond Vne, so the first
test asserts that it holds the set rpm there; the second flies the same dive with a
propeller whose coarse stop the dive does reach and asserts the overspeed.
"""
import math

import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.physics.named_model import AircraftData
from flightsim.physics.state import make_ctrl
from flightsim.sim import Sim

KMH = 3.6


def _lever(c, rpm):
    lo, hi = AircraftData(c.model).governor_range_rads
    return (rpm * math.pi / 30.0 - lo) / (hi - lo)


def fly_dive(c, throttle=None, lever_rpm=2400.0, dive_deg=60.0, alt_m=6000.0, v0_kmh=450.0,
             ias_limit_kmh=800.0, floor_m=2000.0):
    """Trimmed level at v0 (lever at lever_rpm), throttle set (None: as trimmed, cruise power),
    nose pushed over at 8 deg/s to a dive_deg dive held until ias_limit or floor_m.
    Returns per-step rows (IAS km/h, rpm, blade angle deg, prop torque N m, thrust N, shaft W)."""
    sim = Sim(c)
    sim.spawn_trimmed_level(v0_kmh / KMH, alt_m, base_ctrl=make_ctrl(gear_up=1.0, prop_rpm=_lever(c, lever_rpm)))
    ctrl = sim.controls.copy()
    if throttle is not None:
        ctrl.throttle = throttle
    integ = 0.0
    rows = []
    while sim.time_s < 60.0:
        if sim.altitude_m < floor_m or sim.ias_ms * KMH > ias_limit_kmh:
            break
        roll, pitch, _ = sim.euler_rad
        # attitude -> pitch-rate command (8 deg/s at most), PI on the rate
        q_cmd = min(max(-math.radians(dive_deg) - pitch, -0.14), 0.14)
        gain = 1.0 / min(max(sim.qbar_pa, 3000.0) / 9570.0, 1.0)
        e = q_cmd - sim.pitch_rate_rads
        integ = min(max(integ + 0.03 * gain * e, -1.0), 1.0)
        ctrl.pitch = min(max(gain * e + integ, -1.0), 1.0)
        ctrl.roll = min(max(-3.0 * roll - 0.6 * sim.roll_rate_rads, -1.0), 1.0)
        sim.step(ctrl.array)
        rows.append(dict(t=sim.time_s, ias=sim.ias_ms * KMH, pitch=math.degrees(pitch), rpm=sim.engine_rpm,
                         blade=sim.blade_angle_deg, torque=sim.propeller_torque_nm,
                         thrust=sim.thrust_n, shaft=sim.shaft_power_w))
    return rows


@pytest.fixture(scope="module")
def p51():
    return compile_aircraft("p51d")


@pytest.mark.parametrize("power", ["cruise", "idle"])
def test_p51d_governor_holds_rpm_in_a_60_degree_dive(p51, power):
    """Cruise power and throttle closed, 2,400 rpm set: the dive reaches 800 km/h IAS, the
    blades coarsen with speed but stay short of the coarse stop, and the rpm stays governed
    (far below the 3,240 rpm diving limit). Throttle closed, the windmilling propeller
    drives the engine (negative torque) and brakes the aircraft (negative thrust)."""
    coarse = load_aircraft("p51d").powerplant["propeller"]["coarse_pitch_deg"]
    rows = fly_dive(p51, throttle=0.0 if power == "idle" else None)
    assert max(r["ias"] for r in rows) > 790.0
    steep = [r for r in rows if r["pitch"] < -55.0]
    assert len(steep) > 200                                   # some seconds in the steep dive
    assert all(abs(r["rpm"] - 2400.0) < 60.0 for r in steep)
    slow, fast = steep[0], steep[-1]
    assert fast["blade"] > slow["blade"] + 8.0                 # the governor coarsens the blades
    assert max(r["blade"] for r in rows) < coarse - 2.0        # ... and keeps some travel
    if power == "idle":
        assert all(r["torque"] < 0.0 and r["thrust"] < 0.0 for r in steep)
    else:
        assert all(r["shaft"] > 2e5 for r in steep)


def test_propeller_on_its_coarse_stop_overspeeds_in_a_dive():
    """The same dive at cruise power with a propeller whose coarse stop (45 deg at 0.75 R)
    the dive reaches: up to the stop the governor holds 2,400 rpm; on the stop it has no travel
    left, the windmilling propeller drives the engine faster as the speed builds and the rpm
    runs far past the set speed and the 3,240 rpm diving limit."""
    spec = load_aircraft("p51d")
    spec.powerplant["propeller"]["coarse_pitch_deg"] = 45.0
    c = compile_aircraft(spec)
    rows = fly_dive(c)
    on_stop = [i for i, r in enumerate(rows) if r["blade"] > 45.0 - 1e-6]
    assert on_stop, "the blades never reached the coarse stop"
    first = on_stop[0]
    assert all(abs(r["rpm"] - 2400.0) < 60.0 for r in rows[:first] if r["t"] > 2.0)   # governed until then
    assert all(i in on_stop for i in range(first, len(rows)))                         # and stays there
    later = [rows[i] for i in on_stop]
    assert later[-1]["rpm"] > 3240.0
    # the overspeed grows with the speed
    mid = later[len(later) // 2]
    assert later[-1]["ias"] > mid["ias"] and later[-1]["rpm"] > mid["rpm"] > 2450.0
