"""[flight_control]: a fly-by-wire law between the stick and the surfaces (physics/fcs.py).

Validated here, compiled into the law's row (layout FC_*). The law's gains are bandwidths;
the control power each axis has per pascal of dynamic pressure (``M_delta``: the moment a
full-travel command makes) comes from the aircraft's own sections, so the law scales itself
to the airframe it flies: the lift each control section gains per radian of deflection at
zero incidence (its table's +/-10 degree curves), lowered by its group's induced angle
(lifting line), times its area and its arm about the axis.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics import layout as L
from .schema import DataError, Field, between, num, validate_table

FLIGHT_CONTROL_KEYS = {
    "g_max": num(False, 9.0, between(2.0, 12.0)),             # full aft stick asks for this
    "g_min": num(False, -3.0, between(-6.0, 0.0)),            # full forward stick
    "g_max_rolling": num(False, None, between(1.5, 12.0)),    # the positive limit at the full roll rate
    "alpha_max_deg": num(False, 30.0, between(5.0, 60.0)),    # the law does not pull past it
    "pitch_rate_max_deg_s": num(False, 25.0, between(2.0, 90.0)),
    "roll_rate_max_deg_s": num(False, 180.0, between(10.0, 400.0)),
    "pitch_bandwidth_per_s": num(False, 4.0, between(0.5, 20.0)),
    "pitch_integral_per_s2": num(False, 4.0, between(0.0, 50.0)),
    "roll_bandwidth_per_s": num(False, 6.0, between(0.5, 30.0)),
    "yaw_bandwidth_per_s": num(False, 2.0, between(0.2, 10.0)),
    "g_limiter_gain": num(False, 2.0, between(0.0, 20.0)),    # pitch rate taken off per g past the limit (x g/V)
    "alpha_limiter_gain_per_s": num(False, 3.0, between(0.0, 20.0)),
    "g_onset_per_s": num(False, 8.0, between(0.5, 50.0)),     # the demand's onset-rate limit
    "min_dynamic_pressure_pa": num(False, 2000.0, between(100.0, 50000.0)),   # the gains stop growing below it
    # hydraulic actuators: surface rate (deg/s) and first-order lag
    "pitch_actuator_rate_deg_s": num(False, 40.0, between(5.0, 200.0)),
    "roll_actuator_rate_deg_s": num(False, 60.0, between(5.0, 200.0)),
    "yaw_actuator_rate_deg_s": num(False, 60.0, between(5.0, 200.0)),
    "actuator_time_constant_s": num(False, 0.05, between(0.005, 0.5)),
    "notes": Field("str", required=False, default=""),
}


def load_flight_control(data: dict, path) -> dict | None:
    if "flight_control" not in data:
        return None
    fc = validate_table(data["flight_control"], FLIGHT_CONTROL_KEYS, path, "flight_control")
    if fc["g_max_rolling"] is None:
        fc["g_max_rolling"] = 0.8 * fc["g_max"]    # the usual asymmetric limit: 80 % of the symmetric one
    if fc["g_max_rolling"] > fc["g_max"]:
        raise DataError(path, "flight_control.g_max_rolling", f"must not exceed g_max ({fc['g_max']})")
    return fc


AXES = ((0, "pitch", 1), (1, "roll", 0), (2, "yaw", 2))     # (command axis, name, body moment axis)


def control_power(model, secs, tables, names, cg):
    """Per axis (pitch, roll, yaw): the moment (N m) a full-travel command makes per pascal of
    dynamic pressure at zero incidence, and the largest travel (rad) of a surface on that axis."""
    grid_zero = int(round(-L.TABLE_ALPHA_MIN_DEG / L.TABLE_STEP_DEG))
    row_sec = int(model[0, L.H_ROW_SECTION])
    power = np.zeros(3)
    travel = np.zeros(3)
    for k, s in enumerate(secs):
        row = row_sec + k
        t = int(model[row, L.SEC_TABLE])
        dcl = (tables[t, L.T_CL + 2, grid_zero] - tables[t, L.T_CL + 0, grid_zero]) / math.radians(20.0)
        slope = max(tables[t, L.T_SLOPE, grid_zero], 1e-6)
        g = int(model[row, L.SEC_GROUP])
        k_ind = model[L.ROW_GROUPS, g * L.G_COLS + L.G_K_INDUCED] if g != L.GROUP_BODY else 0.0
        area = model[row, L.SEC_AREA]
        arm = np.cross(s.pos - cg, s.normal)
        for a, _, body in AXES:
            gain = model[row, L.SEC_GAIN + a]
            if gain == 0.0:
                continue
            power[a] += abs(area * dcl * gain * arm[body]) / (1.0 + slope * k_ind)
            travel[a] = max(travel[a], abs(gain))
    return power, travel


def roll_damping(model, secs, tables, cg) -> float:
    """The sections' roll damping: sum of area x lift slope (lowered by the group's induced angle) x the
    square of the section's arm for a roll ((r x n)_x); the rolling moment per unit roll rate is
    qbar / V times it (strip theory: a roll rate p adds p (r x n)_x / V to a section's angle of attack)."""
    grid_zero = int(round(-L.TABLE_ALPHA_MIN_DEG / L.TABLE_STEP_DEG))
    row_sec = int(model[0, L.H_ROW_SECTION])
    total = 0.0
    for k, s in enumerate(secs):
        row = row_sec + k
        g = int(model[row, L.SEC_GROUP])
        if g == L.GROUP_BODY:
            continue
        slope = max(tables[int(model[row, L.SEC_TABLE]), L.T_SLOPE, grid_zero], 0.0)
        k_ind = model[L.ROW_GROUPS, g * L.G_COLS + L.G_K_INDUCED]
        arm = np.cross(s.pos - cg, s.normal)[0]
        total += model[row, L.SEC_AREA] * slope / (1.0 + slope * k_ind) * arm * arm
    return total


def lift_area(model) -> float:
    """S CLmax at low speed: the area-weighted maximum lift of the wing's and the body's horizontal
    sections (their tables' SEC_CLMAX), m2."""
    row_sec = int(model[0, L.H_ROW_SECTION])
    sec = model[row_sec:row_sec + int(model[0, L.H_N_SECTIONS])]
    lifting = np.isin(sec[:, L.SEC_GROUP], (L.GROUP_WING, L.GROUP_BODY)) & (np.abs(sec[:, L.SEC_NORMAL + 2]) > 0.7)
    return float(np.sum(sec[lifting, L.SEC_AREA] * sec[lifting, L.SEC_CLMAX]))


def compile_flight_control(spec, model, secs, tables, names):
    """Append the law's row (H_ROW_FCS) and set the actuators' rates (ROW_CONTROLS)."""
    fc = spec.flight_control
    if fc is None:
        return model
    cg = model[L.ROW_MASS, L.M_CG:L.M_CG + 3]
    power, travel = control_power(model, secs, tables, names, cg)
    for a, name, _ in AXES:
        if power[a] <= 0.0:
            raise DataError(spec.path, "flight_control", f"no surface moves on the {name} axis for the law to fly")
    row = np.zeros(L.MODEL_COLS)
    row[L.FC_G_MAX] = fc["g_max"]
    row[L.FC_G_MIN] = fc["g_min"]
    row[L.FC_G_ROLLING] = fc["g_max_rolling"]
    row[L.FC_ALPHA_MAX] = math.radians(fc["alpha_max_deg"])
    row[L.FC_PITCH_RATE] = math.radians(fc["pitch_rate_max_deg_s"])
    row[L.FC_ROLL_RATE] = math.radians(fc["roll_rate_max_deg_s"])
    row[L.FC_PITCH_BW] = fc["pitch_bandwidth_per_s"]
    row[L.FC_PITCH_INT] = fc["pitch_integral_per_s2"]
    row[L.FC_ROLL_BW] = fc["roll_bandwidth_per_s"]
    row[L.FC_YAW_BW] = fc["yaw_bandwidth_per_s"]
    row[L.FC_M_PITCH], row[L.FC_M_ROLL], row[L.FC_M_YAW] = power
    row[L.FC_Q_MIN] = fc["min_dynamic_pressure_pa"]
    row[L.FC_ALPHA_GAIN] = fc["alpha_limiter_gain_per_s"]
    row[L.FC_G_GAIN] = fc["g_limiter_gain"]
    row[L.FC_ROLL_DAMP] = roll_damping(model, secs, tables, cg)
    row[L.FC_LIFT_AREA] = lift_area(model)
    row[L.FC_G_ONSET] = fc["g_onset_per_s"]
    model = np.vstack([model, row])
    model[0, L.H_ROW_FCS] = model.shape[0] - 1
    for a, name, _ in AXES:
        c = a * L.CTL_COLS
        model[L.ROW_CONTROLS, c + L.CTL_TAU] = fc["actuator_time_constant_s"]
        model[L.ROW_CONTROLS, c + L.CTL_RATE] = math.radians(fc[f"{name}_actuator_rate_deg_s"]) / travel[a]
    return model
