"""The game's AI fighter pilot (pilots.ai.FighterAI) compiled: every Dogfight target's tick in one call.

flightsim/Dogfight-v0 flies each environment's target with the game's own AI. Called from Python
for each of them, the AI took four fifths of a Dogfight env step (16 envs: 3.3 ms a step, 4.8k
env-steps/s on a slow evening of this 2-core machine, 29 Nov 2026; issue 37). ``fly_targets`` does what ``FighterAI.__call__``
does, line for line and in the same order, for every target of a Dogfight task at once:

    fly_targets(states, diags, ctrls, n, params, memory, base, R, reads)

* rows ``n .. 2n-1`` of ``states``/``diags``/``ctrls`` are the AIs, rows ``0 .. n-1`` the aircraft
  each one fights (the Dogfight task's layout);
* ``params`` (P_COUNT,): the pilot's settings, ``params_of(ai)`` from a FighterAI (the one source of
  its gains and limits);
* ``memory`` (n, M_COUNT): each pilot's state between ticks (the pull integrator, last angle of
  attack, aim off the bullets' line, firing, pulling up); ``memory_of(ai)`` gives a fresh row;
* ``base`` (N_CONTROLS,): the controls it starts from (``FighterAI.base.to_array()``);
* ``R`` (3, 3) and ``reads`` (2, len(PILOT_COLUMNS)): scratch for what each pilot reads
  (physics.batch.read_pilot_row: AircraftView.pilot_reads's numbers, by name) and its rotation.

What it leaves out of FighterAI: breaking off when damaged (``disengage``; a Dogfight target
takes no hits) and the look ahead for hills (``ahead_clearance_m``; Dogfight flies over the sea).
Sums run left to right (physics.quat.dot3's order); numpy's ``@`` goes to BLAS, so the two can
differ in the last bit (tests/gym/test_dogfight_ai.py holds them to 1e-9 tick by tick).
"""
from __future__ import annotations

import math

import numpy as np

from ..physics.batch import PILOT_COLUMNS, read_pilot_row
from ..physics.jit import exact_kernel
from ..physics.named import CONTROL_INDEX
from .ai import _COS_10DEG, DROP_STORES_M, G0, FighterAI

# what the pilot reads (physics.batch.read_pilot_row's row), by name
(R_NORTH, R_EAST, R_DOWN, R_VN, R_VE, R_VD, R_P, R_Q, R_R, R_IAS, R_TAS, R_ALPHA, R_BETA, R_NZ, R_AGL, R_ON_GROUND,
 R_STALLED) = (PILOT_COLUMNS.index(k) for k in (
    "north_m", "east_m", "down_m", "velocity_north_ms", "velocity_east_ms", "velocity_down_ms", "p_rads", "q_rads",
    "r_rads", "ias_ms", "tas_ms", "alpha_rad", "beta_rad", "nz_g", "height_agl_m", "on_ground", "stalled_sections"))
# params: the pilot's settings (params_of)
(P_MAX_G, P_GUN_RANGE, P_FLOOR, P_BULLET, P_ALPHA_MAX, P_STALL_SPEED, P_TARGET_SIZE, P_DISPERSION, P_MAY_FIRE,
 P_K_TURN, P_MAX_TURN_RATE, P_K_BETA, P_K_YAW_RATE, P_K_AIM_YAW, P_BORESIGHT, P_MUZZLE, P_K_NZ, P_K_ROLL, P_K_P,
 P_K_NZ_I, P_K_Q, P_DT, P_G_COMMAND, P_G_HI, P_G_LO) = (*range(15), *range(17, 27))
P_COUNT = 27                  # (P_BORESIGHT takes three places)
# memory: each pilot's state between ticks
M_PITCH_I, M_ALPHA_PREV, M_HAS_ALPHA_PREV, M_AIM_OFF, M_FIRING, M_PULL_UP = range(6)
M_COUNT = 6
# the controls it sets (the rest stay the base's)
C_PITCH, C_ROLL, C_YAW, C_THROTTLE, C_WEP, C_FIRE, C_DROP_TANKS, C_DROP_BOMBS = (
    CONTROL_INDEX[k] for k in ("pitch", "roll", "yaw", "throttle", "wep", "fire", "drop_tanks", "drop_bombs"))
RAD_100 = math.radians(100.0)
RAD_4 = math.radians(4.0)
RAD_1 = math.radians(1.0)


