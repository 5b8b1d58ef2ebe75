"""Synthetic snapshots for instrument tests: any motion, no physics."""
from __future__ import annotations

import math

import numpy as np

from flightsim.physics.quat import quat_from_euler
from flightsim.runtime.handoff import Snapshot, dcm, read_only

G0 = 9.80665


def snap(t=0.0, pos=(0.0, 0.0, -1000.0), vel_ned=(50.0, 0.0, 0.0), roll=0.0, pitch=0.0, yaw=0.0, tas=None,
         ias=None, nz=1.0, ny=0.0, beta=0.0, alpha=0.05, on_ground=0, agl=None, stalled=0, strike_index=-1,
         strike_speed=0.0, epoch=0, mach=None, **kw) -> Snapshot:
    q = np.asarray(quat_from_euler(roll, pitch, yaw), dtype=np.float64)
    v = np.asarray(vel_ned, dtype=np.float64)
    sp = float(np.linalg.norm(v)) if tas is None else tas
    return Snapshot(tick=int(round(t / 0.02)), time_s=t, wall_s=t, epoch=epoch, position_ned_m=read_only(pos),
                    quat_wxyz=read_only(q), velocity_ned_ms=read_only(v), velocity_body_ms=read_only(dcm(q).T @ v),
                    omega_body_rads=read_only(np.zeros(3)), alpha_rad=alpha, beta_rad=beta, tas_ms=sp,
                    ias_ms=sp if ias is None else ias, altitude_m=-pos[2],
                    height_agl_m=-pos[2] if agl is None else agl, nz_g=nz, ny_g=ny, on_ground=on_ground,
                    stalled_sections=stalled, strike_index=strike_index, strike_speed_ms=strike_speed,
                    mach=sp / 340.3 if mach is None else mach, **kw)


def level_turn(bank_deg=60.0, speed_ms=50.0, seconds=4.0, dt=0.02):
    """Snapshots of a steady level turn at a constant bank (coordinated: no sideslip)."""
    phi = math.radians(bank_deg)
    omega = G0 * math.tan(phi) / speed_ms
    out = []
    n = int(round(seconds / dt))
    pos = np.array([0.0, 0.0, -1000.0])
    for k in range(n + 1):
        t = k * dt
        psi = omega * t
        r = speed_ms / omega if omega > 0 else 0.0
        if omega > 0:
            pos = np.array([r * math.sin(psi), r * (1 - math.cos(psi)), -1000.0])
        else:
            pos = np.array([speed_ms * t, 0.0, -1000.0])
        v = (speed_ms * math.cos(psi), speed_ms * math.sin(psi), 0.0)
        out.append(snap(t, tuple(pos), v, roll=phi, yaw=psi, nz=1.0 / math.cos(phi)))
    return out
