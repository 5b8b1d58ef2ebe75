"""The powerplant as components (seed 000): engine -> propeller, fuel tanks, coolers.

* ``plant_forces`` (inside the one derivative per step): the propeller's blade-element
  loads (thrust, P-factor moments, in-plane force), the engine's torque, the torque the
  airframe feels (the air's torque on the blades plus the rotor's spin-up reaction), the
  gyroscopic moment of the spinning propeller and crankshaft (``-omega x H``), exhaust
  jet thrust less intake momentum drag, radiator and oil-cooler drag; the rates of the
  powerplant states go to scratch rows of ``ws``.
* ``plant_advance`` (once per step, after the rigid body): rotor speed from the torque
  balance (rotor inertia: the rpm follows torque minus propeller drag), the constant-speed
  governor and its stops, feathering, the induced-velocity states, fuel burned from the
  tanks in feed order, coolant and oil temperatures, the supercharger's automatic gear
  change with hysteresis.
* ``resum_mass``: mass, CG and inertia summed from the dry aircraft and the fuel left in
  every tank, every derivative (seed 000: "each flight-model cycle, the vehicle's
  components are summed up").
* ``plant_trim``: the powerplant in equilibrium for a given flight condition (for trims):
  the governor's pitch (or, at a stop, the rpm) at which engine and propeller torques
  balance, with the induced velocities converged, and the coolers at their steady
  temperatures.
"""
import math

import numpy as np

from .jit import entry, kernel
from .aero import wind_at
from .atmosphere import isa
from .engine import engine_state
from .ground import add_force_at
from .layout import (
    C_BLOWER, C_CUTOFF, C_FEATHER, C_PROP_RPM, C_STARTER, C_THROTTLE, C_WEP, CL_AREA, CL_CDA_MAX,
    CL_CDA_MIN, CL_DUCT, CL_EFF, CL_HEAT_CAP, CL_OIL, CL_POS, CL_RAD, CL_T_OPEN, CL_T_RANGE,
    D_BLADE_ANGLE, D_COOLANT_T, D_ENGINE_LOAD, D_EXHAUST_THRUST, D_FUEL_FLOW, D_FUEL_KG, D_MAP, D_OIL_T, D_PROP_EFF,
    D_PROP_TORQUE, D_RPM, D_SC_GEAR, D_SC_POWER, D_SHAFT_POWER, D_THRUST,
    EN_CRANK_SENSE, EN_EXH_POS, EN_EXH_VJ, EN_GEAR, EN_HEAT_COOLANT, EN_HEAT_OIL, EN_INERTIA,
    EN_MAP_MIL, EN_OMEGA_FIRE, EN_OMEGA_IDLE, EN_OMEGA_MAX, EN_RATED_POWER, EN_STARTER_TORQUE,
    H_N_PROP_ST, H_N_TANKS, H_ROW_PLANT, M_CG, M_INERTIA, M_INV_INERTIA, M_MASS, PLANT_COOL,
    PLANT_ENGINE, PLANT_PROP, PLANT_SC, PLANT_STATIONS, PR_FEATHER, PR_GOV_GAIN,
    PR_GOV_LEAD, PR_GOV_MAX, PR_GOV_MIL, PR_GOV_MIN, PR_INERTIA, PR_PITCH_MAX, PR_PITCH_MIN, PR_PITCH_RATE,
    PR_POS, PR_SENSE, ROW_MASS, S_COOLANT_T, S_ENG_OMEGA, S_FUEL_USED, S_INFLOW, S_OIL_T, S_OMEGA,
    S_POS, S_PROP_PITCH, S_QUAT, S_RAD_FLAP, S_SC_GEAR, S_SWIRL, S_VEL, SC_DOWN_PA, SC_UP_PA,
    SC_WORK_HIGH, TK_FUEL, TK_POS, TK_SIZE, WS_PLANT, N_CTRL, N_STATE,
)
from .layout import GUN_AMMO, GUN_BOX_POS, GUN_BOX_SIZE, GUN_ROUND_MASS, H_N_GUNS, H_ROW_DRY, H_ROW_GUN, S_GUN_FIRED
from .layout import (
    D_OIL_PRESSURE, EN_IND_EFF, H_DAMAGED, H_N_SECTIONS, H_N_STORES, H_ROW_SECTION, H_ROW_STORE, H_STORES_LOADED,
    S_PROP_DAMAGE, SEC_DAMAGE, SEC_MASS, SEC_POS, ST_MASS, ST_POS, ST_SIZE,
)
from .damage import block_to_oil, cooling_factors, engine_factor, oil_pressure
from .layout import (
    DM_COOLANT_KG, DM_N_CORES, DM_OIL_KG, H_N_PARTS, H_ROW_DMG, H_ROW_PART, PART_OIL_COOLER, PART_RADIATOR,
    PT_INDEX, PT_KIND, PT_POS, S_COOLANT_LOST, S_OIL_LOST,
)
from .stores import store_on, tank_carried
from .propeller import blade_loads, momentum_targets
from .fuel import burn_fuel, fuel_on_board
from .jet import jet_advance, jet_forces, jet_settle
from .layout import H_N_JETS
from .quat import dcm_from_state

