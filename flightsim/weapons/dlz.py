"""The dynamic launch zone: a missile's ranges for the geometry of the moment (issue 35's HUD and the
AI's shot), flown with the same physics as the envelope tool (flightsim/weapons/envelope.py).

The launcher keeps its velocity; the target keeps its height, speed and heading and is set at a
trial range along the present horizontal line of sight:

* ``rmax``: the longest range at which a missile launched now hits the target flying straight on;
* ``rne`` (no escape): the longest at which it hits a target that turns away at ``TARGET_G`` at
  launch and runs;
* ``rmin``: the shortest at which it hits (the fuze's arming, the seeker's rates).

Ranges are slant ranges in metres, found to ``REL_TOL`` of themselves: about 20-40 shots of a
millisecond each, flown once a second by the combat for each armed fighter.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics import missile as M
from .envelope import bisect_range

DT = 0.02
REL_TOL = 0.04
MIN_RANGE_M = 200.0
MAX_RANGE_M = 200000.0
TARGET_G = 7.0
_NO_TRACK = np.zeros((0, 6))


def _hits(missile, pos, vel, h_los, dz, r_h, t_heading, t_speed, turn_g) -> bool:
    tpos = np.array([pos[0] + h_los[0] * r_h, pos[1] + h_los[1] * r_h, pos[2] + dz])
    ms = np.zeros(M.N_MS)
    M.launch(ms, missile.model, pos, vel, tpos)
    away = math.atan2(h_los[1], h_los[0])
    status, _ = M.fly_engagement(ms, missile.model, tpos, np.zeros(3), t_heading, t_speed, turn_g, away, DT,
                                 missile.guidance["self_destruct_s"] + 1.0, M.G0, _NO_TRACK)
    return int(status) == M.ST_HIT


def _edge(hit, lo_hit: float, hi_miss: float) -> float:
    return bisect_range(hit, lo_hit, hi_miss, REL_TOL * MIN_RANGE_M, REL_TOL)


def _longest(hit, start: float) -> float:
    """The longest hitting horizontal range, searching from ``start``; 0 where none hits."""
    r = max(start, MIN_RANGE_M)
    if hit(r):
        while r < MAX_RANGE_M:
            if not hit(r * 1.4):
                return _edge(hit, r, r * 1.4)
            r *= 1.4
        return MAX_RANGE_M
    while r > MIN_RANGE_M:
        r *= 0.6
        if hit(r):
            return _edge(hit, r, r / 0.6)
    return 0.0


def geometry(pos, vel, target_pos, target_vel) -> tuple:
    """The shot's geometry now: (launcher position, velocity, horizontal line of sight, height
    difference, horizontal range, target heading, target speed)."""
    pos = np.asarray(pos, dtype=np.float64)
    vel = np.asarray(vel, dtype=np.float64)
    rel = np.asarray(target_pos, dtype=np.float64) - pos
    r_h = math.hypot(rel[0], rel[1])
    h_los = rel[:2] / r_h if r_h > 1.0 else np.array([vel[0], vel[1]]) / max(math.hypot(vel[0], vel[1]), 1e-6)
    tv = np.asarray(target_vel, dtype=np.float64)
    return pos, vel, h_los, float(rel[2]), r_h, math.atan2(tv[1], tv[0]), math.hypot(tv[0], tv[1])


def _shot(missile, geo, target_g):
    pos, vel, h_los, dz, _, t_heading, t_speed = geo
    return lambda r: _hits(missile, pos, vel, h_los, dz, r, t_heading, t_speed, target_g)


def slant(geo, r: float) -> float:
    """A horizontal range of the geometry as a slant range."""
    return math.hypot(r, geo[3]) if r > 0.0 else 0.0


def rmax_m(missile, geo) -> float:
    """Rmax (horizontal, m) for the geometry: the target flying straight on; 0 where none hits."""
    return _longest(_shot(missile, geo, 0.0), max(geo[4], 2000.0))


def rne_m(missile, geo, rmax: float, target_g: float = TARGET_G) -> float:
    """The no-escape range (horizontal, m): the target turning away at ``target_g`` at launch."""
    return min(_longest(_shot(missile, geo, target_g), 0.5 * rmax), rmax) if rmax > 0.0 else 0.0


def rmin_m(missile, geo, rmax: float) -> float:
    """The shortest hitting range (horizontal, m)."""
    if rmax <= 0.0:
        return 0.0
    straight = _shot(missile, geo, 0.0)
    return MIN_RANGE_M if straight(MIN_RANGE_M) else _edge(lambda r: not straight(r), MIN_RANGE_M, rmax)


def current(missile, pos, vel, target_pos, target_vel, target_g: float = TARGET_G) -> tuple[float, float, float]:
    """(Rmax, Rne, Rmin), slant metres, of ``missile`` launched now from ``pos`` at ``vel`` (NED) at a
    target at ``target_pos`` moving at ``target_vel``; zeros where no shot hits. (The combat flies
    the three on three successive steps: rmax_m, rne_m, rmin_m on one ``geometry``.)"""
    geo = geometry(pos, vel, target_pos, target_vel)
    rmax = rmax_m(missile, geo)
    return slant(geo, rmax), slant(geo, rne_m(missile, geo, rmax, target_g)), slant(geo, rmin_m(missile, geo, rmax))
