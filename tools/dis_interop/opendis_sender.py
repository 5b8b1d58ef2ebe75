"""An independent DIS sender, written only with the `opendis` package (Open-DIS's Python
implementation), none of flightsim's code: it flies one aircraft in a straight line and sends its
Entity State PDUs, so a flightsim player listening on the port sees it appear (issue 36's
interoperability check).

opendis 1.0 pins numpy below 2, which flightsim's own environment cannot take, so run it from a
separate virtual environment:

    python3 -m venv /tmp/odvenv && /tmp/odvenv/bin/pip install opendis==1.0
    /tmp/odvenv/bin/python tools/dis_interop/opendis_sender.py --port 3000 --seconds 20

It places the aircraft 3 km north of Lasham airfield (51.1875 N, 1.0325 W: flightsim's default
world origin) at 1,500 m, flying north at 150 m/s, as an F-15 (1.2.225.1.5.3.0), marking OPENDIS,
exercise 1, five updates a second (Open-DIS's own example sends one a second).
"""
import argparse
import math
import socket
import time
from io import BytesIO

from opendis.DataOutputStream import DataOutputStream
from opendis.dis7 import EntityStatePdu
from opendis.RangeCoordinates import GPS, deg2rad

LASHAM = (51.1875, -1.0325)
EARTH_M_PER_DEG = 111_200.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=3000)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--exercise", type=int, default=1)
    args = ap.parse_args()
    gps = GPS()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    pdu = EntityStatePdu()
    pdu.exerciseID = args.exercise
    # opendis 1.0's own defaults do not make a valid PDU: PduSuperclass.__init__ sets pduType and
    # protocolFamily to 0 over EntityStatePdu's class values and never computes the length, and
    # pduStatus, entityAppearance and capabilities default to values its serialize cannot write
    pdu.pduType, pdu.protocolFamily, pdu.length = 1, 1, 144
    pdu.pduStatus = 0
    pdu.entityAppearance = 0
    pdu.capabilities = 0
    pdu.entityID.siteID = 17
    pdu.entityID.applicationID = 23
    pdu.entityID.entityID = 42
    pdu.forceId = 2
    t = pdu.entityType
    t.entityKind, t.domain, t.country, t.category, t.subcategory, t.specific, t.extra = 1, 2, 225, 1, 5, 3, 0
    pdu.marking.characterSet = 1
    pdu.marking.setString("OPENDIS")
    pdu.deadReckoningParameters.deadReckoningAlgorithm = 2          # FPW
    speed = 150.0
    t0 = time.time()
    sent = 0
    while time.time() - t0 < args.seconds:
        el = time.time() - t0
        lat = LASHAM[0] + (3000.0 + speed * el) / EARTH_M_PER_DEG
        lon = LASHAM[1]
        x, y, z, psi, theta, phi = gps.llarpy2ecef(deg2rad(lat), deg2rad(lon), 1500.0, 0.0, 0.0, 0.0)
        pdu.entityLocation.x, pdu.entityLocation.y, pdu.entityLocation.z = x, y, z
        pdu.entityOrientation.psi, pdu.entityOrientation.theta, pdu.entityOrientation.phi = psi, theta, phi
        # north at 150 m/s in ECEF: the local north unit vector
        la, lo = deg2rad(lat), deg2rad(lon)
        north = (-math.sin(la) * math.cos(lo), -math.sin(la) * math.sin(lo), math.cos(la))
        v = pdu.entityLinearVelocity
        v.x, v.y, v.z = (speed * c for c in north)
        buf = BytesIO()
        pdu.serialize(DataOutputStream(buf))
        sock.sendto(buf.getvalue(), (args.host, args.port))
        sent += 1
        time.sleep(0.2)
    print(f"opendis sender: {sent} Entity State PDUs ({len(buf.getvalue())} bytes each) to {args.host}:{args.port}")


if __name__ == "__main__":
    main()
