"""Afterburning turbofans as components (issue 19): thrust, fuel flow, spool and afterburner.

Every installed engine is the aircraft's one engine type (its row, layout JE_*), placed at its
own nozzle (JT_*). What each engine does:

* **Net thrust** from the engine's deck: military and maximum-afterburner thrust over their
  sea-level static values against Mach and altitude (bilinear in the table; held at its
  edges), so the intake's momentum (ram) drag, the inlet recovery and the nozzle are in the
  published installed figures the deck comes from. Between idle and military the thrust
  follows the spool: ``F = F_idle + spool (F_mil - F_idle)``. Idle is a gross thrust (a
  fraction of military, falling with the ambient pressure) less the ram drag of the idle air
  flow, ``mdot_idle V``: at speed a jet at idle drags.
* **Afterburner**: ``F = F_mil + ab (F_max - F_mil)``; it lights only with the spool near
  military and runs up at its own rate (light-off and zone staging).
* **Spool**: a first-order lag toward the throttle's setting, slower accelerating than
  decelerating; the throttle's military detent divides the dry range from the afterburner.
* **Fuel**: thrust-specific fuel consumption at military and at maximum afterburner (the
  afterburner burns several times as much per newton), growing with Mach and as
  sqrt(theta) (Mattingly, *Elements of Propulsion*, 2006, ch. 1, the low-bypass mixed-flow
  turbofan's TSFC model); at idle at least the idle gross thrust's fuel.
* **Failure**: a failed engine (state S_JET_FAILED: shot, flamed out or switched off) makes
  no thrust; it windmills, its inlet spilling and its core stalled, a drag area in the
  free stream. With no fuel left, or with the cut-off (C_CUTOFF) all engines stop.
"""
import math

from .jit import kernel
from .ground import add_force_at
from .layout import (
    C_CUTOFF, C_THROTTLE, D_FUEL_FLOW, D_JET_AB, D_JET_SPOOL, D_JET_THRUST, D_JETS_RUNNING, D_THRUST,
    H_N_JETS, H_ROW_JET, JE_AB_N, JE_AB_RATE, JE_AB_SPOOL, JE_DETENT, JE_IDLE_AIR, JE_IDLE_FRAC, JE_MIL_N,
    JE_N_ALT, JE_N_MACH, JE_SPOOL_DOWN, JE_SPOOL_UP, JE_TSFC_AB, JE_TSFC_MACH, JE_TSFC_MIL,
    JE_WINDMILL_CDA, JET_ROW_ENGINE, JET_ROW_INSTALL, JT_AXIS, JT_POS, M_CG, ROW_MASS, S_JET_AB,
    S_JET_FAILED, S_JET_SPOOL,
)
from .fuel import burn_fuel

P0 = 101325.0
T0 = 288.15


@kernel
def deck_ratio(model, first, n_m, alt_row, n_a, mach, alt_m):
    """Bilinear lookup in one of the deck's blocks (n_m rows from ``first``, each [mach, ratio at
    each altitude of ``alt_row``]); held at the table's edges."""
    # altitude column
    a = 0
    if alt_m <= model[alt_row, 0]:
        fa = 0.0
    elif alt_m >= model[alt_row, n_a - 1]:
        a = n_a - 2
        fa = 1.0
    else:
        while a < n_a - 2 and alt_m > model[alt_row, a + 1]:
            a += 1
        fa = (alt_m - model[alt_row, a]) / (model[alt_row, a + 1] - model[alt_row, a])
    # Mach row
    m = 0
    if mach <= model[first, 0]:
        fm = 0.0
    elif mach >= model[first + n_m - 1, 0]:
        m = n_m - 2
        fm = 1.0
    else:
        while m < n_m - 2 and mach > model[first + m + 1, 0]:
            m += 1
        fm = (mach - model[first + m, 0]) / (model[first + m + 1, 0] - model[first + m, 0])
    r0 = model[first + m, 1 + a] + fa * (model[first + m, 2 + a] - model[first + m, 1 + a])
    r1 = model[first + m + 1, 1 + a] + fa * (model[first + m + 1, 2 + a] - model[first + m + 1, 1 + a])
    return r0 + fm * (r1 - r0)


@kernel
def jet_point(model, spool, ab, mach, alt_m, press, temp, tas):
    """One running engine at (spool, afterburner) in this air: (net thrust N, fuel flow kg/s)."""
    je = int(model[0, H_ROW_JET]) + JET_ROW_ENGINE
    n_jets = int(model[0, H_N_JETS])
    n_m = int(model[je, JE_N_MACH])
    n_a = int(model[je, JE_N_ALT])
    alt_row = je + JET_ROW_INSTALL + n_jets
    delta = press / P0
    theta = temp / T0
    f_mil = model[je, JE_MIL_N] * deck_ratio(model, alt_row + 1, n_m, alt_row, n_a, mach, alt_m)
    idle_gross = model[je, JE_IDLE_FRAC] * model[je, JE_MIL_N] * delta
    f_idle = idle_gross - model[je, JE_IDLE_AIR] * delta / math.sqrt(theta) * tas
    f_dry = f_idle + spool * (f_mil - f_idle)
    k_tsfc = (1.0 + model[je, JE_TSFC_MACH] * mach) * math.sqrt(theta)
    fuel = model[je, JE_TSFC_MIL] * k_tsfc * (f_dry if f_dry > idle_gross else idle_gross)
    thrust = f_dry
    if ab > 0.0:
        f_max = model[je, JE_AB_N] * deck_ratio(model, alt_row + 1 + n_m, n_m, alt_row, n_a, mach, alt_m)
        thrust = f_mil + ab * (f_max - f_mil)
        fuel += ab * k_tsfc * (model[je, JE_TSFC_AB] * f_max - model[je, JE_TSFC_MIL] * f_mil)
    return thrust, (fuel if fuel > 0.0 else 0.0)


