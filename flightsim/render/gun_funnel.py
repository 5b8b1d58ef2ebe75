"""The F-15's gun funnel (issue 35's lead-computing sight for the gun), drawn on the HUD from the
player's own recent motion only (the snapshots the HUD is given), as an EEGS-style "historic" sight
does: for each time of flight tau along the funnel the sight remembers the aircraft's state tau
ago, flies a round fired then (the aircraft's velocity plus the muzzle velocity along the bore,
gravity, the G1 drag law of the aircraft's own round: physics/ballistics.py's, the same as the
bullets') to now, and draws where that round is now seen from the eye; the funnel's two walls are a
target's wingspan (``SPAN_M``) apart at the round's range. A target whose wings fill the funnel
where it sits is in the bullets' path."""
from __future__ import annotations

from collections import deque

import numpy as np

from ..physics.atmosphere import isa
from ..physics.ballistics import cd_g1
from ..runtime.handoff import dcm

SPAN_M = 13.05               # the funnel's width: a fighter's wingspan (the F-15's, 42 ft 10 in)
TOFS_S = tuple(0.1 * k for k in range(2, 16))       # 0.2 .. 1.5 s: about 250 .. 1,300 m
STEP_S = 0.025
G = 9.80665


class GunFunnel:
    """Feed ``remember(snapshot)`` every frame; ``walls(eye, project)`` gives the two walls' screen
    points (or None while there is not yet a history)."""

    def __init__(self, guns):
        self.bore = guns.boresight.mean(axis=0)
        self.bore /= np.linalg.norm(self.bore)
        self.muzzle_ms = float(guns.muzzle_velocity_ms.mean())
        self.drag_k = float(guns.bullet_drag_k.mean())
        self.history: deque = deque(maxlen=200)

    def remember(self, snap) -> None:
        t = float(snap.time_s)
        if self.history and t <= self.history[-1][0]:
            if t < self.history[-1][0] - 0.5:         # a reset or a replay's jump: start again
                self.history.clear()
            else:
                return
        self.history.append((t, np.array(snap.position_ned_m, float), np.array(snap.velocity_ned_ms, float),
                             dcm(snap.quat_wxyz)))

    def _state_at(self, t: float):
        best = None
        for h in reversed(self.history):
            best = h
            if h[0] <= t:
                break
        return best

    def round_now(self, tau: float) -> np.ndarray | None:
        """Where a round fired ``tau`` seconds ago is now (NED), or None without that history."""
        if not self.history or self.history[0][0] > self.history[-1][0] - tau + 0.05:
            return None
        t_then, p, v, R = self._state_at(self.history[-1][0] - tau)
        vel = v + self.muzzle_ms * (R @ self.bore)
        pos = p.copy()
        n = max(1, int(round(tau / STEP_S)))
        h = tau / n
        for _ in range(n):
            _, _, rho, sound = isa(-pos[2])
            speed = float(np.linalg.norm(vel))
            decel = self.drag_k * rho * speed * float(cd_g1(speed / sound))
            vel = vel - decel * vel * h + np.array([0.0, 0.0, G * h])
            pos = pos + vel * h
        return pos

    def walls(self, eye, project):
        """The funnel's two walls on the screen: at each round's point, half a wingspan either side of
        the funnel's centre line, across it."""
        centre, half = [], []
        for tau in TOFS_S:
            p = self.round_now(tau)
            if p is None:                       # no history that old yet: the funnel so far
                break
            d = p - np.asarray(eye, float)
            rng = float(np.linalg.norm(d))
            c = project(d)
            side = np.cross(d / max(rng, 1e-9), np.array([0.0, 0.0, -1.0]))
            if c is None or rng < 1.0 or np.linalg.norm(side) < 1e-6:
                continue
            e = project(d + side / np.linalg.norm(side) * 0.5 * SPAN_M)      # the screen's scale there
            if e is None:
                continue
            centre.append(c)
            half.append(float(np.linalg.norm(e - c)))
        if len(centre) < 2:
            return None
        c = np.array(centre)
        along = np.gradient(c, axis=0)
        along /= np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-9)
        normal = np.stack([-along[:, 1], along[:, 0]], axis=1) * np.array(half)[:, None]
        return list(c - normal), list(c + normal)