CP_AIR = 1005.0
TAU_INFLOW = 0.05           # s: lag of the induced velocities (dynamic inflow)
COOLER_FLOW_CLOSED = 0.4    # duct flow with the exit flap closed, fraction of open
SEIZE_STOP_S = 0.3          # s: a seized engine stops its rotor about this fast
# ws scratch rows from the first powerplant row P (see WS_PLANT):
#   P: thrust per blade station, P+1: torque per station, P+2/P+3: induced-velocity targets,
#   P+4: [d omega/dt, fuel flow, d T_coolant/dt, d T_oil/dt, ambient pressure, coolant flap]
W_DOMEGA, W_FUEL, W_DTC, W_DTO, W_PRESS, W_FLAP = 0, 1, 2, 3, 4, 5


@kernel
def _box_inertia(m, lx, ly, lz, dx, dy, dz):
    """Inertia of a solid box of mass m and sides lx, ly, lz whose centre sits (dx, dy, dz)
    from the CG: (ixx, iyy, izz, ixy, ixz, iyz) to add to the aircraft's tensor (own
    inertia plus the parallel-axis shift; products of inertia with the tensor's sign)."""
    return (m * ((ly * ly + lz * lz) / 12.0 + dy * dy + dz * dz),
            m * ((lx * lx + lz * lz) / 12.0 + dx * dx + dz * dz),
            m * ((lx * lx + ly * ly) / 12.0 + dx * dx + dy * dy),
            -m * dx * dy, -m * dx * dz, -m * dy * dz)


@kernel
def _load_box(model, state, k, n_t, row0, g0, n_g):
    """Load k of what burns off, is fired or is released: tanks first (k < n_t), then gun
    belts, then stores: (mass kg, box sides lx, ly, lz, centre x, y, z). A tank's fuel is a
    box whose height shrinks with its fill, a belt a box whose length shrinks as it feeds,
    a store its own box while it is on. Mass <= 0: empty or gone.

    Slots read: state S_FUEL_USED, S_GUN_FIRED.
    Slots written: none.
    """
    if k < n_t:
        row = row0 + k
        cap = model[row, TK_FUEL]
        f = cap - state[S_FUEL_USED + k]
        if f <= 0.0 or not tank_carried(model, state, row):
            return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0     # empty, or a drop tank gone with its store
        fill = f / cap
        return (f, model[row, TK_SIZE], model[row, TK_SIZE + 1], model[row, TK_SIZE + 2] * fill,
                model[row, TK_POS], model[row, TK_POS + 1], model[row, TK_POS + 2])
    if k >= n_t + n_g:
        s = k - n_t - n_g
        if not store_on(model, state, s):
            return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        row = int(model[0, H_ROW_STORE]) + s
        return (model[row, ST_MASS], model[row, ST_SIZE], model[row, ST_SIZE + 1], model[row, ST_SIZE + 2],
                model[row, ST_POS], model[row, ST_POS + 1], model[row, ST_POS + 2])
    i = k - n_t
    row = g0 + i
    n_left = model[row, GUN_AMMO] - state[S_GUN_FIRED + i]
    f = n_left * model[row, GUN_ROUND_MASS]
    if n_left <= 0.0 or f <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    fill = n_left / model[row, GUN_AMMO]
    return (f, model[row, GUN_BOX_SIZE], model[row, GUN_BOX_SIZE + 1] * fill, model[row, GUN_BOX_SIZE + 2],
            model[row, GUN_BOX_POS], model[row, GUN_BOX_POS + 1], model[row, GUN_BOX_POS + 2])


