"""An infrared seeker's lock range (issue 35's infrared part, first step): how far the seeker can
lock a target, from the target's infrared value (its [signature], aircraft_data/sensors.py: 1 = a
Su-27 at military power, seen ahead) and the seeker's range against that reference
(docs/research/ir_seeker_lock.md):

    R_lock = min(cap, R_ref * sqrt(I)),   I = ir_value (or ir_value_afterburner) x ir_rear_factor
                                          where the seeker sees the target's rear hemisphere

The square root is a point source's inverse square against a detector's fixed threshold [E]; the
reference range and cap are DCS's and FlightGear's [G]. Flares, the sun and the background are not
modelled yet.
"""
from __future__ import annotations

import math

import numpy as np


def ir_value(signature: dict, los_body, afterburner: bool = False) -> float:
    """The target's infrared value seen along ``los_body`` (seeker to target, in the target's body
    axes): its rear factor where the line of sight comes from behind (+x)."""
    base = signature.get("ir_value_afterburner") if afterburner else signature.get("ir_value")
    if base is None:
        base = signature.get("ir_value") or 0.0
    x = float(np.asarray(los_body, dtype=np.float64)[0])
    return float(base) * (signature.get("ir_rear_factor", 1.0) if x > 0.0 else 1.0)


def lock_range_m(seeker: dict, value: float) -> float:
    """How far the seeker locks a target of infrared ``value`` (0: an infrared seeker with no lock data)."""
    if seeker.get("lock_range_m", 0.0) <= 0.0 or value <= 0.0:
        return 0.0
    r = seeker["lock_range_m"] * math.sqrt(value)
    cap = seeker.get("lock_range_cap_m", 0.0)
    return min(r, cap) if cap > 0.0 else r
