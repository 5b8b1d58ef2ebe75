"""Blade-element aerodynamics: every airfoil section computed from its own relative wind.

Seed 000: each section has its own relative wind (aircraft velocity, the rotation
``omega x r`` and the wind at its position); lift is perpendicular and drag parallel
to the local airflow in the section's chord/normal plane, the pitching moment acts
about its span axis, and the spanwise ("sideways") component is taken out of the
dynamic pressure and only rubs as skin friction. Induced drag is the combined
pseudo-component: each lifting group (wing, horizontal tail, fin) gets an induced
angle ``alpha_i = CL_group / (pi AR e)`` that lowers every section's effective angle of
attack and tilts its lift back (lifting-line theory), and the wing's CL sends a
downwash to the tail. Stall and post-stall come straight from the -180..180 degree
tables, so an asymmetric stall drops the wing that stalls first; at high subsonic Mach
numbers a section stalls earlier and at a lower CLmax (compress.stall_stretch). The
tables themselves are read by section_tables.py.
"""
import math

from .jit import hot_kernel, kernel
from .layout import (
    E_THERMAL_COUNT, E_THERMALS, E_WIND_D, E_WIND_E, E_WIND_N, G_COLS, G_DOWNWASH, G_K_INDUCED, GROUP_BODY,
    GROUP_HTAIL, GROUP_WING, H_N_SECTIONS, H_ROW_SECTION, M_CG, N_GROUPS, N_THERMAL, ROW_GROUPS, ROW_MASS,
    S_OMEGA, S_POS, S_VEL, SEC_AIRBRAKE_DCD, SEC_AIRBRAKE_DCL, SEC_AREA, SEC_CHORD, SEC_CHORD_AX, SEC_GAIN,
    SEC_GROUP, SEC_NEG_STALL_ALPHA, SEC_NORMAL, SEC_INV_MASS, SEC_POS, SEC_RE_FACTOR, SEC_RXN, SEC_SPAN_AX,
    SEC_STALL_ALPHA, SEC_TABLE, S_SURF, SURF_PITCH, SURF_ROLL, SURF_YAW, SURF_FLAP, CTL_STAB_DOWN_RAD,
    CTL_STAB_RATE, CTL_STAB_UP_RAD, ROW_CONTROLS, SURF_STAB, SEC_EA_AFT, SEC_TWIST_INV, S_SLAT, SEC_SLAT_K,
    SEC_SLAT_STALL,
)

from .section_tables import _cl_slope_slat, _coefficients_slat, cl_cm_slope, saturated_deflection
from .compress import control_effectiveness, mach_correct_pg, past_stall, prandtl_glauert, stretched_angle
from .compress import mach_table, mach_table_correct
from .scratch import WS_MACH_OFFSET
from .layout import SEC_CLMAX, SEC_CLMIN, SEC_MACH_ROW
from .layout import (
    H_CONTROL_MACH, S_INFLOW, S_SWIRL, SEC_LE_LOSS, SEC_SLOPE_INV, SEC_THICKNESS, SEC_WASH_AX, SEC_WASH_K, SEC_WASH_SWY,
    SEC_WASH_SWZ,
    SEC_WAVE_PEAK,
)
from .layout import H_DAMAGED, SEC_DAMAGE

CD_SPANWISE = 0.008      # skin friction of spanwise flow over both surfaces
MAX_INDUCED_RAD = 0.25
INDUCED_NEWTON_STEPS = 2      # refinements of the induced-angle solve at the shifted angle (solve_induced)
NEWTON_MARGIN_RAD = math.radians(4.0)   # ... made when a lifting section's geometric alpha is this near its stall
RE_FADE_RAD = math.radians(10.0)  # Reynolds scaling of drag fades out 10 deg past the stall
# drag coefficient (on its own area) of a section's shot-away part: torn skin, exposed ribs
# and spar, holes venting the pressure side to the suction side. Assumed, of the order of
# the rough perforated and lattice surfaces in Hoerner, Fluid-Dynamic Drag (1965), ch. 5/8
CD_SHOT_AWAY = 0.25
WS_WING_STALLED = 4     # a column of the group rows no group uses (they take columns 0..3)
LIFT_SLOPE_BOUND = 2.0 * math.pi   # per rad: thin-airfoil slope, an upper bound for real sections


