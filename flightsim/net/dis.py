"""Our aircraft as DIS (IEEE 1278.1-2012, DIS 7) Entity State PDUs (issue 36, first part: the codec
and the link; the game's multiplayer is still to come).

Written with the standard library's ``struct``, field by field in the standard's order (the PDU is
144 bytes with no variable parameters), not through ``opendis``: its only release (1.0) pins
numpy below 2.0, and installing it took this project's numpy from 2.4 to 1.26, whose missing
``numpy.trapezoid`` broke the validation (measured in a fresh clone, 28 Nov 2026).

``EntityState`` is one aircraft as the network sees it, in the flat world's terms (NED metres from
the scenario's origin, body-to-NED attitude, body rates); ``encode`` writes it as an Entity State
PDU in DIS's terms (ECEF position, velocity and acceleration, the body's Euler angles against
ECEF: flightsim/world/geodesy.py), ``decode`` reads one back, refusing anything that is not a
well-formed Entity State PDU of this exercise with a reason (malformed, truncated and hostile
datagrams: a wrong length, a NaN, a position off the Earth).

Appearance bits (SISO-REF-010): damage 3-4 (3 destroyed), smoke 5-6 (1 a plume rising), flaming
15, power plant on 22 and state 23 (1 deactivated) are the platforms' common bits, as Wireshark's
DIS dissector names them (read in tshark -G fields / values, Nov 2026); afterburner 16 and landing
gear extended 25 are the air platform's own, recalled, not read [K]. The entity type is passed in
(flightsim/net/entity_types.py).
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

import numpy as np

from ..world.geodesy import ecef_to_world, euler_zyx, matrix_zyx, world_to_ecef

PDU_ENTITY_STATE = 1
FAMILY_ENTITY_INFORMATION = 1
PROTOCOL_DIS7 = 7
HEADER = struct.Struct(">BBBBIHBB")        # version, exercise, type, family, timestamp, length, status, padding
# the Entity State PDU after its header (IEEE 1278.1-2012 s7.2.2): entity id (site, application,
# entity), force, number of variable parameters, entity type and alternative type (kind, domain,
# country, category, subcategory, specific, extra), linear velocity (3 float32, ECEF), location
# (3 float64, ECEF), orientation (psi, theta, phi float32), appearance (uint32), dead reckoning
# (algorithm, 15 bytes of parameters, linear acceleration 3 float32, angular velocity 3 float32,
# body axes), marking (character set, 11 characters), capabilities (uint32)
BODY = struct.Struct(">HHHBB" + "BBHBBBB" * 2 + "3f3d3fIB15s3f3fB11sI")
DRM_FPW, DRM_RVW = 2, 4                     # dead-reckoning algorithms: fixed-position world, rotating velocity world
APPEARANCE_BITS = {"destroyed": (3, 3), "smoke": (5, 1), "flaming": (15, 1), "afterburner": (16, 1),
                   "engine_on": (22, 1), "deactivated": (23, 1), "gear_down": (25, 1)}  # name: (first bit, value)
MAX_SPEED_MS = 3000.0                       # anything faster is not an aircraft (a hostile or broken sender)
# articulated parts (variable parameter records of type 0, 16 bytes: type, change indicator, the part
# it is attached to, parameter type = part class + metric, value float32, 4 bytes of padding). The
# classes and metrics are SISO-REF-010-2023's [UID 59, 58], as Open-DIS generates them from its XML
# (open-dis/opendis7-java ArticulatedPartsTypeClass; dis-rs enumerations): rudder 1024, left / right
# flap 1056 / 1088, left / right aileron 1120 / 1152, left / right elevator 1600 / 1632, landing gear
# 3072, speed brake 3136; metric position 1, azimuth 11, elevation 13 (angles in rad)
PART = struct.Struct(">BBHIf4x")
PART_CLASSES = {"rudder": 1024, "left_flap": 1056, "right_flap": 1088, "left_aileron": 1120, "right_aileron": 1152,
                "left_elevator": 1600, "right_elevator": 1632, "gear": 3072, "speed_brake": 3136}
METRIC_POSITION, METRIC_AZIMUTH, METRIC_ELEVATION = 1, 11, 13
PART_METRIC = {"rudder": METRIC_AZIMUTH, "gear": METRIC_POSITION, "speed_brake": METRIC_POSITION}
MAX_PARTS = 32                              # more articulated parts than this in one PDU: refused
MAX_HEIGHT_M = 100000.0


@dataclass
class EntityState:
    """One aircraft in the flat world's terms."""
    site: int
    application: int
    entity: int
    entity_type: tuple                       # SISO-REF-010: kind, domain, country, category, subcategory, specific, extra
    marking: str                             # the callsign, 11 characters at most
    position_ned_m: np.ndarray
    velocity_ned_ms: np.ndarray
    R: np.ndarray                            # body -> NED
    omega_body_rads: np.ndarray = field(default_factory=lambda: np.zeros(3))
    accel_ned_ms2: np.ndarray = field(default_factory=lambda: np.zeros(3))
    appearance: dict = field(default_factory=dict)      # APPEARANCE_BITS names -> bool
    force: int = 1                           # 1 friendly, 2 opposing, 3 neutral
    algorithm: int = DRM_RVW
    timestamp: int = 0                       # DIS's relative timestamp (its low bit 0)
    parts: dict = field(default_factory=dict)           # PART_CLASSES names -> angle (rad) or position

    @property
    def key(self) -> tuple:
        return self.site, self.application, self.entity


