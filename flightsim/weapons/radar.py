"""A fire-control radar and what it sees (issue 35's radar, first part): the target's radar
cross-section by aspect, the detection range it gives, the scan volume and the clutter notch.

* **cross-section**: the aircraft's [signature] (aircraft_data/sensors.py): frontal, broadside,
  tail and top values, blended by the line of sight's direction in the target's body axes
  (FlightGear's rule: linear in each axis's share);
* **detection range**: the radar equation's fourth root, R = R_ref (sigma / sigma_ref)^(1/4), from
  the radar's head-on range against its reference target; a target opening the range (tail
  aspect, the low closing speed a pulse-Doppler radar sees worst) gets ``tail_range_factor`` of it;
* **scan volume**: the target within the search's azimuth and elevation half-angles of the nose;
  a single-target track (``track``) follows the target with the antenna anywhere within its gimbal,
  taken as the search's azimuth half-angle both ways (the elevation gimbal not found) [E];
* **notch**: looking down into ground clutter, a target whose speed along the line of sight is
  within ``notch_gate`` of the clutter's (a beaming target) is lost in it.

Pure functions of positions, velocities and body axes (NED; body-to-NED matrices): the game and
the AI call them with their snapshots; nothing here reaches into the physics.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Contact:
    """What the radar makes of one target: seen or not, and why."""
    seen: bool
    reason: str                  # "seen", "out of range", "outside the scan", "in the notch", "no signature"
    #                              (and the world's "behind the ground": world/missiles.py)
    range_m: float
    detection_range_m: float
    rcs_m2: float
    closing_ms: float            # + closing


def rcs_m2(signature: dict, los_body: np.ndarray) -> float:
    """The cross-section seen along ``los_body`` (from the radar to the target, in the target's body
    axes; its direction only): frontal where it looks at the nose, the tail factor from behind, the
    side and top factors broadside and from above or below, blended by each axis's share."""
    d = np.asarray(los_body, dtype=np.float64)
    n = float(np.linalg.norm(d))
    if n <= 0.0:
        return float(signature["rcs_frontal_m2"])
    x, y, z = d / n
    # looking at the nose means the line of sight runs toward -x of the target's body
    fore_aft = signature["rcs_rear_factor"] if x > 0.0 else 1.0
    w = np.array([x * x, y * y, z * z])
    return float(signature["rcs_frontal_m2"] * (w[0] * fore_aft + w[1] * signature["rcs_side_factor"]
                                                + w[2] * signature["rcs_top_factor"]))


def detection_range_m(radar: dict, rcs: float, closing: bool) -> float:
    r = radar["detection_range_m"] * (rcs / radar["reference_rcs_m2"]) ** 0.25
    return r if closing else r * radar["tail_range_factor"]


def look(radar: dict, own_pos, own_R, own_vel, target_pos, target_R, target_vel, signature: dict | None,
         track: bool = False) -> Contact:
    """One look of ``radar`` (on an aircraft at own_pos with body-to-NED own_R, moving at own_vel)
    at a target (target_pos, its body-to-NED target_R, target_vel, its [signature]); ``track``: the
    antenna follows a locked target (its gimbal, not the search's bars)."""
    rel = np.asarray(target_pos, float) - np.asarray(own_pos, float)
    rng = float(np.linalg.norm(rel))
    if rng <= 0.0:
        return Contact(True, "seen", 0.0, math.inf, math.inf, 0.0)
    u = rel / rng
    closing = -float(np.dot(np.asarray(target_vel, float) - np.asarray(own_vel, float), u))
    if signature is None:
        return Contact(False, "no signature", rng, 0.0, 0.0, closing)
    # the scan: the line of sight in the radar's (own body) axes
    b = np.asarray(own_R, float).T @ u
    az = math.degrees(math.atan2(b[1], b[0]))
    el = math.degrees(math.asin(max(-1.0, min(1.0, -b[2]))))
    sigma = rcs_m2(signature, np.asarray(target_R, float).T @ u)
    r_det = detection_range_m(radar, sigma, closing > 0.0)
    el_limit = radar["scan_azimuth_deg"] if track else radar["scan_elevation_deg"]
    if abs(az) > radar["scan_azimuth_deg"] or abs(el) > el_limit:
        return Contact(False, "outside the scan", rng, r_det, sigma, closing)
    if rng > r_det:
        return Contact(False, "out of range", rng, r_det, sigma, closing)
    if in_notch(radar["notch_gate_ms"], own_pos, target_pos, target_vel):
        return Contact(False, "in the notch", rng, r_det, sigma, closing)
    return Contact(True, "seen", rng, r_det, sigma, closing)


def in_notch(gate_ms: float, seeker_pos, target_pos, target_vel) -> bool:
    """Is the target lost in a Doppler seeker's clutter notch? Looking down, the ground behind the
    target closes at the seeker's own speed along the beam; a target whose own speed along the
    beam is within ``gate_ms`` of zero hides in that clutter (the radar's, a missile's seeker's, a
    chaff cloud's chance: world/missiles.py, world/decoys.py)."""
    u = np.asarray(target_pos, float) - np.asarray(seeker_pos, float)
    n = float(np.linalg.norm(u))
    return gate_ms > 0.0 and n > 0.0 and u[2] > 0.0 and abs(float(np.asarray(target_vel, float) @ u)) / n < gate_ms