def params_of(ai: FighterAI) -> np.ndarray:
    """The kernel's params from a FighterAI (what it refuses: a pilot breaking off)."""
    if ai.disengage:
        raise ValueError("ai_kernel flies a pursuing pilot, not one breaking off (disengage)")
    p = np.zeros(P_COUNT)
    p[P_MAX_G], p[P_GUN_RANGE], p[P_FLOOR], p[P_BULLET] = ai.max_g, ai.gun_range_m, ai.floor_m, ai.bullet_speed_ms
    p[P_ALPHA_MAX], p[P_STALL_SPEED], p[P_TARGET_SIZE] = ai.alpha_max, ai.stall_speed_ms, ai.target_size_m
    p[P_DISPERSION], p[P_MAY_FIRE] = ai.dispersion_rad, 1.0 if ai.may_fire else 0.0
    p[P_K_TURN], p[P_MAX_TURN_RATE], p[P_K_BETA] = ai.k_turn, ai.max_turn_rate, ai.k_beta
    p[P_K_YAW_RATE], p[P_K_AIM_YAW] = ai.k_yaw_rate, ai.k_aim_yaw
    p[P_BORESIGHT:P_BORESIGHT + 3] = ai.boresight
    p[P_MUZZLE], p[P_K_NZ], p[P_K_ROLL], p[P_K_P] = ai.muzzle_velocity_ms, ai.k_nz, ai.k_roll, ai.k_p
    p[P_K_NZ_I], p[P_K_Q], p[P_DT] = ai.k_nz_i, ai.k_q, ai.dt
    if ai.g_command is not None:
        p[P_G_COMMAND] = 1.0
        p[P_G_HI], p[P_G_LO] = ai.g_command
    return p


def memory_of(ai: FighterAI) -> np.ndarray:
    """A pilot's memory row as the FighterAI holds it."""
    m = np.zeros(M_COUNT)
    m[M_PITCH_I] = ai.pitch_i
    if ai._alpha_prev is not None:
        m[M_ALPHA_PREV], m[M_HAS_ALPHA_PREV] = ai._alpha_prev, 1.0
    m[M_AIM_OFF], m[M_FIRING] = ai.aim_off_rad, 1.0 if ai.firing else 0.0
    m[M_PULL_UP] = 1.0 if ai.mode == "pull up" else 0.0
    return m