def _appearance_word(flags: dict) -> int:
    word = 0
    for name, on in flags.items():
        if on:
            bit, value = APPEARANCE_BITS[name]
            word |= value << bit
    return word


def _appearance_flags(word: int) -> dict:
    out = {}
    for name, (bit, value) in APPEARANCE_BITS.items():
        width = value.bit_length()
        out[name] = ((word >> bit) & ((1 << width) - 1)) == value
    return out


def dis_timestamp(t_s: float, absolute: bool = False) -> int:
    """DIS's timestamp: the units of 3600 s / 2^31 past the hour; low bit 0 relative (any clock),
    1 absolute (``t_s`` UTC seconds, the hosts' clocks synchronised, e.g. by NTP)."""
    return ((int((t_s % 3600.0) / 3600.0 * (2 ** 31 - 1)) << 1) & 0xFFFFFFFE) | (1 if absolute else 0)


def timestamp_seconds(stamp: int) -> tuple[float, bool]:
    """(seconds past the hour, absolute?) of a DIS timestamp."""
    return (stamp >> 1) / (2 ** 31 - 1) * 3600.0, bool(stamp & 1)


def encode(es: EntityState, origin, exercise: int = 1) -> bytes:
    """The Entity State PDU of ``es`` (its world placed on the Earth at ``origin``, lat/lon deg)."""
    pos, ecef_from_ned = world_to_ecef(es.position_ned_m, origin)
    v = ecef_from_ned @ np.asarray(es.velocity_ned_ms, float)
    psi, theta, phi = euler_zyx(ecef_from_ned @ np.asarray(es.R, float))
    a = ecef_from_ned @ np.asarray(es.accel_ned_ms2, float)
    w = np.asarray(es.omega_body_rads, float)
    marking = es.marking.encode("ascii", "replace")[:11].ljust(11, b"\0")
    parts = b"".join(PART.pack(0, 0, 0, PART_CLASSES[k] + PART_METRIC.get(k, METRIC_ELEVATION), float(v))
                     for k, v in es.parts.items() if k in PART_CLASSES)
    body = BODY.pack(es.site, es.application, es.entity, es.force, len(parts) // PART.size, *es.entity_type,
                     *es.entity_type,
                     *(float(x) for x in v), *(float(x) for x in pos), psi, theta, phi,
                     _appearance_word(es.appearance), es.algorithm, bytes(15), *(float(x) for x in a),
                     *(float(x) for x in w), 1, marking, 0) + parts
    return HEADER.pack(PROTOCOL_DIS7, exercise, PDU_ENTITY_STATE, FAMILY_ENTITY_INFORMATION, es.timestamp,
                       HEADER.size + len(body), 0, 0) + body


