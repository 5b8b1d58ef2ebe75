"""The powerplant in equilibrium: the engine speed and propeller pitch at which the
crankshaft torques balance, with the induced velocities converged (plant_trim, for the trims
of physics/trim.py), and the closed-throttle air flow that idles the engine (idle_balance,
for the aircraft compiler). Split from plant.py."""
from __future__ import annotations

import math

import numpy as np

from .jit import entry
from .aero import wind_at
from .atmosphere import isa
from .engine import engine_state
from .layout import C_CARB_HEAT, C_MIXTURE_LEAN, S_CARB_ICE
from .layout import (
    C_CUTOFF, C_FEATHER, C_THROTTLE, C_WEP, CL_OIL, CL_RAD, EN_GEAR, EN_HEAT_COOLANT, EN_HEAT_OIL,
    EN_OMEGA_FIRE, EN_OMEGA_IDLE, EN_OMEGA_MAX, H_N_PROP_ST, H_N_TANKS, H_ROW_PLANT, PLANT_COOL, PLANT_ENGINE,
    PLANT_PROP, PLANT_STATIONS, PR_FEATHER, PR_PITCH_MAX, PR_PITCH_MIN, S_COOLANT_T, S_ENG_OMEGA, S_INFLOW,
    S_OIL_T, S_POS, S_PROP_PITCH, S_QUAT, S_RAD_FLAP, S_SC_GEAR, S_SWIRL, S_VEL, WS_PLANT, N_CTRL, N_STATE,
)
from .layout import H_ROW_DRY
from .damage import engine_factor
from .propeller import blade_loads, momentum_targets
from .fuel import fuel_on_board
from .jet import jet_settle
from .layout import H_N_JETS
from .quat import dcm_from_state
from .plant import _cooler, governor_setting, select_gear
from .plant_mass import resum_mass


# a Broyden step at most this many times the gap (beyond it: the plain half step), and how
# many times a station's gap may grow (or its step go astray) before it keeps the half step
MAX_STEP_RATIO = 4.0
MAX_RISES = 3.0


@entry
def _converge(model, tables, state, ctrl, omega, pitch, ux, uy, uz, rho, sound, press, temp, qbar, ws, P,
              firing, gear_sc):
    """Engine torque minus propeller torque at the crankshaft (N m) at (omega, pitch), with
    the induced velocities iterated to their momentum-theory values (left in state).

    Slots read: state S_CARB_ICE, S_INFLOW, S_SWIRL.
    Slots written: state S_INFLOW, S_SWIRL.
    """
    base = int(model[0, H_ROW_PLANT])
    e = base + PLANT_ENGINE
    pr = base + PLANT_PROP
    st0 = base + PLANT_STATIONS
    n_st = int(model[0, H_N_PROP_ST])
    gear = model[e, EN_GEAR]
    omega_p = omega * gear
    if omega < model[e, EN_OMEGA_FIRE]:
        firing = 0.0
    q_aero = 0.0
    thrust = 0.0
    # per station, its inflow and swirl (x) against their gaps to momentum theory's targets
    # (d): Broyden's estimate H of the inverse of d's 2x2 Jacobian, updated from each step
    # (its "bad" form: H += (dx - H dd) dd' / dd'dd), from H = -I / 2: the plain damped
    # iteration's half step. Where a station's blades stall the targets have kinks and more
    # than one solution; a station whose gap grows MAX_RISES times goes on with the half step
    # alone, which settles there, as it always did
    last = np.zeros((2, n_st))
    gap = np.zeros((2, n_st))
    H = np.zeros((4, n_st))
    rises = np.zeros(n_st)
    for it in range(400):
        thrust, fy, fz, my, mz, q_aero = blade_loads(
            model, tables, pr, st0, n_st, state, omega_p, pitch, ux, uy, uz, 0.0, 0.0, 0.0, rho, sound, ws, P)
        momentum_targets(model, pr, st0, n_st, state, omega_p, ux, rho, ws, P, P + 2)
        dmax = 0.0
        for k in range(n_st):
            x0 = state[S_INFLOW + k]
            x1 = state[S_SWIRL + k]
            d0 = ws[P + 2, k] - x0
            d1 = ws[P + 3, k] - x1
            dmax = max(dmax, abs(d0), abs(d1))
            if it > 0 and abs(d0) + abs(d1) >= abs(gap[0, k]) + abs(gap[1, k]):
                rises[k] += 1.0
            if it == 0 or rises[k] >= MAX_RISES:
                H[0, k] = -0.5
                H[1, k] = 0.0
                H[2, k] = 0.0
                H[3, k] = -0.5
            else:
                e0 = x0 - last[0, k]
                e1 = x1 - last[1, k]
                g0 = d0 - gap[0, k]
                g1 = d1 - gap[1, k]
                gg = g0 * g0 + g1 * g1
                if gg > 0.0:
                    r0 = (e0 - (H[0, k] * g0 + H[1, k] * g1)) / gg
                    r1 = (e1 - (H[2, k] * g0 + H[3, k] * g1)) / gg
                    H[0, k] += r0 * g0
                    H[1, k] += r0 * g1
                    H[2, k] += r1 * g0
                    H[3, k] += r1 * g1
            s0 = -(H[0, k] * d0 + H[1, k] * d1)
            s1 = -(H[2, k] * d0 + H[3, k] * d1)
            if not (abs(s0) + abs(s1) <= MAX_STEP_RATIO * (abs(d0) + abs(d1))):
                # an estimate gone astray: the half step this time
                rises[k] += 1.0
                s0 = 0.5 * d0
                s1 = 0.5 * d1
            last[0, k] = x0
            last[1, k] = x1
            gap[0, k] = d0
            gap[1, k] = d1
            state[S_INFLOW + k] = x0 + s0
            state[S_SWIRL + k] = x1 + s1
        if dmax < 1e-10:
            break
    torque = engine_state(model, e, omega, ctrl[C_THROTTLE], ctrl[C_WEP], gear_sc, firing, press, temp, qbar,
                          engine_factor(model, state)[0], ctrl[C_MIXTURE_LEAN], ctrl[C_CARB_HEAT],
                          state[S_CARB_ICE])[0]
    return torque - gear * q_aero


