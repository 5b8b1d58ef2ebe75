"""6-DOF rigid body: forces and moments -> derivatives, and seed 000's trapezoid-rule step.

State: NED position, body-axis velocity, q_ned_from_body (w, x, y, z), body rates.
Translational: ``v_dot = F/m + g_body - omega x v``; rotational: Euler's equations with
the full inertia tensor, ``omega_dot = I^-1 (M - omega x I omega)``.

Integrator (seed 000): "a 2nd order Trapezoid rule integrator ... uses the last and
current derivative ... limiting the number of derivatives needed to one per timestep".
That is the explicit two-step form ``x+ = x + dt (3/2 f_n - 1/2 f_n-1)``: one derivative
evaluation per 20 ms step, second-order accurate; the very first step (no history yet)
is an Euler step. The quaternion is renormalised after every step. A step that would
produce a non-finite state leaves the state as it was and reports it in ``diag``.
"""
import math

import numpy as np
from numba import njit

from .aero import section_airflow, section_forces, solve_induced, wind_at
from .atmosphere import dynamic_viscosity, isa
from .ground import gear_drag, ground_forces, may_touch, terrain_height
from .layout import (
    C_AIRBRAKE, D_ALPHA, D_ALPHA_INDUCED, D_BETA, D_CL_WING, D_DOWNWASH, D_FORCE,
    D_GEAR_LOAD, D_HEIGHT_AGL, D_IAS, D_MACH, D_MOMENT, D_NONFINITE, D_NX, D_NY, D_NZ,
    D_ON_GROUND, D_QBAR, D_RHO, D_STALLED_SECTIONS, D_STRIKE_INDEX, D_STRIKE_SPEED,
    D_TAS, D_STIFFNESS, D_SUBSTEPS, E_DT, E_GRAVITY, GROUP_WING, H_N_SECTIONS, H_ROW_SECTION, M_CG, M_INERTIA,
    M_INV_INERTIA, M_MASS, N_DOF, N_STATE, N_GROUPS, ROW_MASS, S_CONTACT_MASK, S_HAS_PREV, S_OMEGA,
    S_POS, S_PREV, S_PREV_DT, S_QUAT, S_STRIKE_INDEX, S_STRIKE_SPEED, S_TICK, S_VEL, D_CONTACT_MASK,
)
from .quat import dcm_from_quat

WS_EXTRA = 12
MAX_RATE_H = 0.5
MAX_SUBSTEPS = 16

JIT = dict(cache=True, nogil=True, error_model="numpy")
INLINE = dict(JIT, inline="always")
RHO0 = 1.225


@njit(**JIT)
def make_workspace(model):
    """Scratch memory for one derivative evaluation (allocated once per kernel call)."""
    return np.empty((int(model[0, H_N_SECTIONS]) + WS_EXTRA, 8))


