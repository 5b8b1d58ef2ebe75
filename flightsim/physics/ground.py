"""Terrain height and ground contact: gear legs as spring-dampers with friction, strikes.

The terrain is a heightfield array sampled on a regular grid (a 1x1 array is flat
ground at that height); the renderer's heightfield plugs in unchanged. Gear legs push
along the terrain normal with ``k * depth - c * closing speed`` (never pulling), roll
along the wheel's heading with rolling plus braking friction and resist sideways
sliding; steerable legs turn with the yaw command. Non-gear contact points (wingtips,
nose, tail) push back the same way but each first touch is reported as a strike.

Friction is Coulomb friction regularised below a creep speed. The creep speed is the
smallest that keeps the explicit 50 Hz integration stable (the friction's equivalent
damping times dt must stay well under the aircraft's mass, and under its roll and yaw
inertia over the legs' arms: creep_per_newton_of), so nothing chatters.
"""
import math

from .jit import hot_kernel, kernel
from .layout import (
    C_BRAKE_L, C_BRAKE_R, C_YAW, S_SURF, SURF_GEAR, CT_C, CT_K, CT_MU, CT_POS, E_DT, E_TERRAIN_DX,
    E_TERRAIN_E0, E_TERRAIN_N0, GR_BRAKE_MU, GR_BRAKE_SIDE, GR_C, GR_K, GR_POS,
    GR_DRAG_AREA, GR_RETRACTABLE, GR_ROLL_MU, GR_SIDE_MU, GR_STEER, H_GROUND_RADIUS, H_N_CONTACT,
    H_N_GEAR, H_ROW_CONTACT, H_ROW_GEAR, M_CG, M_INERTIA, M_MASS, ROW_MASS, S_OMEGA, S_POS, S_VEL,
)

MIN_CREEP_MS = 0.05
STEP_DAMPING = 0.6        # the legs' friction damping times their mobility times dt (creep_per_newton_of; 0.8 rocks a C172)


@kernel
def terrain_height(terrain, env, north, east):
    """(height_m above sea level, dh/dnorth, dh/deast) at a point; bilinear in the grid.

    Slots read: env E_TERRAIN_DX, E_TERRAIN_E0, E_TERRAIN_N0.
    Slots written: none.
    """
    nr = terrain.shape[0]
    nc = terrain.shape[1]
    if nr < 2 or nc < 2:
        return terrain[0, 0], 0.0, 0.0
    dx = env[E_TERRAIN_DX]
    x = (north - env[E_TERRAIN_N0]) / dx
    y = (east - env[E_TERRAIN_E0]) / dx
    if x < 0.0:
        x = 0.0
    elif x > nr - 1.000001:
        x = nr - 1.000001
    if y < 0.0:
        y = 0.0
    elif y > nc - 1.000001:
        y = nc - 1.000001
    i = int(x)
    j = int(y)
    fx = x - i
    fy = y - j
    h00 = terrain[i, j]
    h10 = terrain[i + 1, j]
    h01 = terrain[i, j + 1]
    h11 = terrain[i + 1, j + 1]
    h = (h00 * (1 - fx) + h10 * fx) * (1 - fy) + (h01 * (1 - fx) + h11 * fx) * fy
    dhdn = ((h10 - h00) * (1 - fy) + (h11 - h01) * fy) / dx
    dhde = ((h01 - h00) * (1 - fx) + (h11 - h10) * fx) / dx
    return h, dhdn, dhde


@hot_kernel
def _contact(state, R, model, px, py, pz, terrain, env):
    """Penetration depth, up normal (NED), and point velocity (NED) of a body point.

    Slots read: state S_OMEGA, S_POS, S_VEL.
    Slots written: none.
    """
    rx = px - model[ROW_MASS, M_CG]
    ry = py - model[ROW_MASS, M_CG + 1]
    rz = pz - model[ROW_MASS, M_CG + 2]
    pn = state[S_POS] + R[0, 0] * rx + R[0, 1] * ry + R[0, 2] * rz
    pe = state[S_POS + 1] + R[1, 0] * rx + R[1, 1] * ry + R[1, 2] * rz
    pd = state[S_POS + 2] + R[2, 0] * rx + R[2, 1] * ry + R[2, 2] * rz
    h, hn, he = terrain_height(terrain, env, pn, pe)
    inv = 1.0 / math.sqrt(1.0 + hn * hn + he * he)
    nn = -hn * inv
    ne = -he * inv
    nd = -inv
    depth = (pd + h) * inv
    p = state[S_OMEGA]
    q = state[S_OMEGA + 1]
    r = state[S_OMEGA + 2]
    vbx = state[S_VEL] + q * rz - r * ry
    vby = state[S_VEL + 1] + r * rx - p * rz
    vbz = state[S_VEL + 2] + p * ry - q * rx
    vn = R[0, 0] * vbx + R[0, 1] * vby + R[0, 2] * vbz
    ve = R[1, 0] * vbx + R[1, 1] * vby + R[1, 2] * vbz
    vd = R[2, 0] * vbx + R[2, 1] * vby + R[2, 2] * vbz
    return depth, nn, ne, nd, vn, ve, vd, rx, ry, rz


