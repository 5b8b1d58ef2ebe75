"""Reading a section's airfoil tables: lift, drag and moment coefficients at an angle of attack
and a control deflection (the -10 / 0 / +10 degree curves interpolated, and extrapolated to
-30 deg at most), with the slats open or shut, and the attached lift slope. Split from aero.py,
which flies the sections with them."""
from __future__ import annotations

from .jit import hot_kernel, kernel
from .layout import (
    SEC_TABLE, TABLE_ALPHA_MIN_DEG, TABLE_N,
    TABLE_STEP_DEG, T_CD, T_CL, T_CM, T_FULL, T_FULL_STEPS, T_SLOPE, SEC_SLAT_TABLE,
)

MAX_DEFLECTION_STEPS = 3.0     # a negative deflection: the -10 curve extrapolated to -30 deg at most
RAD2DEG = 57.29577951308232


@kernel
def _lookup(alpha_rad, delta_rad):
    """Table index and fraction for an angle of attack (any angle), and the weight and side
    (0: the -10 degree curve, 2: the +10 degree curve) of a control deflection, in 10-degree
    steps: the curves are blended linearly (seed 000); a negative deflection extrapolates the
    -10 curve to -30 degrees at most, a positive one past +10 runs toward the table's
    full-deflection curve (_deflected)."""
    a = alpha_rad * RAD2DEG
    if a >= 180.0 or a < -180.0:
        a = (a + 180.0) % 360.0 - 180.0
    x = (a - TABLE_ALPHA_MIN_DEG) / TABLE_STEP_DEG
    i = int(x)
    if i > TABLE_N - 2:
        i = TABLE_N - 2
    elif i < 0:
        i = 0
    w = delta_rad * RAD2DEG / 10.0
    side = 2
    if w < 0.0:
        w = -w
        side = 0
        if w > MAX_DEFLECTION_STEPS:
            w = MAX_DEFLECTION_STEPS
    return i, x - i, w, side


@kernel
def saturated_deflection(tables, t, delta_rad):
    """A negative deflection past 10 degrees as the table's curves take it: for a table with
    a full-deflection curve the -10 curve is carried on by the share of the straight line the
    full curve keeps on the + side at zero incidence (T_FULL_STEPS column 1), up to the same
    travel (a plain control loses effectiveness past 10-15 deg both ways: DATCOM's K');
    without one (column 1 zero) the straight line, the deflection unchanged. Applied once per
    section and step where the deflection is read (section_airflow), out of the hot lookup."""
    k = tables[t, T_FULL_STEPS, 1]
    w = -delta_rad * RAD2DEG / 10.0
    if k > 0.0 and w > 1.0:
        wf = tables[t, T_FULL_STEPS, 0]
        if w > wf:
            w = wf
        return -(1.0 + (w - 1.0) * (k - 1.0) / (wf - 1.0)) * 10.0 / RAD2DEG
    return delta_rad


@kernel
def _row(tables, t, r, i, f):
    a = tables[t, r, i]
    return a + f * (tables[t, r, i + 1] - a)


@kernel
def _deflected(tables, t, c, i, f, w, side, undeflected):
    """Coefficient c (T_CL, T_CD or T_CM) at a deflection of w steps to ``side``, given its
    undeflected value: up to 10 degrees between the 0 and +/-10 curves; past +10 degrees
    between the +10 curve and the full-deflection curve (at T_FULL_STEPS), held there beyond.
    With no measured full curve that one is the +10 curve extrapolated to 30 degrees, so the
    blend is the same straight line as below 10 degrees."""
    if side == 2 and w > 1.0:
        wf = tables[t, T_FULL_STEPS, 0]
        if w > wf:
            w = wf
        c10 = _row(tables, t, c + 2, i, f)
        return c10 + (w - 1.0) / (wf - 1.0) * (_row(tables, t, T_FULL + c // 3, i, f) - c10)
    return undeflected + w * (_row(tables, t, c + side, i, f) - undeflected)


@hot_kernel
def coefficients(tables, t, alpha_rad, delta_rad):
    """(cl, cd, cm) of table t at alpha (any angle) and control deflection delta."""
    i, f, w, side = _lookup(alpha_rad, delta_rad)
    cl = _row(tables, t, T_CL + 1, i, f)
    cd = _row(tables, t, T_CD + 1, i, f)
    cm = _row(tables, t, T_CM + 1, i, f)
    if w != 0.0:
        cl = _deflected(tables, t, T_CL, i, f, w, side, cl)
        cd = _deflected(tables, t, T_CD, i, f, w, side, cd)
        cm = _deflected(tables, t, T_CM, i, f, w, side, cm)
    if cd < 0.0:
        cd = 0.0
    return cl, cd, cm


@kernel
def _cl_slope_slat(tables, model, row, slat, alpha_rad, delta_rad):
    """_cl_slope of a section whose slat is ``slat`` open (0..1): its closed and open tables
    blended (seed 000: a slatted section has a curve for each)."""
    cl, slope = _cl_slope(tables, int(model[row, SEC_TABLE]), alpha_rad, delta_rad)
    if slat > 0.0:
        cl2, slope2 = _cl_slope(tables, int(model[row, SEC_SLAT_TABLE]), alpha_rad, delta_rad)
        cl += slat * (cl2 - cl)
        slope += slat * (slope2 - slope)
    return cl, slope


@kernel
def _coefficients_slat(tables, model, row, slat, alpha_rad, delta_rad):
    """coefficients of a section whose slat is ``slat`` open, its two tables blended."""
    cl, cd, cm = coefficients(tables, int(model[row, SEC_TABLE]), alpha_rad, delta_rad)
    if slat > 0.0:
        cl2, cd2, cm2 = coefficients(tables, int(model[row, SEC_SLAT_TABLE]), alpha_rad, delta_rad)
        cl += slat * (cl2 - cl)
        cd += slat * (cd2 - cd)
        cm += slat * (cm2 - cm)
    return cl, cd, cm


@kernel
def _cl_slope(tables, t, alpha_rad, delta_rad):
    """Lift coefficient and the undeflected lift-curve slope (per rad) at alpha."""
    i, f, w, side = _lookup(alpha_rad, delta_rad)
    cl = _row(tables, t, T_CL + 1, i, f)
    if w != 0.0:
        cl = _deflected(tables, t, T_CL, i, f, w, side, cl)
    return cl, _row(tables, t, T_SLOPE, i, f)


@kernel
def cl_cm_slope(tables, t, alpha_rad, delta_rad):
    """(cl, cm, the undeflected lift-curve slope per rad) of table t: what coefficients and
    _cl_slope give, from one lookup (the elastic twist's three, aero.wing_twist)."""
    i, f, w, side = _lookup(alpha_rad, delta_rad)
    cl = _row(tables, t, T_CL + 1, i, f)
    cm = _row(tables, t, T_CM + 1, i, f)
    if w != 0.0:
        cl = _deflected(tables, t, T_CL, i, f, w, side, cl)
        cm = _deflected(tables, t, T_CM, i, f, w, side, cm)
    return cl, cm, _row(tables, t, T_SLOPE, i, f)
