"""Flares and chaff as bodies in the world (issue 35's countermeasures), used by
flightsim/world/missiles.py: ejected from the dispenser down and aft, slowed by their drag (a flare
falls as it burns for ``FLARE_BURN_S``; a chaff cloud blooms, comes to rest in the air within
``CHAFF_SLOW_S`` and sinks slowly for ``CHAFF_LIFE_S``), and the chance that a fresh one draws a
seeker off its dispenser, by the seeker's countermeasure_k (its data file). Figures and their
sources: docs/research/countermeasures.md ([K]: recalled there, not read)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..physics.atmosphere import isa
from ..physics.missile import G0
from ..weapons.radar import in_notch

FLARE_BURN_S = 4.5          # MJU-7A/B, 3.5-5 s [K]; FlightGear's 5 s [G]
FLARE_EJECT_MS = 30.0       # FlightGear's 100 ft/s [G]
FLARE_BALLISTIC_KG_M2 = 40.0   # m / (Cd A) of a tumbling MJU-7 pellet: dv/dt = -rho v |v| / (2 BC) [E]
CHAFF_LIFE_S = 8.0          # its cross-section held about 1 s, then fading (tau about 4 s) [E]
CHAFF_EJECT_MS = 20.0       # [E]
CHAFF_SLOW_S = 0.1          # its velocity relative to the air falls with this time constant [K]/[E]
CHAFF_FALL_MS = 0.5         # RR-170's dipoles settle at 0.3-1 m/s [K]
FLARE_CHANCE = 0.3          # a flare's chance against a seeker of countermeasure_k 1 from astern [E]: an AIM-9M's
#                             (k 0.5) 0.15, FlightGear's 1 - 0.85 [G]
CHAFF_CHANCE = 0.7          # a chaff bundle's against a radar seeker of countermeasure_k 1 [E]: an AIM-120C's (0.1) 0.07
CHAFF_NOTCH_FACTOR = 4.0    # chaff is this much likelier to take a seeker off a beaming target (3-5) [E]
RADAR_K = 0.2               # a fighter's pulse-Doppler radar in a single-target track, as a seeker's k [E]
DISPENSE_GAP_S = 0.5        # one cartridge of each kind per half second at most [E]
SUN_CONE_DEG = 7.5           # an infrared seeker looking this close to the sun sees only the sun (FG lock-on-sun-deg) [G]


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


def decoy_chance(kind: str, off_tail_deg: float, target_pos, target_vel, afterburner: float, seeker_pos,
                 seeker_k: float = 1.0, notch_ms: float = 0.0) -> float:
    """The chance a fresh decoy draws off a seeker of countermeasure_k ``seeker_k`` (DCS's ccm_k0,
    docs/research/countermeasures.md s3): a flare FLARE_CHANCE k, half again from head-on
    (FlightGear's aspect rule), half as likely against a lit afterburner [E]; a chaff bundle
    CHAFF_CHANCE k, CHAFF_NOTCH_FACTOR times that against a target in the seeker's clutter notch
    (beaming, seen from above, within ``notch_ms``: weapons/radar.in_notch) [E]."""
    if kind == "flare":
        p = FLARE_CHANCE * seeker_k * (1.0 + 0.5 * off_tail_deg / 180.0)
        if afterburner > 0.05:
            p *= 0.5
        return min(p, 1.0)
    p = CHAFF_CHANCE * seeker_k
    if kind == "chaff" and in_notch(notch_ms, seeker_pos, target_pos, target_vel):
        p *= CHAFF_NOTCH_FACTOR
    return min(p, 1.0)


def fly(decoys: list, dt: float, t: float, terrain=None) -> list:
    """The decoys still alive, each moved ``dt``: a flare or chaff that has come down onto the
    ``terrain`` (world/terrain.py) is gone (a flare burns out on the ground, unseen)."""
    keep = []
    for d in decoys:
        if t - d.t0 > d.life_s() or terrain is not None and d.kind != "sun" and terrain.underground(d.pos):
            continue
        if d.kind == "flare":
            v = float(np.linalg.norm(d.vel))
            k = isa(-float(d.pos[2]))[2] / (2.0 * FLARE_BALLISTIC_KG_M2)
            d.vel = d.vel / (1.0 + k * v * dt)
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
