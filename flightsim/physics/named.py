"""The kernels' flat arrays by name and unit: controls, state and diagnostics.

The step kernels take flat float64 arrays (``state``, ``ctrl``, ``diag``, ``env``) indexed by
the constants of ``layout``; those arrays are right for numba. Everything outside
``physics/`` and the compiler reads and writes them through this module instead:

    c = Controls()                 # a fresh control array, the governor lever at maximum rpm
    c.roll = 0.6                   # -1..1, + roll right
    sim.step(c.array)
    sim.controls.throttle = 0.8    # Sim.controls: the same view over the Sim's own array
    sim.ias_kmh, sim.roll_rate_dps, sim.euler_deg, sim.stalled_sections   # Readouts

``Controls`` wraps a control array (it does not copy it; physics/named_controls.py, its names
re-exported here); ``Readouts`` is a mixin for any
object with ``state`` and ``diag`` arrays (``Sim``, ``AircraftView``): each readout is a
property that reads the arrays when asked, with its unit in its name. Neither costs the
kernels anything: they see the same arrays. Measured from Python (Nov 2026, 2-core machine):
reading ``sim.ias_kmh`` 0.34 us against 0.19 us for ``sim.diag[i] * 3.6``, setting
``controls.roll`` 0.25 us against 0.10 us, one Astir step 2.0 us.

Units: SI inside (m, m/s, rad, N, W, K, kg); ``_deg``, ``_dps`` (deg/s), ``_kmh`` variants
where people think in them. Axes: NED world, FRD body; quaternions scalar-first.
"""
from __future__ import annotations

import math
from typing import cast

import numpy as np

from . import layout as L
from .batch import FLIGHT_COLUMNS, read_many
from .named_controls import (  # the controls' names, here too: this is the face of every array
    CONTROL_DEFAULTS as CONTROL_DEFAULTS, CONTROL_HIGH as CONTROL_HIGH, CONTROL_INDEX as CONTROL_INDEX,
    CONTROL_LOW as CONTROL_LOW, CONTROL_NAMES as CONTROL_NAMES, CONTROL_RANGE as CONTROL_RANGE,
    CONTROLS as CONTROLS, N_CONTROLS as N_CONTROLS, Controls as Controls, Slot as _Slot,
    check_controls as check_controls, control_array as control_array, control_index as control_index,
    control_problem as control_problem,
)
from .quat import dcm_from_quat, euler_from_quat, quat_from_euler

RAD2DEG = 180.0 / math.pi

STATE_SIZE = L.N_STATE        # floats in one aircraft's state array (for arrays of states)
N_DIAGNOSTICS = L.N_DIAG      # the named diagnostics at the head of a diag array (scratch.diag_size adds the scratch)
ATTITUDE_END = L.S_QUAT + 4   # a state shorter than this has no attitude (older recordings are shorter than STATE_SIZE)
# why a step was refused (diag D_NONFINITE, see Readouts.refusal)
REFUSALS = {L.REFUSED_NONFINITE: "non-finite state", L.REFUSED_BOUNDS: "state past physical bounds",
            L.REFUSED_CONTROL: "control not a number"}


# ---------------------------------------------------------------------------- readouts
SURFACES = {"pitch": L.SURF_PITCH, "roll": L.SURF_ROLL, "yaw": L.SURF_YAW, "flap": L.SURF_FLAP,
            "airbrake": L.SURF_AIRBRAKE, "gear": L.SURF_GEAR, "stabilizer": L.SURF_STAB}


