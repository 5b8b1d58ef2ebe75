"""The Grob G102 Astir CS against its published data, and its handling (seed 004)."""
import math

import numpy as np
import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.sim import Sim
from flightsim.tools import tunnel

REF = load_aircraft("astir").reference


@pytest.fixture(scope="module")
def polar():
    return tunnel.polar("astir", REF["mass_kg"])


def test_polar_is_at_the_reference_mass(polar):
    assert polar["mass_kg"] == pytest.approx(REF["mass_kg"], abs=0.01)
    assert polar["points"][0]["tas_kmh"] == pytest.approx(polar["slowest_glide_kmh"], abs=0.01)
    assert polar["slowest_glide_kmh"] <= polar["stall_kmh"] < 1.005 * polar["slowest_glide_kmh"]   # 1 g: cos(-5 deg)
    assert polar["points"][-1]["tas_kmh"] >= load_aircraft("astir").aircraft["vne_kmh"] - 5


def test_best_glide_ratio_within_5_percent(polar):
    assert polar["best_glide"]["glide_ratio"] == pytest.approx(REF["best_glide_ratio"], rel=0.05)


def test_best_glide_speed_within_5_percent(polar):
    assert polar["best_glide"]["tas_kmh"] == pytest.approx(REF["best_glide_kmh"], rel=0.05)


def test_min_sink_within_5_percent(polar):
    assert polar["min_sink"]["sink_ms"] == pytest.approx(REF["min_sink_ms"], rel=0.05)


def test_min_sink_speed_within_5_percent(polar):
    assert polar["min_sink"]["tas_kmh"] == pytest.approx(REF["min_sink_kmh"], rel=0.05)


def test_stall_speed_within_10_percent(polar):
    assert polar["stall_kmh"] == pytest.approx(REF["stall_kmh"], rel=0.10)


def test_published_polar_points(polar):
    """Every published polar point, not just the summary figures (within 8% of sink)."""
    if not REF.get("polar_kmh"):
        pytest.skip("no published polar points cited")
    v = [p["tas_kmh"] for p in polar["points"]]
    w = [p["sink_ms"] for p in polar["points"]]
    for vk, wk in zip(REF["polar_kmh"], REF["polar_sink_ms"]):
        if vk < polar["stall_kmh"] + 3:
            continue
        assert np.interp(vk, v, w) == pytest.approx(wk, rel=0.08), f"sink at {vk} km/h"


def loaded(pilot_kg=None, seat_ballast_kg=None):
    """The Astir with another cockpit load (the file's default: 90 kg pilot + 20 kg ballast)."""
    spec = load_aircraft("astir")
    for m in spec.masses:
        if m["name"] == "pilot" and pilot_kg is not None:
            m["mass_kg"] = pilot_kg
        if m["name"] == "seat_ballast" and seat_ballast_kg is not None:
            m["mass_kg"] = seat_ballast_kg
    spec.masses = [m for m in spec.masses if m["mass_kg"] > 0]
    return compile_aircraft(spec)


def glide(tas_kmh=90.0, altitude_m=1500.0, aircraft="astir"):
    sim = Sim(aircraft)
    sim.spawn_trimmed_glide(tas_kmh / 3.6, altitude_m)
    return sim


# Spins are flown, as in training, with the minimum cockpit load of the flight manual
# (70 kg, no seat ballast): CG 0.41 m behind the datum, near the aft limit (0.425 m).
SPIN_LOADING = dict(pilot_kg=70.0, seat_ballast_kg=0.0)


def test_adverse_yaw_with_aileron_alone():
    sim = glide()
    c = sim.controls.copy()
    c.roll = 0.6
    yaw_rates, rolls, betas = [], [], []
    for _ in range(75):
        sim.step(c.array)
        yaw_rates.append(sim.yaw_rate_rads)
        rolls.append(sim.euler_rad[0])
        betas.append(sim.beta_rad)
    assert rolls[-1] > math.radians(10)            # it rolls right
    assert min(yaw_rates[:25]) < -0.01             # but the nose first swings left
    assert max(betas) > math.radians(1.5)          # slipping: air from the right


def test_wing_drop_at_uncoordinated_stall():
    sim = glide(85.0)
    c = sim.controls.copy()
    c.yaw = 0.35                                   # skidding with right rudder
    max_roll = 0.0
    stalled = False
    for i in range(600):                           # 12 s: a steady pull to full back stick
        c.pitch = min(1.0, sim.controls.pitch + i / 300.0)
        sim.step(c.array)
        stalled |= sim.stalled_sections >= 2
        max_roll = max(max_roll, abs(sim.euler_rad[0]))
    assert stalled
    assert max_roll > math.radians(35)            # a wing drops


