"""The DIS codec and dead reckoning (issue 36, first part): an aircraft goes out as an Entity State
PDU with every field where IEEE 1278.1 puts it, comes back the same, bad datagrams are refused with
a reason, and a remote aircraft is dead-reckoned and smoothed without jumps."""
import math
import struct

import numpy as np
import pytest

from flightsim.net.dead_reckoning import HEARTBEAT_S, SMOOTH_S, Smoother, extrapolate, must_send
from flightsim.net.dis import DRM_FPW, DRM_RVW, EntityState, Refused, angle_between, decode, encode
from flightsim.physics.quat import quat_from_euler
from flightsim.runtime.handoff import dcm

ORIGIN = (51.1875, -1.0325)
F15 = (1, 2, 225, 1, 5, 3, 0)          # an entity type (the per-aircraft table is still to come)


def _state(pos=(10000.0, -20000.0, -5000.0), vel=(180.0, -120.0, 5.0), euler=(0.5, 0.17, 4.36), **kw):
    R = dcm(quat_from_euler(*euler))
    base = dict(site=7, application=3, entity=42, entity_type=F15, marking="EAGLE01", position_ned_m=np.array(pos),
                velocity_ned_ms=np.array(vel), R=R, omega_body_rads=np.array([0.1, 0.02, 0.05]),
                accel_ned_ms2=np.array([0.0, 12.0, 0.0]), appearance={"afterburner": True, "gear_down": False,
                                                                      "engine_on": True}, force=2)
    base.update(kw)
    return EntityState(**base)


def test_an_aircraft_goes_out_and_comes_back_the_same():
    es = _state()
    data = encode(es, ORIGIN, exercise=5)
    assert len(data) == 144 and struct.unpack_from(">H", data, 8)[0] == 144          # DIS 7's fixed size
    back = decode(data, ORIGIN, exercise=5)
    assert back.key == (7, 3, 42) and back.entity_type == F15 and back.marking == "EAGLE01" and back.force == 2
    assert np.linalg.norm(back.position_ned_m - es.position_ned_m) < 0.01
    assert np.linalg.norm(back.velocity_ned_ms - es.velocity_ned_ms) < 0.01
    assert angle_between(back.R, es.R) < 1e-5
    assert np.linalg.norm(back.omega_body_rads - es.omega_body_rads) < 1e-6
    assert np.linalg.norm(back.accel_ned_ms2 - es.accel_ned_ms2) < 1e-4
    assert back.appearance["afterburner"] and back.appearance["engine_on"] and not back.appearance["gear_down"]
    assert not back.appearance["destroyed"] and back.algorithm == DRM_RVW
    from flightsim.net.dis import dis_timestamp
    assert dis_timestamp(1800.0) & 1 == 0 and dis_timestamp(1800.0) >> 1 == pytest.approx(2 ** 30, abs=2)
    assert dis_timestamp(3600.0 + 5.0) == dis_timestamp(5.0)           # relative to the hour


def test_the_bytes_are_where_the_standard_puts_them():
    """Read at IEEE 1278.1-2012's offsets (not through our decode): the header, the entity id, the
    type, ECEF velocity and location (the flat world's point on the WGS84 ellipsoid), the
    appearance word, the dead-reckoning algorithm and the ASCII marking."""
    from flightsim.world.geodesy import ecef_to_geodetic, ned_to_latlon
    es = _state()
    d = encode(es, ORIGIN, exercise=5)
    assert struct.unpack_from(">BBBBIH", d, 0)[:4] == (7, 5, 1, 1) and struct.unpack_from(">H", d, 8)[0] == 144
    assert struct.unpack_from(">HHHB", d, 12) == (7, 3, 42, 2)
    assert struct.unpack_from(">BBHBBBB", d, 20) == F15
    lat, lon, alt = ecef_to_geodetic(struct.unpack_from(">3d", d, 48))
    want_lat, want_lon = ned_to_latlon(es.position_ned_m[0], es.position_ned_m[1], ORIGIN)
    assert lat == pytest.approx(float(want_lat), abs=1e-9) and lon == pytest.approx(float(want_lon), abs=1e-9)
    assert alt == pytest.approx(5000.0, abs=1e-3)
    assert np.linalg.norm(struct.unpack_from(">3f", d, 36)) == pytest.approx(np.linalg.norm(es.velocity_ned_ms), rel=1e-6)
    word = struct.unpack_from(">I", d, 84)[0]
    assert word == (1 << 16) | (1 << 22)                       # afterburner, engine on
    assert d[88] == 4 and d[128] == 1 and d[129:136] == b"EAGLE01" and d[136:140] == bytes(4)


@pytest.mark.parametrize("damage,why", [
    (lambda d: d[:100], "the header says 144 bytes"),
    (lambda d: d[:6], "shorter than a PDU header"),
    (lambda d: d[:2] + b"\x02" + d[3:], "PDU type 2"),
    (lambda d: d[:1] + b"\x09" + d[2:], "exercise 9"),
    (lambda d: d[:48] + struct.pack(">d", math.nan) + d[56:], "not finite"),
    (lambda d: d[:48] + struct.pack(">ddd", 0.0, 0.0, 0.0) + d[72:], "from the Earth's centre"),
    (lambda d: d[:36] + struct.pack(">f", 1e9) + d[40:], "a speed of"),
    (lambda d: bytes(range(144)), "PDU type"),
])
def test_bad_datagrams_are_refused_with_a_reason(damage, why):
    data = encode(_state(), ORIGIN, exercise=1)
    with pytest.raises(Refused) as e:
        decode(damage(data), ORIGIN, exercise=1)
    assert why in str(e.value) and "\n" not in str(e.value)


