"""The flight-control law of a fly-by-wire fighter (issue 19, seed 002's G limiter as a control law).

Seed 002 scales the player's input down when the turn it asks for would pass the g limit.
Here the law flies the real surfaces instead: the stick is a demand, the law moves the
stabilator, the roll surfaces and the rudders so the aircraft does what is demanded, and the
aerodynamics decide what it can do.

* **Pitch**: stick -> demanded load factor, ``1 + s (n_max - 1)`` aft and ``1 - s (1 - n_min)``
  forward, so full aft stick asks for the limit (+9 g) at any speed and neutral stick holds
  1 g. The limit is blended down toward the rolling limit as the roll rate (or roll demand)
  grows. The demand becomes a pitch-rate demand through the steady-turn relation
  ``q = g (n - cos(theta) cos(phi)) / V`` plus a correction from the measured load factor;
  it is capped at a largest pitch rate (at low speed the stick is a pitch-rate command). The
  load factor's error, integrated, makes up what the steady relation misses (the angle of
  attack's own rate as the speed bleeds off in a hard turn).
  The demand follows the stick at an onset-rate limit (g per second), so the angle of attack
  builds with it instead of overshooting. Protections: the load factor past the limit (the
  measured one, plus what the pitch rate beyond a steady turn's is still building), and the
  angle of attack past its limit, take pitch rate off. Above the corner speed the limit therefore holds the g; below
  it the angle-of-attack limit does and the aircraft is lift-limited.
* **Roll**: lateral stick -> roll rate about the velocity vector (stability axis), with a
  feed-forward of the surface that balances the sections' roll damping at that rate.
* **On the wheels** (the ground mode) the stick moves the surfaces, the rotation held to 6 deg/s.
* **Yaw**: the pedals move the rudders directly; the law adds the yaw rate a coordinated turn
  needs and drives the sideslip to zero (turn coordination, yaw damping).

Each loop is a rate loop whose gain is the axis's inertia over the control power it has at
this dynamic pressure (``I / (qbar M_delta)``: surface per unit angular acceleration), so the
same bandwidth holds from the approach to Mach 2 (gain scheduling with dynamic pressure);
an integrator in surface units learns the trim (pitch, roll) and the sideslip's. Sensors are
the aircraft's own: body rates, the air data and the accelerometer (the load factor of the
last step's derivative, kept in the state).
"""
import math

from .jit import kernel
from .layout import (
    C_PITCH, C_PITCH_TRIM, C_ROLL, C_ROLL_TRIM, C_YAW, C_YAW_TRIM, FC_ALPHA_GAIN, FC_ALPHA_MAX,
    FC_G_GAIN, FC_G_MAX, FC_G_MIN, FC_G_ROLLING, FC_M_PITCH, FC_M_ROLL, FC_M_YAW, FC_PITCH_BW,
    FC_PITCH_INT, FC_PITCH_RATE, FC_Q_MIN, FC_ROLL_BW, FC_ROLL_RATE, FC_YAW_BW, H_ROW_FCS, M_INERTIA,
    ROW_MASS, S_FCS_PITCH, S_FCS_ROLL, S_FCS_YAW, S_HAS_PREV, S_OMEGA, S_PREV, S_VEL, FC_G_ONSET, FC_ROLL_DAMP, S_FCS_G,
    S_FCS_G_INT,
)

V_MIN = 30.0            # m/s: the laws' speed terms are held at this below it (taxiing, take-off roll)
INT_LIMIT = 1.0         # the integrators' range, surface travel
G_FEEDBACK = 1.0        # share of the load-factor error added to the pitch-rate demand
G_INT_RATE = 1.0        # its integral's rate, 1/s
G_INT_LIMIT = 2.0       # ... and range, g
ALPHA_MARGIN = 0.035    # rad: the integral stops this short of the angle-of-attack limit
G_LEAD = 0.5            # share of the excess pitch rate's load factor the limiter anticipates
ROLL_DEADBAND = 0.17    # rad/s (10 deg/s): a turn's own roll rate does not count as rolling
GROUND_PITCH_RATE = 0.1  # rad/s (6 deg/s): the rotation on the wheels is held to this
ROLL_STICK_CENTRE = 0.05  # the roll integrator runs only with the lateral stick within this of centre


@kernel
def load_factor(state, R, g):
    """The accelerometer: load factor along -z body from the last step's derivative (before the
    first step: the 1 g of level flight, cos(theta) cos(phi)).

    Slots read: state S_HAS_PREV, S_OMEGA, S_PREV, S_VEL.
    Slots written: none.
    """
    if state[S_HAS_PREV] < 0.5:
        return R[2, 2]
    p = state[S_OMEGA]
    q = state[S_OMEGA + 1]
    fz = state[S_PREV + S_VEL + 2] - g * R[2, 2] + (p * state[S_VEL + 1] - q * state[S_VEL])
    return -fz / g


