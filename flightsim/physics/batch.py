"""Many aircraft of one type stepped in one kernel call, on every core.

    steps_done = step_many(states, ctrls, envs, terrain, model, tables, diags, n_steps, status, runs)

``states`` (N, N_STATE), ``ctrls`` (N, N_CTRL), ``envs`` (N, env length: each aircraft its own
weather and terrain origin), ``diags`` (N, diag_size(model): diagnostics and each aircraft's
scratch memory), ``runs``: how many runs of neighbouring aircraft to share out (numba's
threads, numba.get_num_threads(), passed in by the caller: read inside, it kept the kernel out
of numba's cache). Each aircraft takes ``n_steps`` steps with its controls held;
``status[i]`` becomes 1 if its step was refused (non-finite, or its diag row shorter than
diag_size) and it then stops.

The aircraft are shared out over numba's threads (``prange``), each thread a run of
neighbouring aircraft. A step of one aircraft reads and writes only its own rows, with one
exception: an aircraft with fuel, rounds or stores sums its mass, CG and inertia again into the
model at each derivative (plant_mass.resum_mass) and reads them from there. So each thread
flies its aircraft on a copy of the model of its own (32 KB for the P-51D, one copy per thread
per call): on the shared one, two P-51Ds on two threads read each other's mass, and the results
changed from run to run in the last bits (found Nov 2026, flightsim/Dogfight-v0). This is what
flightsim.gym's vector environment calls once per env step.
"""
from __future__ import annotations

import math

from numba import prange

from .dynamics import step_in_diag
from .jit import entry, exact_kernel, kernel, parallel_entry
from .layout import (D_ALPHA, D_BETA, D_HEIGHT_AGL, D_IAS, D_NONFINITE, D_NZ, D_ON_GROUND, D_STALLED_SECTIONS,
                     D_TAS, S_OMEGA, S_POS, S_QUAT, S_STRIKE_INDEX, S_VEL)
from .quat import dcm_from_state


@kernel
def _step_row(i, states, ctrls, envs, terrain, model, tables, diags, n_steps, status):
    """Aircraft i's n_steps: its rows' views made here, where no references are counted (in the
    parallel loop each view would count its array's references twice, atomically), and its
    scratch memory the tail of its diag row (step_in_diag; a row shorter than diag_size is
    refused as a failed step)."""
    status[i] = 0
    for _ in range(n_steps):
        if step_in_diag(states[i], ctrls[i], envs[i], terrain, model, tables, diags[i]) != 0:
            status[i] = 1
            break


@parallel_entry
def step_many(states, ctrls, envs, terrain, model, tables, diags, n_steps, status, runs):
    n = states.shape[0]
    runs = max(1, min(n, runs))
    for c in prange(runs):
        own = model.copy()                  # this thread's model (see the module's docstring)
        for i in range(c * n // runs, (c + 1) * n // runs):
            _step_row(i, states, ctrls, envs, terrain, own, tables, diags, n_steps, status)
    return n


# the columns read_many writes, one row per aircraft (FleetReadouts.flight names them)
FLIGHT_COLUMNS = ("ias_kmh", "tas_kmh", "roll_deg", "pitch_deg", "heading_deg", "roll_rate_dps",
                  "pitch_rate_dps", "yaw_rate_dps", "alpha_deg", "beta_deg", "nz_g", "north_m", "east_m",
                  "altitude_m", "velocity_north_ms", "velocity_east_ms", "vertical_speed_ms", "height_agl_m",
                  "failed")


@entry
def read_many(states, diags, out):
    """The FLIGHT_COLUMNS of every aircraft into out (N, len(FLIGHT_COLUMNS)): what a
    script or an environment reads each step, in one call instead of a numpy pass per
    value. ``failed``: 1 when a part other than the gear struck the ground or the last
    step was non-finite."""
    for i in range(states.shape[0]):
        read_row(states[i], diags[i], out[i])


@exact_kernel
def read_row(s, d, out):
    """One aircraft's FLIGHT_COLUMNS into out (read_many's row; the gym's fused step calls it too)."""
    r2d = 180.0 / math.pi
    w, x, y, z = s[S_QUAT], s[S_QUAT + 1], s[S_QUAT + 2], s[S_QUAT + 3]
    out[0] = d[D_IAS] * 3.6
    out[1] = d[D_TAS] * 3.6
    out[2] = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y)) * r2d
    sp = 2.0 * (w * y - z * x)
    out[3] = math.asin(min(1.0, max(-1.0, sp))) * r2d
    out[4] = (math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z)) * r2d) % 360.0
    out[5] = s[S_OMEGA] * r2d
    out[6] = s[S_OMEGA + 1] * r2d
    out[7] = s[S_OMEGA + 2] * r2d
    out[8] = d[D_ALPHA] * r2d
    out[9] = d[D_BETA] * r2d
    out[10] = d[D_NZ]
    out[11] = s[S_POS]
    out[12] = s[S_POS + 1]
    out[13] = -s[S_POS + 2]
    u, v, ww = s[S_VEL], s[S_VEL + 1], s[S_VEL + 2]
    out[14] = (1 - 2 * (y * y + z * z)) * u + 2 * (x * y - w * z) * v + 2 * (x * z + w * y) * ww
    out[15] = 2 * (x * y + w * z) * u + (1 - 2 * (x * x + z * z)) * v + 2 * (y * z - w * x) * ww
    out[16] = -(2 * (x * z - w * y) * u + 2 * (y * z + w * x) * v + (1 - 2 * (x * x + y * y)) * ww)
    out[17] = d[D_HEIGHT_AGL]
    out[18] = 1.0 if (s[S_STRIKE_INDEX] >= 0 or d[D_NONFINITE] != 0) else 0.0


# the columns read_pilot_row writes: what a pilot reads each tick (named.AircraftView.pilot_reads,
# in SI units), for compiled pilots (flightsim/pilots/ai_kernel.py) that index it by these names
PILOT_COLUMNS = ("north_m", "east_m", "down_m", "velocity_north_ms", "velocity_east_ms", "velocity_down_ms",
                 "p_rads", "q_rads", "r_rads", "ias_ms", "tas_ms", "alpha_rad", "beta_rad", "nz_g", "height_agl_m",
                 "on_ground", "stalled_sections")


@exact_kernel
def read_pilot_row(s, d, R, out):
    """One aircraft's PILOT_COLUMNS into out and its body-to-NED rotation into R (3, 3): the numbers
    of AircraftView.pilot_reads (the velocity NED is R times the body velocity, summed left to right;
    ``on_ground`` 1 with a gear leg in contact)."""
    dcm_from_state(s, S_QUAT, R)
    u, v, w = s[S_VEL], s[S_VEL + 1], s[S_VEL + 2]
    out[0] = s[S_POS]
    out[1] = s[S_POS + 1]
    out[2] = s[S_POS + 2]
    out[3] = R[0, 0] * u + R[0, 1] * v + R[0, 2] * w
    out[4] = R[1, 0] * u + R[1, 1] * v + R[1, 2] * w
    out[5] = R[2, 0] * u + R[2, 1] * v + R[2, 2] * w
    out[6] = s[S_OMEGA]
    out[7] = s[S_OMEGA + 1]
    out[8] = s[S_OMEGA + 2]
    out[9] = d[D_IAS]
    out[10] = d[D_TAS]
    out[11] = d[D_ALPHA]
    out[12] = d[D_BETA]
    out[13] = d[D_NZ]
    out[14] = d[D_HEIGHT_AGL]
    out[15] = 1.0 if d[D_ON_GROUND] > 0 else 0.0
    out[16] = d[D_STALLED_SECTIONS]
