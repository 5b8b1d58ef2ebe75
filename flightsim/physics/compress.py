"""Compressibility of an airfoil section (seed 000's "high-speed aerodynamic compression effects").

A section's table holds its low-speed coefficients; this corrects them for the section's
own Mach number (its local airspeed over the speed of sound of the air it flies in):

* **Lift** rises with the Prandtl-Glauert factor ``1/sqrt(1 - M^2)`` while the flow is
  attached (faded out past the stall; CLmax itself falls, below), up to the drag-divergence
  Mach number; beyond it the supersonic bubble separates the flow behind its shock and the
  lift falls away ("shock stall", to 60 % by about M_dd + 0.12).
* **Drag** rises past the critical Mach number by Lock's fourth-power rule
  ``dCd = 20 (M - M_crit)^4``, with ``M_crit = M_dd - (0.1/80)^(1/3)`` so that the slope
  dCd/dM is 0.1 at M_dd (the usual definition), and M_dd from Korn's equation
  ``M_dd = 0.87 - t/c - |cl|/10`` (conventional, non-supercritical sections). The rise
  saturates at the transonic wave-drag peak, ``5 (t/c)^(5/3)`` (transonic similarity):
  ``dCd = lock * peak / (lock + peak)``, so thin propeller tips at M 1 keep a finite drag.
* **Centre of pressure** moves aft as the shock grows: the aerodynamic centre goes from the
  quarter chord to 0.37 c between M_crit and M_dd + 0.1, a nose-down moment
  ``dCm = -cl * dx`` (the "tuck").
* **Maximum lift** falls with Mach above about M 0.25 (leading-edge stall: the suction
  peak goes supersonic and separates earlier), the more the blunter the leading edge:
  CLmax(M) = r(M) CLmax(low speed), r from 1 at M 0.25 to 0.78 at M 0.5 and 0.72 at M 0.6
  for a 66-series wing of 15-16 % (NACA TN 1697, Cooper & Korycinski 1948: 1.135 at
  M 0.25, 0.895 at M 0.5; USAF DATCOM fig. 4.1.3.4-22 loses a little more at constant
  Reynolds number), scaled by the leading-edge sharpness dy = 18.3 t/c (66-series) from
  no loss at dy 2.0 (t/c 11 %: DATCOM shows none) to the full loss at dy 2.6 (14 %).
  Beyond M 0.6 r is held and the shock stall above takes over. The lift curve keeps its
  Prandtl-Glauert slope; the section stalls at a lower angle (stall_stretch).
* **Controls**: past the aircraft's limit Mach the shock sits on the hinge and the surface
  loses most of its effect within 0.03 of Mach (seed 000: it "comes on suddenly"): the
  deflection the section sees is scaled down to 25 %.

References: Glauert (1928) / Prandtl; Lock, ARC R&M 2924 (1951) and Korn (1970) as used
in Mason's "Configuration Aerodynamics" ch. 7; the transonic similarity law for wave drag
(von Karman 1947); Hoerner, Fluid-Dynamic Drag (1965) ch. 15-16 for the magnitudes.
"""
import math

import numpy as np

from .jit import hot_kernel, kernel
from .layout import MT_AC_SHIFT, MT_CD_WAVE, MT_CLMAX, MT_LIFT, MT_MACH, MT_SUCTION

