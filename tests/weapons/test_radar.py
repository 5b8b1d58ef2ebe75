"""The F-15C's radar (issue 35, the radar's first part): cross-section by aspect, the radar
equation's fourth root, the scan volume and the clutter notch, from the aircraft's data."""
import math
import shutil

import numpy as np
import pytest

from flightsim.aircraft_data.loader import load_aircraft
from flightsim.aircraft_data.schema import DataError
from flightsim.weapons.radar import detection_range_m, look, rcs_m2

EYE = np.eye(3)
SOUTH = np.diag([-1.0, -1.0, 1.0])          # body-to-NED of a target flying south, wings level


@pytest.fixture(scope="module")
def f15():
    return load_aircraft("f15c")


def test_the_cross_section_by_aspect(f15):
    sig = f15.signature
    assert rcs_m2(sig, [-1.0, 0.0, 0.0]) == pytest.approx(sig["rcs_frontal_m2"])           # seen nose-on
    assert rcs_m2(sig, [1.0, 0.0, 0.0]) == pytest.approx(sig["rcs_frontal_m2"] * sig["rcs_rear_factor"])
    assert rcs_m2(sig, [0.0, 1.0, 0.0]) == pytest.approx(sig["rcs_frontal_m2"] * sig["rcs_side_factor"])
    assert rcs_m2(sig, [0.0, 0.0, 1.0]) == pytest.approx(sig["rcs_frontal_m2"] * sig["rcs_top_factor"])


def test_range_goes_as_the_fourth_root_and_halves_against_an_opening_target(f15):
    r = f15.radar
    assert detection_range_m(r, 16.0 * r["reference_rcs_m2"], True) == pytest.approx(2.0 * r["detection_range_m"])
    assert detection_range_m(r, r["reference_rcs_m2"], False) == pytest.approx(r["tail_range_factor"] * r["detection_range_m"])


def test_a_head_on_f15_is_seen_inside_its_detection_range(f15):
    own = dict(own_pos=[0, 0, -8000], own_R=EYE, own_vel=[250, 0, 0])
    near = look(f15.radar, **own, target_pos=[80000, 0, -8000], target_R=SOUTH, target_vel=[-250, 0, 0],
                signature=f15.signature)
    far = look(f15.radar, **own, target_pos=[95000, 0, -8000], target_R=SOUTH, target_vel=[-250, 0, 0],
               signature=f15.signature)
    assert near.seen and near.closing_ms == pytest.approx(500.0)
    assert not far.seen and far.reason == "out of range"
    behind = look(f15.radar, **own, target_pos=[40000, 0, -8000], target_R=EYE, target_vel=[300, 0, 0],
                  signature=f15.signature)
    assert behind.seen and behind.closing_ms < 0.0         # opening: tail range (half), rear aspect (x1.75)
    assert not look(f15.radar, **own, target_pos=[52000, 0, -8000], target_R=EYE, target_vel=[300, 0, 0],
                    signature=f15.signature).seen


def test_a_beaming_target_below_hides_in_the_notch_but_not_above(f15):
    beam = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])      # flying east
    own = dict(own_R=EYE, own_vel=[250, 0, 0], target_R=beam, target_vel=[0, 250, 0], signature=f15.signature)
    below = look(f15.radar, own_pos=[0, 0, -9000], target_pos=[30000, 0, -7000], **own)
    above = look(f15.radar, own_pos=[0, 0, -7000], target_pos=[30000, 0, -9000], **own)
    assert not below.seen and below.reason == "in the notch"
    assert above.seen
    side = look(f15.radar, own_pos=[0, 0, -8000], target_pos=[10000, 30000, -8000], **own)
    assert not side.seen and side.reason == "outside the scan" and math.isfinite(side.detection_range_m)


def test_a_bad_radar_table_is_refused_naming_the_key(tmp_path):
    src = load_aircraft("f15c").path
    tree = tmp_path / "f15c"
    shutil.copytree(src.parent, tree)
    p = tree / "aircraft.toml"
    p.write_text(p.read_text().replace("scan_azimuth_deg = 60.0", "scan_azimuth_deg = 500.0"))
    with pytest.raises(DataError, match="radar.scan_azimuth_deg"):
        load_aircraft(str(p))
