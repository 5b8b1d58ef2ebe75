"""6-DOF rigid body: forces and moments -> derivatives, and seed 000's trapezoid-rule step.

State: NED position, body-axis velocity, q_ned_from_body (w, x, y, z), body rates.
Translational: ``v_dot = F/m + g_body - omega x v``; rotational: Euler's equations with
the full inertia tensor, ``omega_dot = I^-1 (M - omega x I omega)``.

Integrator (seed 000): "a 2nd order Trapezoid rule integrator ... uses the last and
current derivative ... limiting the number of derivatives needed to one per timestep".
That is the explicit two-step form ``x+ = x + dt (3/2 f_n - 1/2 f_n-1)``: one derivative
evaluation per 20 ms step, second-order accurate; the very first step (no history yet)
is an Euler step. The quaternion is renormalised after every step. A step that would
produce a non-finite state anywhere (the rigid body, the surfaces, the flight-control
law, the engines...) or one past physical bounds (MAX_SPEED_MS, MAX_RATE_RADS) leaves the
state as it was and reports why in ``diag[D_NONFINITE]`` (layout.REFUSED_*).

Controls: each is clamped to its range (CTRL_LOW..CTRL_HIGH, physics.named.CONTROLS) as
the step reads it, into scratch memory (the caller's array is left as it was); a control
that is not a number refuses the step (REFUSED_CONTROL).
"""
import math

import numpy as np

from .jit import entry, kernel
from .aero import WS_WING_STALLED, section_airflow, section_forces, solve_induced, wind_at
from .atmosphere import dynamic_viscosity, isa
from .ground import add_force_at, gear_drag, ground_forces, may_touch, terrain_height
from .layout import (
    C_AIRBRAKE, D_ALPHA, D_ALPHA_INDUCED, D_BETA, D_CL_WING, D_DOWNWASH, D_FORCE,
    D_GEAR_LOAD, D_HEIGHT_AGL, D_IAS, D_MACH, D_MOMENT, D_NONFINITE, D_NX, D_NY, D_NZ,
    D_ON_GROUND, D_QBAR, D_RHO, D_STALLED_SECTIONS, D_STALLED_WING, D_STRIKE_INDEX, D_STRIKE_SPEED,
    D_TAS, D_STIFFNESS, D_SUBSTEPS, E_DT, E_GRAVITY, GROUP_WING, H_N_SECTIONS, H_ROW_SECTION, M_CG, M_INERTIA,
    M_INV_INERTIA, M_MASS, N_DOF, N_STATE, ROW_MASS, S_CONTACT_MASK, S_HAS_PREV, S_OMEGA,
    S_POS, S_PREV, S_PREV_DT, S_QUAT, S_STRIKE_INDEX, S_STRIKE_SPEED, S_TICK, S_VEL, D_CONTACT_MASK,
)
from .layout import (
    C_FLAP, C_GEAR_UP, C_PITCH, C_PITCH_TRIM, C_ROLL, C_ROLL_TRIM, C_YAW, C_YAW_TRIM, CTL_AIRBRAKE_RATE, CTL_COLS, CTL_FLAP_RATE,
    CTL_GEAR_RATE, CTL_INV_HINGE_EXP, CTL_Q_FULL, CTL_RATE, CTL_TAU, E_WIND_N, ROW_CONTROLS, S_SURF, SURF_AIRBRAKE, SURF_FLAP,
    SURF_GEAR, E_EXT_FORCE, E_EXT_POINT, CTL_GEARED_EASE, CTL_SPRING_Q, CTL_STAB_RATE, CTL_TAB_LOSS, SURF_STAB,
    S_SLAT, SEC_GROUP, SEC_SLAT_CLOSE, SEC_SLAT_K, SEC_SLAT_OPEN, SEC_SLAT_RATE,
)
from .layout import D_MASS, E_HUMIDITY, H_ROW_PLANT, N_DIAG
from .layout import MAX_RATE_RADS, MAX_SPEED_MS, N_CTRL, REFUSED_BOUNDS, REFUSED_CONTROL, REFUSED_NONFINITE
from .guns import gun_forces, guns_advance
from .layout import H_N_GUNS, H_ROW_DRY
from .layout import (
    D_OIL_PRESSURE, H_ROW_DMG, H_STORES_LOADED, S_LINK_CUT, S_PILOT_WOUND,
)
from .damage import damage_advance
from .stores import store_forces, stores_advance
from .fcs import demanded_g, fcs_targets, ground_pitch
from .layout import (C_FCS_DIRECT, D_G_DEMAND, D_G_LIMIT, H_ROW_FCS, S_FCS_G, S_FCS_G_INT, S_FCS_PITCH, S_FCS_ROLL, S_FCS_YAW,
                     SURF_PITCH, SURF_ROLL)