@kernel
def g_limits(model, ctrl, p):
    """(positive limit in force, negative limit): the positive one blended toward the rolling
    limit with the roll (the larger of the roll stick's share of full and the roll rate's, past a
    10 deg/s deadband)."""
    f = int(model[0, H_ROW_FCS])
    roll = abs(ctrl[C_ROLL])
    pr = (abs(p) - ROLL_DEADBAND) / (model[f, FC_ROLL_RATE] - ROLL_DEADBAND)
    if pr > roll:
        roll = pr
    if roll > 1.0:
        roll = 1.0
    hi = model[f, FC_G_MAX] - roll * (model[f, FC_G_MAX] - model[f, FC_G_ROLLING])
    return hi, model[f, FC_G_MIN]


@kernel
def demanded_g(model, ctrl, p):
    """The load factor the stick asks for, and the positive limit in force."""
    hi, lo = g_limits(model, ctrl, p)
    s = ctrl[C_PITCH]
    s = -1.0 if s < -1.0 else (1.0 if s > 1.0 else s)
    if s >= 0.0:
        return 1.0 + s * (hi - 1.0), hi
    return 1.0 + s * (1.0 - lo), hi


@kernel
def _clamp(x, lo, hi):
    return lo if x < lo else (hi if x > hi else x)


@kernel
def ground_pitch(state, ctrl, model, qbar):
    """The pitch surface on the wheels (the law's ground mode): where the stick puts it, less what
    holds the rotation to GROUND_PITCH_RATE (a pilot yanking the stick back at rotation speed
    lifts the nose at that rate instead of scraping the tail).

    Slots read: state S_OMEGA.
    Slots written: none.
    """
    f = int(model[0, H_ROW_FCS])
    target = ctrl[C_PITCH] + ctrl[C_PITCH_TRIM]
    q = state[S_OMEGA + 1]
    if q > GROUND_PITCH_RATE:
        qb = qbar if qbar > model[f, FC_Q_MIN] else model[f, FC_Q_MIN]
        k_p = model[ROW_MASS, M_INERTIA + 4] / (qb * model[f, FC_M_PITCH])
        target -= k_p * model[f, FC_PITCH_BW] * (q - GROUND_PITCH_RATE)
    return target


