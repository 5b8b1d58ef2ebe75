"""Where each player starts in a multiplayer flight (issue 36): the scenario's start, moved so that
players who start the same scenario do not start inside one another, and the two sides of a team
dogfight start facing each other.

* **Slot**: each player's own place in the formation, from its callsign (the same callsign always
  gets the same slot, so two players only share one by a 1-in-8 chance and a different callsign
  fixes it): in the air 150 m to the right and 30 m up per slot, on the ground 40 m further along the
  runway per slot.
* **Side** (DIS force: blue 1 friendly, red 2 opposing): red's air start is turned round and moved
  ``HEAD_ON_M`` ahead of blue's, so the sides meet head-on after about half a minute; on the
  ground both sides line up on the runway.
"""
from __future__ import annotations

import math
import zlib

import numpy as np

from ..physics.named import AircraftView

SLOTS = 8
AIR_SLOT_RIGHT_M, AIR_SLOT_UP_M = 150.0, 30.0
GROUND_SLOT_AHEAD_M = 40.0
HEAD_ON_M = 8000.0
SIDES = {"blue": 1, "red": 2}


def slot_of(callsign: str) -> int:
    return zlib.crc32(callsign.encode("ascii", "replace")) % SLOTS


def place(state, side: str, callsign: str, air: bool) -> None:
    """Move the start ``state`` (in place) to this player's slot and side."""
    a = AircraftView(state)
    roll, pitch, heading = a.euler_rad
    R = a.body_to_ned()
    fwd = np.array([math.cos(heading), math.sin(heading), 0.0])
    right = np.array([-math.sin(heading), math.cos(heading), 0.0])
    k = slot_of(callsign)
    p = np.array(a.position_ned_m, dtype=float)
    if not air:
        a.set_position_ned(*(p + GROUND_SLOT_AHEAD_M * k * fwd))
        return
    p = p + AIR_SLOT_RIGHT_M * k * right + np.array([0.0, 0.0, -AIR_SLOT_UP_M * k])
    if side == "red":
        v_body = R.T @ a.velocity_ned_ms                 # the same speed, the other way
        p = p + HEAD_ON_M * fwd
        heading = heading + math.pi
        a.set_attitude(roll, pitch, heading)
        a.set_velocity_body(*v_body)
    a.set_position_ned(*p)