from .plant import _toward, plant_advance, plant_forces
from .plant_mass import resum_mass
from .scratch import WS_EXTRA, _work, scratch_rows, scratch_size
from .quat import dcm_from_state

MAX_RATE_H = 0.5
MAX_SUBSTEPS = 16
RHO0 = 1.225

# each control's range, as physics.named.CONTROLS has them: -1..1 the stick, pedals, flap and
# trims, 0..1 everything else (levers, brakes, switches)
CTRL_LOW = np.zeros(N_CTRL)
for _k in (C_PITCH, C_ROLL, C_YAW, C_FLAP, C_PITCH_TRIM, C_ROLL_TRIM, C_YAW_TRIM):
    CTRL_LOW[_k] = -1.0
CTRL_HIGH = np.ones(N_CTRL)


@kernel
def derivative(state, ctrl, env, terrain, model, tables, diag, deriv, ws, R, fm):
    """Write d(state[:13])/dt into deriv and the step's diagnostics into diag.

    Slots read: state S_CONTACT_MASK, S_OMEGA, S_POS, S_QUAT, S_SURF, S_VEL; env E_EXT_FORCE,
      E_EXT_POINT, E_GRAVITY, E_HUMIDITY.
    Slots written: diag D_ALPHA, D_ALPHA_INDUCED, D_BETA, D_CL_WING, D_CONTACT_MASK, D_DOWNWASH,
      D_FORCE, D_GEAR_LOAD, D_HEIGHT_AGL, D_IAS, D_MACH, D_MASS, D_MOMENT, D_NX, D_NY, D_NZ,
      D_ON_GROUND, D_QBAR, D_RHO, D_STALLED_SECTIONS, D_STALLED_WING, D_STIFFNESS, D_STRIKE_INDEX,
      D_STRIKE_SPEED, D_TAS.

    Long: the one place the forces' order (aerodynamics, powerplant, ground, gravity) into the
    equations of motion is written. One numba kernel, kept whole: a split changes which code numba
    inlines and so the last bits of the kept regression flights (physics/jit.py).
    """
    G = int(model[0, H_N_SECTIONS])          # ws rows: sections, then the group rows
    for k in range(6):
        fm[k] = 0.0
    if model[0, H_ROW_DRY] > 0.0:
        resum_mass(model, state)            # fuel burns, rounds fired: mass, CG and inertia summed again
    dcm_from_state(state, S_QUAT, R)
    mass = model[ROW_MASS, M_MASS]
    vx = state[S_VEL]
    vy = state[S_VEL + 1]
    vz = state[S_VEL + 2]
    p = state[S_OMEGA]
    q = state[S_OMEGA + 1]
    r = state[S_OMEGA + 2]

    temp, press, rho, sound = isa(-state[S_POS + 2])

    # air data at the CG (the wind there, and the velocity through the air, body axes)
    wn0, we0, wd0 = wind_at(env, state[S_POS], state[S_POS + 1], state[S_POS + 2])
    ax = vx - (R[0, 0] * wn0 + R[1, 0] * we0 + R[2, 0] * wd0)
    ay = vy - (R[0, 1] * wn0 + R[1, 1] * we0 + R[2, 1] * wd0)
    az = vz - (R[0, 2] * wn0 + R[1, 2] * we0 + R[2, 2] * wd0)

    # --- powerplant first: its slipstream reaches the sections behind the disc
    if model[0, H_ROW_PLANT] > 0.0:
        plant_forces(model, tables, state, ctrl, press, temp, rho, sound, ax, ay, az, fm, diag, ws, G + WS_EXTRA,
                     env[E_HUMIDITY])
    diag[D_MASS] = mass

    # --- aerodynamics: every section from its own relative wind
    airbrake = state[S_SURF + SURF_AIRBRAKE]
    section_airflow(model, tables, state, R, env, ctrl, rho, airbrake, ws, sound)
    downwash = solve_induced(model, tables, ws, airbrake)
    diag[D_STIFFNESS] = max(ws[G + 3, 0], ws[G + 3, 1], ws[G + 3, 2], ws[G + 3, 3])
    mu = dynamic_viscosity(temp)
    tas = math.sqrt(ax * ax + ay * ay + az * az)
    stalled = section_forces(model, tables, ws, rho, mu, tas, airbrake, downwash, fm, sound)
    gear_drag(model, state, R, wn0, we0, wd0, rho, ctrl, fm)
    if model[0, H_STORES_LOADED] > 0.0:
        store_forces(model, state, rho, ax, ay, az, fm, diag)      # bombs and drop tanks still on
    # an external force (winch or tow cable), NED, at a body point
    fen = env[E_EXT_FORCE]
    fee = env[E_EXT_FORCE + 1]
    fed = env[E_EXT_FORCE + 2]
    if fen != 0.0 or fee != 0.0 or fed != 0.0:
        add_force_at(R[0, 0] * fen + R[1, 0] * fee + R[2, 0] * fed,
                     R[0, 1] * fen + R[1, 1] * fee + R[2, 1] * fed,
                     R[0, 2] * fen + R[1, 2] * fee + R[2, 2] * fed,
                     env[E_EXT_POINT] - model[ROW_MASS, M_CG], env[E_EXT_POINT + 1] - model[ROW_MASS, M_CG + 1],
                     env[E_EXT_POINT + 2] - model[ROW_MASS, M_CG + 2], fm)
    # guns: recoil while the trigger is held (physics/guns.py)
    if model[0, H_N_GUNS] > 0.0:
        gun_forces(model, state, ctrl, env, fm, diag)

    # --- ground
    if may_touch(model, terrain, env, state):
        on_ground, load, mask, strike, strike_speed = ground_forces(
            model, state, R, ctrl, env, terrain, fm, int(state[S_CONTACT_MASK]))
    else:
        on_ground, load, mask, strike, strike_speed = 0, 0.0, 0, -1, 0.0

    # --- translational: v_dot = F/m + g_body - omega x v (body axes)
    g = env[E_GRAVITY]
    deriv[S_VEL] = fm[0] / mass + g * R[2, 0] - (q * vz - r * vy)
    deriv[S_VEL + 1] = fm[1] / mass + g * R[2, 1] - (r * vx - p * vz)
    deriv[S_VEL + 2] = fm[2] / mass + g * R[2, 2] - (p * vy - q * vx)
    for k in range(3):
        deriv[S_POS + k] = R[k, 0] * vx + R[k, 1] * vy + R[k, 2] * vz
    # --- attitude: q_dot = 1/2 q (x) (0, omega)
    qw = state[S_QUAT]
    qx = state[S_QUAT + 1]
    qy = state[S_QUAT + 2]
    qz = state[S_QUAT + 3]
    deriv[S_QUAT] = -0.5 * (qx * p + qy * q + qz * r)
    deriv[S_QUAT + 1] = 0.5 * (qw * p + qy * r - qz * q)
    deriv[S_QUAT + 2] = 0.5 * (qw * q + qz * p - qx * r)
    deriv[S_QUAT + 3] = 0.5 * (qw * r + qx * q - qy * p)
    # --- rotational: Euler's equations with the full inertia tensor
    I0 = M_INERTIA
    hx = model[ROW_MASS, I0] * p + model[ROW_MASS, I0 + 1] * q + model[ROW_MASS, I0 + 2] * r
    hy = model[ROW_MASS, I0 + 3] * p + model[ROW_MASS, I0 + 4] * q + model[ROW_MASS, I0 + 5] * r
    hz = model[ROW_MASS, I0 + 6] * p + model[ROW_MASS, I0 + 7] * q + model[ROW_MASS, I0 + 8] * r
    tx = fm[3] - (q * hz - r * hy)
    ty = fm[4] - (r * hx - p * hz)
    tz = fm[5] - (p * hy - q * hx)
    J = M_INV_INERTIA
    deriv[S_OMEGA] = model[ROW_MASS, J] * tx + model[ROW_MASS, J + 1] * ty + model[ROW_MASS, J + 2] * tz
    deriv[S_OMEGA + 1] = model[ROW_MASS, J + 3] * tx + model[ROW_MASS, J + 4] * ty + model[ROW_MASS, J + 5] * tz
    deriv[S_OMEGA + 2] = model[ROW_MASS, J + 6] * tx + model[ROW_MASS, J + 7] * ty + model[ROW_MASS, J + 8] * tz

    # --- diagnostics (air data at the CG)
    diag[D_TAS] = tas
    diag[D_ALPHA] = math.atan2(az, ax)
    diag[D_BETA] = math.asin(ay / tas) if tas > 1e-6 else 0.0
    diag[D_QBAR] = 0.5 * rho * tas * tas
    diag[D_MACH] = tas / sound
    diag[D_RHO] = rho
    diag[D_IAS] = tas * math.sqrt(rho / RHO0)
    weight = mass * (g if g > 0.0 else 9.80665)
    diag[D_NX] = fm[0] / weight
    diag[D_NY] = fm[1] / weight
    diag[D_NZ] = -fm[2] / weight
    for k in range(3):
        diag[D_FORCE + k] = fm[k]
        diag[D_MOMENT + k] = fm[3 + k]
    diag[D_CL_WING] = ws[G + 5, GROUP_WING]
    diag[D_ALPHA_INDUCED] = ws[G + 4, GROUP_WING]
    diag[D_DOWNWASH] = downwash
    diag[D_ON_GROUND] = on_ground
    diag[D_GEAR_LOAD] = load
    diag[D_STALLED_SECTIONS] = stalled
    diag[D_STALLED_WING] = ws[G + 7, WS_WING_STALLED]
    diag[D_CONTACT_MASK] = mask
    diag[D_STRIKE_INDEX] = strike
    diag[D_STRIKE_SPEED] = strike_speed
    h = terrain_height(terrain, env, state[S_POS], state[S_POS + 1])[0]
    diag[D_HEIGHT_AGL] = -state[S_POS + 2] - h