KORN_KAPPA = 0.87            # conventional sections (0.95 for supercritical ones)
LOCK_OFFSET = 0.1077         # (0.1 / 80)^(1/3): M_dd - M_crit
PG_MACH_CAP = 0.92           # Prandtl-Glauert is not applied beyond this (singular at 1)
SHOCK_STALL_LOSS = 0.4       # lift lost once the shock has fully separated the flow
SHOCK_STALL_WIDTH = 0.12     # ... over this much Mach past M_dd
AC_SHIFT = 0.12              # aft movement of the aerodynamic centre, chords
CONTROL_RESIDUAL = 0.25      # control effectiveness left past the limit Mach
CONTROL_MACH_WIDTH = 0.03    # over which it is lost
# CLmax over its low-speed value at M 0.25, 0.30, ... 0.60 (see above)
CLMAX_MACH0 = 0.25
CLMAX_MACH_STEP = 0.05
CLMAX_RATIO = np.array([1.0, 0.95, 0.90, 0.85, 0.81, 0.78, 0.75, 0.72])
STRETCH_K_BOUND = 1.0 / CLMAX_RATIO.min()   # stall_stretch <= this * PG
STRETCH_FADE_RAD = math.radians(10.0)   # the stretch fades out this far past the low-speed stall
STRETCH_NEAR_RAD = math.radians(7.0)    # ... and is looked up from this far before the stretched angle's stall
STRETCH_BLEND_RAD = math.radians(3.0)   # (blended in over 3 degrees: in attached flow both give PG CL)
STALL_BLEND_RAD = math.radians(3.0)     # drag and moment follow the stretched angle from this far before its stall
LE_DY_PER_TC = 18.3          # leading-edge sharpness dy (% chord) per unit t/c, NACA 66-series
LE_DY_NO_LOSS = 2.0          # DATCOM: no CLmax loss with Mach at or below this dy
LE_DY_FULL_LOSS = 2.6        # ... the full loss from here up


@kernel
def _smoothstep(x):
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    return x * x * (3.0 - 2.0 * x)


@kernel
def drag_divergence_mach(tc, cl):
    """Korn's drag-divergence Mach number of a section (thickness/chord tc, lift cl)."""
    return KORN_KAPPA - tc - abs(cl) * 0.1


def wave_drag_peak(tc):
    """Transonic wave-drag peak of a section of thickness ratio tc (precomputed per section)."""
    return 5.0 * tc ** (5.0 / 3.0)


@kernel
def prandtl_glauert(mach, tc, cl):
    """(Prandtl-Glauert factor applied to attached lift, M_dd): the factor at
    min(mach, M_dd, PG_MACH_CAP)."""
    m_dd = drag_divergence_mach(tc, cl)
    mp = mach if mach < m_dd else m_dd
    if mp > PG_MACH_CAP:
        mp = PG_MACH_CAP
    return 1.0 / math.sqrt(1.0 - mp * mp), m_dd


@kernel
def mach_correct(cl, cd, cm, mach, tc, attached, peak):
    """(cl, cd, cm) at Mach number ``mach`` from the low-speed table values.

    tc: thickness/chord (0 switches the correction off); attached: 1 in attached flow,
    falling to 0 past the stall (the Prandtl-Glauert rise only applies to attached lift);
    peak: wave_drag_peak(tc)."""
    if tc <= 0.0 or mach < 0.2:
        return cl, cd, cm
    pg, m_dd = prandtl_glauert(mach, tc, cl)
    return mach_correct_pg(cl, cd, cm, mach, attached, peak, pg, m_dd)


@kernel
def mach_correct_pg(cl, cd, cm, mach, attached, peak, pg, m_dd):
    """mach_correct with the Prandtl-Glauert factor and M_dd already taken (prandtl_glauert)."""
    m_crit = m_dd - LOCK_OFFSET
    # lift: Prandtl-Glauert up to M_dd, then the shock stall
    f = 1.0 + attached * (pg - 1.0)
    if mach > m_dd:
        f *= 1.0 - SHOCK_STALL_LOSS * _smoothstep((mach - m_dd) / SHOCK_STALL_WIDTH)
    cl_m = cl * f
    # drag: Lock's rise, saturating at the transonic wave-drag peak
    if mach > m_crit:
        x = mach - m_crit
        lock = 20.0 * x * x * x * x
        cd += lock * peak / (lock + peak)
        # centre of pressure aft: the tuck
        dx = AC_SHIFT * _smoothstep(x / (m_dd + 0.1 - m_crit))
        cm -= cl_m * dx
    return cl_m, cd, cm