@kernel
def fast_atan2(y, x):
    """atan2 to within 1.2e-5 rad (0.0007 deg, 1/380 of the tables' 0.25 degree spacing):
    Abramowitz & Stegun 4.4.47 on [0, 1] plus octant folding. Several times cheaper than
    libm's atan2, which was a fifth of a step's time; the 9-term 4.4.49 (2e-8 rad) cost
    another 5 % of the P-51D's step for accuracy the tables cannot use."""
    ax = abs(x)
    ay = abs(y)
    if ax == 0.0 and ay == 0.0:
        return 0.0
    swap = ay > ax
    a = ax / ay if swap else ay / ax
    s = a * a
    r = a * (0.9998660 + s * (-0.3302995 + s * (0.1801410 + s * (-0.0851330 + s * 0.0208351))))
    if swap:
        r = 1.5707963267948966 - r
    if x < 0.0:
        r = 3.141592653589793 - r
    return -r if y < 0.0 else r


@hot_kernel
def wind_at(env, north, east, down):
    """Velocity of the air (NED, m/s) at a point: the wind-field hook.

    Steady wind (plus the ridge lift the world adds to its vertical part each tick, see
    world/weather.py) and the thermals listed in ``env``. A thermal is an updraft core with
    a ring of sink around it, ``w = w0 (1 - x) exp(-x)``, x = (r/R)^2: peak w0 in the
    middle, zero at r = R, the strongest sink (-0.135 w0) at r = 1.41 R, and no net mass
    flux (the integral over the plane vanishes). It fades in over the first 150 m above
    the ground under it and out over the last 200 m below its cloud base. The world
    moves the thermals with the wind and through their life cycle between ticks.

    Slots read: env E_THERMAL_COUNT, E_WIND_D, E_WIND_E, E_WIND_N.
    Slots written: none.
    """
    wn = env[E_WIND_N]
    we = env[E_WIND_E]
    wd = env[E_WIND_D]
    n_th = int(env[E_THERMAL_COUNT])
    for k in range(n_th):
        b = E_THERMALS + k * N_THERMAL
        dn = north - env[b]
        de = east - env[b + 1]
        r2 = (dn * dn + de * de) / (env[b + 2] * env[b + 2])
        if r2 < 9.0:
            w = env[b + 3] * (1.0 - r2) * math.exp(-r2)
            alt = -down
            base = env[b + 4]
            if base > 0.0:
                f = (base - alt) / 200.0
                if f < 1.0:
                    w *= f if f > 0.0 else 0.0
            f = (alt - env[b + 5]) / 150.0
            if f < 1.0:
                w *= f if f > 0.0 else 0.0
            wd -= w
    return wn, we, wd