@kernel
def fcs_targets(state, ctrl, model, R, ax, ay, az, qbar, g, dt):
    """Surface targets (pitch, roll, yaw, each -1..1 of travel) from the law, its integrators
    moved one step; also returns the demanded g and the limit in force.

    Slots read: state S_FCS_G, S_FCS_G_INT, S_FCS_PITCH, S_FCS_ROLL, S_FCS_YAW, S_OMEGA.
    Slots written: state S_FCS_G, S_FCS_G_INT, S_FCS_PITCH, S_FCS_ROLL, S_FCS_YAW.

    Long: the control law's pitch, roll and yaw channels with their integrators, which read each
    other's state. One numba kernel, kept whole: a split changes which code numba inlines and so the
    last bits of the kept regression flights (physics/jit.py).
    """
    f = int(model[0, H_ROW_FCS])
    tas = math.sqrt(ax * ax + ay * ay + az * az)
    v = tas if tas > V_MIN else V_MIN
    qb = qbar if qbar > model[f, FC_Q_MIN] else model[f, FC_Q_MIN]
    p = state[S_OMEGA]
    q = state[S_OMEGA + 1]
    r = state[S_OMEGA + 2]
    alpha = math.atan2(az, ax) if tas > 1.0 else 0.0
    beta = math.asin(_clamp(ay / tas, -1.0, 1.0)) if tas > 1.0 else 0.0
    ca = math.cos(alpha)
    sa = math.sin(alpha)
    # --- pitch: demanded g -> pitch rate -> stabilator
    n_stick, n_hi = demanded_g(model, ctrl, p)
    # the demand follows the stick at the onset-rate limit (kept as n - 1: a fresh state asks for 1 g)
    n_cmd = 1.0 + state[S_FCS_G]
    step = model[f, FC_G_ONSET] * dt
    n_cmd = n_stick if abs(n_stick - n_cmd) <= step else (n_cmd + step if n_stick > n_cmd else n_cmd - step)
    state[S_FCS_G] = n_cmd - 1.0
    n_lo = model[f, FC_G_MIN]
    nz = load_factor(state, R, g)
    gi = state[S_FCS_G_INT]
    q_cmd = g * (n_cmd - R[2, 2] + G_FEEDBACK * (n_cmd - nz) + gi) / v
    q_max = model[f, FC_PITCH_RATE]
    limited = abs(q_cmd) > q_max
    q_cmd = _clamp(q_cmd, -q_max, q_max)
    # the limiter acts on where the load factor is going: the pitch rate beyond the one that holds the
    # present load factor is still building angle of attack (its load factor, q V / g, comes on next)
    n_pred = nz + G_LEAD * (q - g * (nz - R[2, 2]) / v) * v / g
    if n_pred > n_hi:
        q_cmd -= model[f, FC_G_GAIN] * g * (n_pred - n_hi) / v
    elif n_pred < n_lo:
        q_cmd += model[f, FC_G_GAIN] * g * (n_lo - n_pred) / v
    a_max = model[f, FC_ALPHA_MAX]
    # the load factor's error integrated (the steady-turn relation leaves the angle of attack's own
    # rate out), not while a limit holds the aircraft back
    err_n = n_cmd - nz
    if not (limited or (err_n > 0.0 and (alpha > a_max - ALPHA_MARGIN or nz > n_hi))
            or (err_n < 0.0 and nz < n_lo)):
        gi = _clamp(gi + G_INT_RATE * err_n * dt, -G_INT_LIMIT, G_INT_LIMIT)
    state[S_FCS_G_INT] = gi
    if alpha > a_max:
        q_cmd -= model[f, FC_ALPHA_GAIN] * (alpha - a_max)
    elif alpha < -0.5 * a_max:
        q_cmd += model[f, FC_ALPHA_GAIN] * (-0.5 * a_max - alpha)
    k_p = model[ROW_MASS, M_INERTIA + 4] / (qb * model[f, FC_M_PITCH])
    e = q_cmd - q
    pitch_i = _clamp(state[S_FCS_PITCH] + k_p * model[f, FC_PITCH_INT] * e * dt, -INT_LIMIT, INT_LIMIT)
    pitch = ctrl[C_PITCH_TRIM] + pitch_i + k_p * model[f, FC_PITCH_BW] * e
    # anti-windup: the integrator does not run on past the surface's stop
    if (pitch > 1.0 and e > 0.0) or (pitch < -1.0 and e < 0.0):
        pitch_i = state[S_FCS_PITCH]
    state[S_FCS_PITCH] = pitch_i
    # --- roll: roll rate about the velocity vector
    p_cmd = _clamp(ctrl[C_ROLL], -1.0, 1.0) * model[f, FC_ROLL_RATE]
    p_s = p * ca + r * sa
    k_r = model[ROW_MASS, M_INERTIA] / (qb * model[f, FC_M_ROLL])
    bw_r = model[f, FC_ROLL_BW]
    e = p_cmd - p_s
    # the integrator learns the aircraft's own rolling moment (an asymmetry) only with the stick centred
    # and the roll nearly stopped, and holds while the pilot rolls: it does not wind up on a roll (or
    # on stopping one) and carry it on afterwards
    roll_i = state[S_FCS_ROLL]
    if abs(ctrl[C_ROLL]) < ROLL_STICK_CENTRE and abs(e) < ROLL_DEADBAND:
        roll_i = _clamp(roll_i + k_r * 0.25 * bw_r * bw_r * e * dt, -INT_LIMIT, INT_LIMIT)
    # feed-forward: the surface whose moment balances the roll damping at the demanded rate (the
    # sections' damping qbar / V x FC_ROLL_DAMP per unit rate against qbar x FC_M_ROLL per unit surface)
    ff = p_cmd * model[f, FC_ROLL_DAMP] / (v * model[f, FC_M_ROLL])
    roll = ctrl[C_ROLL_TRIM] + roll_i + ff + k_r * bw_r * e
    if (roll > 1.0 and e > 0.0) or (roll < -1.0 and e < 0.0):
        roll_i = state[S_FCS_ROLL]
    state[S_FCS_ROLL] = roll_i
    # --- yaw: the coordinated turn's yaw rate, sideslip to zero, pedals direct
    bw_y = model[f, FC_YAW_BW]
    r_s = r * ca - p * sa
    r_cmd = g * R[2, 1] / v + bw_y * beta
    k_y = model[ROW_MASS, M_INERTIA + 8] / (qb * model[f, FC_M_YAW])
    e = r_cmd - r_s
    yaw_i = _clamp(state[S_FCS_YAW] + k_y * 0.25 * bw_y * bw_y * beta * dt, -INT_LIMIT, INT_LIMIT)
    state[S_FCS_YAW] = yaw_i
    yaw = ctrl[C_YAW] + ctrl[C_YAW_TRIM] + yaw_i + k_y * bw_y * e
    return pitch, roll, yaw, n_cmd, n_hi
