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

MAX_PARTS = 56          # the size of the shaders' u_parts array (shaders/*_vs.glsl; 56 mat4 keep them inside
                        # OpenGL 3.3's guaranteed 1,024 vertex uniform components)
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
    shown_from: float = 0.5   # a store shows while its share on (stores_on) is at least this (a missile row's
                              # round j of n: 1 - (j + 0.5) / n, so the rounds go in their launch order)


class _Plan:
    """A parts list as arrays, made once per list: what kind each part is, where it pivots."""

    def __init__(self, parts):
        n = len(parts)
        kind = [p.kind for p in parts]
        self.n = n
        self.is_ = {k: np.array([x == k for x in kind], dtype=bool) for k in
                    ("store", "control", "slat", "airbrake", "gear", "blades", "propeller", "cockpit", "hidden")}
        self.section = np.array([p.section for p in parts], dtype=np.int64)
        self.lost = np.array([p.section if p.kind in ("section", "control", "slat", "airbrake") else p.owner
                              for p in parts], dtype=np.int64)
        self.pivot = np.array([np.asarray(p.pivot, dtype=np.float64) for p in parts]).reshape(n, 3)
        axis = np.array([np.asarray(p.axis, dtype=np.float64) for p in parts]).reshape(n, 3)
        norm = np.linalg.norm(axis, axis=1)
        self.raw_axis = axis
        self.unit = axis / np.where(norm > 0.0, norm, 1.0)[:, None]
        self.travel = np.array([p.travel_m for p in parts], dtype=np.float64)
        self.open_m = np.array([np.asarray(p.open_m, dtype=np.float64) for p in parts]).reshape(n, 3)
        self.droop = np.array([p.droop_rad for p in parts], dtype=np.float64)
        self.retract = np.array([p.retract_rad for p in parts], dtype=np.float64)
        self.retractable = np.array([p.retractable for p in parts], dtype=bool)
        self.shown_from = np.array([p.shown_from for p in parts], dtype=np.float64)


_PLANS: dict = {}


def _plan(parts) -> _Plan:
    got = _PLANS.get(id(parts))
    if got is None or got[0] is not parts or got[1].n != len(parts):
        got = _PLANS[id(parts)] = (parts, _Plan(parts))
    return got[1]


def _pick(values, index) -> tuple:
    """values[index] where index lies in values (0 elsewhere), and where it does."""
    v = np.asarray(values if values is not None else (), dtype=np.float64).reshape(-1)
    ok = (index >= 0) & (index < len(v))
    out = np.zeros(len(index))
    out[ok] = v[index[ok]]
    return out, ok


def transforms(parts, deflections_rad, airbrake: float, gear_up: float, slat_positions=None, section_damage=None,
               stores_on=None, propeller_rad: float = 0.0, cockpit: bool = False,
               hide_blades: bool = False) -> np.ndarray:
    """(MAX_PARTS, 4, 4) matrices for a pose: each section's control deflection (rad) and slat
    position (0 closed .. 1 open), the airbrakes 0..1, the gear 0 down .. 1 up, sections shot
    away (damage 1) hidden with what hangs on them, the stores not on hidden (none given: all
    hidden), the propeller turned by propeller_rad; in the cockpit view the cockpit parts
    hidden. All parts at once in numpy (tests/render/test_parts_vectorised.py holds it to the
    same rules written part by part)."""
    P = _plan(parts)
    n, is_ = P.n, P.is_
    out = _IDENTITY.copy()
    if n == 0:
        return out
    gone, has = _pick(section_damage, P.lost)
    collapse = has & (gone >= 1.0)
    on, has_store = _pick(stores_on, P.section)
    collapse |= is_["store"] & (~has_store | (on < P.shown_from))
    gear_f = min(max(float(gear_up), 0.0), 1.0)
    gear = is_["gear"] & P.retractable
    collapse |= gear & (P.retract == 0.0) & (float(gear_up) >= 0.5)
    collapse |= is_["blades"] & bool(hide_blades)
    collapse |= is_["cockpit"] & bool(cockpit)
    angle = np.zeros(n)
    rot = np.zeros(n, dtype=bool)
    defl, has_defl = _pick(deflections_rad, P.section)
    ctl = is_["control"] & has_defl
    angle[ctl] = defl[ctl]
    rot |= ctl
    f_slat, _ = _pick(slat_positions, P.section)
    f_slat = np.clip(f_slat, 0.0, 1.0)
    slat = is_["slat"]
    angle[slat] = -P.droop[slat] * f_slat[slat]
    rot |= slat
    g = gear & (P.retract != 0.0)
    angle[g] = P.retract[g] * gear_f
    rot |= g
    prop = is_["propeller"] | (is_["blades"] & (not hide_blades))
    angle[prop] = float(propeller_rad)
    rot |= prop
    rot &= ~collapse
    # Rodrigues: R = c I + s [u]x + (1 - c) u u^T, about each part's pivot
    u = P.unit
    c, s_ = np.cos(angle), np.sin(angle)
    R = (c[:, None, None] * np.eye(3) + (1.0 - c)[:, None, None] * (u[:, :, None] * u[:, None, :]))
    x, y, z = u[:, 0] * s_, u[:, 1] * s_, u[:, 2] * s_
    R[:, 0, 1] -= z
    R[:, 0, 2] += y
    R[:, 1, 0] += z
    R[:, 1, 2] -= x
    R[:, 2, 0] -= y
    R[:, 2, 1] += x
    view = out[:n]
    view[rot, :3, :3] = R[rot]
    t = np.zeros((n, 3))
    t[rot] = P.pivot[rot] - np.einsum("kij,kj->ki", R[rot], P.pivot[rot])
    t[slat] += P.open_m[slat] * f_slat[slat, None]
    brake = is_["airbrake"] & ~collapse
    t[brake] = P.raw_axis[brake] * (P.travel[brake] * float(airbrake))[:, None]
    view[:, :3, 3] = t
    view[collapse, :3, :3] = 0.0
    view[collapse, :3, 3] = P.pivot[collapse]
    hid = is_["hidden"] & ~collapse
    view[hid, :3, :3] = 0.0
    return out

