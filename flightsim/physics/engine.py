"""Piston engine and supercharger (seed 000): an RPM / manifold pressure / swept-volume model.

The mass of charge the engine takes per cycle follows from the manifold pressure and the
charge temperature, ``m_cycle = eta_v * V_swept * MAP / (R sqrt(T_charge T_ref))`` (the walls
heat a cool charge more: T_CHARGE_REF), twice per crankshaft revolution apart for a
four-stroke; that fixes the fuel burned and the indicated work.
The crankshaft torque is

    Q = (IMEP - FMEP - PMEP) * V_swept / (4 pi) - Q_supercharger

* IMEP: indicated work per swept volume, ``eta_i * min(FAR, FAR_stoich) * LHV * m_cycle / V_swept``
  (the automatic mixture runs rich at high boost; fuel beyond stoichiometric cools, it
  does not burn);
* FMEP: friction, growing with rpm squared;
* PMEP: pumping, ``p_exhaust - MAP``: a loss below ambient (throttled), a gain when the
  supercharger fills the cylinders above the exhaust back pressure (so the same boost
  gives more power higher up, where the exhaust pushes against less air);
* the supercharger: centrifugal stages in series, each doing a specific work that grows as
  rpm squared (impeller tip speed squared) and raising the pressure by
  ``(1 + eta_c w / (cp T_in))^(gamma/(gamma-1))``. Its pressure ratio multiplies the (ram)
  intake pressure: boost proportional to ambient pressure and to rpm squared. It costs
  ``m_dot * w`` of crankshaft power in whatever gear it runs, so the high gear, with the
  higher critical altitude, costs more. An aftercooler cools the charge toward its own
  coolant temperature.
* the DB 601/605's supercharger instead turns through a fluid coupling whose filling an
  aneroid sets: below the full-throttle height the impeller slips to just the speed that
  gives the capped boost (its work, and the charge's heating, fall with it), so the boost
  holds and the power changes smoothly with altitude, with no gear step; the crankshaft still
  drives the coupling at full speed and pays the impeller's power divided by the speed ratio.

Throttle (seed 000): a flow control. Fully open it passes the air the engine takes at the
manifold-pressure cap (military, or WEP through the gate) at maximum rpm; closed, only
enough to idle on the ground; in between, in proportion. The engine takes the lower of
what the throttle passes and what it can swallow at the manifold pressure the
supercharger can deliver (capped), and the manifold pressure follows from that flow. So
at the critical altitude and above, the throttle is wide open and the power falls with
the air; below it the cap holds the boost (reducing rpm at the critical altitude lowers
the boost, lower down it does not).

Fuel flow is the fuel/air ratio times the air flow. All functions take the engine and
supercharger rows of the model array (layout EN_*, SC_*).

A carburetted engine with a manual mixture (EN_CARBURETTOR, the Cessna 172's O-320) meters its
fuel by the venturi instead of the automatic schedule, takes its intake air heated when the
carburettor heat is pulled, loses air to the ice in its bore, and makes its indicated work by the
mixture's equivalence ratio (physics/carburettor.py).
"""
import math

import numpy as np

from .atmosphere import CP_AIR, KAPPA_EXP
from .carburettor import bore_open, carburettor_temperature, exhaust_gas_temperature, heated_intake
from .carburettor import metered_far, mixture_power
from .jit import entry, kernel
from .layout import (
    EN_DISP, EN_ENRICH_MAP, EN_EXH_BACK, EN_FAR_LEAN, EN_FAR_RICH, EN_FAR_STOICH, EN_FMEP0,
    EN_FMEP2, EN_IDLE_FLOW, EN_IND_EFF, EN_LHV, EN_MAP_MIL, EN_MAP_WEP, EN_OMEGA_MAX, EN_VOL_EFF,
    SC_AC_EFF, SC_AC_T, SC_DRIVE_EFF, SC_EFF, SC_FLUID, SC_RAM, SC_STAGES, SC_WORK_HIGH, SC_WORK_LOW,
    EN_CARBURETTOR, EN_RATED_POWER,
)

R_AIR = 287.05          # J/(kg K)
# The charge an engine takes at a given manifold pressure falls with its temperature only as
# 1 / sqrt(T): a cooler charge is heated more by the hot ports and cylinder walls before the
# valve closes (Taylor, The Internal-Combustion Engine in Theory and Practice, vol. 1 (1985),
# ch. 6: volumetric efficiency rising as sqrt(T_inlet)); the same exponent the engine test
# standards correct power with (SAE J1349: sqrt(T / T_ref) for spark ignition), and Lycoming's
# operator's manuals: "correct power approximately 1% for each 10 [F] variation in intake air
# temperatures" (O-540, sec. 3), 1 % per 5.6 K, where sqrt(T) at 288 K gives 1 % per 5.8 K.
# So the cylinder's air is p / (R sqrt(T T_ref)), equal to the perfect gas's at T_ref.
T_CHARGE_REF = 288.15   # K
FOUR_PI = 4.0 * math.pi
OMEGA_FRICTION = 5.0    # rad/s: friction and pumping torques are regularised below this speed