@kernel
def surfaces(state, ctrl, env, model, dt, R, diag):
    """Move the control surfaces and actuators one step toward what the pilot asks.

    Seed 000's control feel: the stick is a force request (ctrl -1..1 = fraction of the
    pilot's maximum force on that axis). The surface's backforce grows with dynamic
    pressure and deflection from its neutral point (where the trim tab puts it), so the
    deflection the force holds is ctrl * (q_full / q)^(1/m) above the axis's full-deflection
    speed (m = 1, a hinge moment linear in the deflection: 1/V^2, a quarter at twice that
    speed; m = 2, one growing as its square: 1/V) and the whole travel below it (the stick force
    is scaled at low speed so a small input does not peg the surface). The surface moves
    as a damped first-order system toward that point, quicker at high speed (stiffer
    backforce), with a travel-rate limit when it is pushed out; the backforce returns it
    to neutral at up to twice that rate. Tabs ([controls.<axis>] in the aircraft data) change
    the q in that rule to the hinge moment the pilot still holds: a geared tab takes a fixed
    share off (q (1 - e)), a spring tab a share growing with speed (q / (1 + q / q_s)), and
    their lift costs a share of the surface's effect. An aircraft with stabilizer trim moves
    its whole horizontal tail with the pitch trim (SURF_STAB, at the trim's travel rate) and
    its elevator has no trim tab. Battle damage (physics/damage.py): a wounded pilot's force is
    less (down to 0.4 of it; a killed one's none), and a damaged control run passes only its
    share of the request (severed: the surface trails at neutral). Flaps, airbrakes and gear
    run at their actuator rates. An aircraft with a flight-control law (physics/fcs.py) moves its
    surfaces where the law asks instead (hydraulic actuators: no stick force, a time constant and
    a rate limit), or, with the law switched off (C_FCS_DIRECT), where the stick puts them.
    Called once per 20 ms tick, before the aerodynamics read the surfaces.

    Slots read: state S_LINK_CUT, S_PILOT_WOUND, S_POS, S_SURF, S_VEL; env E_WIND_N.
    Slots written: state S_SURF.

    Long: every actuator (controls, tabs, flaps, slats, gear, airbrakes) one step toward its
    command. One numba kernel, kept whole: a split changes which code numba inlines and so the last
    bits of the kept regression flights (physics/jit.py).
    """
    # dynamic pressure through the steady wind (the same air the aerodynamics see, near enough)
    wn = env[E_WIND_N]
    we = env[E_WIND_N + 1]
    wd = env[E_WIND_N + 2]
    dcm_from_state(state, S_QUAT, R)
    ax = state[S_VEL] - (R[0, 0] * wn + R[1, 0] * we + R[2, 0] * wd)
    ay = state[S_VEL + 1] - (R[0, 1] * wn + R[1, 1] * we + R[2, 1] * wd)
    az = state[S_VEL + 2] - (R[0, 2] * wn + R[1, 2] * we + R[2, 2] * wd)
    rho = isa(-state[S_POS + 2])[2]
    qbar = 0.5 * rho * (ax * ax + ay * ay + az * az)
    stab_rate = model[ROW_CONTROLS, CTL_STAB_RATE]
    if stab_rate > 0.0:
        # the pitch trim moves the whole stabilizer (aero.section_airflow turns its incidence)
        state[S_SURF + SURF_STAB] = _toward(state[S_SURF + SURF_STAB], ctrl[C_PITCH_TRIM], stab_rate * dt)
    # battle damage (physics/damage.py): a wounded pilot pulls less, a killed one not at all
    authority = 1.0
    cut_any = model[0, H_ROW_DMG] > 0.0
    if cut_any:
        authority = 1.0 - state[S_PILOT_WOUND] if state[S_PILOT_WOUND] < 1.0 else 0.0
        authority = 0.4 + 0.6 * authority if authority > 0.0 else 0.0
    if model[0, H_ROW_FCS] > 0.0:
        fly_by_wire(state, ctrl, env, model, dt, R, diag, ax, ay, az, qbar)
    for a in range(3 if model[0, H_ROW_FCS] <= 0.0 else 0):
        c = a * CTL_COLS
        q_full = model[ROW_CONTROLS, c + CTL_Q_FULL]
        neutral = ctrl[C_PITCH_TRIM] if a == 0 else ctrl[C_ROLL_TRIM] if a == 1 else ctrl[C_YAW_TRIM]
        if a == 0 and stab_rate > 0.0:
            neutral = 0.0                       # no elevator trim tab: the stabilizer trims
        if q_full <= 0.0:                       # no control system data: the surface follows the stick
            state[S_SURF + a] = ctrl[C_PITCH + a] + neutral
            continue
        # the hinge moment the pilot holds, as the dynamic pressure of a plain surface: a geared
        # tab takes a fixed share off, a spring tab (deflected by the pilot's force) carries a
        # share that grows with speed, half of it at its q: the force per degree levels off
        h = qbar * (1.0 - model[ROW_CONTROLS, CTL_GEARED_EASE + a])
        q_spring = model[ROW_CONTROLS, CTL_SPRING_Q + a]
        if q_spring > 0.0:
            h = h / (1.0 + qbar / q_spring)
        scale = 1.0
        if h > q_full:
            inv_m = model[ROW_CONTROLS, c + CTL_INV_HINGE_EXP]
            scale = q_full / h if inv_m == 1.0 else math.exp(inv_m * math.log(q_full / h))
        # the tabs' own lift works against the surface's, in proportion to the share they carry
        loss = model[ROW_CONTROLS, CTL_TAB_LOSS + a]
        if loss > 0.0 and qbar > 0.0:
            scale *= 1.0 - loss * (1.0 - h / qbar)
        target = neutral + ctrl[C_PITCH + a] * scale * authority
        if cut_any and state[S_LINK_CUT + a] > 0.0:
            target *= 1.0 - state[S_LINK_CUT + a]    # a damaged control run passes less; severed, it trails
        if target > 1.0:
            target = 1.0
        elif target < -1.0:
            target = -1.0
        x = state[S_SURF + a]
        tau = model[ROW_CONTROLS, c + CTL_TAU] * scale
        x_new = target + (x - target) * math.exp(-dt / tau)
        rate = model[ROW_CONTROLS, c + CTL_RATE] * dt
        if abs(x_new - neutral) < abs(x - neutral):
            rate *= 2.0                         # going home: the backforce helps
        x = _toward(x, x_new, rate)
        state[S_SURF + a] = min(max(x, -1.0), 1.0)
    state[S_SURF + SURF_FLAP] = _toward(state[S_SURF + SURF_FLAP], ctrl[C_FLAP],
                                        model[ROW_CONTROLS, CTL_FLAP_RATE] * dt)
    state[S_SURF + SURF_AIRBRAKE] = _toward(state[S_SURF + SURF_AIRBRAKE], ctrl[C_AIRBRAKE],
                                            model[ROW_CONTROLS, CTL_AIRBRAKE_RATE] * dt)
    state[S_SURF + SURF_GEAR] = _toward(state[S_SURF + SURF_GEAR], ctrl[C_GEAR_UP],
                                        model[ROW_CONTROLS, CTL_GEAR_RATE] * dt)