def clmax_loss_weight(tc) -> float:
    """How much of the CLmax loss with Mach a section of thickness tc suffers: 0 for a sharp
    leading edge (dy <= 2.0) to 1 for a blunt one (dy >= 2.6), dy = 18.3 t/c (precomputed per
    section by the compiler)."""
    if not tc or tc <= 0.0:
        return 0.0
    w = (LE_DY_PER_TC * tc - LE_DY_NO_LOSS) / (LE_DY_FULL_LOSS - LE_DY_NO_LOSS)
    return min(max(w, 0.0), 1.0)


@kernel
def clmax_ratio(mach, weight):
    """CLmax at this Mach number over CLmax at low speed for a section whose
    clmax_loss_weight is ``weight``."""
    if weight <= 0.0 or mach <= CLMAX_MACH0:
        return 1.0
    x = (mach - CLMAX_MACH0) * (1.0 / CLMAX_MACH_STEP)
    n = len(CLMAX_RATIO)
    if x >= n - 1:
        r = CLMAX_RATIO[n - 1]
    else:
        i = int(x)
        r = CLMAX_RATIO[i] + (x - i) * (CLMAX_RATIO[i + 1] - CLMAX_RATIO[i])
    return 1.0 - weight * (1.0 - r)


@kernel
def stall_stretch(pg, mach, weight):
    """k >= 1 such that the section's compressible lift is CL(alpha_l) / k * PG with
    alpha_l = alpha + (k - 1) CL(alpha) / a, a the attached lift-curve slope: in attached flow
    that is PG CL(alpha) (the lift curve a (alpha - alpha_0) stretched about its own zero-lift
    angle, whatever the control deflection), and its maximum is PG / k CLmax = r(M) CLmax,
    reached at an angle (k - 1) CLmax / a lower. pg: prandtl_glauert's factor."""
    k = pg / clmax_ratio(mach, weight)
    return k if k > 1.0 else 1.0


@kernel
def past_stall(alpha, a_pos, a_neg):
    """How far (rad, >= 0) alpha lies beyond the stall angles a_pos / a_neg."""
    if alpha > a_pos:
        return alpha - a_pos
    if alpha < a_neg:
        return a_neg - alpha
    return 0.0


@hot_kernel
def stretched_angle(alpha, cl, pg, mach, weight, slope_inv, a_pos, a_neg):
    """The Mach stall stretch of a section at alpha with low-speed lift cl (its table's value):
    (a_st, kb, wl, wd). a_st is the stretched angle the stall is judged by; the lift near the
    stall is CL(a_st) / (1 + kb), blended in with weight wl (0 far from the stall, where it
    equals the unstretched lift anyway, and the caller need not look it up); drag and moment
    follow the stretched angle's with weight wd. The stretch fades out past the low-speed
    stall. Scalars only (the callers do their own table lookups)."""
    # the most the stretch can move the angle: far from the stall it changes nothing
    reach = alpha + (pg * STRETCH_K_BOUND - 1.0) * cl * slope_inv
    if a_neg + STRETCH_NEAR_RAD <= reach <= a_pos - STRETCH_NEAR_RAD:
        return alpha, 0.0, 0.0, 0.0
    kst = stall_stretch(pg, mach, weight)
    b = 1.0 - past_stall(alpha, a_pos, a_neg) / STRETCH_FADE_RAD
    if kst <= 1.0 or b <= 0.0:
        return alpha, 0.0, 0.0, 0.0
    kb = b * (kst - 1.0)
    a_st = alpha + kb * cl * slope_inv
    d = a_st - a_pos if cl > 0.0 else a_neg - a_st       # < 0 before the stretched stall
    return (a_st, kb, _smoothstep((d + STRETCH_NEAR_RAD) / STRETCH_BLEND_RAD),
            _smoothstep(1.0 + d / STALL_BLEND_RAD))


