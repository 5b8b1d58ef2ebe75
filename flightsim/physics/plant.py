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


from .jit import kernel
from .engine import engine_state
from .ground import add_force_at
from .layout import (
    C_BLOWER, C_CUTOFF, C_FEATHER, C_PROP_RPM, C_STARTER, C_THROTTLE, C_WEP, CL_AREA, CL_CDA_MAX,
    CL_CDA_MIN, CL_DUCT, CL_EFF, CL_HEAT_CAP, CL_OIL, CL_POS, CL_RAD, CL_T_OPEN, CL_T_RANGE,
    D_BLADE_ANGLE, D_COOLANT_T, D_ENGINE_LOAD, D_EXHAUST_THRUST, D_FUEL_FLOW, D_FUEL_KG, D_MAP, D_OIL_T, D_PROP_EFF,
    D_PROP_TORQUE, D_RPM, D_SC_GEAR, D_SC_POWER, D_SHAFT_POWER, D_THRUST,
    EN_CRANK_SENSE, EN_EXH_POS, EN_EXH_VJ, EN_GEAR, EN_HEAT_COOLANT, EN_HEAT_OIL, EN_INERTIA,
    EN_MAP_MIL, EN_OMEGA_FIRE, EN_OMEGA_IDLE, EN_RATED_POWER, EN_STARTER_TORQUE,
    H_N_PROP_ST, H_N_TANKS, H_ROW_PLANT, M_CG, PLANT_COOL,
    PLANT_ENGINE, PLANT_PROP, PLANT_SC, PLANT_STATIONS, PR_FEATHER, PR_GOV_GAIN,
    PR_GOV_LEAD, PR_GOV_MAX, PR_GOV_MIL, PR_GOV_MIN, PR_INERTIA, PR_PITCH_MAX, PR_PITCH_MIN, PR_PITCH_RATE,
    PR_POS, PR_SENSE, ROW_MASS, S_COOLANT_T, S_ENG_OMEGA, S_INFLOW, S_OIL_T, S_OMEGA,
    S_PROP_PITCH, S_RAD_FLAP, S_SC_GEAR, S_SWIRL, SC_DOWN_PA, SC_UP_PA,
    SC_WORK_HIGH,
)
from .layout import (
    D_OIL_PRESSURE, EN_IND_EFF, S_PROP_DAMAGE,
)
from .damage import block_to_oil, cooling_factors, engine_factor, oil_pressure
from .propeller import blade_loads, momentum_targets
from .fuel import burn_fuel, fuel_on_board
from .jet import jet_advance, jet_forces
from .layout import H_N_JETS
from .layout import C_CARB_HEAT, C_MIXTURE_LEAN, D_CARB_T, D_EGT, EN_CARBURETTOR, S_CARB_ICE, S_FUEL_CUT
from .atmosphere import CP_AIR
from .carburettor import ice_rate

TAU_INFLOW = 0.05           # s: lag of the induced velocities (dynamic inflow)
COOLER_FLOW_CLOSED = 0.4    # duct flow with the exit flap closed, fraction of open
SEIZE_STOP_S = 0.3          # s: a seized engine stops its rotor about this fast
# ws scratch rows from the first powerplant row P (see WS_PLANT):
#   P: thrust per blade station, P+1: torque per station, P+2/P+3: induced-velocity targets,
#   P+4: [d omega/dt, fuel flow, d T_coolant/dt, d T_oil/dt, ambient pressure, coolant flap,
#         carburettor ice's rate kg/s]
W_DOMEGA, W_FUEL, W_DTC, W_DTO, W_PRESS, W_FLAP, W_ICE = 0, 1, 2, 3, 4, 5, 6


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
def plant_forces(model, tables, state, ctrl, press, temp, rho, sound, ax, ay, az, fm, diag, ws, P, humidity):
    """Powerplant forces and moments into fm (body axes, about the CG); rates to ws[P..P+4].
    ax, ay, az: velocity of the CG through the air (body axes); humidity: the air's relative
    humidity, 0..1 (a carburettor's ice).

    Slots read: state S_CARB_ICE, S_COOLANT_T, S_ENG_OMEGA, S_FUEL_CUT, S_INFLOW, S_OIL_T, S_OMEGA,
      S_PROP_DAMAGE, S_PROP_PITCH, S_SC_GEAR.
    Slots written: diag D_BLADE_ANGLE, D_CARB_T, D_COOLANT_T, D_EGT, D_ENGINE_LOAD, D_EXHAUST_THRUST,
      D_FUEL_FLOW, D_FUEL_KG, D_MAP, D_OIL_PRESSURE, D_OIL_T, D_PROP_EFF, D_PROP_TORQUE, D_RPM,
      D_SC_GEAR, D_SC_POWER, D_SHAFT_POWER, D_THRUST.

    Long: the powerplant in one pass (engine, supercharger, propeller, coolers, slipstream) over one
    flight condition. One numba kernel, kept whole: a split changes which code numba inlines and so
    the last bits of the kept regression flights (physics/jit.py).
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
                     and seized < 0.5 and state[S_FUEL_CUT] < 0.5) else 0.0
    tas2 = ax * ax + ay * ay + az * az
    qbar = 0.5 * rho * tas2
    torque, manifold, air, fuel_flow, sc_power, burned, t_charge, t_carb, egt = engine_state(
        model, e, omega, ctrl[C_THROTTLE], ctrl[C_WEP], state[S_SC_GEAR], firing, press, temp, qbar, health,
        ctrl[C_MIXTURE_LEAN], ctrl[C_CARB_HEAT], state[S_CARB_ICE])
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
    ws[W, W_ICE] = 0.0
    if model[e, EN_CARBURETTOR] > 0.5:
        ws[W, W_ICE] = ice_rate(model, e, state[S_CARB_ICE], humidity, temp, press, t_carb, manifold, air)
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
    diag[D_CARB_T] = t_carb
    diag[D_EGT] = egt


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

    Slots read: state S_CARB_ICE, S_COOLANT_T, S_ENG_OMEGA, S_INFLOW, S_PROP_PITCH, S_SC_GEAR, S_SWIRL.
    Slots written: state S_CARB_ICE, S_COOLANT_T, S_ENG_OMEGA, S_INFLOW, S_OIL_T, S_PROP_PITCH,
      S_RAD_FLAP, S_SC_GEAR, S_SWIRL.
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
    # the carburettor's ice grows or melts
    if ws[W, W_ICE] != 0.0:
        ice = state[S_CARB_ICE] + dt * ws[W, W_ICE]
        state[S_CARB_ICE] = ice if ice > 0.0 else 0.0