@kernel
def resum_mass(model, state):
    """ROW_MASS = the dry aircraft plus the fuel left in each tank and the rounds left in
    each gun's ammunition box and the stores still on, less the sections shot away and the
    coolant and oil leaked away: mass,
    CG and the full inertia tensor (each tank's fuel a solid box whose height shrinks with
    its fill, each belt a box whose length shrinks as it feeds, a store its box, a section
    lost as a point mass at its quarter chord; parallel-axis shifted), and the inverse
    inertia. The dry row is
    model[0, H_ROW_DRY] (0: nothing burns off, nothing to do). Scalars only: no
    allocation per step.

    Slots read: state S_COOLANT_LOST, S_OIL_LOST.
    Slots written: none.
    """
    dry = int(model[0, H_ROW_DRY])
    if dry <= 0:
        return
    base = int(model[0, H_ROW_PLANT])
    n_t = int(model[0, H_N_TANKS]) if base > 0 else 0
    row0 = base + PLANT_STATIONS + int(model[0, H_N_PROP_ST])
    n_g = int(model[0, H_N_GUNS])
    g0 = int(model[0, H_ROW_GUN])
    n_s = int(model[0, H_N_STORES]) if model[0, H_STORES_LOADED] > 0.0 else 0
    # one pass: mass, first moments and the inertia tensor about the body origin, then the
    # tensor moved to the new CG (parallel axes: I_cg = I_origin - m (|c|^2 E - c c^T))
    I0 = M_INERTIA
    md = model[dry, M_MASS]
    dx = model[dry, M_CG]
    dy = model[dry, M_CG + 1]
    dz = model[dry, M_CG + 2]
    m = md
    sx = md * dx
    sy = md * dy
    sz = md * dz
    ixx = model[dry, I0] + md * (dy * dy + dz * dz)
    iyy = model[dry, I0 + 4] + md * (dx * dx + dz * dz)
    izz = model[dry, I0 + 8] + md * (dx * dx + dy * dy)
    ixy = model[dry, I0 + 1] - md * dx * dy
    ixz = model[dry, I0 + 2] - md * dx * dz
    iyz = model[dry, I0 + 5] - md * dy * dz
    for k in range(n_t + n_g + n_s):
        f, lx, ly, lz, px, py, pz = _load_box(model, state, k, n_t, row0, g0, n_g)
        if f <= 0.0:
            continue
        m += f
        sx += f * px
        sy += f * py
        sz += f * pz
        a, b, c, d, e, g = _box_inertia(f, lx, ly, lz, px, py, pz)
        ixx += a
        iyy += b
        izz += c
        ixy += d
        ixz += e
        iyz += g
    # what battle damage takes away, as point masses: sections shot away (a wingtip, a tail
    # surface: at their quarter chords; their own small inertia stays, under 1 % of the shift)
    # and the coolant and oil leaked away (from their radiators and oil cooler; the dry
    # aircraft holds them full)
    d = int(model[0, H_ROW_DMG])
    n_sec = int(model[0, H_N_SECTIONS]) if model[0, H_DAMAGED] > 0.0 else 0
    n_parts = int(model[0, H_N_PARTS]) if d > 0 and (state[S_COOLANT_LOST] > 0.0 or state[S_COOLANT_LOST + 1] > 0.0
                                                     or state[S_OIL_LOST] > 0.0) else 0
    for k in range(n_sec + n_parts):
        if k < n_sec:
            row = int(model[0, H_ROW_SECTION]) + k
            if model[row, SEC_DAMAGE] < 1.0 or model[row, SEC_MASS] <= 0.0:
                continue
            f = -model[row, SEC_MASS]
            c0 = SEC_POS
        else:
            row = int(model[0, H_ROW_PART]) + k - n_sec
            kind = int(model[row, PT_KIND])
            if kind == PART_RADIATOR:
                f = -state[S_COOLANT_LOST + int(model[row, PT_INDEX])] * model[d, DM_COOLANT_KG] / model[d, DM_N_CORES]
            elif kind == PART_OIL_COOLER:
                f = -state[S_OIL_LOST] * model[d, DM_OIL_KG]
            else:
                continue
            if f == 0.0:
                continue
            c0 = PT_POS
        px = model[row, c0]
        py = model[row, c0 + 1]
        pz = model[row, c0 + 2]
        m += f
        sx += f * px
        sy += f * py
        sz += f * pz
        ixx += f * (py * py + pz * pz)
        iyy += f * (px * px + pz * pz)
        izz += f * (px * px + py * py)
        ixy -= f * px * py
        ixz -= f * px * pz
        iyz -= f * py * pz
    cx = sx / m
    cy = sy / m
    cz = sz / m
    ixx -= m * (cy * cy + cz * cz)
    iyy -= m * (cx * cx + cz * cz)
    izz -= m * (cx * cx + cy * cy)
    ixy += m * cx * cy
    ixz += m * cx * cz
    iyz += m * cy * cz
    model[ROW_MASS, M_MASS] = m
    model[ROW_MASS, M_CG] = cx
    model[ROW_MASS, M_CG + 1] = cy
    model[ROW_MASS, M_CG + 2] = cz
    model[ROW_MASS, I0] = ixx
    model[ROW_MASS, I0 + 1] = ixy
    model[ROW_MASS, I0 + 2] = ixz
    model[ROW_MASS, I0 + 3] = ixy
    model[ROW_MASS, I0 + 4] = iyy
    model[ROW_MASS, I0 + 5] = iyz
    model[ROW_MASS, I0 + 6] = ixz
    model[ROW_MASS, I0 + 7] = iyz
    model[ROW_MASS, I0 + 8] = izz
    # inverse of the symmetric tensor (cofactors)
    c00 = iyy * izz - iyz * iyz
    c01 = ixz * iyz - ixy * izz
    c02 = ixy * iyz - ixz * iyy
    inv_det = 1.0 / (ixx * c00 + ixy * c01 + ixz * c02)
    c11 = (ixx * izz - ixz * ixz) * inv_det
    c12 = (ixy * ixz - ixx * iyz) * inv_det
    c22 = (ixx * iyy - ixy * ixy) * inv_det
    J = M_INV_INERTIA
    model[ROW_MASS, J] = c00 * inv_det
    model[ROW_MASS, J + 1] = c01 * inv_det
    model[ROW_MASS, J + 2] = c02 * inv_det
    model[ROW_MASS, J + 3] = c01 * inv_det
    model[ROW_MASS, J + 4] = c11
    model[ROW_MASS, J + 5] = c12
    model[ROW_MASS, J + 6] = c02 * inv_det
    model[ROW_MASS, J + 7] = c12
    model[ROW_MASS, J + 8] = c22