@kernel
def section_airflow(model, tables, state, R, env, ctrl, rho, airbrake, ws, sound):
    """Relative wind of each section in its own axes, ws[i] = (uc, un, us, V2, alpha, delta),
    and per lifting group the sums of q*S, q*S*cl and q*S*dcl/dalpha at the geometric alpha
    (rows nsec..nsec+2 of ws) that the induced-angle solve needs; row nsec+3 gets the
    aerodynamic damping rates of roll, pitch, yaw and heave (1/s) for the step control.

    No array views here or below: in numba every view is a reference-counted object whose
    atomic increments cost more than the aerodynamics, so rows are addressed by index.

    Slots read: state S_INFLOW, S_OMEGA, S_POS, S_SLAT, S_SURF, S_SWIRL, S_VEL; env E_THERMAL_COUNT.
    Slots written: none.

    Long: each section's relative wind and the group sums the induced solve reads, in one pass. One
    numba kernel, kept whole: a split changes which code numba inlines and so the last bits of the
    kept regression flights (physics/jit.py).
    """
    nsec = int(model[0, H_N_SECTIONS])
    row0 = int(model[0, H_ROW_SECTION])
    G = nsec                                          # first group row in ws
    for g in range(N_GROUPS):
        ws[G, g] = 0.0
        ws[G + 1, g] = 0.0
        ws[G + 2, g] = 0.0
        ws[G + 3, g] = 0.0
    cgx = model[ROW_MASS, M_CG]
    cgy = model[ROW_MASS, M_CG + 1]
    cgz = model[ROW_MASS, M_CG + 2]
    vx = state[S_VEL]
    vy = state[S_VEL + 1]
    vz = state[S_VEL + 2]
    p = state[S_OMEGA]
    q = state[S_OMEGA + 1]
    r = state[S_OMEGA + 2]
    uniform = 1 if env[E_THERMAL_COUNT] == 0 else 0   # steady wind: the same at every section
    damaged = model[0, H_DAMAGED] > 0.0
    # the adjustable stabilizer (stabilizer trim): the horizontal tail's incidence change, rad
    stab_inc = 0.0
    if model[ROW_CONTROLS, CTL_STAB_RATE] > 0.0:
        ps = state[S_SURF + SURF_STAB]
        stab_inc = -ps * (model[ROW_CONTROLS, CTL_STAB_UP_RAD] if ps > 0.0 else model[ROW_CONTROLS, CTL_STAB_DOWN_RAD])
    wbx = 0.0
    wby = 0.0
    wbz = 0.0
    for i in range(nsec):
        row = row0 + i
        rx = model[row, SEC_POS] - cgx
        ry = model[row, SEC_POS + 1] - cgy
        rz = model[row, SEC_POS + 2] - cgz
        if i == 0 or uniform == 0:
            # wind at the section's world position, rotated into body axes
            pn = state[S_POS] + R[0, 0] * rx + R[0, 1] * ry + R[0, 2] * rz
            pe = state[S_POS + 1] + R[1, 0] * rx + R[1, 1] * ry + R[1, 2] * rz
            pd = state[S_POS + 2] + R[2, 0] * rx + R[2, 1] * ry + R[2, 2] * rz
            wn, we, wd = wind_at(env, pn, pe, pd)
            wbx = R[0, 0] * wn + R[1, 0] * we + R[2, 0] * wd
            wby = R[0, 1] * wn + R[1, 1] * we + R[2, 1] * wd
            wbz = R[0, 2] * wn + R[1, 2] * we + R[2, 2] * wd
        # velocity of the section through the air: v + omega x r - wind
        ux = vx + q * rz - r * ry - wbx
        uy = vy + r * rx - p * rz - wby
        uz = vz + p * ry - q * rx - wbz
        kw = model[row, SEC_WASH_K]
        if kw >= 0.0:
            # in the propeller's slipstream: faster axial flow and its swirl (seed 000:
            # the left and right wing roots see different angles of attack)
            kk = int(kw)
            ux += model[row, SEC_WASH_AX] * state[S_INFLOW + kk]
            uy -= model[row, SEC_WASH_SWY] * state[S_SWIRL + kk]
            uz -= model[row, SEC_WASH_SWZ] * state[S_SWIRL + kk]
        uc = ux * model[row, SEC_CHORD_AX] + uy * model[row, SEC_CHORD_AX + 1] + uz * model[row, SEC_CHORD_AX + 2]
        un = ux * model[row, SEC_NORMAL] + uy * model[row, SEC_NORMAL + 1] + uz * model[row, SEC_NORMAL + 2]
        us = ux * model[row, SEC_SPAN_AX] + uy * model[row, SEC_SPAN_AX + 1] + uz * model[row, SEC_SPAN_AX + 2]
        v2 = uc * uc + un * un
        alpha = fast_atan2(-un, uc)
        g = int(model[row, SEC_GROUP])
        if g == GROUP_HTAIL:
            alpha += stab_inc
        # the surfaces where they actually are (moved by dynamics.surfaces), not the commands
        delta = (model[row, SEC_GAIN] * state[S_SURF + SURF_PITCH]
                 + model[row, SEC_GAIN + 1] * state[S_SURF + SURF_ROLL]
                 + model[row, SEC_GAIN + 2] * state[S_SURF + SURF_YAW]
                 + model[row, SEC_GAIN + 3] * state[S_SURF + SURF_FLAP])
        delta = saturated_deflection(tables, int(model[row, SEC_TABLE]), delta)
        t_inv = model[row, SEC_TWIST_INV]
        if t_inv > 0.0:
            alpha += wing_twist(tables, int(model[row, SEC_TABLE]), alpha, delta,
                                0.5 * rho * v2 * model[row, SEC_AREA] * model[row, SEC_CHORD] * t_inv,
                                model[row, SEC_EA_AFT])
        slat = 0.0
        if model[row, SEC_SLAT_K] >= 0.0:
            slat = state[S_SLAT + int(model[row, SEC_SLAT_K])]
        ws[i, 0] = uc
        ws[i, 1] = un
        ws[i, 2] = us
        ws[i, 3] = v2
        ws[i, 4] = alpha
        ws[i, 5] = delta
        ws[i, 6] = slat
        # a section with a Mach table: its attached lift at its own Mach number (compress.mach_table)
        lift_r = 1.0
        if model[row, SEC_MACH_ROW] > 0.0:
            lift_r, clmax_r, cdw, suct, acs = mach_table(model, int(model[row, SEC_MACH_ROW]), math.sqrt(v2) / sound)
            m = G + WS_MACH_OFFSET + i          # for section_forces, at the same Mach number
            ws[m, 0] = clmax_r
            ws[m, 1] = cdw
            ws[m, 2] = suct
            ws[m, 3] = acs
        ws[i, 7] = lift_r
        # damping this section adds to each rotation and to heave: 1/2 rho V S a (r x n)^2 / I
        c = 0.5 * rho * math.sqrt(v2) * model[row, SEC_AREA] * LIFT_SLOPE_BOUND
        ws[G + 3, 0] += c * model[row, SEC_RXN]
        ws[G + 3, 1] += c * model[row, SEC_RXN + 1]
        ws[G + 3, 2] += c * model[row, SEC_RXN + 2]
        ws[G + 3, 3] += c * model[row, SEC_INV_MASS]
        if g != GROUP_BODY:
            q_area = 0.5 * rho * v2 * model[row, SEC_AREA]
            cl, slope = _cl_slope_slat(tables, model, row, slat, alpha, delta)
            if lift_r != 1.0:
                cl *= lift_r
                slope *= lift_r
            if damaged:                     # the shot-away part carries no lift (section_forces)
                dmg = model[row, SEC_DAMAGE]
                cl *= 1.0 - dmg
                slope *= 1.0 - dmg
            ws[G, g] += q_area
            ws[G + 1, g] += q_area * (cl + airbrake * model[row, SEC_AIRBRAKE_DCL])
            ws[G + 2, g] += q_area * slope