class Readouts:
    """Named readouts of an aircraft's ``state`` and ``diag`` arrays (the diagnostics are
    those of the last step). Mixed into Sim and AircraftView."""

    state: np.ndarray
    diag: np.ndarray
    dt_s: float = 0.02

    # scalars straight from the diagnostics
    alpha_rad = _Slot(L.D_ALPHA, "diag", 1.0, "angle of attack at the CG, rad")
    alpha_deg = _Slot(L.D_ALPHA, "diag", RAD2DEG, "angle of attack at the CG, deg")
    beta_rad = _Slot(L.D_BETA, "diag", 1.0, "sideslip, rad (+ wind from the right)")
    beta_deg = _Slot(L.D_BETA, "diag", RAD2DEG, "sideslip, deg")
    tas_ms = _Slot(L.D_TAS, "diag", 1.0, "true airspeed, m/s")
    tas_kmh = _Slot(L.D_TAS, "diag", 3.6, "true airspeed, km/h")
    ias_ms = _Slot(L.D_IAS, "diag", 1.0, "indicated (equivalent) airspeed, m/s")
    ias_kmh = _Slot(L.D_IAS, "diag", 3.6, "indicated (equivalent) airspeed, km/h")
    mach = _Slot(L.D_MACH, "diag", 1.0, "Mach number")
    qbar_pa = _Slot(L.D_QBAR, "diag", 1.0, "dynamic pressure, Pa")
    air_density_kgm3 = _Slot(L.D_RHO, "diag", 1.0, "air density, kg/m3")
    nz_g = _Slot(L.D_NZ, "diag", 1.0, "load factor along -z body, g (1 in level flight)")
    ny_g = _Slot(L.D_NY, "diag", 1.0, "load factor along y body, g")
    nx_g = _Slot(L.D_NX, "diag", 1.0, "load factor along x body, g")
    wing_cl = _Slot(L.D_CL_WING, "diag", 1.0, "the wing's lift coefficient")
    downwash_rad = _Slot(L.D_DOWNWASH, "diag", 1.0, "downwash angle at the tail, rad")
    height_agl_m = _Slot(L.D_HEIGHT_AGL, "diag", 1.0, "height of the CG above the terrain, m")
    gear_load_n = _Slot(L.D_GEAR_LOAD, "diag", 1.0, "total gear normal force, N")
    engine_rpm = _Slot(L.D_RPM, "diag", 1.0, "engine rpm")
    manifold_pressure_pa = _Slot(L.D_MAP, "diag", 1.0, "manifold pressure, Pa")
    shaft_power_w = _Slot(L.D_SHAFT_POWER, "diag", 1.0, "brake power to the propeller shaft, W")
    thrust_n = _Slot(L.D_THRUST, "diag", 1.0, "propeller thrust along the shaft, N")
    exhaust_thrust_n = _Slot(L.D_EXHAUST_THRUST, "diag", 1.0, "exhaust thrust, N")
    propeller_torque_nm = _Slot(L.D_PROP_TORQUE, "diag", 1.0, "aerodynamic torque on the propeller, N m")
    propeller_efficiency = _Slot(L.D_PROP_EFF, "diag", 1.0, "thrust power / shaft power")
    blade_angle_deg = _Slot(L.D_BLADE_ANGLE, "diag", RAD2DEG, "blade angle at 0.75 R, deg")
    engine_load = _Slot(L.D_ENGINE_LOAD, "diag", 1.0, "brake power / rated power")
    supercharger_power_w = _Slot(L.D_SC_POWER, "diag", 1.0, "power absorbed by the supercharger, W")
    fuel_flow_kgs = _Slot(L.D_FUEL_FLOW, "diag", 1.0, "fuel flow, kg/s")
    fuel_kg = _Slot(L.D_FUEL_KG, "diag", 1.0, "fuel on board, kg")
    coolant_k = _Slot(L.D_COOLANT_T, "diag", 1.0, "coolant temperature, K")
    oil_k = _Slot(L.D_OIL_T, "diag", 1.0, "oil temperature, K")
    carburettor_temp_k = _Slot(L.D_CARB_T, "diag", 1.0, "carburettor air temperature at the throttle, K (0: no carburettor)")
    exhaust_gas_temp_k = _Slot(L.D_EGT, "diag", 1.0, "exhaust gas temperature, K (0: no carburettor)")
    carburettor_ice_kg = _Slot(L.S_CARB_ICE, "state", 1.0, "ice in the carburettor's throttle bore, kg")
    fuel_cut = _Slot(L.S_FUEL_CUT, "state", 1.0, "1: no fuel reaches the engine (a scripted failure): it windmills")
    mass_kg = _Slot(L.D_MASS, "diag", 1.0, "mass this step, kg (powered aircraft: as fuel burns)")
    ammo_rounds = _Slot(L.D_AMMO, "diag", 1.0, "rounds left, all guns")
    recoil_n = _Slot(L.D_RECOIL, "diag", 1.0, "total recoil force of the guns firing this step, N")
    # systems damage and stores (physics/damage.py, physics/stores.py)
    oil_pressure_pa = _Slot(L.D_OIL_PRESSURE, "diag", 1.0, "oil pressure (gauge), Pa")
    coolant_left = _Slot(L.D_COOLANT_LEFT, "diag", 1.0, "coolant left, fraction of the system")
    oil_left = _Slot(L.D_OIL_LEFT, "diag", 1.0, "oil left, fraction")
    engine_health = _Slot(L.D_ENGINE_HEALTH, "diag", 1.0, "share of its power the engine can still make")
    engine_seized = _Slot(L.D_SEIZED, "diag", 1.0, "1 once the engine has seized")
    tanks_burning = _Slot(L.D_FIRES, "diag", 1.0, "fuel tanks on fire")
    fuel_leak_kgs = _Slot(L.D_FUEL_LEAK, "diag", 1.0, "fuel leaking from all tanks, kg/s")
    store_mass_kg = _Slot(L.D_STORE_MASS, "diag", 1.0, "stores still on (drop tanks with their fuel), kg")
    store_drag_n = _Slot(L.D_STORE_DRAG, "diag", 1.0, "drag of the stores still on, N")
    engine_wear = _Slot(L.S_ENGINE_WEAR, "state", 1.0, "engine wear from heat and oil starvation, 0..1 (1 seized)")
    engine_hit = _Slot(L.S_ENGINE_HIT, "state", 1.0, "power lost to direct hits on the engine, 0..1")
    oil_lost = _Slot(L.S_OIL_LOST, "state", 1.0, "oil lost, fraction")
    pilot_wound = _Slot(L.S_PILOT_WOUND, "state", 1.0, "0 fit .. 1 killed")
    strike_speed_ms = _Slot(L.S_STRIKE_SPEED, "state", 1.0, "largest strike speed since the start, m/s")
    aerodynamic_stiffness_per_s = _Slot(L.D_STIFFNESS, "diag", 1.0, "fastest aerodynamic damping rate, 1/s")
    wing_induced_alpha_rad = _Slot(L.D_ALPHA_INDUCED, "diag", 1.0, "the wing's induced angle of attack (lifting line), rad")
    propeller_pitch_rad = _Slot(L.S_PROP_PITCH, "state", 1.0, "propeller blade angle at 0.75 R (the governor's state), rad")
    # jets and the flight-control law (physics/jet.py, physics/fcs.py)
    jet_thrust_n = _Slot(L.D_JET_THRUST, "diag", 1.0, "net thrust of all jet engines, N")
    jet_spool = _Slot(L.D_JET_SPOOL, "diag", 1.0, "mean spool of the running jets, 0 idle .. 1 military")
    afterburner = _Slot(L.D_JET_AB, "diag", 1.0, "mean afterburner of the running jets, 0 off .. 1 full")
    jets_running = _Slot(L.D_JETS_RUNNING, "diag", 1.0, "jet engines running")
    g_demand = _Slot(L.D_G_DEMAND, "diag", 1.0, "load factor the flight-control law asks for, g")
    g_limit = _Slot(L.D_G_LIMIT, "diag", 1.0, "the positive load-factor limit in force (lower while rolling), g")
    forward_speed_ms = _Slot(L.S_VEL, "state", 1.0,
                             "u, body x velocity over the ground, m/s (setting it keeps v, w and the integrator's history)")

    @property
    def fuel_used_kg(self) -> np.ndarray:
        """Fuel burned from each tank slot since the start, kg (a copy; N_TANK_MAX slots, those
        beyond the aircraft's tanks stay 0)."""
        return self.state[L.S_FUEL_USED:L.S_FUEL_USED + L.N_TANK_MAX].copy()

    def clear_strike(self) -> None:
        """Forget the strikes so far (contact -1, speed 0 m/s): watch for new touches only."""
        self.state[L.S_STRIKE_INDEX] = -1.0
        self.state[L.S_STRIKE_SPEED] = 0.0

    @property
    def stalled_sections(self) -> int:
        """Lifting sections past their stall angle."""
        return int(self.diag[L.D_STALLED_SECTIONS])

    @property
    def stalled_wing_sections(self) -> int:
        """Wing sections past their stall angle (the first one: buffet onset)."""
        return int(self.diag[L.D_STALLED_WING])

    @property
    def gear_on_ground(self) -> int:
        """Gear legs touching the ground."""
        return int(self.diag[L.D_ON_GROUND])

    @property
    def on_ground(self) -> bool:
        return self.diag[L.D_ON_GROUND] > 0

    @property
    def struck(self) -> bool:
        """A part other than the gear has struck the ground since the start."""
        return int(self.state[L.S_STRIKE_INDEX]) >= 0

    @property
    def strike_contact(self) -> int:
        """Index of the contact of the hardest strike (-1: none)."""
        return int(self.state[L.S_STRIKE_INDEX])

    @property
    def nonfinite(self) -> bool:
        """The last step was refused, the state kept as it was: it produced a non-finite state
        or one past physical bounds, or a control was not a number (``refusal`` says which)."""
        return self.diag[L.D_NONFINITE] != 0

    @property
    def refusal(self) -> str:
        """Why the last step was refused (REFUSALS: "non-finite state", "state past physical
        bounds", "control not a number"); "" when it was not."""
        return REFUSALS.get(float(self.diag[L.D_NONFINITE]), "")

    @property
    def supercharger_gear(self) -> int:
        return int(self.diag[L.D_SC_GEAR])

    # position and attitude
    @property
    def tick(self) -> int:
        """Steps flown since the start (the state's own clock)."""
        return int(self.state[L.S_TICK])

    @tick.setter
    def tick(self, value: int) -> None:
        self.state[L.S_TICK] = value

    @property
    def time_s(self) -> float:
        return float(self.state[L.S_TICK]) * self.dt_s

    @property
    def position_ned_m(self) -> np.ndarray:
        return self.state[L.S_POS:L.S_POS + 3].copy()

    @property
    def altitude_m(self) -> float:
        return -float(self.state[L.S_POS + 2])

    @property
    def quat_wxyz(self) -> np.ndarray:
        """Attitude, body to NED, scalar first."""
        return self.state[L.S_QUAT:L.S_QUAT + 4].copy()

    @property
    def euler_rad(self):
        """(roll, pitch, heading) in rad."""
        return euler_from_quat(self.state[L.S_QUAT:L.S_QUAT + 4])

    @property
    def euler_deg(self):
        r, p, y = euler_from_quat(self.state[L.S_QUAT:L.S_QUAT + 4])
        return r * RAD2DEG, p * RAD2DEG, y * RAD2DEG

    @property
    def roll_deg(self) -> float:
        return self.euler_deg[0]

    @property
    def pitch_deg(self) -> float:
        return self.euler_deg[1]

    @property
    def heading_deg(self) -> float:
        """0..360, 0 north, 90 east."""
        return self.euler_deg[2] % 360.0

    def body_to_ned(self) -> np.ndarray:
        """The rotation matrix from body to NED axes."""
        R = np.empty((3, 3))
        dcm_from_quat(self.state[L.S_QUAT:L.S_QUAT + 4], R)
        return R

    def pilot_reads(self) -> tuple:
        """What a pilot reads each tick, in one call (pilots.ai.AirData.from_sim): position NED,
        velocity NED, the body-to-NED rotation, p, q, r, IAS, TAS, alpha, beta, nz, height above the
        terrain, on the ground, stalled sections; the same numbers as the named readouts."""
        s, d = self.state, self.diag
        R = self.body_to_ned()
        p, q, r = s[L.S_OMEGA:L.S_OMEGA + 3].tolist()
        return (s[L.S_POS:L.S_POS + 3].copy(), R @ s[L.S_VEL:L.S_VEL + 3], R, p, q, r, float(d[L.D_IAS]),
                float(d[L.D_TAS]), float(d[L.D_ALPHA]), float(d[L.D_BETA]), float(d[L.D_NZ]),
                float(d[L.D_HEIGHT_AGL]), d[L.D_ON_GROUND] > 0, int(d[L.D_STALLED_SECTIONS]))

    # velocities and rates
    @property
    def velocity_body_ms(self) -> np.ndarray:
        """(u, v, w) over the ground in body axes."""
        return self.state[L.S_VEL:L.S_VEL + 3].copy()

    @property
    def velocity_ned_ms(self) -> np.ndarray:
        return self.body_to_ned() @ self.state[L.S_VEL:L.S_VEL + 3]

    @property
    def vertical_speed_ms(self) -> float:
        """Climb rate over the ground, m/s (+ up)."""
        return -float(self.velocity_ned_ms[2])

    @property
    def ground_speed_ms(self) -> float:
        v = self.velocity_ned_ms
        return math.hypot(v[0], v[1])

    @property
    def body_rates_rads(self) -> np.ndarray:
        """(p, q, r): roll, pitch and yaw rates about the body axes, rad/s."""
        return self.state[L.S_OMEGA:L.S_OMEGA + 3].copy()

    roll_rate_rads = _Slot(L.S_OMEGA, "state", 1.0, "roll rate p, rad/s")
    pitch_rate_rads = _Slot(L.S_OMEGA + 1, "state", 1.0, "pitch rate q, rad/s")
    yaw_rate_rads = _Slot(L.S_OMEGA + 2, "state", 1.0, "yaw rate r, rad/s")
    roll_rate_dps = _Slot(L.S_OMEGA, "state", RAD2DEG, "roll rate p, deg/s")
    pitch_rate_dps = _Slot(L.S_OMEGA + 1, "state", RAD2DEG, "pitch rate q, deg/s")
    yaw_rate_dps = _Slot(L.S_OMEGA + 2, "state", RAD2DEG, "yaw rate r, deg/s")

    # forces
    @property
    def force_body_n(self) -> np.ndarray:
        """Total external force without gravity, body axes, N."""
        return self.diag[L.D_FORCE:L.D_FORCE + 3].copy()

    @property
    def moment_body_nm(self) -> np.ndarray:
        return self.diag[L.D_MOMENT:L.D_MOMENT + 3].copy()

    # surfaces and actuators (where they are, not where the pilot asks)
    def surface(self, name: str) -> float:
        """Position of a surface or actuator: pitch, roll, yaw, flap, airbrake (-1..1 or 0..1), gear (0 down .. 1 up)."""
        return float(self.state[L.S_SURF + SURFACES[name]])

    @property
    def surface_positions(self) -> np.ndarray:
        """Every surface and actuator (pitch, roll, yaw, flap, airbrake, gear, stabilizer) in layout order (a copy)."""
        return self.state[L.S_SURF:L.S_SURF + L.N_SURF].copy()

    @property
    def slat_positions(self) -> np.ndarray:
        """Each automatic slat, 0 closed .. 1 open, in the order of the slatted sections (a copy)."""
        return self.state[L.S_SLAT:L.S_SLAT + L.N_SLATS].copy()

    def set_surface(self, name: str, value: float) -> None:
        """Put a surface or actuator somewhere at once (a test's starting condition)."""
        self.state[L.S_SURF + SURFACES[name]] = value

    # writing the state (starting conditions)
    def set_velocity_body(self, u_ms: float, v_ms: float, w_ms: float) -> None:
        """Velocity over the ground in body axes; the integrator's history is forgotten."""
        self.state[L.S_VEL:L.S_VEL + 3] = (u_ms, v_ms, w_ms)
        self.state[L.S_HAS_PREV] = 0.0

    def set_body_rates(self, p_rads: float, q_rads: float, r_rads: float) -> None:
        self.state[L.S_OMEGA:L.S_OMEGA + 3] = (p_rads, q_rads, r_rads)
        self.state[L.S_HAS_PREV] = 0.0

    def set_position_ned(self, north_m: float, east_m: float, down_m: float) -> None:
        self.state[L.S_POS:L.S_POS + 3] = (north_m, east_m, down_m)

    def set_attitude(self, roll_rad: float, pitch_rad: float, heading_rad: float) -> None:
        """Attitude from Z-Y-X Euler angles; the integrator's history is forgotten."""
        self.state[L.S_QUAT:L.S_QUAT + 4] = quat_from_euler(roll_rad, pitch_rad, heading_rad)
        self.state[L.S_HAS_PREV] = 0.0

    def set_motion(self, other_state: np.ndarray) -> None:
        """Position, velocity, attitude and body rates (the rigid body's degrees of freedom)
        from another state: a rig that holds the airflow. The integrator's history stays."""
        self.state[:L.N_DOF] = other_state[:L.N_DOF]

    def forget_history(self) -> None:
        """Start the integrator afresh (after the state was changed by hand)."""
        self.state[L.S_HAS_PREV] = 0.0

    # systems damage: per radiator circuit, per tank, per control axis
    @property
    def coolant_lost(self) -> np.ndarray:
        """Coolant lost from each radiator's circuit, fraction (a copy; N_RAD_MAX slots)."""
        return self.state[L.S_COOLANT_LOST:L.S_COOLANT_LOST + L.N_RAD_MAX].copy()

    def set_coolant_lost(self, fractions) -> None:
        f = np.asarray(fractions, dtype=np.float64).reshape(-1)
        self.state[L.S_COOLANT_LOST:L.S_COOLANT_LOST + len(f)] = f

    @property
    def tank_fire_s(self) -> np.ndarray:
        """Seconds each tank has been burning (0 not burning, < 0 burned out; a copy)."""
        return self.state[L.S_TANK_FIRE:L.S_TANK_FIRE + L.N_TANK_MAX].copy()

    def set_tank_fire_s(self, tank: int, seconds: float) -> None:
        self.state[L.S_TANK_FIRE + tank] = seconds

    @property
    def link_cut(self) -> np.ndarray:
        """Pitch, roll and yaw control runs: 0 intact .. 1 severed (a copy)."""
        return self.state[L.S_LINK_CUT:L.S_LINK_CUT + 3].copy()

    def set_link_cut(self, axis: str, value: float) -> None:
        self.state[L.S_LINK_CUT + ("pitch", "roll", "yaw").index(axis)] = value

    def set_fuel_used(self, tank: int, kg: float) -> None:
        """Fuel burned from a tank, kg (its loaded fuel or more: empty)."""
        self.state[L.S_FUEL_USED + tank] = kg

    @property
    def jets_failed(self) -> np.ndarray:
        """1 for each jet engine that has failed (it windmills), 0 running (a copy)."""
        return self.state[L.S_JET_FAILED:L.S_JET_FAILED + L.N_JET_MAX].copy()

    def set_jet_failed(self, engine: int, failed: bool = True) -> None:
        """Fail a jet engine (or restore it): shot, flamed out or switched off."""
        self.state[L.S_JET_FAILED + engine] = 1.0 if failed else 0.0

    @property
    def specific_excess_power_ms(self) -> float:
        """Ps, m/s: the rate the aircraft gains energy height, V (F . v) / (m g |v|) with F the
        external force without gravity (thrust less drag, along the flight path)."""
        v = self.velocity_body_ms
        speed = float(np.linalg.norm(v))
        m = self.diag[L.D_MASS]
        if speed < 1.0 or m <= 0.0:
            return 0.0
        return float(np.dot(self.diag[L.D_FORCE:L.D_FORCE + 3], v)) / (m * 9.80665)

    @property
    def stores_released(self) -> np.ndarray:
        """Each store's share released: 1 released, 0 on (a missile row: its rounds launched; a copy, N_STORE_MAX slots)."""
        return self.state[L.S_STORE_GONE:L.S_STORE_GONE + L.N_STORE_MAX].copy()

    # guns
    @property
    def rounds_fired(self) -> np.ndarray:
        """Rounds each gun has fired since the start (a copy; fractional between rounds)."""
        return self.state[L.S_GUN_FIRED:L.S_GUN_FIRED + L.N_GUN_MAX].copy()

    def set_rounds_fired(self, rounds) -> None:
        """Set the belt counters: rounds fired by gun 0, 1, ... (as many as given, the others
        stay), a test's or a rearm's starting condition."""
        r = np.asarray(rounds, dtype=np.float64)
        if len(r) > L.N_GUN_MAX:
            raise ValueError(f"{len(r)} guns: at most {L.N_GUN_MAX}")
        self.state[L.S_GUN_FIRED:L.S_GUN_FIRED + len(r)] = r