@kernel
def _cooler(model, cool, c, temp_k, t_amb, rho, v_eff):
    """One cooler (radiator or oil cooler): (exit flap 0..1, heat rejected W, drag area m2)."""
    t_open = model[cool, c + CL_T_OPEN]
    flap = (temp_k - t_open) / model[cool, c + CL_T_RANGE]
    if flap < 0.0:
        flap = 0.0
    elif flap > 1.0:
        flap = 1.0
    duct = model[cool, c + CL_DUCT] * (COOLER_FLOW_CLOSED + (1.0 - COOLER_FLOW_CLOSED) * flap) * v_eff
    m_air = rho * model[cool, c + CL_AREA] * duct
    heat = model[cool, c + CL_EFF] * m_air * CP_AIR * (temp_k - t_amb)
    cda = model[cool, c + CL_CDA_MIN] + flap * (model[cool, c + CL_CDA_MAX] - model[cool, c + CL_CDA_MIN])
    return flap, heat, cda


@kernel
def plant_forces(model, tables, state, ctrl, press, temp, rho, sound, ax, ay, az, fm, diag, ws, P):
    """Powerplant forces and moments into fm (body axes, about the CG); rates to ws[P..P+4].
    ax, ay, az: velocity of the CG through the air (body axes).

    Slots read: state S_COOLANT_T, S_ENG_OMEGA, S_INFLOW, S_OIL_T, S_OMEGA, S_PROP_DAMAGE,
      S_PROP_PITCH, S_SC_GEAR.
    Slots written: diag D_BLADE_ANGLE, D_COOLANT_T, D_ENGINE_LOAD, D_EXHAUST_THRUST, D_FUEL_FLOW,
      D_FUEL_KG, D_MAP, D_OIL_PRESSURE, D_OIL_T, D_PROP_EFF, D_PROP_TORQUE, D_RPM, D_SC_GEAR,
      D_SC_POWER, D_SHAFT_POWER, D_THRUST.
    """
    if model[0, H_N_JETS] > 0.0:
        # jet engines instead of the engine and propeller (physics/jet.py)
        fuel = fuel_on_board(model, state)
        ws[P + 4, W_FUEL] = jet_forces(model, state, ctrl, press, temp, rho, sound, ax, ay, az, fm, diag, fuel)
        diag[D_FUEL_KG] = fuel
        return
    base = int(model[0, H_ROW_PLANT])
    e = base + PLANT_ENGINE
    pr = base + PLANT_PROP
    cool = base + PLANT_COOL
    st0 = base + PLANT_STATIONS
    n_st = int(model[0, H_N_PROP_ST])
    cgx = model[ROW_MASS, M_CG]
    cgy = model[ROW_MASS, M_CG + 1]
    cgz = model[ROW_MASS, M_CG + 2]
    p = state[S_OMEGA]
    q = state[S_OMEGA + 1]
    r = state[S_OMEGA + 2]
    omega = state[S_ENG_OMEGA]
    if omega < 0.0:
        omega = 0.0
    gear = model[e, EN_GEAR]
    omega_p = omega * gear
    sense = model[pr, PR_SENSE]
    # --- propeller: blade elements in the relative wind of the hub
    rx = model[pr, PR_POS] - cgx
    ry = model[pr, PR_POS + 1] - cgy
    rz = model[pr, PR_POS + 2] - cgz
    ux = ax + q * rz - r * ry
    uy = ay + r * rx - p * rz
    uz = az + p * ry - q * rx
    thrust, fy, fz, my, mz, q_aero = blade_loads(
        model, tables, pr, st0, n_st, state, omega_p, state[S_PROP_PITCH], ux, uy, uz, p, q, r, rho, sound, ws, P)
    momentum_targets(model, pr, st0, n_st, state, omega_p, ux, rho, ws, P, P + 2)
    if state[S_PROP_DAMAGE] > 0.0:
        # blades shot about: their loads fall with the damage (physics/damage.py)
        k_blade = 1.0 - state[S_PROP_DAMAGE]
        thrust *= k_blade
        fy *= k_blade
        fz *= k_blade
        my *= k_blade
        mz *= k_blade
        q_aero *= k_blade
    # --- engine
    health, seized = engine_factor(model, state)
    fuel = fuel_on_board(model, state) if int(model[0, H_N_TANKS]) > 0 else 1.0
    firing = 1.0 if (omega > model[e, EN_OMEGA_FIRE] and ctrl[C_CUTOFF] < 0.5 and fuel > 0.0
                     and seized < 0.5) else 0.0
    tas2 = ax * ax + ay * ay + az * az
    qbar = 0.5 * rho * tas2
    torque, manifold, air, fuel_flow, sc_power, burned, t_charge = engine_state(
        model, e, omega, ctrl[C_THROTTLE], ctrl[C_WEP], state[S_SC_GEAR], firing, press, temp, qbar, health)
    if ctrl[C_STARTER] > 0.5 and omega < model[e, EN_OMEGA_IDLE]:
        torque += model[e, EN_STARTER_TORQUE]
    # --- rotor: crankshaft and propeller through the reduction gear
    i_prop = model[pr, PR_INERTIA]
    i_eng = model[e, EN_INERTIA]
    inertia = i_eng + gear * gear * i_prop
    domega = (torque - gear * q_aero) / inertia
    if seized > 0.5:
        domega = -omega / SEIZE_STOP_S          # seized: the rotor is brought to a stop, then held
    if omega <= 0.0 and domega < 0.0:
        domega = 0.0
    # angular momentum of the rotating parts along +x body
    h_sense = sense * (i_prop * gear + model[e, EN_CRANK_SENSE] * i_eng)
    h = h_sense * omega
    # --- forces: thrust and in-plane force at the hub, P-factor moments
    add_force_at(thrust, fy, fz, rx, ry, rz, fm)
    fm[4] += my
    fm[5] += mz
    # torque on the airframe: the air's torque on the blades and the reaction of spinning
    # the rotor up (in steady running, the engine torque at the propeller shaft)
    fm[3] += -sense * q_aero - h_sense * domega
    # gyroscopic precession of the spinning rotor: -omega x H, H = (h, 0, 0)
    fm[4] += -r * h
    fm[5] += q * h
    # exhaust jets (ejector stacks) less the intake's momentum drag
    vj = 0.0
    if firing > 0.5:
        vj = model[e, EN_EXH_VJ] * math.sqrt(manifold / model[e, EN_MAP_MIL])
    f_exh = (air + fuel_flow) * vj - air * ax
    add_force_at(f_exh, 0.0, 0.0, model[e, EN_EXH_POS] - cgx, model[e, EN_EXH_POS + 1] - cgy,
                 model[e, EN_EXH_POS + 2] - cgz, fm)
    # --- coolers: heat in from the engine, out to the air through the duct; their drag
    tas = math.sqrt(tas2)
    vi_mean = 0.0
    for k in range(n_st):
        vi_mean += state[S_INFLOW + k]
    if n_st > 0:
        vi_mean /= n_st
    v_eff = tas + 2.0 * (vi_mean if vi_mean > 0.0 else 0.0)      # the ducts sit in the slipstream
    t_cool = state[S_COOLANT_T] if state[S_COOLANT_T] > 100.0 else temp
    t_oil = state[S_OIL_T] if state[S_OIL_T] > 100.0 else temp
    flap_c, heat_c, cda_c = _cooler(model, cool, CL_RAD, t_cool, temp, rho, v_eff)
    flap_o, heat_o, cda_o = _cooler(model, cool, CL_OIL, t_oil, temp, rho, v_eff)
    # leaks (physics/damage.py): a radiator without coolant rejects nothing, and the circuit
    # holds less heat, so the same heat raises the temperature faster
    k_c, cap_c, k_o, cap_o = cooling_factors(model, state, model[cool, CL_RAD + CL_HEAT_CAP],
                                             model[cool, CL_OIL + CL_HEAT_CAP])
    heat_c *= k_c
    heat_o *= k_o
    k_drag = -0.5 * rho * tas * (cda_c + cda_o)
    add_force_at(k_drag * ax, k_drag * ay, k_drag * az, model[cool, CL_POS] - cgx,
                 model[cool, CL_POS + 1] - cgy, model[cool, CL_POS + 2] - cgz, fm)
    W = P + 4
    ws[W, W_DOMEGA] = domega
    ws[W, W_FUEL] = fuel_flow
    # a damaged engine turns less of the fuel into work: the rest goes to the coolant
    waste = (1.0 - health) * model[e, EN_IND_EFF] * burned
    # an engine hotter than its coolant limit sheds heat into its oil (pistons, bearings, the
    # oil sprayed under the crowns): the oil cooler then carries part of a dry engine's heat
    q_bo = block_to_oil(model, t_cool)
    ws[W, W_DTC] = (model[e, EN_HEAT_COOLANT] * burned + waste - heat_c - q_bo) / cap_c
    ws[W, W_DTO] = (model[e, EN_HEAT_OIL] * burned + q_bo - heat_o) / cap_o
    ws[W, W_PRESS] = press
    ws[W, W_FLAP] = flap_c
    # --- outputs
    power = torque * omega
    diag[D_RPM] = omega * 30.0 / math.pi
    diag[D_MAP] = manifold
    diag[D_SHAFT_POWER] = power
    diag[D_THRUST] = thrust
    diag[D_PROP_TORQUE] = q_aero
    diag[D_FUEL_FLOW] = fuel_flow
    diag[D_BLADE_ANGLE] = state[S_PROP_PITCH]
    diag[D_SC_GEAR] = state[S_SC_GEAR]
    diag[D_COOLANT_T] = t_cool
    diag[D_OIL_T] = t_oil
    diag[D_FUEL_KG] = fuel
    diag[D_EXHAUST_THRUST] = f_exh
    shaft = q_aero * omega_p
    diag[D_PROP_EFF] = thrust * ux / shaft if shaft > 1.0 else 0.0
    diag[D_ENGINE_LOAD] = power / model[e, EN_RATED_POWER]
    diag[D_SC_POWER] = sc_power
    diag[D_OIL_PRESSURE] = oil_pressure(model, state, omega, t_oil)