@kernel
def fly_by_wire(state, ctrl, env, model, dt, R, diag, ax, ay, az, qbar):
    """The pitch, roll and yaw surfaces of an aircraft with a flight-control law: toward the law's
    targets (or, switched off or on the ground, the stick's plus trim) as hydraulic actuators, first
    order with a rate limit. Switched off, the law's integrators follow the surfaces, so switching it
    back on (or lifting off) takes over from where they are.

    Slots read: state S_OMEGA, S_SURF; diag D_ON_GROUND; env E_GRAVITY.
    Slots written: state S_FCS_G, S_FCS_G_INT, S_FCS_PITCH, S_FCS_ROLL, S_FCS_YAW, S_SURF; diag
      D_G_DEMAND, D_G_LIMIT.
    """
    g = env[E_GRAVITY] if env[E_GRAVITY] > 0.0 else 9.80665
    # on its wheels (weight on wheels: the last step's gear load) the law is in its ground mode,
    # the stick moving the surfaces as in direct mode (no integrator winds up against the runway)
    # but the rotation held to a few degrees a second (fcs.ground_pitch)
    if ctrl[C_FCS_DIRECT] < 0.5 and diag[D_ON_GROUND] < 0.5:
        tp, tr, ty, n_cmd, n_hi = fcs_targets(state, ctrl, model, R, ax, ay, az, qbar, g, dt)
    else:
        tp = ctrl[C_PITCH] + ctrl[C_PITCH_TRIM]
        if ctrl[C_FCS_DIRECT] < 0.5:
            tp = ground_pitch(state, ctrl, model, qbar)
        tr = ctrl[C_ROLL] + ctrl[C_ROLL_TRIM]
        ty = ctrl[C_YAW] + ctrl[C_YAW_TRIM]
        n_cmd, n_hi = demanded_g(model, ctrl, state[S_OMEGA])
        state[S_FCS_PITCH] = state[S_SURF + SURF_PITCH] - ctrl[C_PITCH_TRIM]
        state[S_FCS_ROLL] = state[S_SURF + SURF_ROLL] - ctrl[C_ROLL_TRIM]
        state[S_FCS_YAW] = 0.0
        state[S_FCS_G] = n_cmd - 1.0
        state[S_FCS_G_INT] = 0.0
    diag[D_G_DEMAND] = n_cmd
    diag[D_G_LIMIT] = n_hi
    for a in range(3):
        target = tp if a == 0 else (tr if a == 1 else ty)
        if target > 1.0:
            target = 1.0
        elif target < -1.0:
            target = -1.0
        c = a * CTL_COLS
        x = state[S_SURF + a]
        x_new = target + (x - target) * math.exp(-dt / model[ROW_CONTROLS, c + CTL_TAU])
        state[S_SURF + a] = _toward(x, x_new, model[ROW_CONTROLS, c + CTL_RATE] * dt)


