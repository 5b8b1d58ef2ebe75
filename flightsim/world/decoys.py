"""Flares and chaff as bodies in the world (issue 35's countermeasures), used by
flightsim/world/missiles.py: ejected from the dispenser down and aft, slowed by their drag (a flare
falls as it burns for ``FLARE_BURN_S``; a chaff cloud blooms, comes to rest in the air within
``CHAFF_SLOW_S`` and sinks slowly for ``CHAFF_LIFE_S``), and the chance that a fresh one draws a
seeker off its dispenser. Figures and their sources: docs/research/countermeasures.md."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..physics.missile import G0

FLARE_BURN_S = 4.5
FLARE_EJECT_MS = 30.0
FLARE_DRAG_PER_M = 0.01     # k in dv/dt = -k |v| v (1/m): a flare slows from 250 m/s to 100 m/s in 0.6 s
CHAFF_LIFE_S = 8.0
CHAFF_EJECT_MS = 20.0
CHAFF_SLOW_S = 0.3          # its velocity relative to the air falls with this time constant
CHAFF_FALL_MS = 1.5
DECOY_RESISTANCE = 0.85     # FlightGear missile-code.nas: every air-launched missile [G]
CHAFF_NOTCH_FACTOR = 3.0    # chaff is this much likelier to take a seeker off a beaming target [E]
DISPENSE_GAP_S = 0.5        # one cartridge of each kind per half second at most [E]
SUN_CONE_DEG = 7.5           # an infrared seeker looking this close to the sun sees only the sun (FG lock-on-sun-deg) [G]
NOTCH_MS = 27.8             # the clutter gate chaff hides a beaming target in: the APG-63's (aircraft.toml [radar]) [G]


@dataclass
class Decoy:
    kind: str                    # "flare" / "chaff" (or "sun": what a blinded infrared seeker follows)
    owner: int
    pos: np.ndarray
    vel: np.ndarray
    t0: float
    serial: int = 0              # its number in the world (the recorder's export names it by this)

    def life_s(self) -> float:
        return {"flare": FLARE_BURN_S, "chaff": CHAFF_LIFE_S}.get(self.kind, math.inf)     # "sun": for ever


def eject(kind: str, owner: int, pos, vel, R, t: float, serial: int = 0) -> Decoy:
    """A cartridge fired from the dispenser of an aircraft at ``pos`` moving at ``vel`` (body-to-NED
    ``R``): down and aft at its ejection speed."""
    down = R @ np.array([-0.5, 0.0, 1.0]) / math.sqrt(1.25)
    speed = FLARE_EJECT_MS if kind == "flare" else CHAFF_EJECT_MS
    return Decoy(kind, owner, np.array(pos, dtype=float), np.asarray(vel, dtype=float) + speed * down, t, serial)


def decoy_chance(kind: str, off_tail_deg: float, target_pos, target_vel, afterburner: float, seeker_pos) -> float:
    """FlightGear's rule (docs/research/ir_seeker_lock.md): (1 - resistance), half again from
    head-on; a flare half as likely against a lit afterburner; chaff likelier against a target in
    the seeker's clutter notch (beaming, seen from above) [E]."""
    p = (1.0 - DECOY_RESISTANCE) * (1.0 + 0.5 * off_tail_deg / 180.0)
    if kind == "flare" and afterburner > 0.05:
        p *= 0.5
    if kind == "chaff":
        u = np.asarray(target_pos) - np.asarray(seeker_pos)
        n = float(np.linalg.norm(u))
        if n > 1.0 and u[2] > 0.0 and abs(float(np.asarray(target_vel) @ u) / n) < NOTCH_MS:
            p *= CHAFF_NOTCH_FACTOR
    return min(p, 1.0)


def fly(decoys: list, dt: float, t: float) -> list:
    """The decoys still alive, each moved ``dt``."""
    keep = []
    for d in decoys:
        if t - d.t0 > d.life_s():
            continue
        if d.kind == "flare":
            v = float(np.linalg.norm(d.vel))
            d.vel = d.vel / (1.0 + FLARE_DRAG_PER_M * v * dt)
            d.vel[2] += G0 * dt
        else:
            still = np.array([0.0, 0.0, CHAFF_FALL_MS])
            d.vel = still + (d.vel - still) * math.exp(-dt / CHAFF_SLOW_S)
        d.pos = d.pos + d.vel * dt
        keep.append(d)
    return keep


def as_array(decoys: list, t: float) -> np.ndarray:
    """(n, 6): position NED, kind (0 flare, 1 chaff), its life used 0..1, serial (the renderer's)."""
    out = np.zeros((len(decoys), 6))
    for i, d in enumerate(decoys):
        out[i, 0:3] = d.pos
        out[i, 3] = 0.0 if d.kind == "flare" else 1.0
        out[i, 4] = min(1.0, (t - d.t0) / d.life_s())
        out[i, 5] = d.serial
    return out