MAX_TWIST_RAD = 0.15          # past the divergence speed the twist is held here (the wing would be gone)


@kernel
def wing_twist(tables, t, alpha, delta, qsc_inv_k, e):
    """The section's elastic twist (rad, + leading edge up) under its own aerodynamic moment.

    The moment about the elastic axis, e chords behind the quarter chord, is
    q S c (cm + e cl) (cm about the quarter chord, the control's share included: a down aileron
    twists its wing leading edge down). Quasi-static, with the lift linear in the twist,
    cl(alpha + th) ~ cl + a th: th K = q S c (cm + e (cl + a th)), so
    th = Q (cm + e cl) / (1 - Q e a) with Q = q S c / K. At high q the aileron's nose-down
    moment takes back more lift than its camber gives: roll control fades and reverses
    (seed 000). The denominator is the divergence of a wing whose elastic axis lies behind its
    lift (1 - Q e a -> 0); it is held above 0.2 and the twist to +/-MAX_TWIST_RAD."""
    cl, cm, a = cl_cm_slope(tables, t, alpha, delta)
    den = 1.0 - qsc_inv_k * e * a
    if den < 0.2:
        den = 0.2
    th = qsc_inv_k * (cm + e * cl) / den
    if th > MAX_TWIST_RAD:
        return MAX_TWIST_RAD
    if th < -MAX_TWIST_RAD:
        return -MAX_TWIST_RAD
    return th


@kernel
def _induced_newton(x, cl, m, k):
    """One Newton step of x = k CL(alpha - x) from x, with CL = cl and slope m taken at
    alpha - x: x + (k cl - x) / (1 + k m), the denominator held above 0.5 past the stall
    (m < 0) and the result bounded to +/-MAX_INDUCED_RAD."""
    den = 1.0 + k * m
    if den < 0.5:
        den = 0.5
    s = x + (k * cl - x) / den
    if s > MAX_INDUCED_RAD:
        return MAX_INDUCED_RAD
    if s < -MAX_INDUCED_RAD:
        return -MAX_INDUCED_RAD
    return s


