"""The multiplayer benchmark (issue 36): N players' DIS sessions on loopback at once, their aircraft
flying S-turns, with the network impaired as ``tc netem`` would (delay, jitter, loss, reordering,
duplicates) and a hostile sender throwing malformed PDUs at everyone.

    python -m flightsim.bench --multiplayer [--players 16,32] [--seconds 30] [--json]

Every player is a real ``NetSession`` with its own UDP socket; what is simulated is the flying
(a kinematic path per aircraft: the truth each other player's dead reckoning is judged against) and
the clock (each tick advances a shared simulated clock, so the figures do not depend on how fast
this machine runs N players). The impairment is a userspace netem: each datagram a player sends is
held for ``delay`` +- ``jitter`` (normal), dropped with ``loss``, sent twice with ``duplicate``, and
sent at once with ``reorder`` (so it overtakes the ones held), like netem's own options; the
kernel's netem (sch_netem) is not available in this project's containers.

Measured per run: the position error of every remote aircraft against its truth (mean, 95th
percentile, max), each aircraft's Entity State rate and outbound bytes (all its peers), the CPU a
client's network side takes per simulated second (process time inside NetSession.tick), and the
hostile datagrams refused and whether any got through (a non-finite position, a crash).
"""
from __future__ import annotations

import heapq
import math
import socket
import struct
import time
from dataclasses import dataclass

import numpy as np

from ..physics.named import AircraftView
from ..physics.state import make_state
from .session import NetConfig, open_session

DT = 0.02
G0 = 9.80665


@dataclass(frozen=True)
class Impairment:
    delay_s: float = 0.0
    jitter_s: float = 0.0
    loss: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0

    @property
    def any(self) -> bool:
        return any((self.delay_s, self.jitter_s, self.loss, self.duplicate, self.reorder))

    def text(self) -> str:
        if not self.any:
            return "no impairment"
        return (f"delay {self.delay_s * 1000:.0f} ms, jitter {self.jitter_s * 1000:.0f} ms, loss {self.loss:.0%}, "
                f"duplicate {self.duplicate:.0%}, reorder {self.reorder:.0%}")


NETEM = Impairment(0.100, 0.030, 0.05, 0.02, 0.10)     # the 100 ms, 30 ms, 5 % loss, reordering, duplicates


class Wire:
    """The impaired network between the sessions, in simulated time (see the module)."""

    def __init__(self, imp: Impairment, seed: int = 36):
        self.imp = imp
        self.rng = np.random.default_rng(seed)
        self.queue: list = []
        self.n = 0
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.now = 0.0

    def tap(self, session) -> None:
        """The session's sends go through the wire."""
        sock = session.link.sock
        wire = self

        class Tapped:
            def __getattr__(self, name):
                return getattr(sock, name)

            def sendto(self, data, addr):
                wire.send(data, addr)
                return len(data)

        session.link.sock = Tapped()

    def send(self, data: bytes, addr) -> None:
        imp, r = self.imp, self.rng
        if imp.loss and r.random() < imp.loss:
            return
        copies = 2 if imp.duplicate and r.random() < imp.duplicate else 1
        for _ in range(copies):
            if imp.reorder and r.random() < imp.reorder:
                d = 0.0
            else:
                d = max(0.0, imp.delay_s + imp.jitter_s * float(r.standard_normal()))
            self.n += 1
            heapq.heappush(self.queue, (self.now + d, self.n, data, addr))

    def flush(self, now: float) -> None:
        self.now = now
        while self.queue and self.queue[0][0] <= now + 1e-9:
            _, _, data, addr = heapq.heappop(self.queue)
            self.sock.sendto(data, addr)

    def close(self) -> None:
        self.sock.close()