@entry
def _solve(model, tables, state, ctrl, which, fixed, lo, hi, f_lo, f_hi, ux, uy, uz, rho, sound, press, temp,
           qbar, ws, P, firing, gear_sc):
    """Root of the torque balance in omega (which = 0, pitch fixed) or pitch (which = 1, omega
    fixed) between lo and hi (f_lo, f_hi of opposite signs): regula falsi, Illinois variant."""
    side = 0
    x = lo
    for it in range(100):
        x = (lo * f_hi - hi * f_lo) / (f_hi - f_lo)
        if which == 0:
            f = _converge(model, tables, state, ctrl, x, fixed, ux, uy, uz, rho, sound, press, temp, qbar, ws, P,
                          firing, gear_sc)
        else:
            f = _converge(model, tables, state, ctrl, fixed, x, ux, uy, uz, rho, sound, press, temp, qbar, ws, P,
                          firing, gear_sc)
        if abs(f) < 1e-7 or abs(hi - lo) < 1e-12:
            break
        if (f > 0.0) == (f_hi > 0.0):
            hi = x
            f_hi = f
            if side == 1:
                f_lo *= 0.5
            side = 1
        else:
            lo = x
            f_lo = f
            if side == -1:
                f_hi *= 0.5
            side = -1
    return x