@kernel
def solve_induced(model, tables, ws, airbrake):
    """Induced angle of each lifting group from lifting-line theory.

    alpha_i = k * CL(alpha - alpha_i), k = 1 / (pi AR e); the horizontal tail flies in the
    wing's downwash too, so its CL is taken at alpha - eps - alpha_i, as section_forces sees
    it. With the group's CL and lift-curve slope m at the geometric alpha,
    CL(alpha - x) ~ CL0 - m x, so x = k CL0 / (1 + k m) (the tail's CL0 first shifted by
    -m eps, the wing being solved first); past the stall (m < 0) the denominator is held
    above 0.5 so the solve stays bounded.
    That first step is exact while the lift curve is straight, but near CLmax the geometric
    alpha lies an induced angle (4-5 deg on a fighter's wing) beyond the effective one,
    past the sections' stall where the slope is negative: the linearisation there
    overshoots alpha_i by up to 4 deg, the wing's lift dips below its real maximum well
    before the stall and the group CL (the tail's downwash) spikes. When any lifting
    section's geometric alpha comes within NEWTON_MARGIN_RAD of its stall (either sign),
    INDUCED_NEWTON_STEPS Newton steps therefore evaluate each group's CL and slope again at
    the shifted angle; the residual x - k CL(alpha - x) rises monotonically (1 + k m > 0 for
    the sections' post-stall slopes), so they converge on the one solution. (Inside the
    margin the curves are straight to well within a table step and the first step is the
    solution: cruise pays nothing for the stall's accuracy.)
    Writes the shifts to ws row nsec+4 and the group CLs to row nsec+5; returns the
    downwash angle at the horizontal tail. Rows nsec+1, nsec+2 and nsec+6 are scratch.

    Long: the lifting-line Newton iteration over every lifting group. One numba kernel, kept whole:
    a split changes which code numba inlines and so the last bits of the kept regression flights
    (physics/jit.py).
    """
    G = int(model[0, H_N_SECTIONS])
    row0 = int(model[0, H_ROW_SECTION])
    dw_per_cl = model[ROW_GROUPS, GROUP_HTAIL * G_COLS + G_DOWNWASH]
    downwash = 0.0
    for g in range(N_GROUPS):              # GROUP_WING first: its CL sets the tail's downwash
        qs = ws[G, g]
        if qs <= 1e-9:
            ws[G + 4, g] = 0.0
            ws[G + 5, g] = 0.0
            continue
        cl0 = ws[G + 1, g] / qs
        m = ws[G + 2, g] / qs
        if g == GROUP_HTAIL:
            cl0 -= m * downwash
        s = _induced_newton(0.0, cl0, m, model[ROW_GROUPS, g * G_COLS + G_K_INDUCED])
        ws[G + 4, g] = s
        ws[G + 5, g] = cl0 - m * s
        if g == GROUP_WING:
            downwash = dw_per_cl * ws[G + 5, GROUP_WING]
    near_stall = False
    for i in range(G):
        row = row0 + i
        if int(model[row, SEC_GROUP]) != GROUP_BODY and (
                ws[i, 4] > model[row, SEC_STALL_ALPHA] - NEWTON_MARGIN_RAD
                or ws[i, 4] < model[row, SEC_NEG_STALL_ALPHA] + NEWTON_MARGIN_RAD):
            near_stall = True
            break
    if not near_stall:
        return downwash
    damaged = model[0, H_DAMAGED] > 0.0
    for it in range(INDUCED_NEWTON_STEPS):
        downwash = dw_per_cl * ws[G + 5, GROUP_WING]
        for g in range(N_GROUPS):
            ws[G + 1, g] = 0.0
            ws[G + 2, g] = 0.0
            ws[G + 6, g] = 0.0
        for i in range(G):
            row = row0 + i
            g = int(model[row, SEC_GROUP])
            if g == GROUP_BODY:
                continue
            a = ws[i, 4] - ws[G + 4, g]
            if g == GROUP_HTAIL:
                a -= downwash
            cl, slope = _cl_slope_slat(tables, model, row, ws[i, 6], a, ws[i, 5])
            if ws[i, 7] != 1.0:
                cl *= ws[i, 7]
                slope *= ws[i, 7]
            if damaged:
                dmg = model[row, SEC_DAMAGE]
                cl *= 1.0 - dmg
                slope *= 1.0 - dmg
            w = ws[i, 3] * model[row, SEC_AREA]          # q S without the common 1/2 rho
            ws[G + 6, g] += w
            ws[G + 1, g] += w * (cl + airbrake * model[row, SEC_AIRBRAKE_DCL])
            ws[G + 2, g] += w * slope
        for g in range(N_GROUPS):
            w = ws[G + 6, g]
            if w <= 1e-12 or ws[G, g] <= 1e-9:
                continue
            cl = ws[G + 1, g] / w
            m = ws[G + 2, g] / w
            x = ws[G + 4, g]
            s = _induced_newton(x, cl, m, model[ROW_GROUPS, g * G_COLS + G_K_INDUCED])
            ws[G + 4, g] = s
            ws[G + 5, g] = cl - m * (s - x)
    return dw_per_cl * ws[G + 5, GROUP_WING]