@kernel
def slats(model, state, ws, dt):
    """Each automatic slat toward open while its own section's angle of attack (less its
    wing's induced angle, from this step's aerodynamics) is past the opening angle, toward
    closed once below the closing angle, held between (seed 000: they open one wing at a
    time in a slipping stall)."""
    G = int(model[0, H_N_SECTIONS])
    row0 = int(model[0, H_ROW_SECTION])
    for i in range(G):
        row = row0 + i
        k = model[row, SEC_SLAT_K]
        if k < 0.0:
            continue
        a = ws[i, 4] - ws[G + 4, int(model[row, SEC_GROUP])]
        j = S_SLAT + int(k)
        rate = model[row, SEC_SLAT_RATE] * dt
        if a > model[row, SEC_SLAT_OPEN]:
            state[j] = min(state[j] + rate, 1.0)
        elif a < model[row, SEC_SLAT_CLOSE]:
            state[j] = max(state[j] - rate, 0.0)


@kernel
def _refuse(state, backup, diag, why):
    """The step refused: the state as it was before it, and why (layout.REFUSED_*).

    Slots read: none.
    Slots written: diag D_NONFINITE.
    """
    for k in range(N_STATE):
        state[k] = backup[k]
    diag[D_NONFINITE] = why
    return 1


@kernel
def _state_refusal(state):
    """0 when every slot is finite and the speed and body rates are within physical
    bounds, else why not (layout.REFUSED_NONFINITE, REFUSED_BOUNDS).

    Slots read: state S_OMEGA, S_VEL.
    Slots written: none.
    """
    # a sum is finite only when every term is (finite terms large enough to overflow it are
    # no state either); eight partial sums, so the additions do not wait on each other
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    a4 = 0.0
    a5 = 0.0
    a6 = 0.0
    a7 = 0.0
    k = 0
    while k + 8 <= N_STATE:
        a0 += state[k]
        a1 += state[k + 1]
        a2 += state[k + 2]
        a3 += state[k + 3]
        a4 += state[k + 4]
        a5 += state[k + 5]
        a6 += state[k + 6]
        a7 += state[k + 7]
        k += 8
    while k < N_STATE:
        a0 += state[k]
        k += 1
    if not math.isfinite((a0 + a1) + (a2 + a3) + (a4 + a5) + (a6 + a7)):
        return REFUSED_NONFINITE
    u = state[S_VEL]
    v = state[S_VEL + 1]
    w = state[S_VEL + 2]
    if u * u + v * v + w * w > MAX_SPEED_MS * MAX_SPEED_MS:
        return REFUSED_BOUNDS
    for k in range(3):
        if abs(state[S_OMEGA + k]) > MAX_RATE_RADS:
            return REFUSED_BOUNDS
    return 0.0