@entry
def plant_trim(model, tables, state, ctrl, env, ws):
    """Put the powerplant states of ``state`` in equilibrium for its flight condition
    (steady: body rates ignored) and the controls ``ctrl``. Returns 0 if the engine and
    propeller balance, 1 if the rotor stops (the engine cannot turn the propeller).

    Slots read: state S_CARB_ICE, S_INFLOW, S_POS, S_VEL.
    Slots written: state S_COOLANT_T, S_ENG_OMEGA, S_OIL_T, S_PROP_PITCH, S_RAD_FLAP, S_SC_GEAR.

    Long: the balance for each propeller case (feathered, under speed, over speed, governing), its
    solvers already apart (_converge, _solve). One numba kernel, kept whole: a split changes which
    code numba inlines and so the last bits of the kept regression flights (physics/jit.py).
    """
    base = int(model[0, H_ROW_PLANT])
    if base <= 0:
        return 0
    if model[0, H_N_JETS] > 0.0:
        if int(model[0, H_ROW_DRY]) > 0:
            resum_mass(model, state)
        jet_settle(model, state, ctrl)          # spools where the throttle leaves them
        return 0
    e = base + PLANT_ENGINE
    pr = base + PLANT_PROP
    cool = base + PLANT_COOL
    P = ws.shape[0] - WS_PLANT
    n_st = int(model[0, H_N_PROP_ST])
    if int(model[0, H_ROW_DRY]) > 0:
        resum_mass(model, state)
    R = np.empty((3, 3))
    dcm_from_state(state, S_QUAT, R)
    temp, press, rho, sound = isa(-state[S_POS + 2])
    wn, we, wd = wind_at(env, state[S_POS], state[S_POS + 1], state[S_POS + 2])
    ax = state[S_VEL] - (R[0, 0] * wn + R[1, 0] * we + R[2, 0] * wd)
    ay = state[S_VEL + 1] - (R[0, 1] * wn + R[1, 1] * we + R[2, 1] * wd)
    az = state[S_VEL + 2] - (R[0, 2] * wn + R[1, 2] * we + R[2, 2] * wd)
    qbar = 0.5 * rho * (ax * ax + ay * ay + az * az)
    gear_sc = select_gear(model, 0.0, press, ctrl)       # as reached climbing from below
    state[S_SC_GEAR] = gear_sc
    fuel = fuel_on_board(model, state) if int(model[0, H_N_TANKS]) > 0 else 1.0
    firing = 1.0 if (ctrl[C_CUTOFF] < 0.5 and fuel > 0.0) else 0.0
    w_set = governor_setting(model, ctrl)
    w_max = model[e, EN_OMEGA_MAX]
    p_min = model[pr, PR_PITCH_MIN]
    p_max = model[pr, PR_PITCH_MAX]
    feather = model[pr, PR_FEATHER]
    args_ok = 0
    if ctrl[C_FEATHER] > 0.5 and feather > 0.0:
        theta = feather
        f0 = _converge(model, tables, state, ctrl, 1e-3, theta, ax, ay, az, rho, sound, press, temp, qbar, ws, P,
                       0.0, gear_sc)
        f1 = _converge(model, tables, state, ctrl, 1.5 * w_max, theta, ax, ay, az, rho, sound, press, temp, qbar,
                       ws, P, firing, gear_sc)
        if f0 <= 0.0 or f1 >= 0.0:
            omega = 0.0
            args_ok = 1
        else:
            omega = _solve(model, tables, state, ctrl, 0, theta, 1e-3, 1.5 * w_max, f0, f1, ax, ay, az, rho, sound,
                           press, temp, qbar, ws, P, firing, gear_sc)
    else:
        f_lo = _converge(model, tables, state, ctrl, w_set, p_min, ax, ay, az, rho, sound, press, temp, qbar, ws, P,
                         firing, gear_sc)
        f_hi = _converge(model, tables, state, ctrl, w_set, p_max, ax, ay, az, rho, sound, press, temp, qbar, ws, P,
                         firing, gear_sc)
        if f_lo < 0.0:
            # the propeller absorbs more than the engine gives even at fine pitch: under speed
            # the highest balance below the set speed: coming down from a running engine, it
            # settles there first (lower down there may be a stopped-engine windmill state)
            theta = p_min
            hi = w_set
            f_hi2 = f_lo
            found = False
            n_scan = 40
            for i in range(1, n_scan + 1):
                w = w_set * (1.0 - 0.97 * i / n_scan)
                g = _converge(model, tables, state, ctrl, w, theta, ax, ay, az, rho, sound, press, temp, qbar, ws,
                              P, firing, gear_sc)
                if g >= 0.0:
                    omega = _solve(model, tables, state, ctrl, 0, theta, w, hi, g, f_hi2, ax, ay, az, rho, sound,
                                   press, temp, qbar, ws, P, firing, gear_sc)
                    found = True
                    break
                hi = w
                f_hi2 = g
            if not found:
                omega = 0.0
                args_ok = 1
        elif f_hi > 0.0:
            # even the coarse stop cannot hold it: over speed
            theta = p_max
            w_hi = 2.0 * w_max
            g_hi = _converge(model, tables, state, ctrl, w_hi, theta, ax, ay, az, rho, sound, press, temp, qbar, ws,
                             P, firing, gear_sc)
            if g_hi > 0.0:
                omega = w_hi
            else:
                omega = _solve(model, tables, state, ctrl, 0, theta, w_set, w_hi, f_hi, g_hi, ax, ay, az, rho, sound,
                               press, temp, qbar, ws, P, firing, gear_sc)
        else:
            # the governor comes from fine pitch: the first balance above the fine stop (standing
            # still, the torque against pitch is not monotonic once the blades stall)
            omega = w_set
            a = p_min
            fa = f_lo
            b = p_max
            fb = f_hi
            n_scan = 24
            for i in range(1, n_scan + 1):
                x = p_min + (p_max - p_min) * i / n_scan
                fx = _converge(model, tables, state, ctrl, w_set, x, ax, ay, az, rho, sound, press, temp, qbar,
                               ws, P, firing, gear_sc)
                if fx <= 0.0:
                    b = x
                    fb = fx
                    break
                a = x
                fa = fx
            theta = _solve(model, tables, state, ctrl, 1, w_set, a, b, fa, fb, ax, ay, az, rho, sound,
                           press, temp, qbar, ws, P, firing, gear_sc)
    # leave the induced velocities converged at the solution
    _converge(model, tables, state, ctrl, omega, theta, ax, ay, az, rho, sound, press, temp, qbar, ws, P,
              firing, gear_sc)
    state[S_ENG_OMEGA] = omega
    state[S_PROP_PITCH] = theta
    # coolers at their steady temperatures
    burned = engine_state(model, e, omega, ctrl[C_THROTTLE], ctrl[C_WEP], gear_sc,
                          firing if omega > model[e, EN_OMEGA_FIRE] else 0.0, press, temp, qbar,
                          engine_factor(model, state)[0], ctrl[C_MIXTURE_LEAN], ctrl[C_CARB_HEAT],
                          state[S_CARB_ICE])[5]
    tas = math.sqrt(ax * ax + ay * ay + az * az)
    vi_mean = 0.0
    for k in range(n_st):
        vi_mean += state[S_INFLOW + k]
    if n_st > 0:
        vi_mean /= n_st
    v_eff = tas + 2.0 * (vi_mean if vi_mean > 0.0 else 0.0)
    for which in range(2):
        c = CL_RAD if which == 0 else CL_OIL
        heat_in = (model[e, EN_HEAT_COOLANT] if which == 0 else model[e, EN_HEAT_OIL]) * burned
        lo = temp
        hi = temp + 600.0
        for it in range(60):
            mid = 0.5 * (lo + hi)
            if _cooler(model, cool, c, mid, temp, rho, v_eff)[1] < heat_in:
                lo = mid
            else:
                hi = mid
        t_eq = 0.5 * (lo + hi)
        if which == 0:
            state[S_COOLANT_T] = t_eq
            state[S_RAD_FLAP] = _cooler(model, cool, c, t_eq, temp, rho, v_eff)[0]
        else:
            state[S_OIL_T] = t_eq
    return args_ok


@entry
def idle_balance(model, tables):
    """Engine torque minus propeller torque at the crankshaft (N m), standing still at sea
    level with the throttle closed, at the ground idle speed and the fine-pitch stop."""
    base = int(model[0, H_ROW_PLANT])
    e = base + PLANT_ENGINE
    pr = base + PLANT_PROP
    state = np.zeros(N_STATE)
    ctrl = np.zeros(N_CTRL)
    ws = np.zeros((WS_PLANT, 8))
    temp, press, rho, sound = isa(0.0)
    # the powerplant's rows start at row 0 here, passed as a variable: a literal 0 made numba compile
    # _converge, blade_loads and momentum_targets a second time for it (2 s of a cold start)
    first = ws.shape[0] - WS_PLANT
    return _converge(model, tables, state, ctrl, model[e, EN_OMEGA_IDLE], model[pr, PR_PITCH_MIN],
                     0.0, 0.0, 0.0, rho, sound, press, temp, 0.0, ws, first, 1.0, 0.0)
