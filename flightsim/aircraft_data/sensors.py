"""What an aircraft shows to sensors and what it carries to see with (issue 35): its [signature]
(radar cross-section by aspect, infrared value by power) and its [radar]. Both tables are optional
in aircraft.toml; validated on load, refused naming the file and key (flightsim/weapons/radar.py
uses them)."""
from __future__ import annotations

from .schema import Field, between, num, validate_table

SIGNATURE_KEYS = {
    "rcs_frontal_m2": num(check=between(0.001, 1000.0)),     # radar cross-section seen nose-on
    "rcs_side_factor": num(False, 2.5, between(0.1, 20.0)),   # ... times this broadside
    "rcs_rear_factor": num(False, 1.75, between(0.1, 20.0)),  # ... tail-on
    "rcs_top_factor": num(False, 3.5, between(0.1, 20.0)),    # ... from above or below
    "ir_value": num(False, None, between(0.0, 100.0)),        # infrared: 1 = a Su-27's at military power, forward
    "ir_value_afterburner": num(False, None, between(0.0, 100.0)),
    "ir_rear_factor": num(False, 1.0, between(0.1, 50.0)),  # its infrared value seen from behind, times
    "references": Field("strlist", required=False, default=[]),
}
RADAR_KEYS = {
    "name": Field("str"),
    "detection_range_m": num(check=between(1000.0, 500000.0)),       # against reference_rcs_m2, head-on
    "reference_rcs_m2": num(check=between(0.01, 1000.0)),
    "tail_range_factor": num(False, 0.5, between(0.05, 1.0)),         # an opening target's share of it
    "scan_azimuth_deg": num(check=between(5.0, 180.0)),               # half-width either side of the nose
    "scan_elevation_deg": num(check=between(1.0, 90.0)),              # half-height above and below
    "notch_gate_ms": num(False, 0.0, between(0.0, 100.0)),           # clutter notch on the radial speed, looking down
    "references": Field("strlist", required=False, default=[]),
}
SENSOR_TABLES = ("signature", "radar")


def load_sensors(data: dict, path) -> tuple[dict | None, dict | None]:
    """(signature, radar): the validated optional tables, None where absent."""
    sig = validate_table(data["signature"], SIGNATURE_KEYS, path, "signature") if "signature" in data else None
    radar = validate_table(data["radar"], RADAR_KEYS, path, "radar") if "radar" in data else None
    return sig, radar