@kernel
def supercharger_stages(work, n_stages, eff, t_in):
    """Pressure ratio and outlet temperature (K) of n centrifugal stages in series, each
    doing ``work`` J/kg with adiabatic efficiency ``eff``, from inlet temperature t_in."""
    pr = 1.0
    t = t_in
    for _ in range(n_stages):
        pr *= (1.0 + eff * work / (CP_AIR * t)) ** KAPPA_EXP
        t += work / CP_AIR
    return pr, t


@kernel
def engine_state(model, row, omega, throttle, wep, gear, firing, p_amb, t_amb, qbar, health, lean, heat, ice):
    """The engine at crankshaft speed omega (rad/s) with the intake at ambient pressure and
    temperature plus ram (qbar = dynamic pressure of the flight speed).

    Returns (crank torque N m, manifold pressure Pa, air flow kg/s, fuel flow kg/s,
    supercharger power W, fuel energy burned W, charge temperature K, carburettor air
    temperature K, exhaust gas temperature K; the last two 0 without a carburettor). ``row`` is
    the engine row; the supercharger row follows it. With firing = 0 the engine only pumps and
    rubs. ``health`` (0..1, physics/damage.py): the share of its indicated work a damaged engine
    still makes from the charge it burns (the rest of the fuel's energy is heat). A carburetted
    engine (EN_CARBURETTOR): ``lean`` the mixture lever (0 full rich .. 1 cut-off), ``heat`` the
    carburettor heat (0..1), ``ice`` the ice in its bore, kg; other engines ignore them.

    Long: the engine's pressures, power and temperatures at one crankshaft speed, in the order they
    follow from each other. One numba kernel, kept whole: a split changes which code numba inlines
    and so the last bits of the kept regression flights (physics/jit.py).
    """
    sc = row + 1
    w_max = model[row, EN_OMEGA_MAX]
    ratio = omega / w_max
    if ratio < 0.0:
        ratio = 0.0
    disp = model[row, EN_DISP]
    # intake: ram recovery of the dynamic pressure, with its (isentropic) temperature rise
    p_in = p_amb + model[sc, SC_RAM] * qbar
    t_in = t_amb * (p_in / p_amb) ** (1.0 / KAPPA_EXP)
    carburettor = model[row, EN_CARBURETTOR] > 0.5
    if carburettor:
        t_in = heated_intake(model, row, t_in, heat, ratio)
    w_rated = model[sc, SC_WORK_HIGH] if gear > 0.5 and model[sc, SC_WORK_HIGH] > 0.0 else model[sc, SC_WORK_LOW]
    work = w_rated * ratio * ratio
    n_st = int(model[sc, SC_STAGES])
    cap = model[row, EN_MAP_WEP] if wep > 0.5 else model[row, EN_MAP_MIL]
    coupling = 1.0                      # impeller speed / its speed locked to the crankshaft
    if model[sc, SC_FLUID] > 0.5:
        # the fluid coupling slips to give just the capped boost (one stage); the crankshaft
        # still turns the coupling's driving half at full speed, so the impeller's power costs
        # the crankshaft that power / coupling (the slip is heat in the oil)
        w_need = (cap / p_in) ** (1.0 / KAPPA_EXP) - 1.0
        w_need = w_need * CP_AIR * t_in / model[sc, SC_EFF] if w_need > 0.0 else 0.0
        if w_need < work and work > 0.0:
            coupling = math.sqrt(w_need / work)
            if coupling < 0.05:
                coupling = 0.05
            work = work * coupling * coupling
        if w_need < w_rated:
            w_rated = w_need                # what it does at maximum rpm (the throttle's full-open flow)
    pr, t_out = supercharger_stages(work, n_st, model[sc, SC_EFF], t_in)
    t_ac = model[sc, SC_AC_T]
    t_charge = t_out - model[sc, SC_AC_EFF] * (t_out - t_ac) if t_out > t_ac else t_out
    map_avail = p_in * pr
    if map_avail > cap:
        map_avail = cap
    # charge mass per unit manifold pressure per radian of crankshaft, at the charge's effective
    # temperature (the walls' heat: T_CHARGE_REF)
    t_charge_eff = math.sqrt(t_charge * T_CHARGE_REF)
    per_pa_rad = model[row, EN_VOL_EFF] * disp / (FOUR_PI * R_AIR * t_charge_eff)
    # the throttle: a flow control, full open = the flow the engine takes at the cap at
    # maximum rpm (charge heated by the supercharger at maximum rpm), whatever rpm it turns
    thr = throttle
    if thr < 0.0:
        thr = 0.0
    elif thr > 1.0:
        thr = 1.0
    idle = model[row, EN_IDLE_FLOW]
    t_rated = t_in + n_st * w_rated / CP_AIR
    if t_rated > t_ac:
        t_rated -= model[sc, SC_AC_EFF] * (t_rated - t_ac)
    allowed = (model[row, EN_VOL_EFF] * disp / (FOUR_PI * R_AIR * math.sqrt(t_rated * T_CHARGE_REF)) * w_max * cap
               * (idle + (1.0 - idle) * thr))
    if carburettor:
        allowed *= bore_open(model, row, ice, thr)
    manifold = map_avail
    if omega > 1e-6 and allowed < per_pa_rad * omega * map_avail:
        manifold = allowed / (per_pa_rad * omega)
    air = per_pa_rad * omega * manifold if omega > 0.0 else 0.0
    # automatic mixture: lean at cruise, rich (cooling) at high boost
    enrich = model[row, EN_ENRICH_MAP]
    x = (manifold - enrich) / (model[row, EN_MAP_MIL] - enrich)
    if x < 0.0:
        x = 0.0
    elif x > 1.0:
        x = 1.0
    x = x * x * (3.0 - 2.0 * x)
    far = model[row, EN_FAR_LEAN] + (model[row, EN_FAR_RICH] - model[row, EN_FAR_LEAN]) * x
    burned_far = far if far < model[row, EN_FAR_STOICH] else model[row, EN_FAR_STOICH]
    t_carb = 0.0
    if carburettor:
        # the venturi meters the fuel; the work follows the mixture's equivalence ratio
        far = metered_far(model, row, lean, p_in / (R_AIR * t_in))
        burned_far = model[row, EN_FAR_STOICH] * mixture_power(far / model[row, EN_FAR_STOICH])
        t_carb = carburettor_temperature(t_in, far, manifold, p_in)
    # mean effective pressures (Pa) -> torque = mep * disp / (4 pi)
    charge_density = model[row, EN_VOL_EFF] * manifold / (R_AIR * t_charge_eff)   # kg per m3 swept
    imep = 0.0
    fuel = 0.0
    burned = 0.0
    if firing > 0.5:
        imep = model[row, EN_IND_EFF] * burned_far * model[row, EN_LHV] * charge_density * health
        fuel = far * air
        burned = burned_far * air * model[row, EN_LHV]
    fmep = model[row, EN_FMEP0] + model[row, EN_FMEP2] * ratio * ratio
    pmep = model[row, EN_EXH_BACK] * p_amb - manifold
    # losses act against the motion, regularised through zero speed
    s = omega / OMEGA_FRICTION
    if s > 1.0:
        s = 1.0
    elif s < -1.0:
        s = -1.0
    torque = (imep - s * (fmep + pmep)) * disp / FOUR_PI
    # the supercharger: work on every kg the engine takes
    sc_power = air * n_st * work / (model[sc, SC_DRIVE_EFF] * coupling)
    if omega > 1e-6:
        torque -= sc_power / omega
    egt = 0.0
    if carburettor:
        egt = exhaust_gas_temperature(model, row, t_charge, far if firing > 0.5 else 0.0,
                                      torque * omega / model[row, EN_RATED_POWER])
    return torque, manifold, air, fuel, sc_power, burned, t_charge, t_carb, egt


@entry
def engine_point(model, row, omega, throttle, wep, gear, p_amb, t_amb, qbar, lean=0.0, heat=0.0, ice=0.0):
    """engine_state for a running engine, as an array (for tools and tests):
    [torque N m, power W, MAP Pa, air kg/s, fuel kg/s, supercharger W, burned W, T_charge K,
    T_carburettor K, EGT K]."""
    q, m, a, f, scp, b, tc, tcarb, egt = engine_state(model, row, omega, throttle, wep, gear, 1.0, p_amb, t_amb,
                                                      qbar, 1.0, lean, heat, ice)
    out = np.empty(10)
    out[0] = q
    out[1] = q * omega
    out[2] = m
    out[3] = a
    out[4] = f
    out[5] = scp
    out[6] = b
    out[7] = tc
    out[8] = tcarb
    out[9] = egt
    return out