@kernel
def _toward(x, target, max_step):
    """x moved toward target by at most max_step (rate-limited actuators; dynamics uses it too)."""
    if target > x + max_step:
        return x + max_step
    if target < x - max_step:
        return x - max_step
    return target


@kernel
def governor_setting(model, ctrl):
    """Crankshaft speed the governor holds (rad/s) from the propeller lever."""
    pr = int(model[0, H_ROW_PLANT]) + PLANT_PROP
    lever = ctrl[C_PROP_RPM]
    if lever < 0.0:
        lever = 0.0
    elif lever > 1.0:
        lever = 1.0
    top = model[pr, PR_GOV_MAX]
    if model[pr, PR_GOV_MIL] > 0.0 and ctrl[C_WEP] < 0.5:
        top = model[pr, PR_GOV_MIL]          # a rating below take-off rpm (the DB 605's 2,600 at 1.30 ata)
    return model[pr, PR_GOV_MIN] + lever * (top - model[pr, PR_GOV_MIN])


@kernel
def select_gear(model, gear, press, ctrl):
    """The supercharger's automatic gear change: an aneroid switch on ambient pressure with
    hysteresis (up below SC_UP_PA, back down above SC_DOWN_PA); the cockpit switch can hold
    it in low gear."""
    sc = int(model[0, H_ROW_PLANT]) + PLANT_SC
    if model[sc, SC_WORK_HIGH] <= 0.0 or ctrl[C_BLOWER] > 0.5:
        return 0.0
    if gear < 0.5 and press < model[sc, SC_UP_PA]:
        return 1.0
    if gear > 0.5 and press > model[sc, SC_DOWN_PA]:
        return 0.0
    return gear