def _turn(t, v=200.0, rate=math.radians(3.0)):
    """A level turn at ``rate``: (position, velocity, acceleration, body->NED)."""
    r = v / rate
    hdg = rate * t
    pos = np.array([r * math.sin(hdg), r * (1 - math.cos(hdg)), -5000.0])
    vel = v * np.array([math.cos(hdg), math.sin(hdg), 0.0])
    acc = v * rate * np.array([-math.sin(hdg), math.cos(hdg), 0.0])
    return pos, vel, acc, dcm(quat_from_euler(0.0, 0.0, hdg))


def test_rotating_velocity_world_reckoning_follows_a_turn_better_than_fixed_position():
    pos, vel, acc, R = _turn(0.0)
    rvw = _state(pos=pos, vel=vel, accel_ned_ms2=acc, omega_body_rads=np.array([0.0, 0.0, math.radians(3.0)]))
    rvw.R = R
    fpw = _state(pos=pos, vel=vel, algorithm=DRM_FPW)
    fpw.R = R
    truth, _, _, R2 = _turn(2.0)
    p_r, R_r = extrapolate(rvw, 2.0)
    p_f, _ = extrapolate(fpw, 2.0)
    assert np.linalg.norm(p_r - truth) < 1.0 < 10.0 < np.linalg.norm(p_f - truth)     # (0.73 m and 21 m)
    assert angle_between(R_r, R2) < 1e-6


def test_a_sender_sends_past_the_thresholds_or_the_heartbeat():
    pos, vel, acc, R = _turn(0.0)
    sent = _state(pos=pos, vel=vel, algorithm=DRM_FPW)
    sent.R = R
    assert must_send(*_turn(0.3)[::3], sent, 0.3) == ""             # 0.3 s into a 3 deg/s turn: 0.5 m off
    assert must_send(*_turn(2.0)[::3], sent, 2.0) in ("position", "orientation")
    straight = _state(pos=pos, vel=vel, algorithm=DRM_FPW)
    straight.R = R
    assert must_send(pos + vel * HEARTBEAT_S, R, straight, HEARTBEAT_S) == "heartbeat"


def test_a_correction_is_blended_in_without_a_jump():
    s = Smoother()
    a = _state(pos=(0.0, 0.0, -5000.0), vel=(200.0, 0.0, 0.0), algorithm=DRM_FPW)
    s.update(a, 0.0)
    before, _ = s.pose(1.0)
    b = _state(pos=(200.0, 30.0, -5000.0), vel=(200.0, 0.0, 0.0), algorithm=DRM_FPW)     # 30 m off to the right
    b.R = a.R
    s.update(b, 1.0)
    after, _ = s.pose(1.0)
    assert np.linalg.norm(after - before) < 1e-6                     # no jump at the update
    steps = [s.pose(1.0 + k * 0.02)[0][1] for k in range(int(SMOOTH_S / 0.02) + 2)]
    assert max(abs(np.diff(steps))) < 30.0 * 0.02 / SMOOTH_S * 1.5   # the 30 m spread over the smoothing time
    assert steps[-1] == pytest.approx(30.0)


def test_two_links_see_each_other_and_drop_what_is_not_an_aircraft():
    """Two links on the loopback: each one's aircraft joins the other's list, is smoothed between
    updates, and leaves after the time-out; garbage, another exercise's PDUs and an echo of one's
    own entity are dropped and counted, and never stop the link."""
    import socket

    from flightsim.net.link import TIMEOUT_S, DisLink
    a = DisLink(0, origin=ORIGIN, exercise=3)
    b = DisLink(0, peers=[("127.0.0.1", a.port)], origin=ORIGIN, exercise=3)
    a.peers = [("127.0.0.1", b.port)]
    try:
        mine, theirs = _state(entity=1, marking="BLUE1"), _state(entity=2, marking="RED1")
        a.send(mine)
        b.send(theirs)
        raw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for junk in (b"hello", bytes(144), encode(_state(entity=9), ORIGIN, exercise=4), encode(mine, ORIGIN, 3)):
            raw.sendto(junk, ("127.0.0.1", a.port))
        raw.close()
        import time
        time.sleep(0.05)
        ev_a, ev_b = a.poll(1.0), b.poll(1.0)
        assert [e[:3] for e in ev_a] == [(1.0, "joined", "RED1")] and [e[:3] for e in ev_b] == [(1.0, "joined", "BLUE1")]
        assert ev_a[0][3] == theirs.entity_type
        assert list(a.remotes) == [theirs.key]
        assert sum(a.refused.values()) == 4 and a.refused["our own entity"] == 1
        p, _ = a.remotes[theirs.key].smoother.pose(2.0)
        assert np.linalg.norm(p - (theirs.position_ned_m + theirs.velocity_ned_ms + 0.5 * theirs.accel_ned_ms2)) < 0.01
        assert [e[:3] for e in a.poll(1.0 + TIMEOUT_S + 0.1)] == [(1.0 + TIMEOUT_S + 0.1, "left", "RED1")]
        assert not a.remotes
    finally:
        a.close()
        b.close()
