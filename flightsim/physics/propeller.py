"""Propeller from blade elements (seed 000: "a series of wings ... that spin through the air").

Each blade is cut into radial stations with their own chord, twist, airfoil table and
thickness. The loads are evaluated at N_AZIMUTH blade positions around the disc (each
standing for blades / N_AZIMUTH blades), every element from its own relative wind:

    axial through-flow     U_P = u_element . x + v_i(r)
    tangential (headwind)  U_T = Omega r + u_element . e_motion - w_i(r)
    inflow angle phi = atan2(U_P, U_T), blade angle of attack = theta(r) - phi

where u_element is the velocity of that point of the disc through the air (flight
velocity plus the aircraft's rotation), v_i and w_i the axial and swirl induced
velocities at the disc. Lift and drag from the section table, corrected for the element's
Mach number (compress.py: propeller tips run near M 1), give thrust ``dL cos phi - dD sin
phi`` and a force against the rotation ``dL sin phi + dD cos phi``. Because each azimuth
has its own relative wind, flying at an angle of attack or sideslip loads the
down-going blade more than the up-going one: the P-factor yaw (and pitch) moment and the
in-plane "normal force" of the disc come out of the sum, as do the blade's reaction to
the aircraft's own pitch and yaw rates. A negative angle of attack (windmilling) gives
negative thrust and drives the shaft; blades far past the stall (a slowed propeller in a
fast dive at fine pitch) come out of the -180..180 degree tables.

Induced velocities: blade-element momentum theory per annulus with Prandtl's tip loss,
``dT = 4 pi r rho F (U + v_i) v_i dr`` and ``dQ = 4 pi r^3 rho F (U + v_i) (w_i / r) dr``
(w_i the swirl at the disc, half the far wake's). In flight the induced velocities are
states that relax toward these values with a short lag (a dynamic-inflow model); the trim
iterates them to convergence.
"""
import math

import numpy as np

from .jit import kernel
from .aero import fast_atan2
from .compress import mach_correct_pg, past_stall, prandtl_glauert, stretched_angle
from .layout import (
    N_AZIMUTH, PR_BLADES, PR_RADIUS, PR_SENSE, PS_CHORD, PS_DR, PS_LE_LOSS, PS_NEG_STALL, PS_R, PS_SLOPE_INV,
    PS_STALL, PS_TABLE,
    PS_TC, PS_TWIST, PS_WAVE_PEAK, S_INFLOW, S_SWIRL, T_CD, T_CL, TABLE_ALPHA_MIN_DEG, TABLE_N, TABLE_STEP_DEG,
)

AZ_COS = np.array([math.cos(2.0 * math.pi * j / N_AZIMUTH) for j in range(N_AZIMUTH)])
AZ_SIN = np.array([math.sin(2.0 * math.pi * j / N_AZIMUTH) for j in range(N_AZIMUTH)])
RAD2DEG = 57.29577951308232
STALL_FADE_RAD = math.radians(6.0)   # Prandtl-Glauert lift rise fades out this far past the stall
MAX_SWIRL_FRACTION = 0.3             # swirl at the disc at most this fraction of Omega r


@kernel
def _index(alpha):
    """Table index and fraction of an angle of attack (rad, any angle)."""
    x = (alpha * RAD2DEG - TABLE_ALPHA_MIN_DEG) / TABLE_STEP_DEG
    if x < 0.0 or x >= TABLE_N - 1:
        x = (((alpha * RAD2DEG + 180.0) % 360.0 - 180.0) - TABLE_ALPHA_MIN_DEG) / TABLE_STEP_DEG
    i = int(x)
    if i > TABLE_N - 2:
        i = TABLE_N - 2
    return i, x - i