class Flyer:
    """Player i's aircraft, the truth: S-turns (bank +-60 deg on its own period, the turn rate
    g tan(bank) / V), a gentle climb and dive, its own speed, spread over a 12 km box; stepped
    with the clock so position, velocity, attitude and body rates agree."""

    def __init__(self, i: int, n: int):
        k = max(1, int(math.sqrt(n)))
        self.i = i
        self.v = 100.0 + 100.0 * ((i * 7) % n) / max(n - 1, 1)
        self.period = 20.0 + 3.0 * (i % 5)
        self.heading = 2 * math.pi * i / n
        self.pos = np.array([3000.0 * ((i % k) - k / 2), 3000.0 * ((i // k) - k / 2), -1500.0 - 100.0 * (i % 10)])
        self.state = make_state()
        self.R_prev = None

    def angles(self, t: float):
        bank = math.radians(60.0) * math.sin(2 * math.pi * t / self.period + self.i)
        gamma = math.radians(5.0) * math.sin(2 * math.pi * t / 30.0 + 0.5 * self.i)
        return bank, gamma

    def step(self, t: float, dt: float) -> None:
        """To time t (from t - dt): the heading and position by the midpoint rule."""
        if t > 0.0:
            b_mid, g_mid = self.angles(t - 0.5 * dt)
            psi_mid = self.heading + 0.5 * dt * G0 * math.tan(b_mid) / self.v
            self.pos = self.pos + dt * self.v * np.array([math.cos(g_mid) * math.cos(psi_mid),
                                                          math.cos(g_mid) * math.sin(psi_mid), -math.sin(g_mid)])
            self.heading += dt * G0 * math.tan(b_mid) / self.v
        bank, gamma = self.angles(t)
        a = AircraftView(self.state)
        a.tick = int(round(t / dt))                 # the flight's own clock
        a.set_position_ned(*self.pos)
        a.set_attitude(bank, gamma, self.heading)
        R = a.body_to_ned()
        vel = self.v * np.array([math.cos(gamma) * math.cos(self.heading), math.cos(gamma) * math.sin(self.heading),
                                 -math.sin(gamma)])
        a.set_velocity_body(*(R.T @ vel))
        omega = np.zeros(3)
        if self.R_prev is not None:
            D = self.R_prev.T @ R
            omega = np.array([D[2, 1] - D[1, 2], D[0, 2] - D[2, 0], D[1, 0] - D[0, 1]]) / (2 * dt)
        a.set_body_rates(*omega)
        self.R_prev = R


def hostile_datagrams(good: bytes) -> list:
    """Malformed, truncated and hostile variants of a good Entity State PDU."""
    out = [b"", b"\x07", good[:40], good[:143], good + b"\0" * 9, bytes(144)]
    nan = bytearray(good)
    nan[48:56] = struct.pack(">d", float("nan"))
    out.append(bytes(nan))
    inf = bytearray(good)
    inf[36:40] = struct.pack(">f", float("inf"))
    out.append(bytes(inf))
    huge = bytearray(good)
    huge[19] = 255                                 # 255 variable parameters claimed
    out.append(bytes(huge))
    length = bytearray(good)
    struct.pack_into(">H", length, 8, 60000)
    out.append(bytes(length))
    far = bytearray(good)
    struct.pack_into(">3d", far, 48, 1e12, 0.0, 0.0)
    out.append(bytes(far))
    fast = bytearray(good)
    struct.pack_into(">3f", fast, 36, 1e7, 0.0, 0.0)
    out.append(bytes(fast))
    spoof = bytearray(good)
    struct.pack_into(">HHH", spoof, 12, 1, int.from_bytes(good[14:16], "big"), 1)   # another's id, a wrong marking
    spoof[129:140] = b"IMPOSTOR\0\0\0"
    out.append(bytes(spoof))
    return out


def run(players: int, seconds: float = 30.0, imp: Impairment = Impairment(), hostile_per_s: float = 50.0,
        seed: int = 36) -> dict:
    """One run (see the module): the figures as a dict."""
    clock = [1000.0]
    sessions, ports = [], []
    for i in range(players):
        s = open_session(NetConfig.parse(0, "", f"P{i:02d}", 1, bind_host="127.0.0.1"), lambda: clock[0])
        s.utc = lambda: clock[0]                 # the absolute timestamps on the simulated clock too
        sessions.append(s)
        ports.append(s.link.port)
    wire = Wire(imp, seed)
    evil = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    by_key = {}
    try:
        for i, s in enumerate(sessions):
            by_key[s.key] = i
            s.link.peers = [("127.0.0.1", p) for j, p in enumerate(ports) if j != i]
            s.attach("p51d" if i % 2 else "bf109", (51.1875, -1.0325))
            wire.tap(s)
        flyers = [Flyer(i, players) for i in range(players)]
        cpu = np.zeros(players)
        errors = []
        crashed = 0
        n_ticks = int(round(seconds / DT))
        junk = None
        rng = np.random.default_rng(seed + 1)
        for k in range(n_ticks):
            t = k * DT
            clock[0] = 1000.0 + t
            wire.flush(clock[0])
            for f in flyers:
                f.step(t, DT)
            for i, s in enumerate(sessions):
                c0 = time.process_time()
                try:
                    s.tick(flyers[i].state, None)
                except Exception:
                    crashed += 1
                cpu[i] += time.process_time() - c0
            if junk is None and sessions[0].last is not None:
                from .dis import encode
                junk = hostile_datagrams(encode(sessions[0].last.es, sessions[0].link.origin, 1))
            if junk and hostile_per_s > 0 and rng.random() < hostile_per_s * DT:
                d = junk[int(rng.integers(len(junk)))]
                for p in ports:
                    evil.sendto(d, ("127.0.0.1", p))
            if t >= 2.0 + imp.delay_s:             # (everyone has joined)
                for i, s in enumerate(sessions):
                    for r in s.frame.remotes:
                        j = by_key.get(r.key)
                        if j is None or not np.all(np.isfinite(r.position_ned_m)):
                            continue
                        errors.append(float(np.linalg.norm(r.position_ned_m - flyers[j].pos)))
        err = np.array(errors) if errors else np.array([math.nan])
        seen = [len(s.frame.peers) for s in sessions]
        sent_es = [sum(s.send_reasons.values()) for s in sessions]
        return {
            "players": players, "seconds": seconds, "impairment": imp.text(),
            "remote_error_m": {"mean": round(float(np.mean(err)), 2), "p95": round(float(np.percentile(err, 95)), 2),
                               "max": round(float(np.max(err)), 2), "samples": len(errors)},
            "entity_state_per_s_per_aircraft": round(float(np.mean(sent_es)) / seconds, 2),
            "send_reasons": {k: sum(s.send_reasons.get(k, 0) for s in sessions) for k in
                             ("first", "position", "orientation", "heartbeat")},
            "outbound_kbit_s_per_aircraft": round(float(np.mean([s.bytes_sent for s in sessions])) * 8 / 1000 / seconds, 1),
            "inbound_kbit_s_per_client": round(float(np.mean([s.link.received for s in sessions])) * 144 * 8 / 1000
                                               / seconds, 1),
            "net_cpu_ms_per_s_per_client": round(1000.0 * float(np.mean(cpu)) / seconds, 2),
            "peers_seen_min": int(min(seen)), "peers_expected": players - 1,
            "hostile_refused_per_client": int(np.mean([sum(s.link.refused.values()) for s in sessions])),
            "crashes": crashed,
        }
    finally:
        for s in sessions:
            s.close()
        wire.close()
        evil.close()


def processes_run(n: int, seconds: float = 60.0, aircraft: str = "astir", base_port: int = 3500) -> dict:
    """N whole games at once, each its own ``run.py --headless-telemetry --multiplayer`` process
    flying ``seconds`` in real time, each sending to all the others on loopback: what a client
    saw (the most peers at once), its CPU (start-up included) and its bytes sent."""
    import json
    import resource
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    procs = []
    for i in range(n):
        peers = ",".join(f"127.0.0.1:{base_port + j}" for j in range(n) if j != i)
        procs.append(subprocess.Popen(
            [sys.executable, str(root / "run.py"), "--headless-telemetry", "--scenario", "airfield", "--aircraft",
             aircraft, "--seconds", str(seconds), "--json", "--multiplayer", "--dis-listen", str(base_port + i),
             "--dis-send", peers, "--callsign", f"P{i:02d}"], cwd=root, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True))
    outs = [p.communicate()[0] for p in procs]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    seen, refused, sent = [], [], []
    for o in outs:
        lines = [json.loads(x) for x in o.splitlines() if x.startswith("{")]
        seen.append(max((len(x.get("peers", [])) for x in lines), default=0))
        refused.append(lines[-1]["net"]["refused"] if lines else -1)
        sent.append(lines[-1]["net"]["bytes_sent"] if lines else 0)
    return {"processes": n, "seconds": seconds, "aircraft": aircraft, "wall_s": round(time.time() - t0, 1),
            "cpu_s_per_process": round(cpu / n, 2), "most_peers_seen_min": int(min(seen)), "peers_expected": n - 1,
            "refused_max": int(max(refused)), "bytes_sent_mean": int(sum(sent) / n)}


def load_bench(players=(16, 32), seconds: float = 30.0) -> list:
    out = []
    for n in players:
        out.append(run(n, seconds))
        out.append(run(n, seconds, NETEM))
    return out


def print_process_rows(rows) -> None:
    for r in rows:
        print(f"{r['processes']:3d} game processes, {r['seconds']:.0f} s each ({r['aircraft']}): every client saw at least "
              f"{r['most_peers_seen_min']} of {r['peers_expected']} others at once; CPU {r['cpu_s_per_process']} s per "
              f"process (start-up included); {r['bytes_sent_mean'] / 1000:.0f} kB sent each; refused at most "
              f"{r['refused_max']}; wall {r['wall_s']} s")


def print_rows(rows) -> None:
    for r in rows:
        e = r["remote_error_m"]
        print(f"{r['players']:3d} players, {r['impairment']}: remote error mean {e['mean']} m, p95 {e['p95']} m, "
              f"max {e['max']} m; {r['entity_state_per_s_per_aircraft']} ES/s per aircraft "
              f"({r['outbound_kbit_s_per_aircraft']} kbit/s out to {r['players'] - 1} peers); network CPU "
              f"{r['net_cpu_ms_per_s_per_client']} ms per s per client; saw {r['peers_seen_min']}/{r['peers_expected']} "
              f"peers; hostile refused {r['hostile_refused_per_client']} per client, crashes {r['crashes']}")