class Refused(ValueError):
    """A datagram that is not a usable Entity State PDU: the reason is the message."""


def decode(data: bytes, origin, exercise: int | None = None) -> EntityState:
    """The EntityState of one datagram, or Refused (why) for anything else."""
    if len(data) < HEADER.size:
        raise Refused(f"{len(data)} bytes: shorter than a PDU header")
    version, ex, kind, family, stamp, length, _, _ = HEADER.unpack_from(data)
    if kind != PDU_ENTITY_STATE:
        raise Refused(f"PDU type {kind}, not an Entity State PDU")
    if exercise is not None and ex != exercise:
        raise Refused(f"exercise {ex}, not ours ({exercise})")
    if length != len(data):
        raise Refused(f"the header says {length} bytes, the datagram has {len(data)}")
    if len(data) < HEADER.size + BODY.size:
        raise Refused(f"{len(data)} bytes: shorter than an Entity State PDU ({HEADER.size + BODY.size})")
    f = BODY.unpack_from(data, HEADER.size)
    site, app, ent, force, n_params = f[0:5]
    if len(data) != HEADER.size + BODY.size + 16 * n_params:
        raise Refused(f"{n_params} variable parameters do not fit {len(data)} bytes")
    if n_params > MAX_PARTS:
        raise Refused(f"{n_params} variable parameters")
    parts = _parts(data, HEADER.size + BODY.size, n_params)
    etype = tuple(f[5:12])
    vel, loc, (psi, theta, phi) = np.array(f[19:22]), np.array(f[22:25]), f[25:28]
    appearance, algorithm = f[28], f[29]
    acc, omega = np.array(f[31:34]), np.array(f[34:37])
    marking = f[38]
    numbers = np.concatenate([loc, vel, acc, omega, [psi, theta, phi]])
    if not np.all(np.isfinite(numbers)):
        raise Refused("a number that is not finite")
    radius = float(np.linalg.norm(loc))
    if not 6.30e6 < radius < 6.40e6 + MAX_HEIGHT_M:
        raise Refused(f"a position {radius / 1000.0:.0f} km from the Earth's centre")
    if float(np.linalg.norm(vel)) > MAX_SPEED_MS:
        raise Refused(f"a speed of {float(np.linalg.norm(vel)):.0f} m/s")
    ned, ecef_from_ned = ecef_to_world(loc, origin)
    ned_from_ecef = ecef_from_ned.T
    name = bytes(c & 0x7F for c in marking).split(b"\0", 1)[0].decode("ascii", "replace")
    return EntityState(site, app, ent, etype, name, ned, ned_from_ecef @ vel,
                       ned_from_ecef @ matrix_zyx(psi, theta, phi), omega, ned_from_ecef @ acc,
                       _appearance_flags(appearance), force, algorithm, stamp, parts)


def _parts(data: bytes, offset: int, n: int) -> dict:
    """The articulated parts we know among ``n`` variable parameter records (others: skipped);
    a value that is not finite refuses the PDU."""
    by_type = {c + PART_METRIC.get(k, METRIC_ELEVATION): k for k, c in PART_CLASSES.items()}
    out = {}
    for i in range(n):
        kind, _, _, ptype, value = PART.unpack_from(data, offset + i * PART.size)
        if kind != 0 or ptype not in by_type:
            continue
        if not math.isfinite(value) or abs(value) > 10.0:
            raise Refused(f"an articulated part's value {value}")
        out[by_type[ptype]] = float(value)
    return out


def angle_between(R1, R2) -> float:
    """The angle (rad) of the rotation taking attitude R1 to R2."""
    c = (float(np.trace(np.asarray(R1).T @ np.asarray(R2))) - 1.0) / 2.0
    return math.acos(max(-1.0, min(1.0, c)))
