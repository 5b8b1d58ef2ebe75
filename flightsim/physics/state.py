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
    """A control vector from keyword commands: pitch, roll, yaw, airbrake, flap, brake_left,
    brake_right, throttle, pitch_trim, gear_up."""
    names = {"pitch": L.C_PITCH, "roll": L.C_ROLL, "yaw": L.C_YAW, "airbrake": L.C_AIRBRAKE,
             "flap": L.C_FLAP, "brake_left": L.C_BRAKE_L, "brake_right": L.C_BRAKE_R,
             "throttle": L.C_THROTTLE, "pitch_trim": L.C_PITCH_TRIM, "gear_up": L.C_GEAR_UP}
    c = np.zeros(L.N_CTRL)
    for k, v in kw.items():
        if k not in names:
            raise KeyError(f"unknown control {k!r} (known: {', '.join(names)})")
        c[names[k]] = v
    return c


def make_env(wind_ned_ms=(0.0, 0.0, 0.0), thermals=(), terrain_origin_ne_m=(0.0, 0.0),
             terrain_spacing_m=1.0, gravity=G0, dt=DT) -> np.ndarray:
    """Environment vector: steady wind (velocity of the air, NED), thermals as
    (north_m, east_m, radius_m, updraft_ms), heightfield placement, gravity, dt."""
    e = np.zeros(L.N_ENV_BASE + L.N_THERMAL * len(thermals))
    e[L.E_WIND_N:L.E_WIND_N + 3] = wind_ned_ms
    e[L.E_TERRAIN_N0], e[L.E_TERRAIN_E0] = terrain_origin_ne_m
    e[L.E_TERRAIN_DX] = terrain_spacing_m
    e[L.E_GRAVITY] = gravity
    e[L.E_DT] = dt
    e[L.E_THERMAL_COUNT] = len(thermals)
    for k, th in enumerate(thermals):
        b = L.E_THERMALS + k * L.N_THERMAL
        e[b:b + 4] = th
    return e


def flat_terrain(height_m: float = 0.0) -> np.ndarray:
    return np.full((1, 1), float(height_m))