@kernel
def plant_advance(model, state, ctrl, ws, P, dt):
    """Move the powerplant states one step with the rates of this step's derivative.

    Slots read: state S_COOLANT_T, S_ENG_OMEGA, S_INFLOW, S_PROP_PITCH, S_SC_GEAR, S_SWIRL.
    Slots written: state S_COOLANT_T, S_ENG_OMEGA, S_INFLOW, S_OIL_T, S_PROP_PITCH, S_RAD_FLAP,
      S_SC_GEAR, S_SWIRL.
    """
    if model[0, H_N_JETS] > 0.0:
        jet_advance(model, state, ctrl, ws[P + 4, W_FUEL], fuel_on_board(model, state), dt)
        return
    base = int(model[0, H_ROW_PLANT])
    pr = base + PLANT_PROP
    n_st = int(model[0, H_N_PROP_ST])
    W = P + 4
    # rotor speed: the torque balance, rotor inertia
    domega = ws[W, W_DOMEGA]
    omega = state[S_ENG_OMEGA] + dt * domega
    if omega < 0.0 or (omega < 2.0 and engine_factor(model, state)[1] > 0.5):
        omega = 0.0                                   # (a seized engine's rotor comes to rest)
    state[S_ENG_OMEGA] = omega
    # blade pitch: the governor (a flyweight speed sensor with rate lead driving the pitch
    # at a limited rate between the stops), or feathering
    theta = state[S_PROP_PITCH]
    rate = model[pr, PR_PITCH_RATE] * dt
    feather = model[pr, PR_FEATHER]
    if ctrl[C_FEATHER] > 0.5 and feather > 0.0:
        theta = _toward(theta, feather, rate)
    elif theta > model[pr, PR_PITCH_MAX]:
        theta = _toward(theta, model[pr, PR_PITCH_MAX], rate)          # unfeathering
    else:
        w_set = governor_setting(model, ctrl)
        err = (omega - w_set + model[pr, PR_GOV_LEAD] * domega) / w_set
        d = model[pr, PR_GOV_GAIN] * err * dt
        if d > rate:
            d = rate
        elif d < -rate:
            d = -rate
        theta += d
        if theta < model[pr, PR_PITCH_MIN]:
            theta = model[pr, PR_PITCH_MIN]
        elif theta > model[pr, PR_PITCH_MAX]:
            theta = model[pr, PR_PITCH_MAX]
    state[S_PROP_PITCH] = theta
    # induced velocities lag toward what momentum theory asks
    k = dt / (dt + TAU_INFLOW)
    for i in range(n_st):
        state[S_INFLOW + i] += k * (ws[P + 2, i] - state[S_INFLOW + i])
        state[S_SWIRL + i] += k * (ws[P + 3, i] - state[S_SWIRL + i])
    # fuel: from the tanks that feed first
    burn_fuel(model, state, ws[W, W_FUEL] * dt)
    # coolant and oil temperatures
    if state[S_COOLANT_T] > 100.0:
        state[S_COOLANT_T] += dt * ws[W, W_DTC]
        state[S_OIL_T] += dt * ws[W, W_DTO]
    state[S_RAD_FLAP] = ws[W, W_FLAP]
    # supercharger gear
    state[S_SC_GEAR] = select_gear(model, state[S_SC_GEAR], ws[W, W_PRESS], ctrl)


