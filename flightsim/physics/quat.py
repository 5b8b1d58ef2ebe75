"""Quaternion and small-vector helpers (scalar-first quaternions, q_ned_from_body)."""
import math

import numpy as np

from .jit import entry, kernel


def cross3(a, b) -> np.ndarray:
    """a x b of two 3-vectors, from Python: numpy's cross term for term (the same bits) without
    its general-shape handling, which cost 39 us a call against 2 (the AI's pursuit, the winch's
    hook and the guns' muzzles call it every tick)."""
    a0, a1, a2 = float(a[0]), float(a[1]), float(a[2])
    b0, b1, b2 = float(b[0]), float(b[1]), float(b[2])
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def dot3(a, b) -> float:
    """a . b of two 3-vectors summed left to right in Python floats: the same bits on every CPU
    (numpy's ``@`` and ``linalg.norm`` go to BLAS, whose kernels differ by CPU in the last bit, and
    a kept flight must replay bit for bit anywhere: tests/recording/test_regressions.py)."""
    return float(a[0]) * float(b[0]) + float(a[1]) * float(b[1]) + float(a[2]) * float(b[2])


def norm3(a) -> float:
    """|a| of a 3-vector (dot3's bits, then the correctly rounded square root)."""
    return math.sqrt(dot3(a, a))


def mat3_vec(m, v) -> np.ndarray:
    """m @ v for a 3x3 matrix and a 3-vector, row by row with dot3 (the same bits on every CPU)."""
    return np.array([dot3(m[0], v), dot3(m[1], v), dot3(m[2], v)])


@kernel
def dcm_from_quat(q, out):
    """Fill ``out`` (3x3) with the body->NED rotation matrix of q = (w, x, y, z)."""
    dcm_from_state(q, 0, out)


@kernel
def dcm_from_state(state, k, out):
    """dcm_from_quat for the quaternion stored at state[k:k+4] (no array view)."""
    w, x, y, z = state[k], state[k + 1], state[k + 2], state[k + 3]
    out[0, 0] = 1.0 - 2.0 * (y * y + z * z)
    out[0, 1] = 2.0 * (x * y - w * z)
    out[0, 2] = 2.0 * (x * z + w * y)
    out[1, 0] = 2.0 * (x * y + w * z)
    out[1, 1] = 1.0 - 2.0 * (x * x + z * z)
    out[1, 2] = 2.0 * (y * z - w * x)
    out[2, 0] = 2.0 * (x * z - w * y)
    out[2, 1] = 2.0 * (y * z + w * x)
    out[2, 2] = 1.0 - 2.0 * (x * x + y * y)


@entry
def quat_from_euler(roll_rad, pitch_rad, yaw_rad):
    """q_ned_from_body from 3-2-1 Euler angles (yaw, then pitch, then roll)."""
    cr, sr = math.cos(roll_rad * 0.5), math.sin(roll_rad * 0.5)
    cp, sp = math.cos(pitch_rad * 0.5), math.sin(pitch_rad * 0.5)
    cy, sy = math.cos(yaw_rad * 0.5), math.sin(yaw_rad * 0.5)
    q = np.empty(4)
    q[0] = cr * cp * cy + sr * sp * sy
    q[1] = sr * cp * cy - cr * sp * sy
    q[2] = cr * sp * cy + sr * cp * sy
    q[3] = cr * cp * sy - sr * sp * cy
    return q


@entry
def euler_from_quat(q):
    """(roll, pitch, yaw) in radians, 3-2-1 convention; for display and tests only."""
    w, x, y, z = q[0], q[1], q[2], q[3]
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    s = 2.0 * (w * y - z * x)
    if s > 1.0:
        s = 1.0
    elif s < -1.0:
        s = -1.0
    pitch = math.asin(s)
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return roll, pitch, yaw