@kernel
def blade_loads(model, tables, row_prop, row_st0, n_st, state, omega_p, pitch,
                ux, uy, uz, p, q, r, rho, sound, pw, pw_row):
    """Blade-element loads of the whole disc.

    ux, uy, uz: velocity of the hub through the air (body axes); p, q, r: body rates;
    omega_p: propeller angular speed (rad/s, >= 0); pitch: blade angle at 0.75 R.
    Returns (thrust along +x N, in-plane force y N, z N, moment about the hub y N m,
    z N m, aerodynamic torque against the rotation N m). Thrust and torque per station go
    to pw[pw_row, k] and pw[pw_row + 1, k].

    Slots read: state S_INFLOW, S_SWIRL.
    Slots written: none.

    Long: the blade-element sum over stations with its inflow iteration. One numba kernel, kept
    whole: a split changes which code numba inlines and so the last bits of the kept regression
    flights (physics/jit.py).
    """
    sense = model[row_prop, PR_SENSE]
    w_blade = model[row_prop, PR_BLADES] / N_AZIMUTH
    thrust = 0.0
    fy = 0.0
    fz = 0.0
    my = 0.0
    mz = 0.0
    torque = 0.0
    for k in range(n_st):
        row = row_st0 + k
        rad = model[row, PS_R]
        chord_dr = model[row, PS_CHORD] * model[row, PS_DR] * w_blade
        theta = pitch + model[row, PS_TWIST]
        tab = int(model[row, PS_TABLE])
        tc = model[row, PS_TC]
        a_pos = model[row, PS_STALL]
        a_neg = model[row, PS_NEG_STALL]
        peak = model[row, PS_WAVE_PEAK]
        slope_inv = model[row, PS_SLOPE_INV]
        le_loss = model[row, PS_LE_LOSS]
        vi = state[S_INFLOW + k]
        wi = state[S_SWIRL + k]
        t_k = 0.0
        q_k = 0.0
        for j in range(N_AZIMUTH):
            c = AZ_COS[j]
            s = AZ_SIN[j]
            # element at rad * (0, c, s); aircraft rotation adds omega x r there
            uex = ux + rad * (q * s - r * c)
            uey = uy - p * rad * s
            uez = uz + p * rad * c
            u_p = uex + vi
            u_t = omega_p * rad + sense * (uez * c - uey * s) - wi
            w2 = u_p * u_p + u_t * u_t
            if w2 < 1e-10:
                continue
            wv = math.sqrt(w2)
            phi = fast_atan2(u_p, u_t)
            alpha = theta - phi
            # the undeflected curves only (a blade has no control surface): cl and cd
            i, f = _index(alpha)
            a0 = tables[tab, T_CL + 1, i]
            cl = a0 + f * (tables[tab, T_CL + 1, i + 1] - a0)
            a0 = tables[tab, T_CD + 1, i]
            cd = a0 + f * (tables[tab, T_CD + 1, i + 1] - a0)
            mach = wv / sound
            if mach > 0.2 and tc > 0.0:
                # as aero.section_forces: Prandtl-Glauert on attached lift, and the blade stalls
                # at a lower angle and CLmax at high Mach (compress.stall_stretch)
                pg, m_dd = prandtl_glauert(mach, tc, cl)
                a_st, kb, wl, wd = stretched_angle(alpha, cl, pg, mach, le_loss, slope_inv, a_pos, a_neg)
                if wl > 0.0:
                    i, f = _index(a_st)
                    a0 = tables[tab, T_CL + 1, i]
                    cl += wl * ((a0 + f * (tables[tab, T_CL + 1, i + 1] - a0)) / (1.0 + kb) - cl)
                    a0 = tables[tab, T_CD + 1, i]
                    cd += wd * (a0 + f * (tables[tab, T_CD + 1, i + 1] - a0) - cd)
                over = past_stall(a_st, a_pos, a_neg)
                att = 1.0 - over / STALL_FADE_RAD
                if att < 0.0:
                    att = 0.0
                cl, cd, cm = mach_correct_pg(cl, cd, 0.0, mach, att, peak, pg, m_dd)
            qc = 0.5 * rho * w2 * chord_dr
            cphi = u_t / wv
            sphi = u_p / wv
            dt = qc * (cl * cphi - cd * sphi)
            df = qc * (cl * sphi + cd * cphi)
            t_k += dt
            q_k += df * rad
            # the force against the rotation acts along -e_motion = -sense * (0, -s, c)
            fy += df * sense * s
            fz -= df * sense * c
            # thrust at rad * (0, c, s): moment (0, c, s) x (1, 0, 0) = (0, s, -c)
            my += dt * rad * s
            mz -= dt * rad * c
        thrust += t_k
        torque += q_k
        pw[pw_row, k] = t_k
        pw[pw_row + 1, k] = q_k
    return thrust, fy, fz, my, mz, torque


@kernel
def tip_loss(blades, rad, radius, u_p, u_t):
    """Prandtl's tip-loss factor F at radius rad for inflow angle atan(u_p/u_t)."""
    sphi = abs(u_p) / math.sqrt(u_p * u_p + u_t * u_t + 1e-12)
    if sphi < 1e-3:
        sphi = 1e-3
    f = 0.5 * blades * (radius - rad) / (rad * sphi)
    if f > 12.0:
        return 1.0
    e = math.exp(-f)
    # acos(e) for 0 < e < 1: Abramowitz & Stegun 4.4.45 (error < 7e-5)
    acos_e = math.sqrt(1.0 - e) * (1.5707288 + e * (-0.2121144 + e * (0.0742610 - 0.0187293 * e)))
    F = 0.6366197723675814 * acos_e
    return F if F > 0.05 else 0.05


@kernel
def momentum_targets(model, row_prop, row_st0, n_st, state, omega_p, u_axial, rho, pw, pw_row, out_row):
    """Induced velocities (axial, swirl) that momentum theory asks for each annulus given the
    blade loads in pw[pw_row] (thrust) and pw[pw_row + 1] (torque); written to
    pw[out_row] and pw[out_row + 1]. u_axial: the axial flight speed through the disc.

    Slots read: state S_INFLOW.
    Slots written: none.
    """
    blades = model[row_prop, PR_BLADES]
    radius = model[row_prop, PR_RADIUS]
    u = u_axial if u_axial > 0.0 else 0.0
    for k in range(n_st):
        row = row_st0 + k
        rad = model[row, PS_R]
        dr = model[row, PS_DR]
        vi = state[S_INFLOW + k]
        F = tip_loss(blades, rad, radius, u + vi, omega_p * rad)
        area_f = 4.0 * math.pi * rad * rho * F * dr
        kk = pw[pw_row, k] / area_f            # = (U + v) v
        disc = 0.25 * u * u + kk
        if disc < 0.0:
            disc = 0.0                         # windmill brake state beyond momentum theory
        v = -0.5 * u + math.sqrt(disc)
        pw[out_row, k] = v
        through = u + v
        if through < 1.0:
            through = 1.0
        w = pw[pw_row + 1, k] / (area_f * rad * through)
        wmax = MAX_SWIRL_FRACTION * omega_p * rad
        if w > wmax:
            w = wmax
        elif w < -wmax:
            w = -wmax
        pw[out_row + 1, k] = w
