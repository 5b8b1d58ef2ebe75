"""DIS warfare PDUs (IEEE 1278.1-2012 s7.3, issue 36): Fire (type 2, 96 bytes) and Detonation
(type 3, 104 bytes, no variable parameters), and Collision (type 4, 60 bytes, entity
information family), with the standard library's ``struct`` as dis.py's Entity State.

How the game uses them (flightsim/world/net_combat.py): a gun that fired this tick sends one Fire
PDU (the firing entity, no target named, the muzzle's location and the rounds' velocity, the
munition descriptor's quantity the rounds and its rate the gun's, the fire mission index the gun's
number in the shooter's aircraft); the TARGET decides whether they hit (its own true position, its
own damage model) and says so to everyone with a Detonation PDU (result "entity impact", the
point in its body axes). A collision is said with a Collision PDU by each side that felt it.

Field layouts (the standard's order): Fire: header, firing entity id, target entity id, munition
entity id, event id, fire mission index (uint32), location (3 float64, ECEF), munition descriptor
(entity type 8 bytes, warhead uint16, fuse uint16, quantity uint16, rate uint16), velocity (3
float32, ECEF), range (float32). Detonation: header, firing, target and munition entity ids, event
id, velocity (3 float32), location (3 float64, ECEF), descriptor, location in the target's
entity coordinates (3 float32, body axes from its centre), result (uint8), number of variable
parameters (uint8), padding (uint16). Collision: header, issuing and colliding entity ids, event
id, collision type (uint8), padding, velocity (3 float32), mass (float32), location in the
issuing entity's coordinates (3 float32).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..world.geodesy import ecef_to_world, world_to_ecef
from .dis import HEADER, MAX_HEIGHT_M, MAX_SPEED_MS, PROTOCOL_DIS7, Refused

PDU_FIRE, PDU_DETONATION, PDU_COLLISION = 2, 3, 4
FAMILY_WARFARE, FAMILY_ENTITY_INFORMATION = 2, 1
RESULT_ENTITY_IMPACT = 1            # SISO-REF-010 detonation result (tshark's dis.detonation.result 1)
RESULT_PROXIMATE = 2                # "Entity proximate detonation" (tshark's 2): a missile's burst near it
RESULT_GROUND_IMPACT = 3
WARHEAD_KINETIC, WARHEAD_HE = 5000, 1000          # SISO-REF-010 warhead [K]
FUSE_CONTACT = 1000                               # [K]
ID = "HHH"
FIRE = struct.Struct(">" + ID * 4 + "I3d" + "BBHBBBB" + "HHHH" + "3f" + "f")
DETONATION = struct.Struct(">" + ID * 4 + "3f3d" + "BBHBBBB" + "HHHH" + "3fBBH")
COLLISION = struct.Struct(">" + ID * 3 + "BB3ff3f")
MAX_ROUNDS = 200                   # rounds one Fire PDU may carry (a gun fires a few a tick)
MAX_OFFSET_M = 100.0               # a detonation point farther than this from its target's centre is not on it


@dataclass(frozen=True)
class Fire:
    shooter: tuple                  # entity id (site, application, entity)
    event: int
    gun: int                        # the fire mission index: the gun's number in the shooter's aircraft
    position_ned_m: np.ndarray      # the muzzle
    velocity_ned_ms: np.ndarray     # the rounds' velocity over the ground as they leave
    rounds: int
    rate_per_min: int = 0
    munition: tuple = (2, 9, 0, 2, 0, 0, 0)       # a munition (entity_types.GUN_ROUNDS / MISSILES)
    he: bool = False
    target: tuple = (0, 0, 0)                     # a missile's target; (0, 0, 0): none named


@dataclass(frozen=True)
class Detonation:
    shooter: tuple
    target: tuple
    event: int
    position_ned_m: np.ndarray
    point_body_m: np.ndarray        # where on the target, its body axes from its centre of gravity
    result: int = RESULT_ENTITY_IMPACT
    rounds: int = 1                 # the descriptor's quantity: hits this PDU reports
    munition: tuple = (2, 9, 0, 2, 0, 0, 0)
    issuer: tuple = ()              # who says so (its event id's site and application): the target for
                                    # a gun's hit, the shooter for a missile's burst; () = the target


@dataclass(frozen=True)
class Collision:
    issuer: tuple
    other: tuple
    event: int
    velocity_ned_ms: np.ndarray     # the issuer's
    mass_kg: float


def _header(kind: int, family: int, exercise: int, stamp: int, size: int) -> bytes:
    return HEADER.pack(PROTOCOL_DIS7, exercise, kind, family, stamp, size, 0, 0)


def encode_fire(f: Fire, origin, exercise: int, stamp: int = 0) -> bytes:
    pos, ecef_from_ned = world_to_ecef(f.position_ned_m, origin)
    v = ecef_from_ned @ np.asarray(f.velocity_ned_ms, float)
    warhead = WARHEAD_HE if f.he else WARHEAD_KINETIC
    body = FIRE.pack(*f.shooter, *f.target, f.shooter[0], f.shooter[1], 0, f.shooter[0], f.shooter[1], f.event & 0xFFFF,
                     int(f.gun), *(float(x) for x in pos), *f.munition, warhead, FUSE_CONTACT,
                     min(int(f.rounds), 0xFFFF), min(int(f.rate_per_min), 0xFFFF), *(float(x) for x in v), 0.0)
    return _header(PDU_FIRE, FAMILY_WARFARE, exercise, stamp, HEADER.size + FIRE.size) + body


def encode_detonation(d: Detonation, origin, exercise: int, stamp: int = 0) -> bytes:
    pos, _ = world_to_ecef(d.position_ned_m, origin)
    by = d.issuer or d.target
    body = DETONATION.pack(*d.shooter, *d.target, d.shooter[0], d.shooter[1], 0, by[0], by[1], d.event & 0xFFFF,
                           0.0, 0.0, 0.0, *(float(x) for x in pos), *d.munition, WARHEAD_KINETIC, FUSE_CONTACT,
                           min(int(d.rounds), 0xFFFF), 0, *(float(x) for x in d.point_body_m), int(d.result), 0, 0)
    return _header(PDU_DETONATION, FAMILY_WARFARE, exercise, stamp, HEADER.size + DETONATION.size) + body


def encode_collision(c: Collision, origin, exercise: int, stamp: int = 0) -> bytes:
    _, ecef_from_ned = world_to_ecef(np.zeros(3), origin)
    v = ecef_from_ned @ np.asarray(c.velocity_ned_ms, float)
    body = COLLISION.pack(*c.issuer, *c.other, c.issuer[0], c.issuer[1], c.event & 0xFFFF, 0, 0,
                          *(float(x) for x in v), float(c.mass_kg), 0.0, 0.0, 0.0)
    return _header(PDU_COLLISION, FAMILY_ENTITY_INFORMATION, exercise, stamp, HEADER.size + COLLISION.size) + body


def _finite(*xs) -> None:
    for x in xs:
        if not np.all(np.isfinite(np.asarray(x, float))):
            raise Refused("a number that is not finite")


def _place(loc, origin) -> tuple:
    r = float(np.linalg.norm(loc))
    if not 6.30e6 < r < 6.40e6 + MAX_HEIGHT_M:
        raise Refused(f"a position {r / 1000.0:.0f} km from the Earth's centre")
    return ecef_to_world(loc, origin)


def decode_warfare(data: bytes, kind: int, origin):
    """A Fire, Detonation or Collision of one datagram whose header was read (dis.decode refused
    it as not an Entity State); Refused (why) for anything malformed or hostile."""
    size = {PDU_FIRE: FIRE.size, PDU_DETONATION: DETONATION.size, PDU_COLLISION: COLLISION.size}.get(kind)
    if size is None:
        raise Refused(f"PDU type {kind}, not one the game reads")
    if len(data) < HEADER.size + size:
        raise Refused(f"{len(data)} bytes: shorter than a PDU of type {kind} ({HEADER.size + size})")
    f = (FIRE if kind == PDU_FIRE else DETONATION if kind == PDU_DETONATION else COLLISION).unpack_from(data, HEADER.size)
    if kind == PDU_FIRE:
        if len(data) != HEADER.size + FIRE.size:
            raise Refused(f"a Fire PDU of {len(data)} bytes")
        loc, munition, (_, _, qty, rate), vel = np.array(f[13:16]), tuple(f[16:23]), f[23:27], np.array(f[27:30])
        _finite(loc, vel)
        if float(np.linalg.norm(vel)) > MAX_SPEED_MS:
            raise Refused(f"a round at {float(np.linalg.norm(vel)):.0f} m/s")
        if not 1 <= qty <= MAX_ROUNDS:
            raise Refused(f"{qty} rounds in one Fire PDU")
        ned, ecef_from_ned = _place(loc, origin)
        return Fire(tuple(f[0:3]), int(f[11]), int(f[12]), ned, ecef_from_ned.T @ vel, int(qty), int(rate), munition,
                    f[23] == WARHEAD_HE, tuple(f[3:6]))
    if kind == PDU_DETONATION:
        n_params = f[33]
        if len(data) != HEADER.size + DETONATION.size + 16 * n_params:
            raise Refused(f"{n_params} variable parameters do not fit {len(data)} bytes")
        loc, point = np.array(f[15:18]), np.array(f[29:32])
        _finite(loc, point)
        if not 0 <= f[27] <= MAX_ROUNDS:
            raise Refused(f"{f[27]} hits in one Detonation PDU")
        if float(np.linalg.norm(point)) > MAX_OFFSET_M:
            raise Refused(f"a hit {float(np.linalg.norm(point)):.0f} m from its target's centre")
        ned, _ = _place(loc, origin)
        return Detonation(tuple(f[0:3]), tuple(f[3:6]), int(f[11]), ned, point, int(f[32]), max(1, int(f[27])),
                          tuple(f[18:25]), (int(f[9]), int(f[10])))
    if len(data) != HEADER.size + COLLISION.size:
        raise Refused(f"a Collision PDU of {len(data)} bytes")
    vel, mass = np.array(f[11:14]), f[14]
    _finite(vel, [mass])
    if not 0.0 <= mass < 1.0e6 or float(np.linalg.norm(vel)) > MAX_SPEED_MS:
        raise Refused("a collision's speed or mass out of bounds")
    _, ecef_from_ned = world_to_ecef(np.zeros(3), origin)
    return Collision(tuple(f[0:3]), tuple(f[3:6]), int(f[8]), ecef_from_ned.T @ vel, float(mass))

