"""The moving parts of an aircraft's model and their 4x4 transforms for a pose.

Every vertex carries a part index; the shader multiplies it by its part's matrix (model
axes, FRD metres). Part 0 is rigid. What moves, and by how much, is the physics' own
state as the snapshot publishes it: control deflections and slat positions per section,
the airbrakes and the gear, the sections shot away, the stores still on; plus the
propeller's angle, which the renderer integrates from the engine's rpm.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..glutil import axis_angle

MAX_PARTS = 48          # the size of the shaders' u_parts array (shaders/mesh_vs.glsl, aircraft_vs.glsl)
_IDENTITY = np.tile(np.eye(4), (MAX_PARTS, 1, 1))


@dataclass
class Part:
    kind: str                 # rigid, section (a lifting section's fixed skin), control, slat, airbrake, gear,
                              # store, propeller (the spinner), blades, cockpit (hidden in the cockpit view: the pilot, the skin
                              # over the cockpit opening), hidden
    section: int = -1         # index in compiled.sections (section / control / slat / airbrake); a store's index
    pivot: np.ndarray = field(default_factory=lambda: np.zeros(3))
    axis: np.ndarray = field(default_factory=lambda: np.zeros(3))
    travel_m: float = 0.0
    retractable: bool = False
    open_m: np.ndarray = field(default_factory=lambda: np.zeros(3))   # a slat's displacement fully open
    droop_rad: float = 0.0    # a slat's nose-down rotation fully open (about its pivot, around axis)
    retract_rad: float = 0.0  # a gear leg's rotation about its hinge (pivot, axis) when fully up (0: hide it)
    owner: int = -1           # the section whose loss takes this part too (a control on a shot-away strip)


def _collapse(out, k, pivot):
    out[k, :3, :3] = 0.0
    out[k, :3, 3] = pivot


def transforms(parts, deflections_rad, airbrake: float, gear_up: float, slat_positions=None, section_damage=None,
               stores_on=None, propeller_rad: float = 0.0, cockpit: bool = False,
               hide_blades: bool = False) -> np.ndarray:
    """(MAX_PARTS, 4, 4) matrices for a pose: each section's control deflection (rad) and slat
    position (0 closed .. 1 open), the airbrakes 0..1, the gear 0 down .. 1 up, sections shot
    away (damage 1) hidden with what hangs on them, the stores not on hidden (none given: all
    hidden), the propeller turned by propeller_rad; in the cockpit view the cockpit parts
    hidden."""
    out = _IDENTITY.copy()
    slats = () if slat_positions is None else slat_positions
    gone = () if section_damage is None else section_damage
    for k, p in enumerate(parts):
        lost = p.section if p.kind in ("section", "control", "slat", "airbrake") else p.owner
        if 0 <= lost < len(gone) and gone[lost] >= 1.0:
            _collapse(out, k, p.pivot)                 # shot away: collapsed into a point, not drawn
        elif p.kind == "store":
            if stores_on is None or p.section >= len(stores_on) or stores_on[p.section] < 0.5:
                _collapse(out, k, p.pivot)
        elif p.kind == "control" and 0 <= p.section < len(deflections_rad):
            R = axis_angle(p.axis, float(deflections_rad[p.section]))
            out[k, :3, :3] = R
            out[k, :3, 3] = p.pivot - R @ p.pivot
        elif p.kind == "slat":
            f = min(max(float(slats[p.section]), 0.0), 1.0) if p.section < len(slats) else 0.0
            R = axis_angle(p.axis, -p.droop_rad * f)       # + about the span axis is nose up
            out[k, :3, :3] = R
            out[k, :3, 3] = p.pivot - R @ p.pivot + p.open_m * f
        elif p.kind == "airbrake":
            out[k, :3, 3] = p.axis * p.travel_m * float(airbrake)
        elif p.kind == "gear" and p.retractable:
            if p.retract_rad != 0.0:
                f = min(max(float(gear_up), 0.0), 1.0)
                R = axis_angle(p.axis, p.retract_rad * f)
                out[k, :3, :3] = R
                out[k, :3, 3] = p.pivot - R @ p.pivot
            elif gear_up >= 0.5:
                _collapse(out, k, p.pivot)         # no retraction given: hidden when up
        elif p.kind == "blades" and hide_blades:
            _collapse(out, k, p.pivot)
        elif p.kind in ("propeller", "blades"):
            R = axis_angle(p.axis, float(propeller_rad))
            out[k, :3, :3] = R
            out[k, :3, 3] = p.pivot - R @ p.pivot
        elif p.kind == "cockpit" and cockpit:
            _collapse(out, k, p.pivot)
        elif p.kind == "hidden":
            out[k, :3, :3] = 0.0
    return out
