"""An infrared seeker's lock range (issue 35's infrared part, first step): the square root of the
target's infrared value, its hot tail, the cap, and the envelope held to it."""
import pytest

from flightsim.aircraft_data.loader import load_aircraft
from flightsim.weapons.data import load_missile
from flightsim.weapons.envelope import envelope
from flightsim.weapons.infrared import ir_value, lock_range_m


def test_the_lock_range_goes_as_the_square_root_and_stops_at_the_cap():
    seeker = load_missile("aim9m").seeker
    assert lock_range_m(seeker, 1.0) == pytest.approx(seeker["lock_range_m"])
    assert lock_range_m(seeker, 0.25) == pytest.approx(0.5 * seeker["lock_range_m"])
    assert lock_range_m(seeker, 100.0) == pytest.approx(seeker["lock_range_cap_m"])
    assert lock_range_m(load_missile("aim120c").seeker, 1.0) == 0.0       # a radar seeker: no infrared lock


def test_a_jet_is_hotter_from_behind_and_in_afterburner():
    sig = load_aircraft("f15c").signature
    nose, tail = ir_value(sig, [-1.0, 0.0, 0.0]), ir_value(sig, [1.0, 0.0, 0.0])
    assert tail == pytest.approx(nose * sig["ir_rear_factor"])
    assert ir_value(sig, [-1.0, 0.0, 0.0], afterburner=True) > nose


def test_the_envelope_is_held_to_the_lock_range():
    free = envelope("aim9m", 5000.0, 0.85, 0.85)
    held = envelope("aim9m", 5000.0, 0.85, 0.85, target="f15c")
    assert held["target"] == "f15c"
    assert held["rmax_head_on_km"] == pytest.approx(min(free["rmax_head_on_km"], held["lock_range_head_on_km"]))
    assert held["rmax_tail_on_km"] == pytest.approx(min(free["rmax_tail_on_km"], held["lock_range_tail_on_km"]))
    assert held["kinematic_rmax_head_on_km"] == pytest.approx(free["rmax_head_on_km"])
    radar = envelope("aim120c", 5000.0, 0.85, 0.85, target="f15c")     # a radar missile: the launcher's business
    assert "lock_range_head_on_km" not in radar