@kernel
def section_forces(model, tables, ws, rho, mu, v_ref, airbrake, downwash, fm, sound):
    """Sum every section's lift, drag, spanwise friction and pitching moment into fm
    (force 0..2, moment about the CG 3..5, body axes). v_ref is the airspeed at the CG
    (for the Reynolds-number scaling of drag); sound the speed of sound (each section's
    compressibility from its own Mach number, compress.py). Returns the number of lifting
    sections beyond their stall angle (the wing's own in ws[G + 7, WS_WING_STALLED]).

    Long: every section's coefficients, Reynolds and Mach corrections, lift, drag and moment summed
    in one pass. One numba kernel, kept whole: a split changes which code numba inlines and so the
    last bits of the kept regression flights (physics/jit.py).
    """
    limit_mach = model[0, H_CONTROL_MACH]
    damaged = model[0, H_DAMAGED] > 0.0               # battle damage anywhere (SEC_DAMAGE)
    nsec = int(model[0, H_N_SECTIONS])
    row0 = int(model[0, H_ROW_SECTION])
    G = nsec
    stalled = 0
    ws[G + 7, WS_WING_STALLED] = 0.0       # the wing's own count (buffet, the stall cards)
    for g in range(N_GROUPS):
        sh = ws[G + 4, g] + (downwash if g == GROUP_HTAIL else 0.0)
        # |sh| <= 0.25 + downwash: the series are exact to 1e-7 there and far cheaper
        sh2 = sh * sh
        ws[G + 6, g] = 1.0 - sh2 * (0.5 - sh2 * (1.0 / 24.0 - sh2 / 720.0))
        ws[G + 7, g] = sh * (1.0 - sh2 * (1.0 / 6.0 - sh2 * (1.0 / 120.0 - sh2 / 5040.0)))
    if v_ref < 1.0:
        v_ref = 1.0
    re_ref = (rho * v_ref / mu) ** -0.2
    for i in range(nsec):
        row = row0 + i
        v2 = ws[i, 3]
        if v2 < 1e-8:
            continue
        v = math.sqrt(v2)
        g = int(model[row, SEC_GROUP])
        sh = ws[G + 4, g]
        if g == GROUP_HTAIL:
            sh += downwash
        alpha_eff = ws[i, 4] - sh
        mach = v / sound
        delta = ws[i, 5]
        if delta != 0.0 and limit_mach > 0.0 and mach > limit_mach:
            delta *= control_effectiveness(mach, limit_mach)   # the shock sits on the hinge
        slat = ws[i, 6]
        cl, cd, cm = _coefficients_slat(tables, model, row, slat, alpha_eff, delta)
        a_s = model[row, SEC_STALL_ALPHA]
        if slat > 0.0:
            a_s += slat * (model[row, SEC_SLAT_STALL] - a_s)
        a_n = model[row, SEC_NEG_STALL_ALPHA]
        tc = model[row, SEC_THICKNESS]
        a_st = alpha_eff          # the angle the stall is judged by
        compressible = tc > 0.0 and mach > 0.2
        pg = 1.0
        m_dd = 1.0
        if compressible:
            # high Mach: the section stalls at a lower angle and a lower CLmax (compress.py): its
            # lift near the stall comes from a stretched angle, the stretch fading out past the
            # low-speed stall
            pg, m_dd = prandtl_glauert(mach, tc, cl)
            a_st, kb, wl, wd = stretched_angle(alpha_eff, cl, pg, mach, model[row, SEC_LE_LOSS],
                                               model[row, SEC_SLOPE_INV], a_s, a_n)
            if wl > 0.0:
                cl_l, cd_l, cm_l = _coefficients_slat(tables, model, row, slat, a_st, delta)
                cl += wl * (cl_l / (1.0 + kb) - cl)
                # drag and moment follow the stretched angle into its stall
                cd += wd * (cd_l - cd)
                cm += wd * (cm_l - cm)
        over = past_stall(a_st, a_s, a_n)     # past the stall, judged by the stretched angle
        re_factor = model[row, SEC_RE_FACTOR]
        if re_factor > 0.0:
            # the table holds one Reynolds number; attached-flow (friction) drag scales as
            # Re^-0.2 (turbulent flat plate, Prandtl-Schlichting), fading out past the stall.
            # (rho V / mu)^-0.2 is taken once per step at the reference speed; each section's
            # own speed enters linearised, (v/v_ref)^-0.2 ~ 1.2 - 0.2 v/v_ref
            w = 1.0 - over / RE_FADE_RAD
            if w > 0.0:
                ratio = v / v_ref
                if ratio > 2.0:
                    ratio = 2.0
                f = re_factor * re_ref * (1.2 - 0.2 * ratio)
                if f < 0.6:
                    f = 0.6
                elif f > 1.6:
                    f = 1.6
                cd *= 1.0 + w * (f - 1.0)
        mrow = int(model[row, SEC_MACH_ROW])
        if mrow > 0:
            # tabulated against Mach, subsonic to supersonic (compress.mach_table)
            att = 1.0 - over / RE_FADE_RAD
            m = G + WS_MACH_OFFSET + i          # the table at this Mach number, from section_airflow
            cl, cd, cm = mach_table_correct(cl, cd, cm, alpha_eff, att if att > 0.0 else 0.0, ws[i, 7], ws[m, 0],
                                            ws[m, 1], ws[m, 2], ws[m, 3], model[row, SEC_CLMAX], model[row, SEC_CLMIN])
        elif compressible:
            att = 1.0 - over / RE_FADE_RAD
            cl, cd, cm = mach_correct_pg(cl, cd, cm, mach, att if att > 0.0 else 0.0, model[row, SEC_WAVE_PEAK],
                                         pg, m_dd)
        if damaged:
            dmg = model[row, SEC_DAMAGE]
            # battle damage (seed 000: holes and torn skin "drastically affect the lift ...
            # drag tends to go up as parts of the wing skinning are exposed"): the damaged
            # fraction of the section carries no lift or moment and drags like torn structure
            cl *= 1.0 - dmg
            cm *= 1.0 - dmg
            cd = cd * (1.0 - dmg) + dmg * CD_SHOT_AWAY
        cl += airbrake * model[row, SEC_AIRBRAKE_DCL]
        cd += airbrake * model[row, SEC_AIRBRAKE_DCD]
        if g != GROUP_BODY and over > 0.0:
            stalled += 1
            if g == GROUP_WING:
                ws[G + 7, WS_WING_STALLED] += 1.0
        area = model[row, SEC_AREA]
        q_area = 0.5 * rho * v2 * area
        uc = ws[i, 0] / v
        un = ws[i, 1] / v
        cs = ws[G + 6, g]
        sn = ws[G + 7, g]
        L = q_area * cl
        D = q_area * cd
        us = ws[i, 2]
        Fs = -0.5 * rho * us * abs(us) * area * CD_SPANWISE
        Mp = q_area * model[row, SEC_CHORD] * cm
        fx = 0.0
        fy = 0.0
        fz = 0.0
        for k in range(3):
            c = model[row, SEC_CHORD_AX + k]
            n = model[row, SEC_NORMAL + k]
            lift_dir = uc * n - un * c          # perpendicular to the local airflow
            drag_dir = -(uc * c + un * n)       # along it
            f = L * (cs * lift_dir + sn * drag_dir) + D * drag_dir + Fs * model[row, SEC_SPAN_AX + k]
            fm[k] += f
            fm[3 + k] += Mp * model[row, SEC_SPAN_AX + k]
            if k == 0:
                fx = f
            elif k == 1:
                fy = f
            else:
                fz = f
        rx = model[row, SEC_POS] - model[ROW_MASS, M_CG]
        ry = model[row, SEC_POS + 1] - model[ROW_MASS, M_CG + 1]
        rz = model[row, SEC_POS + 2] - model[ROW_MASS, M_CG + 2]
        fm[3] += ry * fz - rz * fy
        fm[4] += rz * fx - rx * fz
        fm[5] += rx * fy - ry * fx
    return stalled
