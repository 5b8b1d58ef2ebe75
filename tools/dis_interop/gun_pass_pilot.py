"""A script pilot for the multiplayer demonstration (issue 36): it flies the window's aircraft
through a head-on gun pass at another DIS player, through the same controls the player's keys
write (flightsim.app.cli.main(pilot=...)), and fires when the other is in range and in the sight.

It learns where the other player is as any DIS tool would: from its Entity State PDUs, on a port
of its own that the other player also sends to (``--watch PORT``), dead-reckoned to now.

    python tools/dis_interop/gun_pass_pilot.py --watch 3413 -- --scenario fighter_air --aircraft p51d \\
        --multiplayer --dis-listen 3411 --dis-send 127.0.0.1:3412 --callsign BLUE1
    python run.py --headless-telemetry --scenario fighter_air --aircraft bf109 --seconds 60 --multiplayer \\
        --dis-listen 3412 --dis-send 127.0.0.1:3411,127.0.0.1:3413 --callsign RED7 --side red
"""
import argparse
import math
import socket
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from flightsim.app.cli import main  # noqa: E402
from flightsim.net.dead_reckoning import extrapolate  # noqa: E402
from flightsim.net.dis import Refused, decode  # noqa: E402
from flightsim.runtime.handoff import ControlInputs  # noqa: E402
from flightsim.world.geodesy import DEFAULT_ORIGIN  # noqa: E402

FIRE_RANGE_M = 800.0
FIRE_CONE_DEG = 0.3
BREAK_M = 200.0                  # nearer than this: pull up and away (no collision)
ROUND_MS = 990.0                 # the rounds' speed toward a head-on target (muzzle and closure), for the drop
TRIM = 0.06                      # the P-51D's trimmed elevator at its 450 km/h air start (HUD: TRIM +0.06)


class GunPass:
    def __init__(self, port: int):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", port))
        self.sock.setblocking(False)
        self.target = None              # (EntityState, arrival monotonic s)
        self.el_int = 0.0
        self.fired_ticks = 0

    def _read(self):
        while True:
            try:
                data, _ = self.sock.recvfrom(8192)
            except BlockingIOError:
                return
            try:
                self.target = (decode(data, DEFAULT_ORIGIN), time.monotonic())
            except Refused:
                pass

    def __call__(self, view):
        self._read()
        c = ControlInputs(throttle=0.75, prop_rpm=1.0, gear_up=1.0, pitch=TRIM)
        if self.target is None:
            return c
        es, t0 = self.target
        p_t, _ = extrapolate(es, time.monotonic() - t0)
        R = view.body_to_ned()
        rel = p_t - view.position_ned_m
        tof = float(np.linalg.norm(rel)) / ROUND_MS
        rel = rel - np.array([0.0, 0.0, 0.5 * 9.81 * tof * tof])      # aim above it by the rounds' drop
        los = R.T @ rel
        rng = float(np.linalg.norm(los))
        az = math.atan2(los[1], los[0])
        el = math.atan2(-los[2], los[0])
        level = float(np.clip(-2.0 * view.euler_rad[0], -1, 1))
        if los[0] < 0.0:                             # past: wings level, cruise on
            return c.replace(roll=level)
        if rng < BREAK_M:                            # about to pass: pull up over it
            return c.replace(pitch=0.5, roll=level)
        self.el_int = float(np.clip(self.el_int + el * 0.02, -0.2, 0.2))
        p_rate, q, r_rate = view.body_rates_rads
        pitch = float(np.clip(TRIM + 4.0 * el + 2.0 * self.el_int - 0.6 * q, -0.3, 0.3))
        bank_want = float(np.clip(2.0 * az, -0.35, 0.35))
        roll = float(np.clip(1.2 * (bank_want - view.euler_rad[0]) - 0.3 * p_rate, -0.4, 0.4))
        yaw = float(np.clip(4.0 * az - 0.3 * r_rate, -0.3, 0.3))
        fire = rng < FIRE_RANGE_M and math.degrees(math.hypot(az, el)) < FIRE_CONE_DEG
        self.fired_ticks += int(fire)
        return c.replace(pitch=pitch, roll=roll, yaw=yaw, fire=1.0 if fire else 0.0)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--watch", type=int, required=True, help="the port the other player also sends to")
    ap.add_argument("game", nargs=argparse.REMAINDER, help="-- then the game's own options")
    a = ap.parse_args()
    args = a.game[1:] if a.game[:1] == ["--"] else a.game
    pilot = GunPass(a.watch)
    rc = main(args, pilot=pilot)
    print(f"gun pass pilot: fired on {pilot.fired_ticks} ticks", flush=True)
    sys.exit(rc)
