"""Making state, control and environment vectors (plain numpy, no Python objects in kernels)."""
import numpy as np

from . import layout as L
from .quat import quat_from_euler

DT = 0.02
G0 = 9.80665


def make_state(position_ned_m=(0.0, 0.0, 0.0), velocity_body_ms=(0.0, 0.0, 0.0),
               roll_rad=0.0, pitch_rad=0.0, yaw_rad=0.0, omega_body_rads=(0.0, 0.0, 0.0)) -> np.ndarray:
    s = np.zeros(L.N_STATE)
    s[L.S_POS:L.S_POS + 3] = position_ned_m
    s[L.S_VEL:L.S_VEL + 3] = velocity_body_ms
    s[L.S_QUAT:L.S_QUAT + 4] = quat_from_euler(roll_rad, pitch_rad, yaw_rad)
    s[L.S_OMEGA:L.S_OMEGA + 3] = omega_body_rads
    s[L.S_STRIKE_INDEX] = -1.0
    return s


def make_ctrl(**kw) -> np.ndarray:
    """A control vector from keyword commands by name (physics.named.CONTROLS: pitch, roll,
    yaw, airbrake, flap, brakes, throttle, trims, gear_up, the powerplant's prop_rpm (default 1:
    maximum rpm), wep, blower, feather, cutoff, starter, fire)."""
    from .named import control_array
    return control_array(**kw)


def settle_surfaces(state: np.ndarray, ctrl: np.ndarray) -> np.ndarray:
    """Put the control surfaces and actuators where ``ctrl`` holds them at rest and low
    speed (the pitch surface at stick + trim), as if they had been there all along."""
    state[L.S_SURF + L.SURF_PITCH] = min(max(ctrl[L.C_PITCH] + ctrl[L.C_PITCH_TRIM], -1.0), 1.0)
    state[L.S_SURF + L.SURF_ROLL] = min(max(ctrl[L.C_ROLL] + ctrl[L.C_ROLL_TRIM], -1.0), 1.0)
    state[L.S_SURF + L.SURF_YAW] = min(max(ctrl[L.C_YAW] + ctrl[L.C_YAW_TRIM], -1.0), 1.0)
    state[L.S_SURF + L.SURF_FLAP] = ctrl[L.C_FLAP]
    state[L.S_SURF + L.SURF_AIRBRAKE] = ctrl[L.C_AIRBRAKE]
    state[L.S_SURF + L.SURF_GEAR] = ctrl[L.C_GEAR_UP]
    return state


def adopt_trim(state: np.ndarray, trimmed: np.ndarray) -> np.ndarray:
    """Take the surface positions and the powerplant's states (engine, propeller, fuel) of a
    trimmed state into ``state``, leaving its position, attitude and velocity."""
    state[L.S_SURF:L.S_SURF + L.N_SURF] = trimmed[L.S_SURF:L.S_SURF + L.N_SURF]
    state[L.S_ENGINE:] = trimmed[L.S_ENGINE:]
    return state


def pin_to_roll_axis(state: np.ndarray, held: np.ndarray) -> np.ndarray:
    """A roll rig (a wind-tunnel sting): after a step, put the airflow, position, pitch and
    yaw rates back to those of ``held`` and forget their derivatives, leaving only the
    rotation about the body x axis free (and the attitude it has turned through)."""
    state[L.S_VEL:L.S_VEL + 3] = held[L.S_VEL:L.S_VEL + 3]
    state[L.S_POS:L.S_POS + 3] = held[L.S_POS:L.S_POS + 3]
    state[L.S_OMEGA + 1] = 0.0
    state[L.S_OMEGA + 2] = 0.0
    state[L.S_PREV + L.S_VEL:L.S_PREV + L.S_VEL + 3] = 0.0
    state[L.S_PREV + L.S_OMEGA + 1:L.S_PREV + L.S_OMEGA + 3] = 0.0
    return state


def make_env(wind_ned_ms=(0.0, 0.0, 0.0), thermals=(), terrain_origin_ne_m=(0.0, 0.0),
             terrain_spacing_m=1.0, gravity=G0, dt=DT) -> np.ndarray:
    """Environment vector: steady wind (velocity of the air, NED), thermals as
    (north_m, east_m, radius_m, updraft_ms[, cloud_base_m, ground_m]), heightfield
    placement, gravity, dt. A thermal without a ground height is taken as rising from
    far below (no fade-in near the ground)."""
    e = np.zeros(L.N_ENV_BASE + L.N_THERMAL * len(thermals))
    e[L.E_WIND_N:L.E_WIND_N + 3] = wind_ned_ms
    e[L.E_TERRAIN_N0], e[L.E_TERRAIN_E0] = terrain_origin_ne_m
    e[L.E_TERRAIN_DX] = terrain_spacing_m
    e[L.E_GRAVITY] = gravity
    e[L.E_DT] = dt
    e[L.E_THERMAL_COUNT] = len(thermals)
    for k, th in enumerate(thermals):
        b = L.E_THERMALS + k * L.N_THERMAL
        e[b:b + 4] = th[:4]
        e[b + 4] = th[4] if len(th) > 4 else 0.0
        e[b + 5] = th[5] if len(th) > 5 else -1.0e6
    return e


def flat_terrain(height_m: float = 0.0) -> np.ndarray:
    return np.full((1, 1), float(height_m))