def spin_entry(direction=1.0):
    sim = glide(80.0, 1500.0, loaded(**SPIN_LOADING))
    c = sim.controls.copy()
    for i in range(150):                           # 3 s pull to the stall
        c.pitch = min(1.0, sim.controls.pitch + i / 100.0)
        sim.step(c.array)
    c.pitch = 1.0
    c.yaw = direction                              # full rudder at the stall
    c.roll = 0.0
    rates = []
    for _ in range(500):                           # 10 s held in
        sim.step(c.array)
        rates.append(sim.yaw_rate_rads)
    return sim, c, np.array(rates)


@pytest.mark.parametrize("direction", [1.0, -1.0])
def test_spin_develops_with_full_back_stick_and_rudder(direction):
    sim, c, rates = spin_entry(direction)
    last = rates[-200:]                            # the last 4 s
    assert np.all(np.sign(last) == np.sign(direction))
    assert np.mean(np.abs(last)) > 0.8             # rad/s: a spin, not a spiral dive
    assert math.degrees(sim.alpha_rad) > 14        # wing stalled
    assert sim.tas_ms * 3.6 < 130                  # speed stays low in a spin


@pytest.mark.parametrize("direction", [1.0, -1.0])
def test_spin_stops_with_standard_recovery(direction):
    sim, c, _ = spin_entry(direction)
    h0 = sim.altitude_m
    # standard recovery: full opposite rudder, stick forward until rotation stops
    c.yaw = -direction
    c.pitch = -0.3
    stopped_at = None
    for i in range(500):
        sim.step(c.array)
        if abs(sim.yaw_rate_rads) < 0.15 and stopped_at is None:
            stopped_at = i
            break
    assert stopped_at is not None and stopped_at * 0.02 < 6.0
    # centralise rudder, level the wings and ease out of the dive to level flight
    max_tas = 0.0
    for _ in range(600):
        roll, pitch, _yaw = sim.euler_rad
        c.yaw = 0.0
        c.roll = float(np.clip(-1.5 * roll, -1, 1))
        c.pitch = float(np.clip(2.0 * (0.0 - pitch) - 0.5 * sim.pitch_rate_rads, -0.4, 0.6))
        sim.step(c.array)
        max_tas = max(max_tas, sim.tas_ms)
    roll, pitch, _yaw = sim.euler_rad
    assert sim.stalled_sections == 0
    assert max_tas * 3.6 < load_aircraft("astir").aircraft["vne_kmh"]
    assert abs(math.degrees(roll)) < 20 and abs(math.degrees(pitch)) < 15
    assert abs(sim.yaw_rate_rads) < 0.1
    assert h0 - sim.altitude_m < 400


def test_airbrakes_and_gear_drag_steepen_the_glide():
    sim = Sim("astir")

    def glide_ratio(**controls):
        from flightsim.physics.state import make_ctrl
        t = sim.trimmer(0.0, make_ctrl(**controls)).glide(100 / 3.6)
        assert t.ok
        return t.glide_ratio

    clean = glide_ratio(gear_up=1.0)
    gear = glide_ratio(gear_up=0.0)
    brakes = glide_ratio(gear_up=1.0, airbrake=1.0)
    assert 0.90 * clean < gear < 0.98 * clean       # the wheel out costs a few percent
    assert 6.0 < brakes < 12.0                      # airbrakes out: an approach glide
    half = glide_ratio(gear_up=1.0, airbrake=0.5)
    assert brakes < half < clean


def test_parked_astir_stays_put():
    from flightsim.physics.state import make_ctrl
    sim = Sim("astir")
    sim.spawn_on_ground(settle_s=10.0)
    sim.ctrl = make_ctrl()
    sim.clear_strike()
    p0 = sim.position_ned_m
    track = np.array([sim.position_ned_m for _ in range(3000) if sim.step() == 0])
    assert len(track) == 3000
    assert np.linalg.norm(track[-1, :2] - p0[:2]) < 0.01      # 60 s: drift under 1 cm
    assert np.ptp(track[:, 2]) < 0.001                         # no oscillation above 1 mm
    assert sim.strike_contact == -1                            # nothing new touched
    roll = math.degrees(sim.euler_rad[0])
    assert -8.0 < roll < -2.0                                  # resting on its left wingtip


def test_polar_scales_with_mass_as_theory_says(polar):
    """Heavier: every speed grows with sqrt(mass), the glide ratio stays (water ballast)."""
    heavy = tunnel.polar("astir", 450.0)
    k = math.sqrt(450.0 / REF["mass_kg"])
    assert heavy["stall_kmh"] == pytest.approx(polar["stall_kmh"] * k, rel=0.02)
    assert heavy["best_glide"]["tas_kmh"] == pytest.approx(polar["best_glide"]["tas_kmh"] * k, rel=0.03)
    assert heavy["min_sink"]["sink_ms"] == pytest.approx(polar["min_sink"]["sink_ms"] * k, rel=0.03)
    # Reynolds number rises with speed, so the heavier glider's best ratio is a little better
    assert polar["best_glide"]["glide_ratio"] <= heavy["best_glide"]["glide_ratio"] < 1.03 * polar["best_glide"]["glide_ratio"]
