"""Our missiles in flight as DIS munition entities (issue 36): so the other players (and any DIS
tool) see them fly. Each missile we launched is an Entity State of its own: entity number 100 +
its serial, its munition type (entity_types.MISSILES), marking its name, dead reckoning FPW (its
velocity; a missile's attitude is its velocity's), sent on DIS's thresholds like an aircraft, and
once more with the destroyed bits when it is gone (burst or spent), so the others drop it at once.

Received munitions are not aircraft: the session keeps them out of the pilots present and the
collisions, and publishes them as ``NetFrame.munitions`` in the combat frame's missile layout
(position, velocity, motor burning, shooter, serial) for the renderer's missile drawing.
"""
from __future__ import annotations

import math

import numpy as np

from .dead_reckoning import must_send
from .dis import DRM_FPW, EntityState, dis_timestamp
from .entity_types import MISSILES, MUNITION

ENTITY_BASE = 100


def is_munition(entity_type) -> bool:
    return int(entity_type[0]) == MUNITION


def attitude_of(velocity) -> np.ndarray:
    """Body -> NED with the body x axis along the velocity, wings level."""
    v = np.asarray(velocity, float)
    n = float(np.linalg.norm(v))
    if n < 1e-6:
        return np.eye(3)
    x = v / n
    psi = math.atan2(x[1], x[0])
    theta = math.asin(max(-1.0, min(1.0, -x[2])))
    cp, sp, ct, st = math.cos(psi), math.sin(psi), math.cos(theta), math.sin(theta)
    return np.array([[cp * ct, -sp, cp * st], [sp * ct, cp, sp * st], [-st, 0.0, ct]])


class MunitionCast:
    """Our missiles out (``update`` once a tick with the missiles' world's flights)."""

    def __init__(self, session):
        self.net = session
        self.sent: dict = {}                   # serial -> (EntityState, flight time it was sent)
        self.pdus = 0

    def update(self, flights, sim_t: float) -> None:
        """``flights``: (serial, weapon id, position, velocity, motor burning) of our missiles now."""
        live = set()
        for serial, weapon, pos, vel, burning in flights:
            if weapon not in MISSILES:
                continue
            live.add(serial)
            es = self._entity(serial, weapon, pos, vel, burning, False)
            last = self.sent.get(serial)
            if last is None or must_send(es.position_ned_m, es.R, last[0], sim_t - last[1]) or \
                    last[0].appearance != es.appearance:
                self._send(es)
                self.sent[serial] = (es, sim_t)
        for serial in [s for s in self.sent if s not in live]:
            es, _ = self.sent.pop(serial)
            es.appearance = dict(es.appearance, destroyed=True)
            es.timestamp = dis_timestamp(self.net.utc(), absolute=True)
            self._send(es)

    def _entity(self, serial, weapon, pos, vel, burning, destroyed) -> EntityState:
        key = self.net.key
        return EntityState(key[0], key[1], ENTITY_BASE + int(serial) % 60000, MISSILES[weapon], weapon.upper()[:11],
                           np.asarray(pos, float), np.asarray(vel, float), attitude_of(vel),
                           appearance={"engine_on": bool(burning), "destroyed": destroyed},
                           force=self.net.config.force, algorithm=DRM_FPW,
                           timestamp=dis_timestamp(self.net.utc(), absolute=True))

    def _send(self, es: EntityState) -> None:
        self.net.bytes_sent += self.net.link.send(es) * max(len(self.net.link.peers), 1)
        self.pdus += 1