@kernel
def step_ws(state, ctrl_in, env, terrain, model, tables, diag, ws, R, fm, deriv, new, backup):
    """One 20 ms step with caller-provided scratch memory (see step and make_scratch).

    Slots read: state S_HAS_PREV, S_PREV, S_PREV_DT, S_STRIKE_SPEED; diag D_CONTACT_MASK,
      D_OIL_PRESSURE, D_STIFFNESS, D_STRIKE_INDEX, D_STRIKE_SPEED; env E_DT.
    Slots written: state S_CONTACT_MASK, S_HAS_PREV, S_PREV, S_PREV_DT, S_QUAT, S_STRIKE_INDEX,
      S_STRIKE_SPEED, S_TICK; diag D_NONFINITE, D_SUBSTEPS.

    Long: one 20 ms step: the integrator's stages and the step's diagnostics. One numba kernel, kept
    whole: a split changes which code numba inlines and so the last bits of the kept regression
    flights (physics/jit.py).
    """
    dt = env[E_DT]
    # the controls as the step reads them: clamped to their ranges, into the scratch after
    # the backup state; one that is not a number refuses the step (nothing has moved yet)
    ctrl = backup[N_STATE:N_STATE + N_CTRL]
    n_nan = 0
    for k in range(N_CTRL):
        c = ctrl_in[k]
        n_nan += c != c
        ctrl[k] = min(max(c, CTRL_LOW[k]), CTRL_HIGH[k])
    if n_nan:
        diag[D_NONFINITE] = REFUSED_CONTROL
        return 1
    for k in range(N_STATE):
        backup[k] = state[k]
    surfaces(state, ctrl, env, model, dt, R, diag)    # controls are read once per tick, here
    n_sub = 1
    h = dt
    j = 0
    while j < n_sub:
        derivative(state, ctrl, env, terrain, model, tables, diag, deriv, ws, R, fm)
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
            rr = 0.5 * h / state[S_PREV_DT]
            for k in range(N_DOF):
                new[k] = state[k] + h * ((1.0 + rr) * deriv[k] - rr * state[S_PREV + k])
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
            return _refuse(state, backup, diag, REFUSED_NONFINITE)
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
    slats(model, state, ws, dt)
    if model[0, H_ROW_PLANT] > 0.0:
        # engine, propeller, governor, fuel, coolers, supercharger gear: once per tick
        plant_advance(model, state, ctrl, ws, int(model[0, H_N_SECTIONS]) + WS_EXTRA, dt)
    if model[0, H_N_GUNS] > 0.0:
        guns_advance(model, state, ctrl, dt)    # the rounds fired leave the belts
    if model[0, H_STORES_LOADED] > 0.0:
        stores_advance(model, state, ctrl)      # released stores leave the mass sum from the next derivative
    if model[0, H_ROW_DMG] > 0.0:
        damage_advance(model, state, diag, diag[D_OIL_PRESSURE], dt)   # leaks, heat wear, fire
    why = _state_refusal(state)      # the whole state: surfaces, flight-control law, engines, damage
    if why != 0.0:
        return _refuse(state, backup, diag, why)
    diag[D_NONFINITE] = 0.0
    diag[D_SUBSTEPS] = n_sub
    state[S_TICK] += 1.0
    return 0