@kernel
def _apply(R, fn, fe, fd, rx, ry, rz, fm):
    """Add a world (NED) force acting at body offset r to the body force and moment (fm)."""
    add_force_at(R[0, 0] * fn + R[1, 0] * fe + R[2, 0] * fd,
                 R[0, 1] * fn + R[1, 1] * fe + R[2, 1] * fd,
                 R[0, 2] * fn + R[1, 2] * fe + R[2, 2] * fd, rx, ry, rz, fm)


@kernel
def add_force_at(fx, fy, fz, rx, ry, rz, fm):
    """Add a body-axis force acting at body offset r from the CG to fm (force, moment)."""
    fm[0] += fx
    fm[1] += fy
    fm[2] += fz
    fm[3] += ry * fz - rz * fy
    fm[4] += rz * fx - rx * fz
    fm[5] += rx * fy - ry * fx


@kernel
def _friction(mu_n, v, creep):
    """Coulomb friction force (signed, opposing v), linear below the creep speed."""
    if v > creep:
        return -mu_n
    if v < -creep:
        return mu_n
    return -mu_n * v / creep


@kernel
def creep_per_newton_of(model, dt, row0, n_gear):
    """The creep speed per newton of friction (s/kg): below the creep speed a wheel's friction is a
    damper of 1 / creep_per_newton N s/m. The legs' friction damps the aircraft's motion together,
    each through its mobility (how fast its contact point moves under a unit force: 1 / m for the
    aircraft's sliding, plus its height below the CG squared over the roll inertia, plus its
    distance ahead of or behind it squared over the yaw inertia: a high wing on tall legs rolls on
    them). Their sum times dt / STEP_DAMPING keeps the explicit step well damped (measured: a
    Cessna 172 parked with its pilot in the left seat rocked on its gear at half the step rate when
    only the mass counted, and crept round to the right)."""
    m = model[ROW_MASS, M_MASS]
    ixx = model[ROW_MASS, M_INERTIA]
    izz = model[ROW_MASS, M_INERTIA + 8]
    cx = model[ROW_MASS, M_CG]
    cz = model[ROW_MASS, M_CG + 2]
    k = 1.0 / m
    if n_gear > 0:
        k = 0.0
        for i in range(n_gear):
            dz = model[row0 + i, GR_POS + 2] - cz
            dx = model[row0 + i, GR_POS] - cx
            k += 1.0 / m + (dz * dz / ixx if ixx > 0.0 else 0.0) + (dx * dx / izz if izz > 0.0 else 0.0)
    return dt * k / STEP_DAMPING


@kernel
def may_touch(model, terrain, env, state):
    """False when the aircraft is too high above the terrain for any point to touch it.

    Slots read: state S_POS.
    Slots written: none.
    """
    h_cg = terrain_height(terrain, env, state[S_POS], state[S_POS + 1])[0]
    return -state[S_POS + 2] - h_cg <= 2.0 * model[0, H_GROUND_RADIUS] + 1.0