@kernel
def jet_running(model, state, ctrl, k, fuel_kg):
    """Slots read: state S_JET_FAILED.
    Slots written: none.
    """
    return state[S_JET_FAILED + k] < 0.5 and fuel_kg > 0.0 and ctrl[C_CUTOFF] < 0.5


@kernel
def jet_forces(model, state, ctrl, press, temp, rho, sound, ax, ay, az, fm, diag, fuel_kg):
    """Every engine's net thrust (or a failed one's windmilling drag) into fm at its nozzle;
    returns the fuel flow of all engines, kg/s.

    Slots read: state S_JET_AB, S_JET_SPOOL.
    Slots written: diag D_FUEL_FLOW, D_JETS_RUNNING, D_JET_AB, D_JET_SPOOL, D_JET_THRUST, D_THRUST.
    """
    je = int(model[0, H_ROW_JET]) + JET_ROW_ENGINE
    n_jets = int(model[0, H_N_JETS])
    tas = math.sqrt(ax * ax + ay * ay + az * az)
    mach = tas / sound
    alt_m = -state[2]
    cgx = model[ROW_MASS, M_CG]
    cgy = model[ROW_MASS, M_CG + 1]
    cgz = model[ROW_MASS, M_CG + 2]
    total = 0.0
    fuel = 0.0
    spool_sum = 0.0
    ab_sum = 0.0
    running = 0
    for k in range(n_jets):
        row = je + JET_ROW_INSTALL + k
        rx = model[row, JT_POS] - cgx
        ry = model[row, JT_POS + 1] - cgy
        rz = model[row, JT_POS + 2] - cgz
        if jet_running(model, state, ctrl, k, fuel_kg):
            thrust, ff = jet_point(model, state[S_JET_SPOOL + k], state[S_JET_AB + k], mach, alt_m, press, temp, tas)
            add_force_at(thrust * model[row, JT_AXIS], thrust * model[row, JT_AXIS + 1],
                         thrust * model[row, JT_AXIS + 2], rx, ry, rz, fm)
            total += thrust
            fuel += ff
            spool_sum += state[S_JET_SPOOL + k]
            ab_sum += state[S_JET_AB + k]
            running += 1
        elif tas > 1.0:
            # windmilling: drag along the airflow
            d = -0.5 * rho * tas * model[je, JE_WINDMILL_CDA]
            add_force_at(d * ax, d * ay, d * az, rx, ry, rz, fm)
            total += d * tas
    diag[D_JET_THRUST] = total
    diag[D_THRUST] = total
    diag[D_FUEL_FLOW] = fuel
    diag[D_JET_SPOOL] = spool_sum / running if running > 0 else 0.0
    diag[D_JET_AB] = ab_sum / running if running > 0 else 0.0
    diag[D_JETS_RUNNING] = running
    return fuel


@kernel
def throttle_targets(model, ctrl, spool):
    """(spool, afterburner) the throttle asks for: below the military detent the spool, above it
    the afterburner (lit only once the spool is up)."""
    je = int(model[0, H_ROW_JET]) + JET_ROW_ENGINE
    th = ctrl[C_THROTTLE]
    th = 0.0 if th < 0.0 else (1.0 if th > 1.0 else th)
    detent = model[je, JE_DETENT]
    n = th / detent if th < detent else 1.0
    ab = 0.0
    if th > detent and spool >= model[je, JE_AB_SPOOL]:
        ab = (th - detent) / (1.0 - detent)
    return n, ab


@kernel
def jet_advance(model, state, ctrl, fuel_flow, fuel_kg, dt):
    """Spools and afterburners one step toward the throttle, and the fuel burned.

    Slots read: state S_JET_AB, S_JET_SPOOL.
    Slots written: state S_JET_AB, S_JET_SPOOL.
    """
    je = int(model[0, H_ROW_JET]) + JET_ROW_ENGINE
    for k in range(int(model[0, H_N_JETS])):
        n = state[S_JET_SPOOL + k]
        if jet_running(model, state, ctrl, k, fuel_kg):
            n_t, ab_t = throttle_targets(model, ctrl, n)
        else:
            n_t, ab_t = 0.0, 0.0
        tau = model[je, JE_SPOOL_UP] if n_t > n else model[je, JE_SPOOL_DOWN]
        state[S_JET_SPOOL + k] = n + (n_t - n) * (1.0 - math.exp(-dt / tau))
        ab = state[S_JET_AB + k]
        step = model[je, JE_AB_RATE] * dt
        if ab_t < ab:
            step *= 2.0                       # cut back (or out) twice as fast as it runs up
        if ab_t > ab + step:
            ab += step
        elif ab_t < ab - step:
            ab -= step
        else:
            ab = ab_t
        state[S_JET_AB + k] = ab if ab > 0.0 else 0.0
    burn_fuel(model, state, fuel_flow * dt)


@kernel
def jet_settle(model, state, ctrl):
    """The engines in equilibrium with the throttle (for trims): spool and afterburner where the
    throttle leaves them.

    Slots read: state S_JET_FAILED.
    Slots written: state S_JET_AB, S_JET_SPOOL.
    """
    for k in range(int(model[0, H_N_JETS])):
        if state[S_JET_FAILED + k] >= 0.5:
            state[S_JET_SPOOL + k] = 0.0
            state[S_JET_AB + k] = 0.0
            continue
        n_t, _ = throttle_targets(model, ctrl, 1.0)
        _, ab_t = throttle_targets(model, ctrl, n_t)
        state[S_JET_SPOOL + k] = n_t
        state[S_JET_AB + k] = ab_t