# ------------------------------------------------------------------ equilibrium (trim)

@entry
def _converge(model, tables, state, ctrl, omega, pitch, ux, uy, uz, rho, sound, press, temp, qbar, ws, P,
              firing, gear_sc):
    """Engine torque minus propeller torque at the crankshaft (N m) at (omega, pitch), with
    the induced velocities iterated to their momentum-theory values (left in state).

    Slots read: state S_INFLOW, S_SWIRL.
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
    for it in range(400):
        thrust, fy, fz, my, mz, q_aero = blade_loads(
            model, tables, pr, st0, n_st, state, omega_p, pitch, ux, uy, uz, 0.0, 0.0, 0.0, rho, sound, ws, P)
        momentum_targets(model, pr, st0, n_st, state, omega_p, ux, rho, ws, P, P + 2)
        dmax = 0.0
        for k in range(n_st):
            d = ws[P + 2, k] - state[S_INFLOW + k]
            d2 = ws[P + 3, k] - state[S_SWIRL + k]
            state[S_INFLOW + k] += 0.5 * d
            state[S_SWIRL + k] += 0.5 * d2
            dmax = max(dmax, abs(d), abs(d2))
        if dmax < 1e-10:
            break
    torque = engine_state(model, e, omega, ctrl[C_THROTTLE], ctrl[C_WEP], gear_sc, firing, press, temp, qbar,
                          engine_factor(model, state)[0])[0]
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

    Slots read: state S_INFLOW, S_POS, S_VEL.
    Slots written: state S_COOLANT_T, S_ENG_OMEGA, S_OIL_T, S_PROP_PITCH, S_RAD_FLAP, S_SC_GEAR.
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
                          engine_factor(model, state)[0])[5]
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
    return _converge(model, tables, state, ctrl, model[e, EN_OMEGA_IDLE], model[pr, PR_PITCH_MIN],
                     0.0, 0.0, 0.0, rho, sound, press, temp, 0.0, ws, 0, 1.0, 0.0)