@njit(**INLINE)
def derivative(state, ctrl, env, terrain, model, tables, diag, deriv, ws):
    """Write d(state[:13])/dt into deriv and the step's diagnostics into diag."""
    pos = state[S_POS:S_POS + 3]
    vel = state[S_VEL:S_VEL + 3]
    q = state[S_QUAT:S_QUAT + 4]
    om = state[S_OMEGA:S_OMEGA + 3]
    nsec = int(model[0, H_N_SECTIONS])
    row0 = int(model[0, H_ROW_SECTION])
    work = ws[:nsec, :]
    groups = ws[nsec:nsec + 4, :]
    shift = ws[nsec + 4, :]
    cl_group = ws[nsec + 5, :]
    fm = ws[nsec + 6, :]
    force = fm[0:3]
    moment = fm[3:6]
    R = ws[nsec + 7:nsec + 10, 0:3]
    cos_sh = ws[nsec + 10, :]
    sin_sh = ws[nsec + 11, :]
    for k in range(6):
        fm[k] = 0.0
    dcm_from_quat(q, R)
    mass = model[ROW_MASS, M_MASS]
    cg = model[ROW_MASS, M_CG:M_CG + 3]

    altitude = -pos[2]
    temp, press, rho, sound = isa(altitude)

    # --- aerodynamics: every section from its own relative wind
    airbrake = ctrl[C_AIRBRAKE]
    section_airflow(model, tables, nsec, row0, vel, om, cg, R, pos, env, ctrl, rho, airbrake, work, groups)
    downwash = solve_induced(model, groups, shift, cl_group)
    diag[D_STIFFNESS] = max(groups[3, 0], groups[3, 1], groups[3, 2], groups[3, 3])
    mu = dynamic_viscosity(temp)
    # air data at the CG
    wn0, we0, wd0 = wind_at(env, pos[0], pos[1], pos[2])
    ax = vel[0] - (R[0, 0] * wn0 + R[1, 0] * we0 + R[2, 0] * wd0)
    ay = vel[1] - (R[0, 1] * wn0 + R[1, 1] * we0 + R[2, 1] * wd0)
    az = vel[2] - (R[0, 2] * wn0 + R[1, 2] * we0 + R[2, 2] * wd0)
    tas = math.sqrt(ax * ax + ay * ay + az * az)
    stalled = section_forces(model, tables, nsec, row0, work, rho, mu, tas, airbrake, shift, downwash, cg, force, moment,
                             cos_sh, sin_sh)

    gear_drag(model, vel, om, cg, R, wn0, we0, wd0, rho, ctrl, force, moment)

    # --- ground
    if may_touch(model, terrain, env, pos):
        on_ground, load, mask, strike, strike_speed = ground_forces(
            model, pos, R, vel, om, cg, mass, ctrl, env, terrain, force, moment, int(state[S_CONTACT_MASK]))
    else:
        on_ground, load, mask, strike, strike_speed = 0, 0.0, 0, -1, 0.0

    # --- translational: v_dot = F/m + g_body - omega x v (body axes)
    g = env[E_GRAVITY]
    deriv[S_VEL] = force[0] / mass + g * R[2, 0] - (om[1] * vel[2] - om[2] * vel[1])
    deriv[S_VEL + 1] = force[1] / mass + g * R[2, 1] - (om[2] * vel[0] - om[0] * vel[2])
    deriv[S_VEL + 2] = force[2] / mass + g * R[2, 2] - (om[0] * vel[1] - om[1] * vel[0])
    for k in range(3):
        deriv[S_POS + k] = R[k, 0] * vel[0] + R[k, 1] * vel[1] + R[k, 2] * vel[2]
    # --- attitude: q_dot = 1/2 q (x) (0, omega)
    deriv[S_QUAT] = -0.5 * (q[1] * om[0] + q[2] * om[1] + q[3] * om[2])
    deriv[S_QUAT + 1] = 0.5 * (q[0] * om[0] + q[2] * om[2] - q[3] * om[1])
    deriv[S_QUAT + 2] = 0.5 * (q[0] * om[1] + q[3] * om[0] - q[1] * om[2])
    deriv[S_QUAT + 3] = 0.5 * (q[0] * om[2] + q[1] * om[1] - q[2] * om[0])
    # --- rotational: Euler's equations with the full inertia tensor
    I = model[ROW_MASS, M_INERTIA:M_INERTIA + 9]
    Ii = model[ROW_MASS, M_INV_INERTIA:M_INV_INERTIA + 9]
    hx = I[0] * om[0] + I[1] * om[1] + I[2] * om[2]
    hy = I[3] * om[0] + I[4] * om[1] + I[5] * om[2]
    hz = I[6] * om[0] + I[7] * om[1] + I[8] * om[2]
    tx = moment[0] - (om[1] * hz - om[2] * hy)
    ty = moment[1] - (om[2] * hx - om[0] * hz)
    tz = moment[2] - (om[0] * hy - om[1] * hx)
    deriv[S_OMEGA] = Ii[0] * tx + Ii[1] * ty + Ii[2] * tz
    deriv[S_OMEGA + 1] = Ii[3] * tx + Ii[4] * ty + Ii[5] * tz
    deriv[S_OMEGA + 2] = Ii[6] * tx + Ii[7] * ty + Ii[8] * tz

    # --- diagnostics (air data at the CG)
    diag[D_TAS] = tas
    diag[D_ALPHA] = math.atan2(az, ax)
    diag[D_BETA] = math.asin(ay / tas) if tas > 1e-6 else 0.0
    diag[D_QBAR] = 0.5 * rho * tas * tas
    diag[D_MACH] = tas / sound
    diag[D_RHO] = rho
    diag[D_IAS] = tas * math.sqrt(rho / RHO0)
    weight = mass * (g if g > 0.0 else 9.80665)
    diag[D_NX] = force[0] / weight
    diag[D_NY] = force[1] / weight
    diag[D_NZ] = -force[2] / weight
    for k in range(3):
        diag[D_FORCE + k] = force[k]
        diag[D_MOMENT + k] = moment[k]
    diag[D_CL_WING] = cl_group[GROUP_WING]
    diag[D_ALPHA_INDUCED] = shift[GROUP_WING]
    diag[D_DOWNWASH] = downwash
    diag[D_ON_GROUND] = on_ground
    diag[D_GEAR_LOAD] = load
    diag[D_STALLED_SECTIONS] = stalled
    diag[D_CONTACT_MASK] = mask
    diag[D_STRIKE_INDEX] = strike
    diag[D_STRIKE_SPEED] = strike_speed
    h, hn, he = terrain_height(terrain, env, pos[0], pos[1])
    diag[D_HEIGHT_AGL] = -pos[2] - h