@kernel
def ground_forces(model, state, R, ctrl, env, terrain, fm, prev_mask):
    """Gear and contact-point forces (call only where may_touch: the guard sits with the
    caller because calling this function costs more than the test). Returns (legs on ground, total gear load N,
    touching-contact mask, newly touching contact index or -1, its speed m/s).

    Slots read: state S_SURF; env E_DT.
    Slots written: none.

    Long: every leg and contact point (strut, tyre, brakes, steering) in one pass. One numba kernel,
    kept whole: a split changes which code numba inlines and so the last bits of the kept regression
    flights (physics/jit.py).
    """
    dt = env[E_DT]
    n_gear = int(model[0, H_N_GEAR])
    row0 = int(model[0, H_ROW_GEAR])
    creep_per_newton = creep_per_newton_of(model, dt, row0, n_gear)
    on_ground = 0
    load = 0.0
    gear_up = state[S_SURF + SURF_GEAR] > 0.5      # the gear where it is, not the lever
    for i in range(n_gear):
        row = row0 + i
        if gear_up and model[row, GR_RETRACTABLE] > 0.5:
            continue                                    # in its well: the fuselage lands
        depth, nn, ne, nd, vn, ve, vd, rx, ry, rz = _contact(
            state, R, model, model[row, GR_POS], model[row, GR_POS + 1], model[row, GR_POS + 2], terrain, env)
        if depth <= 0.0:
            continue
        closing = vn * nn + ve * ne + vd * nd       # + = moving out of the ground
        normal = model[row, GR_K] * depth - model[row, GR_C] * closing
        if normal <= 0.0:
            continue
        on_ground += 1
        load += normal
        # wheel heading: body x turned by the steering angle, laid on the ground plane
        steer = model[row, GR_STEER] * ctrl[C_YAW]
        cs = math.cos(steer)
        sn = math.sin(steer)
        hn = R[0, 0] * cs + R[0, 1] * sn
        he = R[1, 0] * cs + R[1, 1] * sn
        hd = R[2, 0] * cs + R[2, 1] * sn
        dot = hn * nn + he * ne + hd * nd
        hn -= dot * nn
        he -= dot * ne
        hd -= dot * nd
        hl = math.sqrt(hn * hn + he * he + hd * hd)
        if hl < 1e-6:      # wheel pointing into the ground: no rolling direction
            hn, he, hd = 0.0, 0.0, 0.0
        else:
            hn /= hl
            he /= hl
            hd /= hl
        # side direction = normal x heading
        sn_ = ne * hd - nd * he
        se_ = nd * hn - nn * hd
        sd_ = nn * he - ne * hn
        tn = vn - closing * nn
        te = ve - closing * ne
        td = vd - closing * nd
        v_roll = tn * hn + te * he + td * hd
        v_side = tn * sn_ + te * se_ + td * sd_
        side = model[row, GR_BRAKE_SIDE]
        brake = ctrl[C_BRAKE_L] if side < -0.5 else (ctrl[C_BRAKE_R] if side > 0.5 else
                                                      0.5 * (ctrl[C_BRAKE_L] + ctrl[C_BRAKE_R]))
        mu_roll = model[row, GR_ROLL_MU] + brake * model[row, GR_BRAKE_MU]
        mu_side = model[row, GR_SIDE_MU]
        f_roll = _friction(mu_roll * normal, v_roll, max(MIN_CREEP_MS, creep_per_newton * mu_roll * normal))
        f_side = _friction(mu_side * normal, v_side, max(MIN_CREEP_MS, creep_per_newton * mu_side * normal))
        fn = normal * nn + f_roll * hn + f_side * sn_
        fe = normal * ne + f_roll * he + f_side * se_
        fd = normal * nd + f_roll * hd + f_side * sd_
        _apply(R, fn, fe, fd, rx, ry, rz, fm)

    n_ct = int(model[0, H_N_CONTACT])
    row0 = int(model[0, H_ROW_CONTACT])
    mask = 0
    strike = -1
    strike_speed = 0.0
    for i in range(n_ct):
        row = row0 + i
        depth, nn, ne, nd, vn, ve, vd, rx, ry, rz = _contact(
            state, R, model, model[row, CT_POS], model[row, CT_POS + 1], model[row, CT_POS + 2], terrain, env)
        if depth <= 0.0:
            continue
        bit = 1 << i
        mask |= bit
        if (prev_mask & bit) == 0:
            speed = math.sqrt(vn * vn + ve * ve + vd * vd)
            if speed >= strike_speed:
                strike = i
                strike_speed = speed
        closing = vn * nn + ve * ne + vd * nd
        normal = model[row, CT_K] * depth - model[row, CT_C] * closing
        if normal <= 0.0:
            continue
        tn = vn - closing * nn
        te = ve - closing * ne
        td = vd - closing * nd
        vt = math.sqrt(tn * tn + te * te + td * td)
        mu_n = model[row, CT_MU] * normal
        fn = normal * nn
        fe = normal * ne
        fd = normal * nd
        if vt > 1e-9:
            f = -_friction(mu_n, vt, max(MIN_CREEP_MS, creep_per_newton * mu_n)) / vt
            fn -= f * tn
            fe -= f * te
            fd -= f * td
        _apply(R, fn, fe, fd, rx, ry, rz, fm)
    return on_ground, load, mask, strike, strike_speed


@kernel
def gear_drag(model, state, R, wind_n, wind_e, wind_d, rho, ctrl, fm):
    """Drag of the extended landing gear (CD*S per leg) at each leg, from its own airflow.

    Slots read: state S_OMEGA, S_SURF, S_VEL.
    Slots written: none.
    """
    n_gear = int(model[0, H_N_GEAR])
    row0 = int(model[0, H_ROW_GEAR])
    gear_out = 1.0 - state[S_SURF + SURF_GEAR]     # drag in proportion as it comes out of its well
    wbx = R[0, 0] * wind_n + R[1, 0] * wind_e + R[2, 0] * wind_d
    wby = R[0, 1] * wind_n + R[1, 1] * wind_e + R[2, 1] * wind_d
    wbz = R[0, 2] * wind_n + R[1, 2] * wind_e + R[2, 2] * wind_d
    for i in range(n_gear):
        row = row0 + i
        cda = model[row, GR_DRAG_AREA]
        if model[row, GR_RETRACTABLE] > 0.5:
            cda *= gear_out
        if cda <= 0.0:
            continue
        rx = model[row, GR_POS] - model[ROW_MASS, M_CG]
        ry = model[row, GR_POS + 1] - model[ROW_MASS, M_CG + 1]
        rz = model[row, GR_POS + 2] - model[ROW_MASS, M_CG + 2]
        ux = state[S_VEL] + state[S_OMEGA + 1] * rz - state[S_OMEGA + 2] * ry - wbx
        uy = state[S_VEL + 1] + state[S_OMEGA + 2] * rx - state[S_OMEGA] * rz - wby
        uz = state[S_VEL + 2] + state[S_OMEGA] * ry - state[S_OMEGA + 1] * rx - wbz
        k = -0.5 * rho * cda * math.sqrt(ux * ux + uy * uy + uz * uz)
        add_force_at(k * ux, k * uy, k * uz, rx, ry, rz, fm)
