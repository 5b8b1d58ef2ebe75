"""DIS dead reckoning (IEEE 1278.1 annex E) for remote aircraft, and the rules that decide when a
local one must send again (issue 36, first part).

* ``extrapolate``: where an Entity State says the aircraft is ``dt`` later: FPW (algorithm 2)
  moves it at its velocity, attitude held; RVW (algorithm 4) adds half its acceleration times
  dt^2 and turns the attitude by its body rates (the rotation exp(omega dt) in body axes);
* ``Smoother``: a fresh update moves the remote aircraft from where it was drawn to the new
  dead-reckoned path over ``SMOOTH_S``, never jumping (seed 000's "smoothed between updates");
* ``must_send``: the sender's own dead reckoning of what it last sent drifts past DIS's
  thresholds (1 m, 3 deg) or the heartbeat (5 s) is due.
"""
from __future__ import annotations

import math

import numpy as np

from .dis import DRM_FPW, EntityState, angle_between

POSITION_TOL_M = 1.0            # DIS's default thresholds (IEEE 1278.1 annex E / SISO guidance) [K]
ORIENTATION_TOL_RAD = math.radians(3.0)
HEARTBEAT_S = 5.0
SMOOTH_S = 0.5                  # a correction blended in over half a second [E]


def rotation(omega_body, dt: float) -> np.ndarray:
    """exp([omega dt]x): the body's turn over dt at constant body rates (Rodrigues)."""
    w = np.asarray(omega_body, float) * dt
    a = float(np.linalg.norm(w))
    if a < 1e-12:
        return np.eye(3)
    k = w / a
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(a) * K + (1.0 - math.cos(a)) * (K @ K)


def extrapolate(es: EntityState, dt: float) -> tuple[np.ndarray, np.ndarray]:
    """(position NED, attitude body->NED) ``dt`` seconds after ``es`` by its algorithm."""
    p = np.asarray(es.position_ned_m, float) + np.asarray(es.velocity_ned_ms, float) * dt
    if es.algorithm == DRM_FPW:
        return p, np.asarray(es.R, float)
    p = p + 0.5 * np.asarray(es.accel_ned_ms2, float) * dt * dt
    return p, np.asarray(es.R, float) @ rotation(es.omega_body_rads, dt)


def must_send(truth_pos, truth_R, sent: EntityState, since_s: float) -> str:
    """Why the local aircraft must send a fresh Entity State now ('' : it need not)."""
    if since_s >= HEARTBEAT_S:
        return "heartbeat"
    p, R = extrapolate(sent, since_s)
    if float(np.linalg.norm(np.asarray(truth_pos, float) - p)) > POSITION_TOL_M:
        return "position"
    if angle_between(R, truth_R) > ORIENTATION_TOL_RAD:
        return "orientation"
    return ""


def _blend_attitude(Ra, Rb, f: float) -> np.ndarray:
    """The attitude a share ``f`` of the way from Ra to Rb (about the axis between them)."""
    D = np.asarray(Ra).T @ np.asarray(Rb)
    a = angle_between(np.eye(3), D)
    if a < 1e-9:
        return np.asarray(Rb, float)
    axis = np.array([D[2, 1] - D[1, 2], D[0, 2] - D[2, 0], D[1, 0] - D[0, 1]]) / (2.0 * math.sin(a))
    return np.asarray(Ra) @ rotation(axis * a * f, 1.0)


class Smoother:
    """A remote aircraft as drawn: its last update's dead reckoning, with each correction blended
    in over SMOOTH_S from where it was drawn when the update came."""

    def __init__(self):
        self.state: EntityState | None = None
        self.t_update = 0.0
        self.offset: tuple | None = None       # (drawn position, drawn attitude) at the update

    def update(self, es: EntityState, t_s: float) -> None:
        if self.state is not None:
            self.offset = self.pose(t_s)
        self.state, self.t_update = es, t_s

    def pose(self, t_s: float) -> tuple[np.ndarray, np.ndarray]:
        p, R = extrapolate(self.state, t_s - self.t_update)
        if self.offset is None:
            return p, R
        f = (t_s - self.t_update) / SMOOTH_S
        if f >= 1.0:
            self.offset = None
            return p, R
        # where the old path was drawn, carried on at the new velocity, blended onto the new path
        p0 = self.offset[0] + np.asarray(self.state.velocity_ned_ms, float) * (t_s - self.t_update)
        return (1.0 - f) * p0 + f * p, _blend_attitude(self.offset[1], R, f)