@njit(**INLINE)
def step_ws(state, ctrl, env, terrain, model, tables, diag, ws, buf):
    """One 20 ms step with caller-provided scratch memory (see step); buf is (3, N_STATE)."""
    dt = env[E_DT]
    deriv = buf[0]
    new = buf[1]
    backup = buf[2]
    for k in range(N_STATE):
        backup[k] = state[k]
    n_sub = 1
    h = dt
    j = 0
    while j < n_sub:
        derivative(state, ctrl, env, terrain, model, tables, diag, deriv, ws)
        if j == 0:
            # Far beyond the normal envelope (a dive well past Vne) the aerodynamic damping
            # gets faster than the two-step rule can follow at 20 ms (stable for rate*h < 1):
            # the step is then split so that rate*h <= 0.5. In the envelope it is one step.
            rate_h = diag[D_STIFFNESS] * dt
            if rate_h > MAX_RATE_H:
                n_sub = min(int(math.ceil(rate_h / MAX_RATE_H)), MAX_SUBSTEPS)
                h = dt / n_sub
        j += 1
        if state[S_HAS_PREV] > 0.5 and state[S_PREV_DT] > 0.0:
            # variable-step two-step rule; with equal steps: x + h (3/2 f_n - 1/2 f_n-1)
            r = 0.5 * h / state[S_PREV_DT]
            for k in range(N_DOF):
                new[k] = state[k] + h * ((1.0 + r) * deriv[k] - r * state[S_PREV + k])
        else:
            for k in range(N_DOF):
                new[k] = state[k] + h * deriv[k]
        qn = math.sqrt(new[6] * new[6] + new[7] * new[7] + new[8] * new[8] + new[9] * new[9])
        ok = qn > 1e-12 and math.isfinite(qn)
        if ok:
            for k in range(N_DOF):
                if not math.isfinite(new[k]) or not math.isfinite(deriv[k]):
                    ok = False
                    break
        if not ok:
            for k in range(N_STATE):
                state[k] = backup[k]
            diag[D_NONFINITE] = 1.0
            return 1
        for k in range(N_DOF):
            state[k] = new[k]
            state[S_PREV + k] = deriv[k]
        for k in range(4):
            state[S_QUAT + k] /= qn
        state[S_HAS_PREV] = 1.0
        state[S_PREV_DT] = h
        state[S_CONTACT_MASK] = diag[D_CONTACT_MASK]
        if diag[D_STRIKE_INDEX] >= 0 and diag[D_STRIKE_SPEED] >= state[S_STRIKE_SPEED]:
            state[S_STRIKE_SPEED] = diag[D_STRIKE_SPEED]
            state[S_STRIKE_INDEX] = diag[D_STRIKE_INDEX]
    diag[D_NONFINITE] = 0.0
    diag[D_SUBSTEPS] = n_sub
    state[S_TICK] += 1.0
    return 0


@njit(**JIT)
def step(state, ctrl, env, terrain, model, tables, diag):
    """Advance state by one fixed step dt = env[E_DT]. Returns 0, or 1 if the step was
    refused because it produced a non-finite state (state then holds the last good one)."""
    ws = make_workspace(model)
    buf = np.empty((3, N_STATE))
    return step_ws(state, ctrl, env, terrain, model, tables, diag, ws, buf)


@njit(**JIT)
def step_n(state, ctrls, env, terrain, model, tables, diag, out_states):
    """Advance len(ctrls) steps in one call, ctrls[i] being step i's controls; out_states[i]
    receives the state after step i. Returns the number of steps completed (it stops at a
    refused non-finite step)."""
    ws = make_workspace(model)
    buf = np.empty((3, N_STATE))
    n = ctrls.shape[0]
    for i in range(n):
        if step_ws(state, ctrls[i], env, terrain, model, tables, diag, ws, buf) != 0:
            return i
        out_states[i, :] = state
    return n