# each section's relative wind in its own axes, as aero.section_airflow leaves it in the
# first rows of the kernels' scratch (the first array of scratch.make_scratch)
SECTION_AIRFLOW = ("chordwise_ms", "normal_ms", "spanwise_ms", "speed_squared_m2s2", "alpha_rad", "deflection_rad")


def section_airflow(scratch: np.ndarray, n_sections: int) -> dict:
    """{name: array over the sections} of the last derivative's section airflow (SECTION_AIRFLOW):
    the velocity components, V^2, the local angle of attack and the surface deflection, rad."""
    return {name: scratch[:n_sections, k].copy() for k, name in enumerate(SECTION_AIRFLOW)}


class AircraftView(Readouts):
    """Readouts over a state and diag pair that belong to no Sim (a physics thread's, an AI's).
    Without a diag only the state's readouts (position, attitude, rates, surfaces) work."""
    def __init__(self, state: np.ndarray, diag: np.ndarray | None = None, dt_s: float = 0.02):
        # no diag: the diagnostics' readouts fail where they index it
        self.state, self.diag, self.dt_s = state, cast(np.ndarray, diag), dt_s


class FleetReadouts:
    """Readouts of N aircraft at once, from (N, N_STATE) states and (N, >= N_DIAG) diags:
    each is an array with one value (or row) per aircraft. The scalar names are those of
    Readouts. Without diags (a run's states only) only the state's readouts work."""

    def __init__(self, states: np.ndarray, diags: np.ndarray | None = None, dt_s: float = 0.02):
        # no diags: the diagnostics' readouts fail where they index them
        self.state, self.diag, self.dt_s = states, cast(np.ndarray, diags), dt_s
        self._flight = np.zeros((len(states), len(FLIGHT_COLUMNS)))
        self._flight_views = {name: self._flight[:, k] for k, name in enumerate(FLIGHT_COLUMNS)}

    def flight(self) -> dict:
        """The usual readouts of every aircraft in one kernel call (physics.batch.read_many):
        {name: array over the aircraft} for the names of FLIGHT_COLUMNS (ias_kmh, roll_deg,
        heading_deg 0..360, vertical_speed_ms, failed ...). The arrays are views of one
        buffer that the next call overwrites."""
        read_many(self.state, self.diag, self._flight)
        return dict(self._flight_views)

    @property
    def flight_buffer(self) -> np.ndarray:
        """(N, len(FLIGHT_COLUMNS)): the buffer flight()'s arrays view, for a kernel that fills it
        itself (the gym's fused step)."""
        return self._flight

    @property
    def position_ned_m(self) -> np.ndarray:
        return self.state[:, L.S_POS:L.S_POS + 3]

    @property
    def altitude_m(self) -> np.ndarray:
        return -self.state[:, L.S_POS + 2]

    @property
    def quat_wxyz(self) -> np.ndarray:
        return self.state[:, L.S_QUAT:L.S_QUAT + 4]

    @property
    def euler_rad(self) -> np.ndarray:
        """(N, 3): roll, pitch, heading (-pi..pi), the Z-Y-X angles of physics.quat."""
        w, x, y, z = self.state[:, L.S_QUAT:L.S_QUAT + 4].T
        roll = np.arctan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
        pitch = np.arcsin(np.clip(2.0 * (w * y - z * x), -1.0, 1.0))
        heading = np.arctan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
        return np.stack((roll, pitch, heading), axis=1)

    @property
    def euler_deg(self) -> np.ndarray:
        return self.euler_rad * RAD2DEG

    def body_to_ned(self) -> np.ndarray:
        """(N, 3, 3) rotation matrices from body to NED axes."""
        w, x, y, z = self.state[:, L.S_QUAT:L.S_QUAT + 4].T
        R = np.empty((len(self.state), 3, 3))
        R[:, 0, 0] = 1 - 2 * (y * y + z * z)
        R[:, 0, 1] = 2 * (x * y - w * z)
        R[:, 0, 2] = 2 * (x * z + w * y)
        R[:, 1, 0] = 2 * (x * y + w * z)
        R[:, 1, 1] = 1 - 2 * (x * x + z * z)
        R[:, 1, 2] = 2 * (y * z - w * x)
        R[:, 2, 0] = 2 * (x * z - w * y)
        R[:, 2, 1] = 2 * (y * z + w * x)
        R[:, 2, 2] = 1 - 2 * (x * x + y * y)
        return R

    @property
    def velocity_ned_ms(self) -> np.ndarray:
        return np.einsum("nij,nj->ni", self.body_to_ned(), self.state[:, L.S_VEL:L.S_VEL + 3])

    @property
    def velocity_body_ms(self) -> np.ndarray:
        """(N, 3): (u, v, w) over the ground in body axes, m/s (a view)."""
        return self.state[:, L.S_VEL:L.S_VEL + 3]

    @property
    def body_rates_rads(self) -> np.ndarray:
        return self.state[:, L.S_OMEGA:L.S_OMEGA + 3]

    @property
    def stalled_sections(self) -> np.ndarray:
        return self.diag[:, L.D_STALLED_SECTIONS].astype(np.int64)

    @property
    def on_ground(self) -> np.ndarray:
        return self.diag[:, L.D_ON_GROUND] > 0

    @property
    def struck(self) -> np.ndarray:
        return self.state[:, L.S_STRIKE_INDEX] >= 0

    @property
    def nonfinite(self) -> np.ndarray:
        return self.diag[:, L.D_NONFINITE] != 0

    @property
    def refusal(self) -> list:
        """Why each aircraft's last step was refused (Readouts.refusal), "" where it was not."""
        return [REFUSALS.get(float(c), "") for c in self.diag[:, L.D_NONFINITE]]


for _cls in (FleetReadouts,):
    for _k, _v in list(vars(Readouts).items()):
        if isinstance(_v, _Slot):
            setattr(_cls, _k, _v)