@entry
def step(state, ctrl, env, terrain, model, tables, diag):
    """Advance state by one fixed step dt = env[E_DT]. Returns 0, or 1 if the step was
    refused (state then holds the last good one, diag[D_NONFINITE] says why: layout.REFUSED_*):
    a non-finite state, one past physical bounds, or a control that is not a number. Controls
    outside their ranges are clamped as they are read."""
    ws, R, fm, deriv, new, backup = _work(diag, model)
    return step_ws(state, ctrl, env, terrain, model, tables, diag, ws, R, fm, deriv, new, backup)


@kernel
def step_in_diag(state, ctrl, env, terrain, model, tables, diag):
    """``step`` for a caller whose diag holds the scratch memory too (diag_size long: Sim and
    the physics thread make it so), compiled without reference counting: called from Python
    each tick, numba then wraps no array it is given in a counted object (a malloc and two
    atomic counts per array: 0.17 of 0.27 us of the call's seven arrays, measured). Returns
    step's code, or -1 with nothing done when ctrl is not N_CTRL long or diag is too short (the
    caller then checks the one and calls step for the other). The scratch views are carved here,
    as scratch.carve_scratch carves them (which returns them, as a kernel without reference
    counting must not)."""
    nrow = scratch_rows(model)
    o = N_DIAG
    if ctrl.shape[0] != N_CTRL or diag.shape[0] < o + scratch_size(model):
        return -1
    ws = diag[o:o + nrow * 8].reshape((nrow, 8))
    o += nrow * 8
    R = diag[o:o + 9].reshape((3, 3))
    o += 9
    fm = diag[o:o + 6]
    o += 6
    deriv = diag[o:o + N_DOF]
    o += N_DOF
    new = diag[o:o + N_DOF]
    o += N_DOF
    backup = diag[o:o + N_STATE + N_CTRL]
    return step_ws(state, ctrl, env, terrain, model, tables, diag, ws, R, fm, deriv, new, backup)


@entry
def step_n(state, ctrls, env, terrain, model, tables, diag, out_states):
    """Advance len(ctrls) steps in one call, ctrls[i] being step i's controls; out_states[i]
    receives the state after step i. Returns the number of steps completed (it stops at a
    refused step, see step)."""
    # the scratch memory carved once, and step_ws's compiled code called for each step
    ws, R, fm, deriv, new, backup = _work(diag, model)
    n = ctrls.shape[0]
    for i in range(n):
        if step_ws(state, ctrls[i], env, terrain, model, tables, diag, ws, R, fm, deriv, new, backup) != 0:
            return i
        for k in range(N_STATE):
            out_states[i, k] = state[k]
    return n
