"""Compressibility of an airfoil section (seed 000's "high-speed aerodynamic compression effects").

A section's table holds its low-speed coefficients; this corrects them for the section's
own Mach number (its local airspeed over the speed of sound of the air it flies in):

* **Lift** rises with the Prandtl-Glauert factor ``1/sqrt(1 - M^2)`` while the flow is
  attached (faded out past the stall, so CLmax does not grow), up to the drag-divergence
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
* **Controls**: past the aircraft's limit Mach the shock sits on the hinge and the surface
  loses most of its effect within 0.03 of Mach (seed 000: it "comes on suddenly"): the
  deflection the section sees is scaled down to 25 %.

References: Glauert (1928) / Prandtl; Lock, ARC R&M 2924 (1951) and Korn (1970) as used
in Mason's "Configuration Aerodynamics" ch. 7; the transonic similarity law for wave drag
(von Karman 1947); Hoerner, Fluid-Dynamic Drag (1965) ch. 15-16 for the magnitudes.
"""
import math

from numba import njit

JIT = dict(cache=True, nogil=True, error_model="numpy")
INLINE = dict(JIT, inline="always")

KORN_KAPPA = 0.87            # conventional sections (0.95 for supercritical ones)
LOCK_OFFSET = 0.1077         # (0.1 / 80)^(1/3): M_dd - M_crit
PG_MACH_CAP = 0.92           # Prandtl-Glauert is not applied beyond this (singular at 1)
SHOCK_STALL_LOSS = 0.4       # lift lost once the shock has fully separated the flow
SHOCK_STALL_WIDTH = 0.12     # ... over this much Mach past M_dd
AC_SHIFT = 0.12              # aft movement of the aerodynamic centre, chords
CONTROL_RESIDUAL = 0.25      # control effectiveness left past the limit Mach
CONTROL_MACH_WIDTH = 0.03    # over which it is lost


@njit(**INLINE)
def _smoothstep(x):
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    return x * x * (3.0 - 2.0 * x)


@njit(**INLINE)
def drag_divergence_mach(tc, cl):
    """Korn's drag-divergence Mach number of a section (thickness/chord tc, lift cl)."""
    return KORN_KAPPA - tc - abs(cl) * 0.1


def wave_drag_peak(tc):
    """Transonic wave-drag peak of a section of thickness ratio tc (precomputed per section)."""
    return 5.0 * tc ** (5.0 / 3.0)


@njit(**INLINE)
def mach_correct(cl, cd, cm, mach, tc, attached, peak):
    """(cl, cd, cm) at Mach number ``mach`` from the low-speed table values.

    tc: thickness/chord (0 switches the correction off); attached: 1 in attached flow,
    falling to 0 past the stall (the Prandtl-Glauert rise only applies to attached lift);
    peak: wave_drag_peak(tc)."""
    if tc <= 0.0 or mach < 0.2:
        return cl, cd, cm
    m_dd = drag_divergence_mach(tc, cl)
    m_crit = m_dd - LOCK_OFFSET
    # lift: Prandtl-Glauert up to M_dd, then the shock stall
    mp = mach if mach < m_dd else m_dd
    if mp > PG_MACH_CAP:
        mp = PG_MACH_CAP
    pg = 1.0 / math.sqrt(1.0 - mp * mp)
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


@njit(**INLINE)
def control_effectiveness(mach, limit_mach):
    """Fraction of a control deflection that still acts at this Mach number."""
    if limit_mach <= 0.0 or mach <= limit_mach:
        return 1.0
    return 1.0 - (1.0 - CONTROL_RESIDUAL) * _smoothstep((mach - limit_mach) / CONTROL_MACH_WIDTH)