@kernel
def control_effectiveness(mach, limit_mach):
    """Fraction of a control deflection that still acts at this Mach number."""
    if limit_mach <= 0.0 or mach <= limit_mach:
        return 1.0
    return 1.0 - (1.0 - CONTROL_RESIDUAL) * _smoothstep((mach - limit_mach) / CONTROL_MACH_WIDTH)


# ------------------------------------------------------------------ tabulated against Mach
# A section whose airfoil has a [mach] table (spec: the airfoil's lift-curve slope, maximum lift,
# wave drag, leading-edge suction and aerodynamic centre against Mach, from subsonic through
# supersonic) takes its compressibility from that table instead of the model above, which ends
# at the transonic shock stall. The table's rows sit in the model (layout MT_*), each
# [n, v_1 .. v_n].

@kernel
def mach_table(model, row0, mach):
    """(lift-slope ratio, CLmax ratio, zero-lift wave drag, suction loss, aerodynamic-centre shift
    in chords) at this Mach number, linear between the table's Mach numbers, held beyond them."""
    n = int(model[row0, 0])
    mr = row0 + MT_MACH
    if mach <= model[mr, 1]:
        i = 1
        f = 0.0
    elif mach >= model[mr, n]:
        i = n - 1
        f = 1.0
    else:
        i = 1
        while i < n - 1 and mach > model[mr, i + 1]:
            i += 1
        f = (mach - model[mr, i]) / (model[mr, i + 1] - model[mr, i])
    lift = model[row0 + MT_LIFT, i] + f * (model[row0 + MT_LIFT, i + 1] - model[row0 + MT_LIFT, i])
    clmax = model[row0 + MT_CLMAX, i] + f * (model[row0 + MT_CLMAX, i + 1] - model[row0 + MT_CLMAX, i])
    cdw = model[row0 + MT_CD_WAVE, i] + f * (model[row0 + MT_CD_WAVE, i + 1] - model[row0 + MT_CD_WAVE, i])
    suct = model[row0 + MT_SUCTION, i] + f * (model[row0 + MT_SUCTION, i + 1] - model[row0 + MT_SUCTION, i])
    ac = model[row0 + MT_AC_SHIFT, i] + f * (model[row0 + MT_AC_SHIFT, i + 1] - model[row0 + MT_AC_SHIFT, i])
    return lift, clmax, cdw, suct, ac


SUCTION_ALPHA_MAX = 0.6      # rad: the lost suction's drag cl tan(alpha) is taken at most this far


@kernel
def mach_table_correct(cl, cd, cm, alpha, attached, lift, clmax_r, cdw, suct, ac, clmax, clmin):
    """(cl, cd, cm) of a tabulated section at its Mach number from the low-speed table's values at
    alpha: attached lift scaled by the lift-slope ratio (faded out past the stall) and held within
    the Mach number's maximum lift; the zero-lift wave drag; the leading-edge suction lost in
    supersonic flow (the force turns toward the chord normal: drag cl tan(alpha)); the
    aerodynamic centre's aft shift (a nose-down moment -cl dx)."""
    cl_m = cl * (1.0 + attached * (lift - 1.0))
    hi = clmax_r * clmax
    lo = clmax_r * clmin
    if cl_m > hi:
        cl_m = hi
    elif cl_m < lo:
        cl_m = lo
    if suct != 0.0:             # (none subsonic: no tangent taken there)
        a = alpha
        if a > SUCTION_ALPHA_MAX:
            a = SUCTION_ALPHA_MAX
        elif a < -SUCTION_ALPHA_MAX:
            a = -SUCTION_ALPHA_MAX
        cd += cdw + suct * attached * cl_m * math.tan(a)
    else:
        cd += cdw
    cm -= cl_m * ac
    return cl_m, cd, cm