@exact_kernel
def _clip(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


@exact_kernel
def _dot(a0, a1, a2, b0, b1, b2):
    return a0 * b0 + a1 * b1 + a2 * b2


@exact_kernel
def _pursuit_lift(params, R, vx, vy, vz, ux, uy, uz, lx, ly, lz, mx, my, mz, sx, sy, sz, tvx, tvy, tvz, g_avail):
    """FighterAI._pursuit_lift: (lift direction x, y, z, load factor). v the velocity, u its
    direction, l the line of sight to the aim point and m its direction, s the bullets' line."""
    if _dot(mx, my, mz, ux, uy, uz) > _COS_10DEG:
        mx, my, mz = mx + (ux - sx), my + (uy - sy), mz + (uz - sz)
        n = math.sqrt(_dot(mx, my, mz, mx, my, mz))
        mx, my, mz = mx / n, my / n, mz / n
    rx, ry, rz = tvx - vx, tvy - vy, tvz - vz
    d = max(_dot(lx, ly, lz, lx, ly, lz), 1.0)
    wx, wy, wz = (ly * rz - lz * ry) / d, (lz * rx - lx * rz) / d, (lx * ry - ly * rx) / d
    ex, ey, ez = uy * mz - uz * my, uz * mx - ux * mz, ux * my - uy * mx
    n_e = math.sqrt(_dot(ex, ey, ez, ex, ey, ez))
    ang = math.atan2(n_e, _dot(mx, my, mz, ux, uy, uz))
    if n_e > 1e-9:
        k = params[P_K_TURN]
        wx, wy, wz = wx + ex / n_e * k * ang, wy + ey / n_e * k * ang, wz + ez / n_e * k * ang
    c = _dot(wx, wy, wz, ux, uy, uz)
    wx, wy, wz = wx - ux * c, wy - uy * c, wz - uz * c
    w_mag = math.sqrt(_dot(wx, wy, wz, wx, wy, wz))
    if w_mag > params[P_MAX_TURN_RATE]:
        f = params[P_MAX_TURN_RATE] / w_mag
        wx, wy, wz = wx * f, wy * f, wz * f
    ax, ay, az = wy * vz - wz * vy, wz * vx - wx * vz, wx * vy - wy * vx
    a_max = math.sqrt(max(g_avail * g_avail - 1.0, 0.25)) * G0
    a_n = math.sqrt(_dot(ax, ay, az, ax, ay, az))
    if a_n > a_max:
        f = a_max / a_n
        ax, ay, az = ax * f, ay * f, az * f
    az = az - G0
    c = _dot(ax, ay, az, ux, uy, uz)
    ax, ay, az = ax - ux * c, ay - uy * c, az - uz * c
    n = math.sqrt(_dot(ax, ay, az, ax, ay, az))
    if n > 1e-6:
        return ax / n, ay / n, az / n, n / G0
    return -R[0, 2], -R[1, 2], -R[2, 2], n / G0


@exact_kernel
def _roll_and_pull(params, mem, R, me, lx, ly, lz, nz_cmd, floor_breach):
    """FighterAI._roll_and_pull: (roll, pitch), the memory's integrator and last alpha updated."""
    lb1 = R[0, 1] * lx + R[1, 1] * ly + R[2, 1] * lz
    lb2 = R[0, 2] * lx + R[1, 2] * ly + R[2, 2] * lz
    roll_err = math.atan2(lb1, -lb2)
    pull_share = max(math.cos(roll_err), 0.0)
    nz_target = 1.0 + (nz_cmd - 1.0) * pull_share if nz_cmd > 1.0 else nz_cmd * pull_share
    if not floor_breach and abs(roll_err) > RAD_100:
        nz_target = min(nz_target, 0.5)
    roll = _clip(params[P_K_ROLL] * roll_err - params[P_K_P] * me[R_P], -1.0, 1.0)
    alpha = me[R_ALPHA]
    rate = 0.0 if mem[M_HAS_ALPHA_PREV] == 0.0 else (alpha - mem[M_ALPHA_PREV]) / params[P_DT]
    mem[M_ALPHA_PREV] = alpha
    mem[M_HAS_ALPHA_PREV] = 1.0
    alpha_ahead = alpha + 0.25 * max(rate, 0.0)
    nz = me[R_NZ]
    if alpha_ahead > params[P_ALPHA_MAX]:
        nz_target = min(nz_target, nz - 0.5 * (alpha_ahead - params[P_ALPHA_MAX]) / RAD_1)
    if int(me[R_STALLED]) > 0 and not me[R_ON_GROUND] > 0.0:
        nz_target = min(nz_target, nz - 1.0)
    err = nz_target - nz
    if params[P_G_COMMAND] != 0.0:
        g_hi, g_lo = params[P_G_HI], params[P_G_LO]
        pitch = _clip((nz_target - 1.0) / (g_hi - 1.0) if nz_target >= 1.0 else (nz_target - 1.0) / (1.0 - g_lo),
                      -1.0, 1.0)
    else:
        mem[M_PITCH_I] = _clip(mem[M_PITCH_I] + params[P_K_NZ_I] * err * params[P_DT], -0.6, 0.8)
        pitch = _clip(mem[M_PITCH_I] + params[P_K_NZ] * err - params[P_K_Q] * me[R_Q], -1.0, 1.0)
    return roll, pitch


@exact_kernel
def _rudder(params, mem, R, me, mx, my, mz, sx, sy, sz):
    """FighterAI._rudder: the yaw; the aim off the bullets' line into the memory."""
    b0 = R[0, 0] * mx + R[1, 0] * my + R[2, 0] * mz
    b1 = R[0, 1] * mx + R[1, 1] * my + R[2, 1] * mz
    off = math.acos(_clip(_dot(mx, my, mz, sx, sy, sz), -1.0, 1.0))
    mem[M_AIM_OFF] = off
    yaw = params[P_K_BETA] * me[R_BETA] - params[P_K_YAW_RATE] * me[R_R]
    if mem[M_PULL_UP] == 0.0 and off < RAD_4:
        yaw += params[P_K_AIM_YAW] * math.atan2(b1, b0)
    return _clip(yaw, -1.0, 1.0)


@exact_kernel
def fly_one(me, R, tpx, tpy, tpz, tvx, tvy, tvz, params, mem, base, ctrl):
    """One pilot's tick (FighterAI.__call__) from what it reads (``me``: read_pilot_row's row, ``R`` its
    rotation) against an aircraft at (tpx, tpy, tpz) NED flying at (tvx, tvy, tvz): its controls
    into ``ctrl``."""
    px, py, pz = me[R_NORTH], me[R_EAST], me[R_DOWN]
    vx, vy, vz = me[R_VN], me[R_VE], me[R_VD]
    # aim_point
    rx, ry, rz = tpx - px, tpy - py, tpz - pz
    dist = math.sqrt(_dot(rx, ry, rz, rx, ry, rz))
    tof = dist / (params[P_BULLET] + max(me[R_TAS], 0.0) * 0.5)
    if dist < 2.0 * params[P_GUN_RANGE]:
        ax, ay, az = tpx + tvx * tof, tpy + tvy * tof, tpz + tvz * tof
        az -= 0.5 * G0 * tof * tof
    else:
        ax, ay, az = tpx - tvx * 0.5, tpy - tvy * 0.5, tpz - tvz * 0.5
    speed = max(math.sqrt(_dot(vx, vy, vz, vx, vy, vz)), 1.0)
    ux, uy, uz = vx / speed, vy / speed, vz / speed
    lx, ly, lz = ax - px, ay - py, az - pz
    n_l = max(math.sqrt(_dot(lx, ly, lz, lx, ly, lz)), 1e-6)
    mx, my, mz = lx / n_l, ly / n_l, lz / n_l
    bx, by, bz = params[P_BORESIGHT], params[P_BORESIGHT + 1], params[P_BORESIGHT + 2]
    mu = params[P_MUZZLE]
    sx = vx + mu * (R[0, 0] * bx + R[0, 1] * by + R[0, 2] * bz)
    sy = vy + mu * (R[1, 0] * bx + R[1, 1] * by + R[1, 2] * bz)
    sz = vz + mu * (R[2, 0] * bx + R[2, 1] * by + R[2, 2] * bz)
    n_s = math.sqrt(_dot(sx, sy, sz, sx, sy, sz))
    sx, sy, sz = sx / n_s, sy / n_s, sz / n_s
    g_avail = min(params[P_MAX_G], max(1.5, 0.75 * (me[R_IAS] / params[P_STALL_SPEED]) ** 2))
    sink = max(0.0, vz)
    agl, floor = me[R_AGL], params[P_FLOOR]
    floor_breach = agl < floor or agl - 5.0 * sink < floor
    if floor_breach:
        mem[M_PULL_UP] = 1.0
        fx, fy, fz = 0.0 - ux * (-uz), 0.0 - uy * (-uz), -1.0 - uz * (-uz)
        n = math.sqrt(_dot(fx, fy, fz, fx, fy, fz))
        if n > 1e-3:
            fx, fy, fz = fx / n, fy / n, fz / n
        else:
            fx, fy, fz = -R[0, 2], -R[1, 2], -R[2, 2]
        nz_cmd = params[P_MAX_G]
    else:
        mem[M_PULL_UP] = 0.0
        fx, fy, fz, nz_cmd = _pursuit_lift(params, R, vx, vy, vz, ux, uy, uz, lx, ly, lz, mx, my, mz, sx, sy, sz,
                                           tvx, tvy, tvz, g_avail)
    nz_cmd = min(nz_cmd, g_avail)
    roll, pitch = _roll_and_pull(params, mem, R, me, fx, fy, fz, nz_cmd, floor_breach)
    yaw = _rudder(params, mem, R, me, mx, my, mz, sx, sy, sz)
    # throttle: WEP far out, back to close without overshooting when closing fast
    closing = -_dot(tvx - vx, tvy - vy, tvz - vz, rx, ry, rz) / max(dist, 1.0)
    throttle, wep = 1.0, 0.0
    if dist > 1000.0:
        wep = 1.0
    elif dist < 400.0 and closing > 25.0:
        throttle = 0.3
    cone = math.atan2(0.5 * params[P_TARGET_SIZE], max(dist, 1.0)) + params[P_DISPERSION]
    firing = params[P_MAY_FIRE] != 0.0 and mem[M_PULL_UP] == 0.0 and dist < params[P_GUN_RANGE] and \
        mem[M_AIM_OFF] < cone
    mem[M_FIRING] = 1.0 if firing else 0.0
    clean = 1.0 if dist < DROP_STORES_M else 0.0
    for k in range(base.shape[0]):
        ctrl[k] = base[k]
    ctrl[C_PITCH] = pitch
    ctrl[C_ROLL] = roll
    ctrl[C_YAW] = yaw
    ctrl[C_THROTTLE] = throttle
    ctrl[C_WEP] = wep
    ctrl[C_FIRE] = 1.0 if firing else 0.0
    ctrl[C_DROP_TANKS] = clean
    ctrl[C_DROP_BOMBS] = clean


@exact_kernel
def fly_targets(states, diags, ctrls, n, params, memory, base, R, reads):
    """Every Dogfight target's tick: row n + i flies against row i (see the module's docstring);
    ``reads`` (2, len(PILOT_COLUMNS)) scratch."""
    for i in range(n):
        tgt, me = reads[0], reads[1]
        read_pilot_row(states[i], diags[i], R, tgt)
        read_pilot_row(states[n + i], diags[n + i], R, me)
        fly_one(me, R, tgt[R_NORTH], tgt[R_EAST], tgt[R_DOWN], tgt[R_VN], tgt[R_VE], tgt[R_VD], params, memory[i],
                base, ctrls[n + i])
